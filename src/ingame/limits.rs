//! The in-game sign-in's rate limits (managed state), keyed on the client address a client
//! cannot forge (`crate::http::client_ip`): opening device grants, and checking user codes on
//! mypage. Polling is paced per grant by its interval (`slow_down`) instead.

use std::net::IpAddr;

use crate::config::Config;
use crate::error::Result;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;

/// The limits.
pub struct IngameLimits {
    opens: Limiter<IpAddr>,
    checks: Limiter<IpAddr>,
}

impl IngameLimits {
    /// `ingame_codes_per_minute` of `config` for each.
    pub fn new(config: &Config) -> Self {
        Self {
            opens: Limiter::per_minute(config.ingame_codes_per_minute),
            checks: Limiter::per_minute(config.ingame_codes_per_minute),
        }
    }

    /// Counts one new grant from `client`; `RateLimited` beyond the limit.
    pub fn open(&self, client: ClientIp) -> Result<()> {
        self.opens.check(&client.limit_key())
    }

    /// Counts one user code typed from `client`; `RateLimited` beyond the limit.
    pub fn check(&self, client: ClientIp) -> Result<()> {
        self.checks.check(&client.limit_key())
    }
}
