//! Device grants (RFC 8628, ASSETS.md "In-game"): a game client opens one and shows the user
//! code; the user, signed in on the site, types it and allows or refuses the client; the client
//! polls with its device code until the grant is decided, and an allowed grant is traded for an
//! in-game token exactly once.
//!
//! Every state change is one conditional `UPDATE` (`WHERE status = …`), so two confirmations or
//! two polls racing cannot both win: of any number of polls of an allowed grant, one receives a
//! token. Expiry is on the real clock (time travel moves events, not credentials).
//!
//! The client's errors carry the names RFC 8628 §3.5 and RFC 6749 §5.2 give them (as
//! [`Error::BadRequest`] codes): `authorization_pending`, `slow_down`, `expired_token`,
//! `access_denied`, `invalid_grant`.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set, SqlErr,
};

use crate::auth::secret::digest;
use crate::db::entities::ingame_device_grant::{self, GrantStatus};
use crate::db::entities::ingame_session;
use crate::error::{Error, Result};
use crate::ingame::codes::{UserCode, device_code};

/// How long a grant waits for the user: ten minutes.
pub const LIFETIME_SECS: i64 = 600;
/// The polling interval a client starts with, in seconds.
pub const INTERVAL_SECS: i32 = 5;
/// What each `slow_down` adds to the interval (RFC 8628 §3.5).
pub const SLOW_DOWN_SECS: i32 = 5;
/// Wrong user codes a grant survives; the fifth kills it.
pub const MAX_FAILED_CHECKS: i32 = 5;
/// Attempts at a free lookup half before giving up (each collides with probability at most the
/// share of the 160,000 halves held by live grants).
const ATTEMPTS: usize = 8;

/// A grant as its client receives it (RFC 8628 §3.2), before the URLs are added.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The client's secret for polling.
    pub device_code: String,
    /// What the user types.
    pub user_code: UserCode,
    /// Seconds until the grant expires.
    pub expires_in: i64,
    /// Seconds between polls.
    pub interval: i32,
}

/// What a user's check of a code found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The grant.
    pub grant: ingame_device_grant::Model,
    /// The code, normalised.
    pub code: UserCode,
}

fn grant_error(code: &'static str) -> Error {
    Error::BadRequest { code }
}

impl ingame_device_grant::Model {
    /// Opens a grant for the client `client_name`; grants past their expiry are deleted first.
    pub async fn open(db: &impl ConnectionTrait, client_name: &str, now: DateTime<Utc>) -> Result<Opened> {
        ingame_device_grant::Entity::delete_many()
            .filter(ingame_device_grant::Column::ExpiresAt.lt(now))
            .exec(db)
            .await?;
        for _ in 0..ATTEMPTS {
            let (device, user_code) = (device_code(), UserCode::generate());
            let row = ingame_device_grant::ActiveModel {
                device_code_hash: Set(digest(&device)),
                lookup: Set(user_code.lookup().to_string()),
                user_code_hash: Set(digest(user_code.as_str())),
                client_name: Set(client_name.to_string()),
                status: Set(GrantStatus::Pending),
                user_id: Set(None),
                failed_checks: Set(0),
                interval_secs: Set(INTERVAL_SECS),
                last_polled_at: Set(None),
                expires_at: Set(now + Duration::seconds(LIFETIME_SECS)),
                created_at: Set(now),
                ..Default::default()
            };
            match row.insert(db).await {
                Ok(_) => {
                    return Ok(Opened {
                        device_code: device,
                        user_code,
                        expires_in: LIFETIME_SECS,
                        interval: INTERVAL_SECS,
                    });
                }
                Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(Error::Conflict { code: "ingame_codes_exhausted" })
    }

    /// The pending grant whose code the user typed: 422 `ingame_code_malformed` for something
    /// that is not a code, 404 `ingame_code_wrong` for a code of no live grant. A code whose
    /// first half finds a pending grant but whose second half is wrong counts against that grant,
    /// and the fifth such code kills it.
    pub async fn check(db: &impl ConnectionTrait, typed: &str, now: DateTime<Utc>) -> Result<Checked> {
        let code = UserCode::parse(typed).ok_or_else(|| Error::invalid("user_code", "validation.ingame_code"))?;
        let wrong = || Error::NotFound { code: "ingame_code_wrong" };
        let found = ingame_device_grant::Entity::find()
            .filter(ingame_device_grant::Column::Lookup.eq(code.lookup()))
            .filter(ingame_device_grant::Column::Status.eq(GrantStatus::Pending))
            .filter(ingame_device_grant::Column::ExpiresAt.gt(now))
            .one(db)
            .await?
            .ok_or_else(wrong)?;
        if found.user_code_hash == digest(code.as_str()) {
            return Ok(Checked { grant: found, code });
        }
        ingame_device_grant::Entity::update_many()
            .col_expr(
                ingame_device_grant::Column::FailedChecks,
                Expr::col(ingame_device_grant::Column::FailedChecks).add(1),
            )
            .filter(ingame_device_grant::Column::Id.eq(found.id))
            .exec(db)
            .await?;
        ingame_device_grant::Entity::update_many()
            .col_expr(ingame_device_grant::Column::Status, Expr::value(GrantStatus::Dead))
            .filter(ingame_device_grant::Column::Id.eq(found.id))
            .filter(ingame_device_grant::Column::Status.eq(GrantStatus::Pending))
            .filter(ingame_device_grant::Column::FailedChecks.gte(MAX_FAILED_CHECKS))
            .exec(db)
            .await?;
        Err(wrong())
    }

    /// The user `user_id` allows (or refuses) the grant whose code they typed; the code is
    /// checked again, and only a pending grant changes (a second decision finds none: 404).
    pub async fn decide(
        db: &impl ConnectionTrait,
        typed: &str,
        user_id: i32,
        allow: bool,
        now: DateTime<Utc>,
    ) -> Result<Checked> {
        let checked = Self::check(db, typed, now).await?;
        let status = if allow { GrantStatus::Approved } else { GrantStatus::Denied };
        let changed = ingame_device_grant::Entity::update_many()
            .col_expr(ingame_device_grant::Column::Status, Expr::value(status))
            .col_expr(ingame_device_grant::Column::UserId, Expr::value(user_id))
            .filter(ingame_device_grant::Column::Id.eq(checked.grant.id))
            .filter(ingame_device_grant::Column::Status.eq(GrantStatus::Pending))
            .exec(db)
            .await?;
        if changed.rows_affected != 1 {
            return Err(Error::NotFound { code: "ingame_code_wrong" });
        }
        Ok(checked)
    }

    /// One poll of the client holding `device`: a new in-game session of the user who allowed
    /// the grant and its token, exactly once; otherwise the RFC's answer for where the grant
    /// stands. The session is made in the transaction that spends the grant, so a failure to
    /// make it spends nothing.
    pub async fn poll(
        db: &DatabaseConnection,
        device: &str,
        now: DateTime<Utc>,
    ) -> Result<(ingame_session::Model, String)> {
        let found = ingame_device_grant::Entity::find()
            .filter(ingame_device_grant::Column::DeviceCodeHash.eq(digest(device)))
            .one(db)
            .await?
            .ok_or_else(|| grant_error("invalid_grant"))?;
        match found.status {
            GrantStatus::Issued => return Err(grant_error("invalid_grant")),
            GrantStatus::Dead => return Err(grant_error("expired_token")),
            _ if found.expires_at <= now => return Err(grant_error("expired_token")),
            GrantStatus::Denied => return Err(grant_error("access_denied")),
            GrantStatus::Pending => return Err(found.wait(db, now).await?),
            GrantStatus::Approved => {}
        }
        let txn = crate::db::begin_write(db).await?;
        let spent = ingame_device_grant::Entity::update_many()
            .col_expr(ingame_device_grant::Column::Status, Expr::value(GrantStatus::Issued))
            .col_expr(ingame_device_grant::Column::LastPolledAt, Expr::value(now))
            .filter(ingame_device_grant::Column::Id.eq(found.id))
            .filter(ingame_device_grant::Column::Status.eq(GrantStatus::Approved))
            .exec(&txn)
            .await?;
        if spent.rows_affected != 1 {
            return Err(grant_error("invalid_grant"));
        }
        let user_id = found.user_id.ok_or_else(|| Error::Internal("an allowed grant without its user".into()))?;
        let made = ingame_session::Model::issue(&txn, user_id, &found.client_name, now).await?;
        txn.commit().await?;
        Ok(made)
    }

    /// A poll of a pending grant: `authorization_pending`, or `slow_down` (and a longer interval)
    /// when it came sooner than the interval allows.
    async fn wait(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Error> {
        let too_soon =
            self.last_polled_at.is_some_and(|last| now < last + Duration::seconds(i64::from(self.interval_secs)));
        let mut row = ingame_device_grant::ActiveModel { id: Set(self.id), ..Default::default() };
        row.last_polled_at = Set(Some(now));
        if too_soon {
            row.interval_secs = Set(self.interval_secs + SLOW_DOWN_SECS);
        }
        row.update(db).await?;
        Ok(grant_error(if too_soon { "slow_down" } else { "authorization_pending" }))
    }
}
