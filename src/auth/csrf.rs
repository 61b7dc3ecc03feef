//! CSRF protection by double submit: a random token in the `vmarket_csrf` cookie that unsafe
//! cookie-authenticated requests must repeat in the `X-CSRF-Token` header (or a form field).
//! Pages put it in `<meta name="csrf-token">` for scripts.

use rocket::http::{Cookie, CookieJar, SameSite};
use subtle::ConstantTimeEq;

/// The cookie holding the token.
pub const CSRF_COOKIE: &str = "vmarket_csrf";
/// The header scripts send it back in.
pub const CSRF_HEADER: &str = "X-CSRF-Token";

/// The request's CSRF token, creating the cookie when there is none.
pub fn token(cookies: &CookieJar<'_>, secure: bool) -> String {
    if let Some(existing) = cookies.get(CSRF_COOKIE).map(|c| c.value().to_string()).filter(|v| v.len() == 64) {
        return existing;
    }
    let fresh = hex::encode(rand::random::<[u8; 32]>());
    cookies.add(Cookie::build((CSRF_COOKIE, fresh.clone())).path("/").same_site(SameSite::Strict).secure(secure));
    fresh
}

/// Whether `presented` matches the cookie, in constant time.
pub fn verify(cookies: &CookieJar<'_>, presented: Option<&str>) -> bool {
    match (cookies.get(CSRF_COOKIE), presented) {
        (Some(cookie), Some(given)) if !given.is_empty() => cookie.value().as_bytes().ct_eq(given.as_bytes()).into(),
        _ => false,
    }
}
