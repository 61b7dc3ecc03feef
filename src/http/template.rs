//! Page templates: one Tera engine over `template_dir`, loaded once at start (managed state
//! [`Templates`]; debug builds reload it when a file under the directory changes), and the
//! [`Template`] responder, which renders a template with a Tera context made directly from the
//! handler's JSON object — no conversion in between.
//!
//! A template's name is its path under the directory without its two extensions
//! (`home/index.html.tera` → `home/index`), and the inner extension gives the answer's
//! `Content-Type` (`html` → `text/html`). Files ending in `.html.tera`, `.htm.tera` or `.xml.tera`
//! are escaped with the site's escaping ([`crate::i18n::tera::escape_html`]); the site's Tera
//! functions and filters ([`crate::i18n::tera::register`]) are registered on the engine.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use rocket::http::{ContentType, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use serde_json::{Map, Value};
use tera::{Context, Tera};

use crate::i18n::Messages;
use crate::i18n::tera::describe;

/// The file names whose output is HTML-escaped (those of the Tera engine the pages had before).
const ESCAPED: [&str; 6] = [".html.tera", ".htm.tera", ".xml.tera", ".html", ".htm", ".xml"];

/// The compiled templates and the content type of each.
struct Loaded {
    tera: Tera,
    types: HashMap<String, ContentType>,
}

impl Loaded {
    /// Compiles every `*.tera` file under `dir` with the site's functions over `messages`.
    fn load(dir: &Path, messages: &Messages) -> Result<Self, String> {
        let mut files = Vec::new();
        collect(dir, &mut files).map_err(|e| format!("template_dir {}: {e}", dir.display()))?;
        let mut tera = Tera::default();
        tera.autoescape_on(ESCAPED.to_vec());
        crate::i18n::tera::register(&mut tera, messages.clone());
        let mut types = HashMap::new();
        let mut named = Vec::new();
        for path in files {
            let (name, kind) = name_of(dir, &path);
            let content_type = kind.as_deref().and_then(ContentType::from_extension).unwrap_or(ContentType::Text);
            types.insert(name.clone(), content_type);
            named.push((path, Some(name)));
        }
        tera.add_template_files(named).map_err(|e| format!("templates in {}: {}", dir.display(), describe(&e)))?;
        Ok(Self { tera, types })
    }
}

/// Every `*.tera` file under `dir`, following links.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.is_file() && path.extension().is_some_and(|e| e == "tera") {
            out.push(path);
        }
    }
    Ok(())
}

/// A template's name (its path under `dir` without its two extensions, `/`-separated) and the
/// inner extension (`html`).
fn name_of(dir: &Path, path: &Path) -> (String, Option<String>) {
    let relative = path.strip_prefix(dir).unwrap_or(path).with_extension("");
    let kind = relative.extension().map(|e| e.to_string_lossy().into_owned());
    let name = relative.with_extension("");
    let name = name.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>().join("/");
    (name, kind)
}

/// The page templates (managed state).
pub struct Templates {
    dir: PathBuf,
    #[cfg(debug_assertions)]
    messages: Messages,
    current: RwLock<Arc<Loaded>>,
    #[cfg(debug_assertions)]
    changes: Option<reload::Changes>,
}

impl Templates {
    /// Compiles every template under `dir`, with the site's functions over `messages`; an error
    /// names the directory or the template that failed.
    pub fn load(dir: impl Into<PathBuf>, messages: Messages) -> Result<Self, String> {
        let dir = dir.into();
        let loaded = Loaded::load(&dir, &messages)?;
        Ok(Self {
            #[cfg(debug_assertions)]
            changes: reload::Changes::watch(&dir),
            dir,
            #[cfg(debug_assertions)]
            messages,
            current: RwLock::new(Arc::new(loaded)),
        })
    }

    /// Renders `name` with `context`: its content type and the text.
    pub fn render(&self, name: &str, context: &Context) -> Result<(ContentType, String), String> {
        #[cfg(debug_assertions)]
        self.reload_if_changed();
        let loaded = self.current.read().unwrap_or_else(PoisonError::into_inner).clone();
        let content_type =
            loaded.types.get(name).cloned().ok_or_else(|| format!("template {name:?} does not exist"))?;
        let text = loaded.tera.render(name, context).map_err(|e| describe(&e))?;
        Ok((content_type, text))
    }

    /// Debug builds: compiles the templates again when a file changed since the last render;
    /// keeps the old ones (and logs why) when the new ones fail.
    #[cfg(debug_assertions)]
    fn reload_if_changed(&self) {
        if !self.changes.as_ref().is_some_and(reload::Changes::any) {
            return;
        }
        match Loaded::load(&self.dir, &self.messages) {
            Ok(loaded) => *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(loaded),
            Err(e) => tracing::warn!(error = %e, "templates changed but do not compile; the previous ones stay"),
        }
    }
}

impl std::fmt::Debug for Templates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Templates").field("dir", &self.dir).finish_non_exhaustive()
    }
}

#[cfg(debug_assertions)]
mod reload {
    //! Debug builds: a watcher over the template directory.

    use std::path::Path;
    use std::sync::mpsc::{Receiver, channel};
    use std::sync::{Mutex, PoisonError};

    use notify::{RecommendedWatcher, RecursiveMode, Watcher};

    /// File events under the template directory since the last look.
    pub struct Changes {
        _watcher: RecommendedWatcher,
        events: Mutex<Receiver<notify::Result<notify::Event>>>,
    }

    impl Changes {
        /// Watches `dir`; `None` (templates are then never reloaded) when the system refuses.
        pub fn watch(dir: &Path) -> Option<Self> {
            let (tx, rx) = channel();
            let watcher = notify::recommended_watcher(tx).and_then(|mut w| {
                w.watch(&dir.canonicalize()?, RecursiveMode::Recursive)?;
                Ok(w)
            });
            match watcher {
                Ok(w) => Some(Self { _watcher: w, events: Mutex::new(rx) }),
                Err(e) => {
                    tracing::warn!(error = %e, "templates will not reload when they change");
                    None
                }
            }
        }

        /// Whether any file changed since the last call.
        pub fn any(&self) -> bool {
            self.events.lock().unwrap_or_else(PoisonError::into_inner).try_iter().count() > 0
        }
    }
}

/// A page rendered from a template: the responder of every server-rendered page.
#[derive(Debug)]
pub struct Template {
    name: Cow<'static, str>,
    context: Context,
}

impl Template {
    /// `name` rendered with the entries of `context` as its variables.
    pub fn render(name: impl Into<Cow<'static, str>>, context: Map<String, Value>) -> Self {
        let context = Context::from_value(Value::Object(context)).unwrap_or_default();
        Self { name: name.into(), context }
    }

    /// `name` rendered with `context`.
    pub fn with_context(name: impl Into<Cow<'static, str>>, context: Context) -> Self {
        Self { name: name.into(), context }
    }
}

impl<'r> Responder<'r, 'static> for Template {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        let Some(templates) = req.rocket().state::<Templates>() else {
            tracing::error!("templates are not managed");
            return Err(Status::InternalServerError);
        };
        let (content_type, text) = templates.render(&self.name, &self.context).map_err(|e| {
            tracing::error!(template = %self.name, error = %e, "template not rendered");
            Status::InternalServerError
        })?;
        Response::build().header(content_type).sized_body(text.len(), Cursor::new(text)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_drop_both_extensions_and_keep_the_inner_one_as_the_type() {
        let dir = Path::new("/t");
        assert_eq!(name_of(dir, Path::new("/t/home/index.html.tera")), ("home/index".into(), Some("html".into())));
        assert_eq!(
            name_of(dir, Path::new("/t/mail/x/subject.txt.tera")),
            ("mail/x/subject".into(), Some("txt".into()))
        );
        assert_eq!(name_of(dir, Path::new("/t/plain.tera")), ("plain".into(), None));
    }

    #[test]
    fn the_site_templates_load_with_their_types() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let templates = Templates::load(&dir, Messages::bundled()).unwrap();
        let loaded = templates.current.read().unwrap().clone();
        assert_eq!(loaded.types.get("errors/error"), Some(&ContentType::HTML));
        assert_eq!(loaded.types.get("mail/test/subject"), Some(&ContentType::Text));
        let err = templates.render("nope", &Context::new()).unwrap_err();
        assert!(err.contains("nope"), "{err}");
    }

    #[test]
    fn html_is_escaped_and_text_is_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("x")).unwrap();
        std::fs::write(dir.path().join("x/page.html.tera"), "{{ v }} {{ t(key='site.name', lang='en') }}").unwrap();
        std::fs::write(dir.path().join("x/note.txt.tera"), "{{ v }}").unwrap();
        let templates = Templates::load(dir.path(), Messages::bundled()).unwrap();
        let mut context = Context::new();
        context.insert("v", "<a href='/x?a=1&b=2'>");
        let (html_type, html) = templates.render("x/page", &context).unwrap();
        assert_eq!(html_type, ContentType::HTML);
        assert_eq!(
            html,
            format!(
                "&lt;a href=&#39;/x?a=1&amp;b=2&#39;&gt; {}",
                Messages::bundled().t(crate::types::Lang::En, "site.name")
            )
        );
        let (text_type, text) = templates.render("x/note", &context).unwrap();
        assert_eq!(text_type, ContentType::Text);
        assert_eq!(text, "<a href='/x?a=1&b=2'>");
    }

    #[test]
    fn a_missing_directory_is_named() {
        let err = Templates::load("/nowhere/templates", Messages::bundled()).unwrap_err();
        assert!(err.contains("/nowhere/templates"), "{err}");
    }
}
