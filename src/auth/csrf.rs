//! CSRF protection by double submit: a random token in the `vmarket_csrf` cookie that unsafe
//! cookie-authenticated requests must repeat in the `X-CSRF-Token` header (or a form field).
//! Pages put it in `<meta name="csrf-token">` for scripts.

use rocket::http::{CookieJar, SameSite};
use subtle::ConstantTimeEq;

use crate::config::Config;
use crate::http::cookies::Spec;

/// The cookie holding the token.
pub const CSRF_COOKIE: &str = "vmarket_csrf";
/// The header scripts send it back in.
pub const CSRF_HEADER: &str = "X-CSRF-Token";

/// The cookie: HttpOnly (pages hand the token to scripts and forms), same-site requests only.
pub const COOKIE: Spec = Spec::new(CSRF_COOKIE, "/").same_site(SameSite::Strict);

/// The request's CSRF token, creating the cookie when there is none.
pub fn token(cookies: &CookieJar<'_>, config: &Config) -> String {
    if let Some(existing) = COOKIE.get(cookies).filter(|v| v.len() == 64) {
        return existing;
    }
    let fresh = hex::encode(rand::random::<[u8; 32]>());
    COOKIE.set(cookies, fresh.clone(), config);
    fresh
}

/// Whether `presented` matches the cookie, in constant time.
pub fn verify(cookies: &CookieJar<'_>, presented: Option<&str>) -> bool {
    match (cookies.get(CSRF_COOKIE), presented) {
        (Some(cookie), Some(given)) if !given.is_empty() => cookie.value().as_bytes().ct_eq(given.as_bytes()).into(),
        _ => false,
    }
}
