//! Sign-in states: what `/auth/login` remembers so that `/auth/callback` only finishes a sign-in
//! that this browser started, once, within minutes.
//!
//! A state is a random value kept in a short-lived HttpOnly cookie of the starting browser and
//! sent to the account service, which hands it back with the code. Only its SHA-256 is stored,
//! beside the PKCE verifier whose S256 challenge went to the account service (the verifier never
//! leaves this server) and the page to return to.

use chrono::{DateTime, Duration, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Expr;
use sea_orm::{ConnectionTrait, Set};
use subtle::ConstantTimeEq;

use crate::auth::secret::{digest, new_secret, pkce_challenge};
use crate::db::entities::sign_in_state;
use crate::error::Result;
use crate::types::Lang;

/// The cookie that binds a sign-in to the browser that started it (path `/auth`).
pub const STATE_COOKIE: &str = "vmarket_sign_in";

/// How long a started sign-in may be finished.
pub fn state_lifetime() -> Duration {
    Duration::minutes(10)
}

/// A sign-in just started: the state for the cookie and the account service, and the PKCE
/// challenge for the account service.
#[derive(Debug, Clone)]
pub struct Started {
    /// The state value.
    pub state: String,
    /// The S256 challenge of the verifier kept here.
    pub code_challenge: String,
}

/// Why a callback's state was refused (all answer the same page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateProblem {
    /// No state in the URL or no cookie.
    Missing,
    /// The URL's state is not this browser's.
    Mismatch,
    /// Unknown, already used or expired.
    Spent,
}

/// Starts a sign-in returning to `next` (already a safe site path) in `lang`.
pub async fn start(db: &impl ConnectionTrait, next: &str, lang: Lang, now: DateTime<Utc>) -> Result<Started> {
    // Old states are useless after their lifetime; clear them as new ones come.
    sign_in_state::Entity::delete_many()
        .filter(sign_in_state::Column::ExpiresAt.lt(now - Duration::days(1)))
        .exec(db)
        .await?;
    let state = new_secret();
    let verifier = format!("{}{}", new_secret(), new_secret());
    sign_in_state::ActiveModel {
        state_hash: Set(digest(&state)),
        code_verifier: Set(verifier.clone()),
        next: Set(next.to_string()),
        lang: Set(lang.code().to_string()),
        created_at: Set(now),
        expires_at: Set(now + state_lifetime()),
        used_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(Started { state, code_challenge: pkce_challenge(&verifier) })
}

/// Takes the state of a callback: it must equal the browser's cookie, be known, unused and
/// unexpired; it is marked used in the same statement that checks it, so it works once.
pub async fn take(
    db: &impl ConnectionTrait,
    presented: Option<&str>,
    cookie: Option<&str>,
    now: DateTime<Utc>,
) -> Result<std::result::Result<sign_in_state::Model, StateProblem>> {
    let (Some(presented), Some(cookie)) = (presented.filter(|s| !s.is_empty()), cookie.filter(|s| !s.is_empty()))
    else {
        return Ok(Err(StateProblem::Missing));
    };
    if !bool::from(presented.as_bytes().ct_eq(cookie.as_bytes())) {
        return Ok(Err(StateProblem::Mismatch));
    }
    let Some(row) =
        sign_in_state::Entity::find().filter(sign_in_state::Column::StateHash.eq(digest(presented))).one(db).await?
    else {
        return Ok(Err(StateProblem::Spent));
    };
    let taken = sign_in_state::Entity::update_many()
        .col_expr(sign_in_state::Column::UsedAt, Expr::value(now))
        .filter(sign_in_state::Column::Id.eq(row.id))
        .filter(sign_in_state::Column::UsedAt.is_null())
        .filter(sign_in_state::Column::ExpiresAt.gt(now))
        .exec(db)
        .await?;
    Ok(if taken.rows_affected == 1 { Ok(row) } else { Err(StateProblem::Spent) })
}
