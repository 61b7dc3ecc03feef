//! The built-in account service (single sign-on), mounted at `/account` when `sso_domain` is
//! empty or points at this server: sign-in and sign-up pages, the SSO session cookie, one-time
//! codes for registered callbacks (bound to the callback and a PKCE challenge), tokens, sign-out
//! everywhere, password reset and change, and the JWKS.

pub mod api;
pub mod authorize;
pub mod keys;
pub mod limits;
pub mod logout;
pub mod pages;
pub mod password;
pub mod password_pages;
pub mod provision;
pub mod session;
pub mod store;
pub mod tokens;

pub use limits::SignInLimits;
pub use session::{SESSION, SESSION_COOKIE};

use rocket::Route;

/// Every route of the account service, mounted at `/account`.
pub fn routes() -> Vec<Route> {
    let mut routes = pages::routes();
    routes.extend(logout::routes());
    routes.extend(password_pages::routes());
    routes.extend(api::routes());
    routes
}
