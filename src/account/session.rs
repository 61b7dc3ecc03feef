//! The account service's session cookie.

use rocket::time::Duration;

use crate::http::cookies::Spec;

/// The SSO session cookie name.
pub const SESSION_COOKIE: &str = "vmarket_sso";

/// The SSO session cookie: HttpOnly, only for `/account`, as long as the session lives.
pub const SESSION: Spec = Spec::new(SESSION_COOKIE, "/account").max_age(Duration::days(30));
