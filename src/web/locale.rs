//! Locale routing (spec §2 "Locale routing").
//!
//! A fairing runs before routing on every page request:
//! 1. the `VUEI18N_MANUAL_LOCALE` cookie, when set to `ja` or `en`, decides the language;
//! 2. otherwise a path under `/en` means English and anything else Japanese;
//! 3. Japanese on an `/en` path redirects to the path without the prefix;
//! 4. English on an unprefixed (or `/ja`) path redirects to the `/en` path.
//!
//! Otherwise the `/ja` or `/en` prefix is stripped, so each page route is declared once and
//! answers at `/path`, `/ja/path` and `/en/path`. The `i18n_redirected` cookie records the
//! language for 365 days; it is set on redirects and private answers, never on an answer a
//! shared cache may keep ([`crate::http::shared_cache`]).

use rocket::fairing::{Fairing, Info, Kind};
use rocket::http::uri::Origin;
use rocket::http::{Header, Method};
use rocket::request::{FromRequest, Outcome};
use rocket::response::Redirect;
use rocket::time::Duration;
use rocket::{Data, Request, Response, get};

use crate::http::cookies::Spec;
use crate::types::Lang;
/// The path rules of the two languages live with [`Lang`] so that lower layers share them.
pub use crate::types::lang::{localized_path, split_prefix};

/// The manual-locale cookie that overrides the path.
pub const MANUAL_LOCALE_COOKIE: &str = "VUEI18N_MANUAL_LOCALE";
/// The cookie that remembers the language the visitor was sent to.
pub const REDIRECTED_COOKIE: &str = "i18n_redirected";
/// The manual-locale cookie: a year, readable by page scripts (spec §9).
pub const MANUAL: Spec = Spec::new(MANUAL_LOCALE_COOKIE, "/").max_age(Duration::days(365)).script_readable();
/// The locale-redirect cookie: 365 days (spec §9), readable by page scripts.
pub const REDIRECTED: Spec = Spec::new(REDIRECTED_COOKIE, "/").max_age(Duration::days(365)).script_readable();
/// The internal route a locale redirect is answered by.
const REDIRECT_ROUTE: &str = "/__locale_redirect";

/// Path prefixes that are not pages (API, assets, services); the locale rules skip them.
const NOT_PAGES: &[&str] = &[
    "/api",
    "/static",
    "/_i18n",
    "/builds",
    "/admin",
    "/account",
    "/auth",
    "/media",
    "/uploader",
    "/ingame",
    "/api-docs",
    "/swagger",
    "/_ah",
    "/favicon.ico",
    "/robots.txt",
    "/__",
];

/// What the locale fairing decided for a page request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleInfo {
    /// The active language.
    pub lang: Lang,
    /// The path as requested, with its prefix.
    pub original_path: String,
    /// The path without a language prefix (`/` for the top page).
    pub path: String,
    /// The query string, if any.
    pub query: Option<String>,
    /// Where to redirect instead of answering, if the rules say so.
    pub redirect: Option<String>,
}

/// The per-request cache slot of [`LocaleInfo`]; empty for requests that are not pages.
#[derive(Debug, Clone, Default)]
pub struct PageSlot(pub Option<LocaleInfo>);

/// Whether the request is for a page (as opposed to the API, assets or services).
pub fn is_page_request(req: &Request<'_>) -> bool {
    req.local_cache(PageSlot::default).0.is_some()
}

/// The locale decision for the request, if it is a page.
pub fn locale_info<'r>(req: &'r Request<'_>) -> Option<&'r LocaleInfo> {
    req.local_cache(PageSlot::default).0.as_ref()
}

/// Whether `path` is a page path the locale rules apply to.
pub fn is_page_path(path: &str) -> bool {
    !NOT_PAGES
        .iter()
        .any(|p| path.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('/') || p.ends_with("__")))
}

/// Applies the rules to a request path, given the manual-locale cookie.
pub fn decide(path: &str, query: Option<&str>, manual: Option<Lang>, may_redirect: bool) -> LocaleInfo {
    let (prefix, rest) = split_prefix(path);
    let lang = manual.unwrap_or(if prefix == Some(Lang::En) { Lang::En } else { Lang::Ja });
    let with_query = |p: String| match query {
        Some(q) if !q.is_empty() => format!("{p}?{q}"),
        _ => p,
    };
    let redirect = match (lang, prefix) {
        (Lang::Ja, Some(Lang::En)) | (Lang::En, None) | (Lang::En, Some(Lang::Ja)) if may_redirect => {
            Some(with_query(localized_path(lang, &rest)))
        }
        _ => None,
    };
    LocaleInfo { lang, original_path: path.to_string(), path: rest, query: query.map(str::to_string), redirect }
}

/// The fairing that applies the locale rules.
pub struct LocaleRouting;

#[rocket::async_trait]
impl Fairing for LocaleRouting {
    fn info(&self) -> Info {
        Info { name: "locale routing", kind: Kind::Request | Kind::Response }
    }

    async fn on_request(&self, req: &mut Request<'_>, _: &mut Data<'_>) {
        if !is_page_path(req.uri().path().as_str()) {
            return;
        }
        let path = req.uri().path().as_str().to_string();
        let manual = req.cookies().get(MANUAL_LOCALE_COOKIE).and_then(|c| Lang::parse(c.value()));
        let query = req.uri().query().map(|q| q.as_str().to_string());
        let may_redirect = matches!(req.method(), Method::Get | Method::Head);
        let info = decide(&path, query.as_deref(), manual, may_redirect);
        let target = if info.redirect.is_some() {
            Some(REDIRECT_ROUTE.to_string())
        } else if info.path != path {
            Some(match &info.query {
                Some(q) => format!("{}?{q}", info.path),
                None => info.path.clone(),
            })
        } else {
            None
        };
        req.local_cache(|| PageSlot(Some(info)));
        if let Some(target) = target
            && let Ok(uri) = Origin::parse_owned(target)
        {
            req.set_uri(uri);
        }
    }

    async fn on_response<'r>(&self, req: &'r Request<'_>, res: &mut Response<'r>) {
        let Some(info) = locale_info(req) else { return };
        // A shared cache must be able to keep the answer: the cookie changes nothing the path
        // does not say, so it is set on redirects and private answers only.
        if res.headers().get_one("Cache-Control").is_some_and(|c| c.starts_with("public")) {
            return;
        }
        if req.cookies().get(REDIRECTED_COOKIE).is_some_and(|c| c.value() == info.lang.code()) {
            return;
        }
        if let Some(cookies) = req.rocket().state::<RedirectedCookies>() {
            // The jar's changes are already in the response by now; add the header directly.
            res.adjoin_header(Header::new("Set-Cookie", cookies.of(info.lang)));
        }
    }
}

/// The `Set-Cookie` values of the [`REDIRECTED`] cookie, one per language, built once from the
/// configuration (managed state: each page response borrows one).
#[derive(Debug, Clone)]
pub struct RedirectedCookies([String; 2]);

impl RedirectedCookies {
    /// The values for `config`.
    pub fn new(config: &crate::config::Config) -> Self {
        Self(Lang::ALL.map(|lang| Header::from(REDIRECTED.build(lang.code(), config)).value().to_string()))
    }

    fn of(&self, lang: Lang) -> &str {
        let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
        self.0.get(i).map_or("", String::as_str)
    }
}

/// The redirect target the locale rules chose for this request.
pub struct LocaleRedirect(String);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for LocaleRedirect {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        match locale_info(req).and_then(|i| i.redirect.clone()) {
            Some(target) => Outcome::Success(Self(target)),
            None => Outcome::Forward(rocket::http::Status::NotFound),
        }
    }
}

/// Answers a request the locale rules redirected; an unsafe target (say `/en//evil.example`
/// with the Japanese cookie) becomes the top page.
#[get("/__locale_redirect")]
pub fn locale_redirect(target: LocaleRedirect) -> Redirect {
    crate::http::redirect::to_site(&target.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths() {
        assert!(is_page_path("/"));
        assert!(is_page_path("/en/worlds"));
        assert!(is_page_path("/apiary"));
        assert!(!is_page_path("/api/v1/events"));
        assert!(!is_page_path("/static/dist/x.js"));
        assert!(!is_page_path("/__locale_redirect"));
        assert!(!is_page_path("/api") && !is_page_path("/_ah/warmup") && !is_page_path("/favicon.ico"));
        assert!(is_page_path("/static-pages") && is_page_path("/favicon.icon") && is_page_path("/_a"));
    }
}
