//! Which files of `src` a source file names, read as Rust tokens (comments and strings never
//! count).
//!
//! **An edge** goes from file A to file B when A names — in a `use` or `pub use`, or as a path in
//! code, in a macro's input or in an attribute — something whose path resolves into B:
//!
//! - a path's first segment is resolved: `crate` (and `vmarket` in `main.rs`) is the crate root,
//!   `self` the module the path stands in, `super` its parent (an inline `mod x { … }` is a
//!   module of its own, so `super` inside `mod tests` is the file itself); a bare first segment
//!   is resolved when it is a child module the file declares (`mod x;`, e.g. in a `mod.rs`,
//!   `lib.rs` or `cli.rs`) or a name one of the file's `use` items brings in (`use crate::db::
//!   entities;` makes `entities::world::Entity` a path into `db/entities/world.rs`); any other
//!   bare first segment (`std`, `sea_orm`, a local item) is not ours;
//! - the resolved path (`["model", "hub", "Hub"]`) belongs to the file of its longest prefix
//!   that is a file's module: `model/hub.rs` is module `model::hub`, `model/mod.rs` module
//!   `model`, `lib.rs` the root; so `crate::model::Hub` (re-exported by `model/mod.rs`) is an
//!   edge to `model/mod.rs`, `crate::model::hub::Hub` one to `model/hub.rs`;
//! - `use` trees are read whole (`crate::{web::{Site, page}, model}` names three paths), a glob
//!   (`use super::*;`) names the module it reads from, `self` in a group its parent path;
//! - `mod x;` declarations are not edges, and neither are a file's paths into itself.
//!
//! Names imported by a `use` count for the whole file (not only the block they stand in), and a
//! glob import does not make the names it brings in resolvable: both are deliberate
//! simplifications, the first errs towards more edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The module path of a source file: `db/entities/world.rs` → `db::entities::world`,
/// `db/mod.rs` → `db`, `lib.rs` → the root (no segment).
pub fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// One path a file names: where it resolves (from the crate root) and how it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The resolved path, e.g. `["model", "hub", "Hub"]`; empty for the crate root itself.
    pub path: Vec<String>,
    /// The path as written, for reports.
    pub written: String,
}

/// One source file, parsed.
pub struct Source {
    /// Its module path ([`module_of`]).
    pub module: Vec<String>,
    /// The child modules it declares with `mod x;`.
    pub children: BTreeSet<String>,
    /// Every path of the crate it names.
    pub named: Vec<Named>,
}

/// What bare first segments mean in one file.
struct Scope<'a> {
    /// The file's module.
    module: &'a [String],
    /// Its `mod x;` children.
    children: &'a BTreeSet<String>,
    /// Names its `use` items bind, with the paths they stand for.
    imports: BTreeMap<String, Vec<String>>,
    /// The name the crate goes by in this file besides `crate` (`vmarket` in `main.rs`).
    crate_name: Option<&'static str>,
}

/// Where a path stands while it is being read.
#[derive(Clone, Debug)]
enum Base {
    /// Nothing read yet.
    Start,
    /// Resolved so far.
    At(Vec<String>),
    /// Not a path of this crate.
    Foreign,
}

/// A path a use tree or a code path ends in, and the name it binds in the file (if any).
struct Leaf {
    path: Vec<String>,
    binds: Option<String>,
    written: String,
}

fn is_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// `tokens` as written, without spaces except between two words (`x as y`).
fn written(tokens: &[TokenTree]) -> String {
    let mut out = String::new();
    let mut after_word = false;
    for token in tokens {
        let word = matches!(token, TokenTree::Ident(_));
        if word && after_word {
            out.push(' ');
        }
        out.push_str(&token.to_string().replace(' ', ""));
        after_word = word;
    }
    out
}

/// The leaves of the use tree (or code path) `tokens`, read from `base`, in module `module`.
fn leaves(tokens: &[TokenTree], base: Base, module: &[String], scope: &Scope, prefix: &str, out: &mut Vec<Leaf>) {
    let mut base = base;
    let mut i = 0;
    let mut last_ident: Option<String> = None;
    while i < tokens.len() {
        if is_sep(tokens, i) {
            if matches!(base, Base::Start) {
                // `::std::…`: an extern crate.
                base = Base::Foreign;
            }
            i += 2;
            continue;
        }
        match &tokens[i] {
            TokenTree::Ident(ident) => {
                let segment = ident.to_string();
                if segment == "as" {
                    if let (Base::At(path), Some(TokenTree::Ident(alias))) = (&base, tokens.get(i + 1)) {
                        let alias = alias.to_string();
                        let binds = (alias != "_").then_some(alias);
                        out.push(Leaf { path: path.clone(), binds, written: format!("{prefix}{}", written(tokens)) });
                    }
                    return;
                }
                base = match base {
                    Base::Start => start(&segment, module, scope),
                    Base::At(mut path) => match segment.as_str() {
                        "super" => {
                            if path.pop().is_none() {
                                return;
                            }
                            Base::At(path)
                        }
                        // `{self, …}`: the path so far.
                        "self" => Base::At(path),
                        _ => {
                            path.push(segment.clone());
                            Base::At(path)
                        }
                    },
                    Base::Foreign => return,
                };
                last_ident = Some(segment);
            }
            TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                let here = format!("{prefix}{}", written(&tokens[..i]));
                for item in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
                    if !item.is_empty() {
                        leaves(item, base.clone(), module, scope, &here, out);
                    }
                }
                return;
            }
            TokenTree::Punct(p) if p.as_char() == '*' => {
                if let Base::At(path) = base {
                    out.push(Leaf { path, binds: None, written: format!("{prefix}{}", written(tokens)) });
                }
                return;
            }
            _ => break,
        }
        i += 1;
    }
    if let Base::At(path) = base {
        let binds = last_ident.filter(|s| s != "self" && s != "super" && s != "crate");
        let binds = binds.or_else(|| path.last().cloned());
        out.push(Leaf { path, binds, written: format!("{prefix}{}", written(&tokens[..i])) });
    }
}

/// What a path's first segment stands for.
fn start(segment: &str, module: &[String], scope: &Scope) -> Base {
    match segment {
        "crate" => Base::At(Vec::new()),
        "self" => Base::At(module.to_vec()),
        "super" => {
            let mut parent = module.to_vec();
            if parent.pop().is_none() {
                return Base::Foreign;
            }
            Base::At(parent)
        }
        _ if Some(segment) == scope.crate_name => Base::At(Vec::new()),
        _ if scope.children.contains(segment) => {
            let mut path = scope.module.to_vec();
            path.push(segment.to_string());
            Base::At(path)
        }
        _ => scope.imports.get(segment).map_or(Base::Foreign, |path| Base::At(path.clone())),
    }
}

/// Whether `ident` can start a path of the crate in this scope.
fn may_start(ident: &str, scope: &Scope) -> bool {
    matches!(ident, "crate" | "self" | "super")
        || Some(ident) == scope.crate_name
        || scope.children.contains(ident)
        || scope.imports.contains_key(ident)
}

/// Walks `tokens` (in module `module`), handing every `use` tree to `on_use` and every other
/// path that may be ours to `on_path`.
fn walk(
    tokens: &[TokenTree],
    module: &[String],
    scope: &Scope,
    on_use: &mut dyn FnMut(&[TokenTree], &[String]),
    on_path: &mut dyn FnMut(&[TokenTree], &[String]),
) {
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(kw) if kw == "mod" => {
                if let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                    && body.delimiter() == Delimiter::Brace
                {
                    let mut inner = module.to_vec();
                    inner.push(name.to_string());
                    let body: Vec<TokenTree> = body.stream().into_iter().collect();
                    walk(&body, &inner, scope, on_use, on_path);
                    i += 3;
                    continue;
                }
            }
            TokenTree::Ident(kw) if kw == "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                    .map_or(tokens.len(), |n| i + n);
                on_use(&tokens[i + 1..end], module);
                i = end + 1;
                continue;
            }
            TokenTree::Ident(ident) if may_start(&ident.to_string(), scope) && is_sep(tokens, i + 1) => {
                // Not the middle of someone else's path (`a::b`), nor a method (`x.f::<T>()`).
                let after_sep = i >= 2 && is_sep(tokens, i - 2);
                let after_dot = i >= 1 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '.');
                if !after_sep && !after_dot {
                    let mut end = i + 1;
                    while is_sep(tokens, end) {
                        match tokens.get(end + 2) {
                            Some(TokenTree::Ident(_)) => end += 3,
                            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                                end += 3;
                                break;
                            }
                            Some(TokenTree::Punct(p)) if p.as_char() == '*' => {
                                end += 3;
                                break;
                            }
                            _ => break,
                        }
                    }
                    on_path(&tokens[i..end], module);
                    i = end;
                    continue;
                }
            }
            TokenTree::Group(group) => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                walk(&inner, module, scope, on_use, on_path);
            }
            _ => {}
        }
        i += 1;
    }
}

/// The `mod x;` declarations at the top of a file.
fn declared_children(tokens: &[TokenTree]) -> BTreeSet<String> {
    tokens
        .windows(3)
        .filter_map(|w| match w {
            [TokenTree::Ident(kw), TokenTree::Ident(name), TokenTree::Punct(semi)]
                if kw == "mod" && semi.as_char() == ';' =>
            {
                Some(name.to_string())
            }
            _ => None,
        })
        .collect()
}

/// Parses the file at `relative` (under `src`) with this text.
pub fn parse(relative: &Path, text: &str) -> Source {
    let module = module_of(relative);
    let stream = TokenStream::from_str(text).unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let children = declared_children(&tokens);
    let crate_name = (relative == Path::new("main.rs")).then_some("vmarket");
    let mut scope = Scope { module: &module, children: &children, imports: BTreeMap::new(), crate_name };
    // First the `use` items, so that the names they bind resolve everywhere in the file; a name
    // bound from another bound name (`use crate::db; use db::entities;`) needs more rounds.
    let mut uses: Vec<Leaf> = Vec::new();
    for _ in 0..4 {
        let mut found = Vec::new();
        walk(
            &tokens,
            &module,
            &scope,
            &mut |tree, at| leaves(tree, Base::Start, at, &scope, "", &mut found),
            &mut |_, _| {},
        );
        let before = scope.imports.len();
        for leaf in &found {
            if let Some(name) = &leaf.binds
                && !scope.children.contains(name)
            {
                scope.imports.entry(name.clone()).or_insert_with(|| leaf.path.clone());
            }
        }
        uses = found;
        if scope.imports.len() == before {
            break;
        }
    }
    let mut found = Vec::new();
    walk(&tokens, &module, &scope, &mut |_, _| {}, &mut |path, at| {
        leaves(path, Base::Start, at, &scope, "", &mut found)
    });
    let named = uses.into_iter().chain(found).map(|leaf| Named { path: leaf.path, written: leaf.written }).collect();
    Source { module, children, named }
}

/// The file (by its module path) that `path` resolves into: its longest prefix that is a file.
pub fn file_of<'a>(path: &[String], files: &'a BTreeMap<Vec<String>, String>) -> Option<&'a str> {
    (0..=path.len()).rev().find_map(|n| files.get(&path[..n]).map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files that `text`, as the file `file`, has edges to, among `files`.
    fn edges(file: &str, text: &str, files: &[&str]) -> Vec<String> {
        let index: BTreeMap<Vec<String>, String> =
            files.iter().map(|f| (module_of(Path::new(f)), (*f).to_string())).collect();
        let source = parse(Path::new(file), text);
        let mut out: Vec<String> = source
            .named
            .iter()
            .filter_map(|n| file_of(&n.path, &index))
            .filter(|f| *f != file)
            .map(str::to_string)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    const FILES: &[&str] = &[
        "lib.rs",
        "model/mod.rs",
        "model/hub.rs",
        "model/world.rs",
        "db/mod.rs",
        "db/entities/mod.rs",
        "db/entities/world.rs",
        "jobs/mod.rs",
        "jobs/send_mail.rs",
        "cli.rs",
        "cli/lottery.rs",
        "web/pages/mod.rs",
        "web/pages/news.rs",
    ];

    #[test]
    fn paths_resolve_to_the_file_of_their_longest_module_prefix() {
        assert_eq!(edges("model/hub.rs", "use crate::model::world::World;", FILES), ["model/world.rs"]);
        assert_eq!(edges("model/hub.rs", "use crate::model::World;", FILES), ["model/mod.rs"]);
        assert_eq!(edges("model/hub.rs", "use super::world::{self, World};", FILES), ["model/world.rs"]);
        assert_eq!(edges("model/hub.rs", "fn f() { super::world::load(); }", FILES), ["model/world.rs"]);
        assert_eq!(edges("model/hub.rs", "use super::*;", FILES), ["model/mod.rs"]);
        assert_eq!(
            edges("model/hub.rs", "use crate::{db::entities::world, jobs};", FILES),
            ["db/entities/world.rs", "jobs/mod.rs"]
        );
        assert_eq!(
            edges("model/hub.rs", "use crate::db::{entities::{self, world::Model}, connect};", FILES),
            ["db/entities/mod.rs", "db/entities/world.rs", "db/mod.rs"]
        );
        // `self::` is the module the path stands in; an inline module is a module of its own.
        assert_eq!(edges("model/mod.rs", "use self::hub::Hub;", FILES), ["model/hub.rs"]);
        assert_eq!(edges("model/hub.rs", "mod tests { use super::super::world::W; }", FILES), ["model/world.rs"]);
        assert!(edges("model/hub.rs", "mod tests { use super::*; }", FILES).is_empty());
        // In macros and attributes, and `$crate` in a macro's body.
        assert_eq!(
            edges("model/hub.rs", "#[serde(with = \"x\")] #[doc = \"\"] #[a(b = crate::jobs::X)] fn f() {}", FILES),
            ["jobs/mod.rs"]
        );
        assert_eq!(
            edges("model/hub.rs", "fn f() { rocket::routes![crate::web::pages::news::list]; }", FILES),
            ["web/pages/news.rs"]
        );
        assert_eq!(
            edges("model/hub.rs", "macro_rules! m { () => { $crate::jobs::send_mail::go() } }", FILES),
            ["jobs/send_mail.rs"]
        );
        // Through the crate root.
        assert_eq!(edges("model/hub.rs", "use crate::cli;", FILES), ["cli.rs"]);
    }

    #[test]
    fn bare_paths_resolve_through_child_modules_and_imported_names() {
        // A `mod.rs` (or any file) naming its children.
        assert_eq!(edges("jobs/mod.rs", "mod send_mail; pub use send_mail::SendMail;", FILES), ["jobs/send_mail.rs"]);
        assert_eq!(edges("jobs/mod.rs", "mod send_mail; fn f() { send_mail::go(); }", FILES), ["jobs/send_mail.rs"]);
        assert_eq!(
            edges("cli.rs", "pub mod lottery; fn f() -> lottery::Action { todo!() }", FILES),
            ["cli/lottery.rs"]
        );
        // The declaration alone is no edge.
        assert!(edges("jobs/mod.rs", "pub mod send_mail;", FILES).is_empty());
        // A module a `use` brought in, named deeper in code.
        assert_eq!(
            edges("model/hub.rs", "use crate::db::entities; fn f() { entities::world::find(); }", FILES),
            ["db/entities/mod.rs", "db/entities/world.rs"]
        );
        assert_eq!(
            edges("model/hub.rs", "use crate::db; use db::entities::world as w; fn f() { w::x(); }", FILES),
            ["db/entities/world.rs", "db/mod.rs"]
        );
        // `main.rs` names the library by its crate name.
        assert_eq!(
            edges("main.rs", "use vmarket::{cli, jobs::send_mail::SendMail};", FILES),
            ["cli.rs", "jobs/send_mail.rs"]
        );
    }

    #[test]
    fn what_is_not_an_edge() {
        // Other crates, the middle of their paths, methods, fields, comments and strings.
        assert!(
            edges(
                "model/hub.rs",
                "use sea_orm::entity::prelude::*; use std::{fmt, io}; fn f(&self) { self.0; x.collect::<Vec<_>>(); }",
                FILES
            )
            .is_empty()
        );
        assert!(
            edges("model/hub.rs", "/// See [`crate::jobs::X`].\n// crate::cli\nconst S: &str = \"crate::cli\";", FILES)
                .is_empty()
        );
        // A child's name in the middle of another crate's path.
        assert!(
            edges("jobs/mod.rs", "mod send_mail; use lettre::send_mail::X; fn f() { a::send_mail::g(); }", FILES)
                .is_empty()
        );
        // `pub(crate)` and `pub(in crate::x)` visibility are no paths into another file.
        assert!(edges("model/hub.rs", "pub(crate) fn f() {}", FILES).is_empty());
        // A file's paths into itself.
        assert!(
            edges("model/hub.rs", "use crate::model::hub::Hub; use self::inner::X; mod inner {}", FILES).is_empty()
        );
    }
}
