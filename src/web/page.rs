//! The `Page` request guard: language, clock, database and site state for a page handler, and
//! the base template context every layout reads (titles, alternates, canonical, assets).

use std::sync::Arc;

use crate::http::template::Template;
use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;
use serde_json::{Map, Value, json};

use crate::auth::csrf;
use crate::auth::guards::OptionalUser;
use crate::auth::links::login_href;
use crate::clock::Clock;
use crate::db::entities::user;
use crate::http::Site;
use crate::http::snapshot::Snapshot;
use crate::http::vite::COMMON_ENTRY;
use crate::model::tree::Tree;
use crate::types::Lang;
use crate::web::locale::{self, localized_path};
use crate::web::open_windows::Naming;

/// The icon shown for users without one.
pub const PLACEHOLDER_ICON: &str = "/static/img/user.svg";

/// What a page handler needs to answer in the visitor's language.
pub struct Page<'r> {
    /// Site-wide state.
    pub site: &'r Site,
    /// The database.
    pub db: &'r DatabaseConnection,
    /// The active language.
    pub lang: Lang,
    /// The path without language prefix.
    pub path: String,
    /// "Now", from the application clock.
    pub now: DateTime<Utc>,
    /// The signed-in user, if any.
    pub user: Option<user::Model>,
    /// The CSRF token scripts send back (signed-in pages only).
    pub csrf_token: Option<String>,
    /// The travelled "now" while staff have moved the clock (time travel), for the banner.
    pub travelled: Option<DateTime<Utc>>,
    /// The public event tree at the request's data version.
    pub tree: Arc<Tree>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Page<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let (Some(site), Some(db), Some(clock)) =
            (req.rocket().state::<Site>(), req.rocket().state::<DatabaseConnection>(), req.rocket().state::<Clock>())
        else {
            return Outcome::Error((Status::InternalServerError, ()));
        };
        let (lang, path) = match locale::locale_info(req) {
            Some(info) => (info.lang, info.path.clone()),
            None => (Lang::Ja, req.uri().path().to_string()),
        };
        let user = match OptionalUser::from_request(req).await {
            Outcome::Success(OptionalUser(user)) => user,
            _ => None,
        };
        let Some(snapshot) = Snapshot::of(req).await else {
            return Outcome::Error((Status::InternalServerError, ()));
        };
        let csrf_token = user.as_ref().map(|_| csrf::token(req.cookies(), &site.config));
        Outcome::Success(Page {
            site,
            db,
            lang,
            path,
            now: clock.now(),
            user,
            csrf_token,
            travelled: clock.travelled_now(),
            tree: snapshot.tree.clone(),
        })
    }
}

impl Page<'_> {
    /// A message in the page's language.
    pub fn t(&self, key: &str) -> String {
        self.site.messages.t(self.lang, key)
    }

    /// How this page names open windows (its messages, language and clock).
    pub fn naming(&self) -> Naming<'_> {
        Naming { site: self.site, lang: self.lang, now: self.now }
    }

    /// The href of an unprefixed site path in the page's language.
    pub fn href(&self, path: &str) -> String {
        localized_path(self.lang, path)
    }

    /// Renders `template` with the base context plus `ctx` (an object).
    pub fn render(&self, template: &'static str, title: &str, ctx: Value) -> Template {
        let mut base = base_context(self.site, self.lang, &self.path, title, self.now);
        if let Some(user) = &self.user {
            signed_in_context(&mut base, user, self.lang, self.csrf_token.as_deref());
        }
        if let Some(at) = self.travelled {
            base.insert("time_travel".into(), json!(at.to_rfc3339()));
        }
        // The header's strip: what is open for entry or payment now, at every public event.
        base.insert("open_events".into(), json!(self.naming().open_events(&self.tree, None)));
        if let Value::Object(extra) = ctx {
            base.extend(extra);
        }
        Template::render(template, base)
    }
}

/// What the header shows of signed-in `user` (name, icon, the sign-out form's CSRF token),
/// added to a page's base context — pages and error pages alike.
pub fn signed_in_context(base: &mut Map<String, Value>, user: &user::Model, lang: Lang, csrf_token: Option<&str>) {
    let icon = user.icon().small.unwrap_or_else(|| PLACEHOLDER_ICON.to_string());
    base.insert("user".into(), json!({ "name": user.name(lang), "icon": icon, "vmarket_id": user.vmarket_id }));
    base.insert("csrf_token".into(), json!(csrf_token));
}

/// The context every layout reads.
pub fn base_context(site: &Site, lang: Lang, path: &str, title: &str, now: DateTime<Utc>) -> Map<String, Value> {
    let site_name = site.messages.t(lang, "site.name");
    let full_title =
        if title.is_empty() || title == site_name { site_name.clone() } else { format!("{title} | {site_name}") };
    let origin = site.config.site_url.trim_end_matches('/');
    let url_in = |l: Lang| format!("{origin}{}", localized_path(l, path));
    let other = match lang {
        Lang::Ja => Lang::En,
        Lang::En => Lang::Ja,
    };
    let Value::Object(map) = json!({
        "lang": lang.code(),
        "prefix": lang.prefix(),
        "home": localized_path(lang, "/"),
        "path": path,
        "site_name": site_name,
        "title": title,
        "full_title": full_title,
        "canonical": url_in(lang),
        "alternates": [
            {"hreflang": "ja", "href": url_in(Lang::Ja)},
            {"hreflang": "en", "href": url_in(Lang::En)},
            {"hreflang": "x-default", "href": url_in(Lang::Ja)},
        ],
        "switch_lang": {
            "code": other.code(),
            "href": format!("/__locale?lang={}&path={}", other.code(), url_encode(path)),
        },
        "login_href": login_href(&localized_path(lang, path)),
        "logout_href": format!("/auth/logout?next={}", url_encode(&localized_path(lang, "/"))),
        "assets": site.assets.tags(&[COMMON_ENTRY]),
        "build_id": site.assets.build_id,
        "now": now.to_rfc3339(),
        "environment": site.config.environment.as_str(),
        // Browser error reporting (the widgets' `@vmarket/telemetry`), off when empty.
        "sentry_browser_dsn": site.config.sentry_browser_dsn.trim(),
    }) else {
        unreachable!("a json! object literal is an object")
    };
    map
}

/// Percent-encodes a path for use inside a query value.
fn url_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
