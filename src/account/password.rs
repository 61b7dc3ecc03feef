//! Password reset and change at the built-in account service (issue 26 item 6).
//!
//! - **Reset**: someone gives an address; if an account has it, a token (256 random bits, only
//!   its SHA-256 stored) is mailed in the account's language with a link valid 30 minutes. The
//!   answer is the same whether or not the address exists. The token sets a new password once
//!   (one conditional update spends it, so two uses at once cannot both win).
//! - **Change**: the signed-in account gives its current password and a new one.
//!
//! Both end every session of the account — the account service's sessions, every token the
//! product accepted so far (the token generation moves on, and the product's user learns it at
//! once, in the same transaction) and every in-game session — so whoever knew the old password
//! is signed out everywhere; the browser that made the change gets a fresh session.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde_json::json;

use crate::auth::password;
use crate::auth::secret::{digest, new_secret};
use crate::db::entities::{account, account_password_reset, ingame_session, user};
use crate::error::{Error, Result};
use crate::mail::{MailKind, Mailer, Outgoing, Queued};
use crate::types::Lang;

/// How long a reset link works.
pub const RESET_MINUTES: i64 = 30;

/// Whether `password` is acceptable: 8 to 128 characters (as at sign-up).
pub fn acceptable(password: &str) -> bool {
    password.chars().count() >= 8 && password.len() <= 128
}

/// Starts a reset for the account of `email`, if there is one: stores the token's hash and
/// queues the mail with the link (`reset_url` + the token). `None` when no account has the
/// address (the caller answers the same either way).
pub async fn start_reset(
    db: &impl ConnectionTrait,
    mailer: &Mailer,
    email: &str,
    reset_url: &str,
    now: DateTime<Utc>,
) -> Result<Option<Queued>> {
    let Some(found) = account::Model::by_email(db, email).await? else { return Ok(None) };
    let token = new_secret();
    account_password_reset::ActiveModel {
        account_id: Set(found.id),
        token_hash: Set(digest(&token)),
        created_at: Set(now),
        expires_at: Set(now + Duration::minutes(RESET_MINUTES)),
        used_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    let lang = match user::Model::by_sub(db, &found.sub).await? {
        Some(u) => Lang::parse(&u.lang).unwrap_or_default(),
        None => Lang::default(),
    };
    let separator = if reset_url.contains('?') { '&' } else { '?' };
    let link = format!("{reset_url}{separator}lang={lang}&token={token}");
    let outgoing = Outgoing {
        to: found.email.clone(),
        lang,
        kind: MailKind::PasswordReset,
        context: json!({ "link": link, "minutes": RESET_MINUTES, "recipient_name": lang.pick(&found.name_ja, &found.name_en) }),
    };
    Ok(Some(mailer.queue(db, &outgoing, now).await?))
}

/// Whether `token` is a reset that still works (the page asks before showing its form).
pub async fn reset_usable(db: &impl ConnectionTrait, token: &str, now: DateTime<Utc>) -> Result<bool> {
    Ok(account_password_reset::Entity::find()
        .filter(account_password_reset::Column::TokenHash.eq(digest(token)))
        .filter(account_password_reset::Column::UsedAt.is_null())
        .filter(account_password_reset::Column::ExpiresAt.gt(now))
        .one(db)
        .await?
        .is_some())
}

/// Sets `new_password` with the reset `token`: once, within its 30 minutes (409
/// `reset_link_invalid` otherwise); ends every session. The account.
pub async fn finish_reset(
    db: &impl ConnectionTrait,
    token: &str,
    new_password: &str,
    now: DateTime<Utc>,
) -> Result<account::Model> {
    let invalid = || Error::Conflict { code: "reset_link_invalid" };
    let found = account_password_reset::Entity::find()
        .filter(account_password_reset::Column::TokenHash.eq(digest(token)))
        .one(db)
        .await?
        .ok_or_else(invalid)?;
    let spent = account_password_reset::Entity::update_many()
        .col_expr(account_password_reset::Column::UsedAt, Expr::value(now))
        .filter(account_password_reset::Column::Id.eq(found.id))
        .filter(account_password_reset::Column::UsedAt.is_null())
        .filter(account_password_reset::Column::ExpiresAt.gt(now))
        .exec(db)
        .await?;
    if spent.rows_affected != 1 {
        return Err(invalid());
    }
    let owner = account::Entity::find_by_id(found.account_id).one(db).await?.ok_or_else(invalid)?;
    set_password(db, &owner, new_password, now).await
}

/// Changes the password of `owner` after checking `current` (422 `wrong_password`); ends every
/// session. The account.
pub async fn change(
    db: &impl ConnectionTrait,
    owner: &account::Model,
    current: &str,
    new_password: &str,
    now: DateTime<Utc>,
) -> Result<account::Model> {
    if !password::verify(current, &owner.password_hash) {
        return Err(Error::Refused { code: "wrong_password" });
    }
    set_password(db, owner, new_password, now).await
}

/// Stores the hash of `new_password`, unused reset links die, and every session ends.
async fn set_password(
    db: &impl ConnectionTrait,
    owner: &account::Model,
    new_password: &str,
    now: DateTime<Utc>,
) -> Result<account::Model> {
    let mut row = account::ActiveModel { id: Set(owner.id), ..Default::default() };
    row.password_hash = Set(password::hash(new_password)?);
    row.updated_at = Set(now);
    row.update(db).await?;
    account_password_reset::Entity::update_many()
        .col_expr(account_password_reset::Column::UsedAt, Expr::value(now))
        .filter(account_password_reset::Column::AccountId.eq(owner.id))
        .filter(account_password_reset::Column::UsedAt.is_null())
        .exec(db)
        .await?;
    let generation = owner.sign_out_everywhere(db).await?;
    if let Some(product_user) = user::Model::by_sub(db, &owner.sub).await? {
        product_user.revoke_tokens_below(db, generation).await?;
        ingame_session::Entity::update_many()
            .col_expr(ingame_session::Column::RevokedAt, Expr::value(now))
            .filter(ingame_session::Column::UserId.eq(product_user.id))
            .filter(ingame_session::Column::RevokedAt.is_null())
            .exec(db)
            .await?;
    }
    account::Entity::find_by_id(owner.id).one(db).await?.ok_or_else(Error::not_found)
}
