//! The built-in account service (single sign-on), mounted at `/account` when `sso_domain` is
//! empty or points at this server: sign-in and sign-up pages, the SSO session cookie, one-time
//! codes for the product's callback, tokens and the JWKS.

pub mod api;
pub mod keys;
pub mod pages;
pub mod password;
pub mod store;
pub mod tokens;

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use rocket::Route;
use url::Url;

use crate::config::Config;
use crate::error::{Error, Result};

/// The SSO session cookie (path `/account`).
pub const SESSION_COOKIE: &str = "vmarket_sso";

/// Per-client limits on sign-in and sign-up attempts.
pub struct AccountLimiter(DefaultKeyedRateLimiter<IpAddr>);

impl AccountLimiter {
    /// `per_minute` attempts per client IP and minute.
    pub fn new(per_minute: u32) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN));
        Self(RateLimiter::keyed(quota))
    }

    /// Counts an attempt from `ip`; `RateLimited` with the wait when over the limit.
    pub fn check(&self, ip: Option<IpAddr>) -> Result<()> {
        let ip = ip.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        self.0.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(&governor::clock::DefaultClock::default()));
            Error::RateLimited { retry_after: wait.as_secs().max(1) }
        })
    }
}

/// The absolute URL `redirect_url` may send the browser to, or `None` when it would leave the
/// site: only this site's origin and `sso_allowed_origins` are accepted (no open redirect).
pub fn allowed_redirect(config: &Config, redirect_url: &str) -> Option<Url> {
    let site = Url::parse(&config.site_url).ok()?;
    let candidate = if redirect_url.starts_with('/') && !redirect_url.starts_with("//") && !redirect_url.contains('\\')
    {
        site.join(redirect_url).ok()?
    } else {
        Url::parse(redirect_url).ok()?
    };
    if !matches!(candidate.scheme(), "http" | "https")
        || !candidate.username().is_empty()
        || candidate.password().is_some()
    {
        return None;
    }
    let origin = candidate.origin().ascii_serialization();
    let allowed = origin == site.origin().ascii_serialization()
        || config.sso_allowed_origins.iter().any(|o| o.trim_end_matches('/') == origin);
    allowed.then_some(candidate)
}

/// Every route of the account service, mounted at `/account`.
pub fn routes() -> Vec<Route> {
    let mut routes = pages::routes();
    routes.extend(api::routes());
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            site_url: "https://vmarket.test".into(),
            sso_allowed_origins: vec!["https://partner.example".into()],
            ..Config::default()
        }
    }

    #[test]
    fn redirects_stay_on_allowed_origins() {
        let c = config();
        assert_eq!(allowed_redirect(&c, "/mypage").unwrap().as_str(), "https://vmarket.test/mypage");
        assert!(allowed_redirect(&c, "https://vmarket.test/auth/callback?next=%2F").is_some());
        assert!(allowed_redirect(&c, "https://partner.example/x").is_some());
        for bad in [
            "https://evil.example/",
            "//evil.example/x",
            "/\\evil.example",
            "https://vmarket.test.evil.example/",
            "https://user@vmarket.test/",
            "javascript:alert(1)",
            "http://vmarket.test/",
            "https://vmarket.test:8443/",
            "",
            "mypage",
        ] {
            assert!(allowed_redirect(&c, bad).is_none(), "{bad:?} is refused");
        }
    }

    #[test]
    fn the_limiter_says_when_to_retry() {
        let limiter = AccountLimiter::new(2);
        let ip = Some(IpAddr::from([10, 0, 0, 1]));
        assert!(limiter.check(ip).is_ok());
        assert!(limiter.check(ip).is_ok());
        match limiter.check(ip) {
            Err(Error::RateLimited { retry_after }) => assert!((1..=60).contains(&retry_after)),
            other => panic!("expected rate limit, got {other:?}"),
        }
        assert!(limiter.check(Some(IpAddr::from([10, 0, 0, 2]))).is_ok(), "limits are per client");
    }
}
