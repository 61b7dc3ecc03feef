//! The layers of `src` (`src/lib.rs`, README "Layout") and the imports between its files. Every
//! source file is read as Rust tokens (comments and strings never count) and every path it names
//! is resolved to the file it reaches ([`paths`] defines an edge precisely). Two checks:
//!
//! 1. **Layers.** Every top-level module imports only what its rule allows ([`rules::RULES`]:
//!    lower layers only), every top-level module has a rule, and the rules themselves are layers
//!    (no module may import one that may import it back).
//! 2. **No file-level cycle.** No file of `src` reaches itself through the files it names: a
//!    `mod.rs` that re-exports a child while the child uses items defined in that `mod.rs` is a
//!    cycle too (the cure: those items go to a file of their own). A failure lists each cycle's
//!    files with the path behind each edge.

mod paths;
mod rules;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use paths::{Source, file_of, parse};
use rules::{May, RULES, rule_of};

/// The files of `dir` ending in `.rs`, recursively.
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

/// Every file of `src`, by its path under `src` (`model/hub_tag.rs`), parsed.
fn sources() -> BTreeMap<String, Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(&src).unwrap();
            (relative.display().to_string(), parse(relative, &std::fs::read_to_string(f).unwrap()))
        })
        .collect()
}

/// Parses in-memory files (path under `src`, text), for the tests of the checks themselves.
fn sources_of(files: &[(&str, &str)]) -> BTreeMap<String, Source> {
    files.iter().map(|(path, text)| (path.to_string(), parse(Path::new(path), text))).collect()
}

/// The top-level module a file belongs to (`main` for the binary; `None` for `lib.rs`).
fn top_of(file: &str) -> Option<String> {
    let first = file.split('/').next()?;
    (first != "lib.rs").then(|| first.trim_end_matches(".rs").to_string())
}

/// The top-level modules the crate declares (`lib.rs`), and `main`.
fn top_level_modules(sources: &BTreeMap<String, Source>) -> BTreeSet<String> {
    let lib = sources.get("lib.rs").expect("src/lib.rs");
    lib.children.iter().cloned().chain(sources.contains_key("main.rs").then(|| "main".to_string())).collect()
}

/// Every import against the rules: `file: path reaches module (rule)`.
fn violations(sources: &BTreeMap<String, Source>) -> Vec<String> {
    let modules = top_level_modules(sources);
    let mut found = Vec::new();
    for (file, source) in sources {
        let Some(top) = top_of(file) else { continue };
        let Some(rule) = rule_of(&top) else {
            found.push(format!("src/{file}: `{top}` has no rule"));
            continue;
        };
        for named in &source.named {
            let Some(reached) = named.path.first().filter(|m| modules.contains(*m)) else { continue };
            if !rule.allows(reached) {
                let allowed = match rule.may {
                    May::Only(only) => format!("only {}", only.join(", ")),
                    May::AllBut(never) => format!("anything but {}", never.join(", ")),
                };
                found.push(format!(
                    "src/{file}: `{}` reaches `{reached}` ({top}, {}, may import {allowed})",
                    named.written, rule.why
                ));
            }
        }
    }
    found
}

/// The file-level import graph: file → file it names → one path that makes the edge.
fn graph(sources: &BTreeMap<String, Source>) -> BTreeMap<String, BTreeMap<String, String>> {
    let index: BTreeMap<Vec<String>, String> =
        sources.iter().filter(|(f, _)| f.as_str() != "main.rs").map(|(f, s)| (s.module.clone(), f.clone())).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (file, source) in sources {
        let out = edges.entry(file.clone()).or_default();
        for named in &source.named {
            if let Some(to) = file_of(&named.path, &index)
                && to != file
            {
                out.entry(to.to_string()).or_insert_with(|| named.written.clone());
            }
        }
    }
    edges
}

/// The groups of more than one file that reach each other (strongly connected components,
/// Tarjan's algorithm), each sorted, in order.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on_stack.insert(v);
        let targets: Vec<&'a str> = w.edges.get(v).map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
        for t in targets {
            if !w.index.contains_key(t) {
                visit(w, t);
                let low = w.low[t].min(w.low[v]);
                w.low.insert(v, low);
            } else if w.on_stack.contains(t) {
                let low = w.index[t].min(w.low[v]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut group = Vec::new();
            while let Some(t) = w.stack.pop() {
                w.on_stack.remove(t);
                group.push(t.to_string());
                if t == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                w.groups.push(group);
            }
        }
    }
    let mut w = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.groups.sort();
    w.groups
}

/// The report of `groups`: each group's files, and within it every edge with its path.
fn cycle_report(groups: &[Vec<String>], edges: &BTreeMap<String, BTreeMap<String, String>>) -> String {
    let mut out = String::new();
    for (i, group) in groups.iter().enumerate() {
        out.push_str(&format!("cycle {} ({} files): {}\n", i + 1, group.len(), group.join(", ")));
        for file in group {
            for (to, path) in edges.get(file).into_iter().flatten().filter(|(to, _)| group.contains(to)) {
                out.push_str(&format!("    src/{file} → src/{to}   ({path})\n"));
            }
        }
    }
    out
}

#[test]
fn every_layer_imports_only_what_its_rule_allows() {
    let sources = sources();
    assert!(sources.len() > 300, "the check reads every file of src ({} read)", sources.len());
    let found = violations(&sources);
    assert!(found.is_empty(), "imports against the layering (tests/it/layers/rules.rs):\n{}", found.join("\n"));
}

#[test]
fn every_top_level_module_has_a_rule() {
    let modules = top_level_modules(&sources());
    assert!(modules.len() >= 30, "{modules:?}");
    let missing: Vec<_> = modules.iter().filter(|m| rule_of(m).is_none()).collect();
    assert!(missing.is_empty(), "top-level modules without a rule in tests/it/layers/rules.rs: {missing:?}");
    let stale: Vec<_> = RULES.iter().map(|r| r.module).filter(|m| !modules.contains(*m)).collect();
    assert!(stale.is_empty(), "rules of modules that do not exist: {stale:?}");
    let mut seen = BTreeSet::new();
    assert!(RULES.iter().all(|r| seen.insert(r.module)), "one rule per module");
}

#[test]
fn the_rules_are_layers() {
    // A rule may allow only modules whose rules come before it, so no two modules may import
    // each other, directly or through others.
    let mut wrong = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        for (j, other) in RULES.iter().enumerate() {
            if i != j && rule.allows(other.module) && j > i {
                wrong.push(format!("{} may import {}, whose rule comes later", rule.module, other.module));
            }
        }
        if let May::Only(only) = rule.may {
            for name in only {
                assert!(rule_of(name).is_some(), "{}: `{name}` is no module", rule.module);
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_file_of_src_reaches_itself_through_its_imports() {
    let sources = sources();
    let edges = graph(&sources);
    let count: usize = edges.values().map(BTreeMap::len).sum();
    assert!(count > 1000, "the graph has the files' edges ({count})");
    let groups = cycles(&edges);
    assert_eq!(groups.len(), 0, "file-level import cycles:\n{}", cycle_report(&groups, &edges));
}

#[test]
fn a_planted_cycle_is_found_and_reported() {
    // Two files naming each other.
    let two = sources_of(&[
        ("lib.rs", "pub mod model;"),
        ("model/mod.rs", "pub mod a; pub mod b;"),
        ("model/a.rs", "use crate::model::b::B; pub struct A(B);"),
        ("model/b.rs", "pub struct B; fn f() -> Option<super::a::A> { None }"),
    ]);
    let edges = graph(&two);
    assert_eq!(cycles(&edges), [["model/a.rs", "model/b.rs"]]);
    let report = cycle_report(&cycles(&edges), &edges);
    assert!(report.contains("src/model/a.rs → src/model/b.rs   (crate::model::b::B)"), "{report}");
    assert!(report.contains("src/model/b.rs → src/model/a.rs   (super::a::A)"), "{report}");
    // A `mod.rs` re-exporting a child that uses what the `mod.rs` defines.
    let parent = sources_of(&[
        ("lib.rs", "pub mod jobs;"),
        ("jobs/mod.rs", "pub mod send_mail; pub use send_mail::SendMail; pub struct Queue;"),
        ("jobs/send_mail.rs", "use super::Queue; pub struct SendMail;"),
    ]);
    assert_eq!(cycles(&graph(&parent)), [["jobs/mod.rs", "jobs/send_mail.rs"]]);
    // Moving `Queue` to a file of its own cuts it.
    let cut = sources_of(&[
        ("lib.rs", "pub mod jobs;"),
        ("jobs/mod.rs", "pub mod queue; pub mod send_mail; pub use send_mail::SendMail; pub use queue::Queue;"),
        ("jobs/queue.rs", "pub struct Queue;"),
        ("jobs/send_mail.rs", "use crate::jobs::queue::Queue; pub struct SendMail;"),
    ]);
    assert!(cycles(&graph(&cut)).is_empty());
    // A chain through three files, and two separate cycles.
    let three = sources_of(&[
        ("a.rs", "use crate::b::X;"),
        ("b.rs", "fn f() { crate::c::g(); }"),
        ("c.rs", "#[serde(with = \"x\")] #[path(body = crate::a::A)] fn g() {}"),
        ("d.rs", "use crate::e;"),
        ("e.rs", "use crate::d;"),
    ]);
    assert_eq!(cycles(&graph(&three)), [vec!["a.rs", "b.rs", "c.rs"], vec!["d.rs", "e.rs"]]);
}

#[test]
fn the_check_sees_every_way_to_reach_a_layer() {
    let reaches = |file: &str, text: &str| -> Vec<String> {
        let lib = "mod api; mod db; mod error; mod forms; mod http; mod model; mod seed; mod types; mod web;";
        let sources = sources_of(&[("lib.rs", lib), ("main.rs", ""), (file, text)]);
        violations(&sources).into_iter().map(|v| v.split('`').nth(3).unwrap_or_default().to_string()).collect()
    };
    assert_eq!(reaches("model/x.rs", "use crate::web::Site;"), ["web"]);
    assert_eq!(reaches("model/x.rs", "use crate::{db::entities, api::Api};"), ["api"]);
    assert_eq!(reaches("model/x.rs", "fn f() { crate::forms::check(); }"), ["forms"]);
    assert_eq!(reaches("model/x.rs", "use super::super::web::Site;"), ["web"]);
    assert_eq!(reaches("model/x.rs", "use super::super::{db, http};"), ["http"]);
    assert_eq!(reaches("db/entities/x.rs", "use super::super::super::model::hub;"), ["model"]);
    assert_eq!(reaches("model/x.rs", "#[utoipa::path(get, responses((body = crate::api::Body)))] fn f() {}"), ["api"]);
    assert_eq!(reaches("api/v1/x.rs", "mod tests { use super::super::super::super::web::Site; }"), ["web"]);
    assert_eq!(reaches("model/x.rs", "use crate::web; fn f() { web::pages::x(); }"), ["web", "web"]);
    // Within the layer, in comments and strings, and `self.` are fine.
    assert!(reaches("model/x.rs", "use super::world; use self::inner::X; mod inner { use super::*; }").is_empty());
    assert!(
        reaches("model/x.rs", "/// See [`crate::web::Site`].\n// crate::api\nconst S: &str = \"crate::web\";")
            .is_empty()
    );
    assert!(reaches("model/x.rs", "impl X { fn f(&self) -> i32 { self.0 } }").is_empty());
    assert!(reaches("types/x.rs", "use crate::types::Lang;").is_empty());
    assert_eq!(reaches("types/x.rs", "use crate::error::Error;"), ["error"]);
    // Every module has a rule: seed may not reach the edges either.
    assert_eq!(reaches("seed/x.rs", "use crate::web::Site;"), ["web"]);
    assert_eq!(reaches("db/x.rs", "use crate::model::user;"), ["model"]);
    // The binary names the library by its crate name, and may use any of it.
    assert!(reaches("main.rs", "use vmarket::{web, api::Api};").is_empty());
}
