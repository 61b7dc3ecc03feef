//! Limits on sign-in and sign-up attempts.

use std::net::IpAddr;

use sea_orm::DatabaseConnection;

use crate::config::Config;
use crate::error::Result;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;

/// Limits on sign-in and sign-up attempts: per client (IP, or IPv6 /64) and per account (the
/// email tried), so neither many accounts from one place nor one account from many places can be
/// guessed at speed.
pub struct SignInLimits {
    per_client: Limiter<IpAddr>,
    per_account: Limiter<String>,
}

impl SignInLimits {
    /// The limits of `config` (`sign_in_per_minute`, `sign_in_per_account_per_hour`).
    pub fn new(config: &Config, db: &DatabaseConnection) -> Self {
        Self {
            per_client: Limiter::per_minute(db, "sign_in_client", config.sign_in_per_minute),
            per_account: Limiter::per_hour(db, "sign_in_account", config.sign_in_per_account_per_hour),
        }
    }

    /// Counts an attempt from `client`, and for the account of `email` when given.
    pub async fn check(&self, client: ClientIp, email: Option<&str>) -> Result<()> {
        self.per_client.check(&client.limit_key()).await?;
        if let Some(email) = email {
            self.per_account.check(&email.trim().to_lowercase()).await?;
        }
        Ok(())
    }
}
