//! The staff console: the react-admin single-page app at `/admin`, for staff only, and its REST
//! facade under `/admin/api`.
//!
//! A signed-out visitor is sent through sign-in and back; a signed-in user without a staff role
//! gets a 403 page in their language. Staff get the app with a per-request style nonce (its
//! CSS-in-JS adds `<style>` elements; scripts stay `'self'` only) and the CSRF token.

pub mod api;
pub mod clock;
pub mod dashboard;
pub mod permissions;
pub mod session;
pub mod time_travel;

use std::path::PathBuf;

use rocket::http::{ContentType, CookieJar, Header, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::{Route, State, get, routes};

use crate::auth::csrf;
use crate::auth::guards::OptionalUser;
use crate::auth::links::auto_login_href;
use crate::error::{Error, Result};
use crate::http::Site;
use crate::i18n::tera::escape_html;
use crate::model::user::Role;
use crate::types::Lang;
use crate::web::headers::SecurityHeaders;
use crate::web::locale::MANUAL_LOCALE_COOKIE;

/// What `/admin` answers.
pub enum Console {
    /// Signed out: off to sign in, back here afterwards.
    SignIn(String),
    /// Signed in without a staff role.
    Forbidden(Lang),
    /// The app.
    App {
        /// `index.html` with the nonce and CSRF token in it.
        html: String,
        /// Its Content-Security-Policy.
        csp: String,
    },
}

impl<'r> Responder<'r, 'static> for Console {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        match self {
            Console::SignIn(path) => crate::http::redirect::to_site(&auto_login_href(&path)).respond_to(req),
            Console::Forbidden(lang) => {
                crate::web::errors::page_response_in(req, Status::Forbidden, "forbidden", Some(lang))
            }
            Console::App { html, csp } => Response::build()
                .header(ContentType::HTML)
                .header(Header::new("Content-Security-Policy", csp))
                .header(Header::new("Cache-Control", "no-store"))
                .sized_body(html.len(), std::io::Cursor::new(html))
                .ok(),
        }
    }
}

async fn console(
    path: String,
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &Site,
    headers: &SecurityHeaders,
) -> Result<Console> {
    let Some(user) = user.0 else { return Ok(Console::SignIn(path)) };
    if user.role == Role::None {
        let lang = cookies
            .get(MANUAL_LOCALE_COOKIE)
            .and_then(|c| Lang::parse(c.value()))
            .or_else(|| Lang::parse(&user.lang))
            .unwrap_or_default();
        return Ok(Console::Forbidden(lang));
    }
    let index = PathBuf::from(&site.config.dist_dir).join("admin/index.html");
    let page = tokio::fs::read_to_string(&index)
        .await
        .map_err(|_| Error::Internal(format!("admin console not built: {}", index.display())))?;
    let nonce = hex::encode(rand::random::<[u8; 16]>());
    let mut metas = format!(
        "<meta name=\"csp-nonce\" content=\"{nonce}\"><meta name=\"csrf-token\" content=\"{}\">",
        csrf::token(cookies, &site.config)
    );
    // Browser error reporting, as on the site's pages (base.html.tera): the console's release is
    // the front-end build's id.
    let dsn = site.config.sentry_browser_dsn.trim();
    if !dsn.is_empty() {
        metas.push_str(&format!(
            "<meta name=\"vmarket-build-id\" content=\"{}\"><meta name=\"vmarket-sentry-dsn\" content=\"{}\">\
             <meta name=\"vmarket-sentry-environment\" content=\"{}\">",
            escape_html(&site.assets.build_id),
            escape_html(dsn),
            site.config.environment.as_str()
        ));
    }
    metas.push_str("</head>");
    Ok(Console::App { html: page.replacen("</head>", &metas, 1), csp: headers.csp_with_style_nonce(&nonce) })
}

/// The console's entry page.
#[get("/")]
pub async fn index(
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    headers: &State<SecurityHeaders>,
) -> Result<Console> {
    console("/admin".into(), user, cookies, site, headers).await
}

/// Client-side routes of the console all load the same page (never `/admin/api/…`, whose routes
/// are more specific). Ranked before the site's `/<permalink>/…` pages, which would otherwise
/// take `/admin/worlds` for the worlds of an event called `admin`.
#[get("/<path..>", rank = 1)]
pub async fn client_route(
    path: PathBuf,
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    headers: &State<SecurityHeaders>,
) -> Result<Option<Console>> {
    if path.starts_with("api") {
        return Ok(None);
    }
    let shown = format!("/admin/{}", path.to_string_lossy());
    console(shown, user, cookies, site, headers).await.map(Some)
}

/// Routes mounted at `/admin`.
pub fn routes() -> Vec<Route> {
    let mut routes = routes![index, client_route];
    routes.extend(session::routes());
    routes.extend(api::routes());
    routes.extend(api::images::routes());
    routes.extend(clock::routes());
    routes.extend(dashboard::routes());
    routes
}
