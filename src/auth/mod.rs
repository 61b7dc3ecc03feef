//! The product side of sign-in: verifying account-service tokens against its JWKS, the request
//! guards, CSRF, the sign-in state, the secrets and PKCE challenges it shares with the account
//! service, and the links that start a sign-in. Its browser routes (`/auth/…`) render pages and
//! so live with them, in `crate::web::sign_in`.

pub mod claims;
pub mod csrf;
pub mod guards;
pub mod jwks;
pub mod links;
pub mod password;
pub mod secret;
pub mod sign_in;
pub mod verify;

use std::time::Duration;

use crate::config::Config;
use jwks::JwksCache;

/// The HttpOnly cookie that carries the token for browsers.
pub const TOKEN_COOKIE: &str = "vmarket_token";

/// How the product reaches the account service.
pub struct Sso {
    /// Base URL of the account service (also the tokens' issuer).
    pub issuer: String,
    /// This site's one registered callback, `{site_url}/auth/callback`.
    pub callback_url: String,
    /// HTTP client for the code exchange and the JWKS.
    pub client: reqwest::Client,
    /// The public keys.
    pub jwks: JwksCache,
}

impl Sso {
    /// The account service configured in `config`.
    pub fn new(config: &Config) -> Self {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .user_agent(concat!("vmarket/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        let issuer = config.sso_base();
        let jwks = JwksCache::new(client.clone(), format!("{issuer}/auth/discovery/keys"));
        let callback_url = format!("{}/auth/callback", config.site_url.trim_end_matches('/'));
        Self { issuer, callback_url, client, jwks }
    }
}
