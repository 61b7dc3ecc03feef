//! The in-game rate limits (managed state): the sign-in's, keyed on the client address a client
//! cannot forge (`crate::http::client_ip`) — opening device grants, and checking user codes on
//! mypage (polling is paced per grant by its interval, `slow_down`, instead) — and chat's, keyed
//! on the signed-in player.

use std::net::IpAddr;

use sea_orm::DatabaseConnection;

use crate::config::Config;
use crate::error::Result;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;

/// The limits.
pub struct IngameLimits {
    opens: Limiter<IpAddr>,
    checks: Limiter<IpAddr>,
    chat: Limiter<i32>,
}

impl IngameLimits {
    /// `ingame_codes_per_minute` of `config` for the sign-in's, `ingame_chat_per_minute` for
    /// chat.
    pub fn new(config: &Config, db: &DatabaseConnection) -> Self {
        Self {
            opens: Limiter::per_minute(db, "ingame_open", config.ingame_codes_per_minute),
            checks: Limiter::per_minute(db, "ingame_code", config.ingame_codes_per_minute),
            chat: Limiter::per_minute(db, "ingame_chat", config.ingame_chat_per_minute),
        }
    }

    /// Counts one chat message of user `user_id`; `RateLimited` beyond the limit.
    pub async fn chat(&self, user_id: i32) -> Result<()> {
        self.chat.check(&user_id).await
    }

    /// Counts one new grant from `client`; `RateLimited` beyond the limit.
    pub async fn open(&self, client: ClientIp) -> Result<()> {
        self.opens.check(&client.limit_key()).await
    }

    /// Counts one user code typed from `client`; `RateLimited` beyond the limit.
    pub async fn check(&self, client: ClientIp) -> Result<()> {
        self.checks.check(&client.limit_key()).await
    }
}
