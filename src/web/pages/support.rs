//! Small page-side routes: the warm-up probe and the language switch.

use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, State, get, routes};
use sea_orm::DatabaseConnection;

use crate::error::{Error, Result};
use crate::http::Site;
use crate::http::redirect;
use crate::types::Lang;
use crate::web::locale::{MANUAL, is_page_path, localized_path, split_prefix};

/// Warm-up probe for load balancers: answers once the database answers.
#[get("/_ah/warmup")]
pub async fn warmup(db: &State<DatabaseConnection>) -> Result<&'static str> {
    db.ping().await?;
    Ok("OK")
}

/// Switches the interface language: stores the manual-locale cookie and goes to `path` in that
/// language. Only site page paths are followed (through the one safe-redirect function), so this
/// is no open redirect: `/en//evil.example` ends at the top page.
#[get("/__locale?<lang>&<path>")]
pub fn switch_locale(lang: &str, path: Option<&str>, cookies: &CookieJar<'_>, site: &State<Site>) -> Result<Redirect> {
    let lang = Lang::parse(lang).ok_or(Error::BadRequest { code: "invalid_lang" })?;
    let requested = redirect::site_path(path.unwrap_or("/"));
    let (_, unprefixed) = split_prefix(if is_page_path(&requested) { &requested } else { "/" });
    MANUAL.set(cookies, lang.code(), &site.config);
    Ok(redirect::to_site(&localized_path(lang, &unprefixed)))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![warmup, switch_locale]
}
