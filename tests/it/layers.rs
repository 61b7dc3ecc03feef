//! The layers of `src` (README "Layout"; `src/lib.rs`): `types` ← `db` ← `model` ← `forms` ←
//! `api` / `web`, with `http` (what the edges share) below the edges. Each module may import only
//! what lies below it. This check reads every source file as Rust tokens (so comments and
//! strings never count) and resolves every `crate::…`, `super::…` and `self::…` path — in `use`
//! lines, in code, in macros and attributes — to the top-level module it reaches.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// What a layer may import.
struct Rule {
    /// The top-level module (`src/<layer>`).
    layer: &'static str,
    /// When set, the only top-level modules it may reach.
    only: Option<&'static [&'static str]>,
    /// Top-level modules it must not reach.
    never: &'static [&'static str],
}

const RULES: &[Rule] = &[
    Rule { layer: "types", only: Some(&["types"]), never: &[] },
    // `db::migrate` also creates the job queue's tables, whose schema the job library owns.
    Rule { layer: "db", only: Some(&["db", "types", "jobs"]), never: &[] },
    // Mail renders and stores mails; the model queues them inside its own transactions.
    Rule { layer: "mail", only: Some(&["mail", "db", "types", "error", "clock", "config", "i18n"]), never: &[] },
    Rule { layer: "model", only: Some(&["model", "db", "types", "error", "clock", "config", "mail"]), never: &[] },
    Rule { layer: "http", only: None, never: &["forms", "api", "web", "auth", "account", "admin"] },
    Rule { layer: "forms", only: None, never: &["api", "web"] },
    Rule { layer: "api", only: None, never: &["web"] },
    Rule { layer: "web", only: None, never: &["api"] },
];

/// One import that breaks a rule.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    file: String,
    path: String,
    reaches: String,
}

/// The module path of a source file: `src/db/entities/world.rs` → `db::entities::world`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The top-level modules each path in `tokens` reaches, with the path as written.
fn reached(tokens: TokenStream, module: &[String], out: &mut Vec<(String, String)>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            // An inline module: `super` inside it starts from the module itself.
            TokenTree::Ident(kw) if kw == "mod" => {
                if let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                    && body.delimiter() == Delimiter::Brace
                {
                    let mut inner = module.to_vec();
                    inner.push(name.to_string());
                    reached(body.stream(), &inner, out);
                    i += 3;
                    continue;
                }
            }
            TokenTree::Ident(start) if ["crate", "super", "self"].contains(&start.to_string().as_str()) => {
                if let Some(consumed) = path_at(&tokens[i..], module, out) {
                    i += consumed;
                    continue;
                }
            }
            TokenTree::Group(group) => reached(group.stream(), module, out),
            _ => {}
        }
        i += 1;
    }
}

/// Whether `tokens` starts with `::`.
fn is_path_sep(tokens: &[TokenTree]) -> bool {
    matches!((tokens.first(), tokens.get(1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
}

/// Resolves the path starting at `tokens[0]` (`crate`, `super` or `self`); returns how many
/// tokens it spans, or `None` when this is no path (e.g. `self.field`).
fn path_at(tokens: &[TokenTree], module: &[String], out: &mut Vec<(String, String)>) -> Option<usize> {
    let mut base: Vec<String> = Vec::new();
    let mut written = String::new();
    let mut i = 0;
    let mut first = true;
    // The leading `crate`, `self` and `super` segments.
    while let Some(TokenTree::Ident(segment)) = tokens.get(i) {
        let segment = segment.to_string();
        match (first, segment.as_str()) {
            (true, "crate") => base.clear(),
            (true, "self") => base = module.to_vec(),
            (true, "super") => {
                base = module.to_vec();
                base.pop()?;
            }
            (false, "super") => {
                base.pop()?;
            }
            _ => break,
        }
        first = false;
        written.push_str(&segment);
        if !is_path_sep(&tokens[i + 1..]) {
            return None;
        }
        written.push_str("::");
        i += 3;
    }
    let mut record = |name: String, written: String| {
        let top = base.first().cloned().unwrap_or(name);
        out.push((top, written));
    };
    match tokens.get(i) {
        Some(TokenTree::Ident(name)) => {
            let mut written = format!("{written}{name}");
            if is_path_sep(&tokens[i + 1..])
                && let Some(TokenTree::Ident(next)) = tokens.get(i + 3)
            {
                written = format!("{written}::{next}");
            }
            record(name.to_string(), written);
            Some(i + 1)
        }
        // A group: `crate::{web::Site, model}` reaches each item's first segment.
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
            let mut at_item_start = true;
            for token in group.stream() {
                match token {
                    TokenTree::Ident(name) if at_item_start => {
                        record(name.to_string(), format!("{written}{{{name}…}}"));
                        at_item_start = false;
                    }
                    TokenTree::Punct(p) if p.as_char() == ',' => at_item_start = true,
                    _ => {}
                }
            }
            Some(i + 1)
        }
        _ => Some(i.max(1)),
    }
}

/// Every rule broken by the file at `relative` (under `src`) with this text.
fn violations(relative: &Path, text: &str) -> Vec<Violation> {
    let module = module_of(relative);
    let Some(rule) = module.first().and_then(|layer| RULES.iter().find(|r| r.layer == layer)) else {
        return Vec::new();
    };
    let tokens = TokenStream::from_str(text).unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
    let mut paths = Vec::new();
    reached(tokens, &module, &mut paths);
    paths
        .into_iter()
        .filter(|(top, _)| {
            rule.never.contains(&top.as_str()) || rule.only.is_some_and(|only| !only.contains(&top.as_str()))
        })
        .map(|(top, path)| Violation { file: relative.display().to_string(), path, reaches: top })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_layer_imports_only_what_lies_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        found.extend(violations(relative, &std::fs::read_to_string(file).unwrap()));
    }
    let checked = files.iter().filter(|f| RULES.iter().any(|r| f.strip_prefix(&src).unwrap().starts_with(r.layer)));
    assert!(checked.count() > 80, "the check reads the layered modules");
    let report: Vec<String> = found
        .iter()
        .map(|v| {
            let rule = RULES.iter().find(|r| v.file.starts_with(r.layer)).unwrap();
            let allowed = match rule.only {
                Some(only) => format!("only {}", only.join(", ")),
                None => format!("never {}", rule.never.join(", ")),
            };
            format!("src/{}: `{}` reaches `{}` ({} may import {allowed})", v.file, v.path, v.reaches, rule.layer)
        })
        .collect();
    assert!(report.is_empty(), "imports against the layering:\n{}", report.join("\n"));
}

#[test]
fn the_check_sees_every_way_to_reach_a_module() {
    let reaches = |file: &str, text: &str| -> Vec<String> {
        violations(Path::new(file), text).into_iter().map(|v| v.reaches).collect::<Vec<_>>()
    };
    assert_eq!(reaches("model/x.rs", "use crate::web::Site;"), ["web"]);
    assert_eq!(reaches("model/x.rs", "use crate::{db::entities, api::Api};"), ["api"]);
    assert_eq!(reaches("model/x.rs", "fn f() { crate::forms::check(); }"), ["forms"]);
    assert_eq!(reaches("model/x.rs", "use super::super::web::Site;"), ["web"]);
    assert_eq!(reaches("model/x.rs", "use super::super::{db, http};"), ["http"]);
    assert_eq!(reaches("db/entities/x.rs", "use super::super::super::model::hub;"), ["model"]);
    assert_eq!(reaches("model/x.rs", "#[utoipa::path(get, responses((body = crate::api::Body)))] fn f() {}"), ["api"]);
    assert_eq!(reaches("api/v1/x.rs", "mod tests { use super::super::super::super::web::Site; }"), ["web"]);
    // Within the layer, in comments and strings, and `self.` are fine.
    assert!(reaches("model/x.rs", "use super::world; use self::inner::X; mod inner { use super::*; }").is_empty());
    assert!(
        reaches("model/x.rs", "/// See [`crate::web::Site`].\n// crate::api\nconst S: &str = \"crate::web\";")
            .is_empty()
    );
    assert!(reaches("model/x.rs", "impl X { fn f(&self) -> i32 { self.0 } }").is_empty());
    assert!(reaches("types/x.rs", "use crate::types::Lang;").is_empty());
    assert_eq!(reaches("types/x.rs", "use crate::error::Error;"), ["error"]);
    // Layers without a rule are not checked here.
    assert!(reaches("seed/x.rs", "use crate::web::Site;").is_empty());
}
