//! The built-in account service (single sign-on), mounted at `/account` when `sso_domain` is
//! empty or points at this server: sign-in and sign-up pages, the SSO session cookie, one-time
//! codes for registered callbacks (bound to the callback and a PKCE challenge), tokens, sign-out
//! everywhere and the JWKS.

pub mod api;
pub mod authorize;
pub mod keys;
pub mod logout;
pub mod pages;
pub mod password;
pub mod provision;
pub mod store;
pub mod tokens;

use std::net::IpAddr;

use rocket::Route;
use rocket::time::Duration;

use crate::config::Config;
use crate::error::Result;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;
use crate::web::cookies::Spec;

/// The SSO session cookie name.
pub const SESSION_COOKIE: &str = "vmarket_sso";

/// The SSO session cookie: HttpOnly, only for `/account`, as long as the session lives.
pub const SESSION: Spec = Spec::new(SESSION_COOKIE, "/account").max_age(Duration::days(30));

/// Limits on sign-in and sign-up attempts: per client (IP, or IPv6 /64) and per account (the
/// email tried), so neither many accounts from one place nor one account from many places can be
/// guessed at speed.
pub struct SignInLimits {
    per_client: Limiter<IpAddr>,
    per_account: Limiter<String>,
}

impl SignInLimits {
    /// The limits of `config` (`sign_in_per_minute`, `sign_in_per_account_per_hour`).
    pub fn new(config: &Config) -> Self {
        Self {
            per_client: Limiter::per_minute(config.sign_in_per_minute),
            per_account: Limiter::per_hour(config.sign_in_per_account_per_hour),
        }
    }

    /// Counts an attempt from `client`, and for the account of `email` when given.
    pub fn check(&self, client: ClientIp, email: Option<&str>) -> Result<()> {
        self.per_client.check(&client.limit_key())?;
        if let Some(email) = email {
            self.per_account.check(&email.trim().to_lowercase())?;
        }
        Ok(())
    }
}

/// Every route of the account service, mounted at `/account`.
pub fn routes() -> Vec<Route> {
    let mut routes = pages::routes();
    routes.extend(logout::routes());
    routes.extend(api::routes());
    routes
}
