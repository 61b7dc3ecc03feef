//! Small page-side routes: the warm-up probe and the language switch.

use rocket::http::{Cookie, CookieJar, SameSite};
use rocket::response::Redirect;
use rocket::time::Duration;
use rocket::{Route, State, get, routes};
use sea_orm::DatabaseConnection;

use crate::error::{Error, Result};
use crate::i18n::Lang;
use crate::web::locale::{MANUAL_LOCALE_COOKIE, is_page_path, localized_path, split_prefix};

/// Warm-up probe for load balancers: answers once the database answers.
#[get("/_ah/warmup")]
pub async fn warmup(db: &State<DatabaseConnection>) -> Result<&'static str> {
    db.ping().await?;
    Ok("OK")
}

/// Switches the interface language: stores the manual-locale cookie and goes to `path` in that
/// language. Only site-relative page paths are accepted, so this is no open redirect.
#[get("/__locale?<lang>&<path>")]
pub fn switch_locale(lang: &str, path: Option<&str>, cookies: &CookieJar<'_>) -> Result<Redirect> {
    let lang = Lang::parse(lang).ok_or(Error::BadRequest { code: "invalid_lang" })?;
    let requested = path.unwrap_or("/");
    let safe = requested.starts_with('/')
        && !requested.starts_with("//")
        && !requested.contains('\\')
        && is_page_path(requested);
    let (_, unprefixed) = split_prefix(if safe { requested } else { "/" });
    cookies.add(
        Cookie::build((MANUAL_LOCALE_COOKIE, lang.code()))
            .path("/")
            .max_age(Duration::days(365))
            .same_site(SameSite::Lax),
    );
    Ok(Redirect::to(localized_path(lang, &unprefixed)))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![warmup, switch_locale]
}
