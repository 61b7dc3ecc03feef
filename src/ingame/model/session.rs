//! In-game sessions: the opaque token a device grant ends in (ASSETS.md "In-game"), stored as
//! its SHA-256, good for 30 days on the real clock unless its user revokes it from mypage. Only
//! `/ingame` accepts it, and `/ingame` accepts nothing else (`crate::ingame::player`).

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::auth::secret::digest;
use crate::db::entities::ingame_session;
use crate::error::{Error, Result};
use crate::ingame::codes::{TOKEN_PREFIX, ingame_token};

/// How long a token lives.
pub const LIFETIME_DAYS: i64 = 30;
/// `last_used_at` is written at most this often per session (a token is used on every call).
const TOUCH_EVERY_SECS: i64 = 300;

impl ingame_session::Model {
    /// A new session of `user_id` for the client `client_name`, and its token (shown once).
    pub async fn issue(
        db: &impl ConnectionTrait,
        user_id: i32,
        client_name: &str,
        now: DateTime<Utc>,
    ) -> Result<(Self, String)> {
        let token = ingame_token();
        let row = ingame_session::ActiveModel {
            user_id: Set(user_id),
            token_hash: Set(digest(&token)),
            client_name: Set(client_name.to_string()),
            created_at: Set(now),
            last_used_at: Set(now),
            expires_at: Set(now + Duration::days(LIFETIME_DAYS)),
            revoked_at: Set(None),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok((row, token))
    }

    /// The live session `token` belongs to (none for anything else: a site token, an expired or
    /// revoked one); notes the use.
    pub async fn authenticate(db: &impl ConnectionTrait, token: &str, now: DateTime<Utc>) -> Result<Option<Self>> {
        if !token.starts_with(TOKEN_PREFIX) {
            return Ok(None);
        }
        let found = ingame_session::Entity::find()
            .filter(ingame_session::Column::TokenHash.eq(digest(token)))
            .filter(ingame_session::Column::RevokedAt.is_null())
            .filter(ingame_session::Column::ExpiresAt.gt(now))
            .one(db)
            .await?;
        let Some(found) = found else { return Ok(None) };
        if now - found.last_used_at >= Duration::seconds(TOUCH_EVERY_SECS) {
            let mut row = ingame_session::ActiveModel { id: Set(found.id), ..Default::default() };
            row.last_used_at = Set(now);
            row.update(db).await?;
        }
        Ok(Some(found))
    }

    /// The live sessions of `user_id`, newest first.
    pub async fn live_of(db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<Vec<Self>> {
        Ok(ingame_session::Entity::find()
            .filter(ingame_session::Column::UserId.eq(user_id))
            .filter(ingame_session::Column::RevokedAt.is_null())
            .filter(ingame_session::Column::ExpiresAt.gt(now))
            .order_by_desc(ingame_session::Column::CreatedAt)
            .order_by_desc(ingame_session::Column::Id)
            .all(db)
            .await?)
    }

    /// Revokes the live session `id` of `user_id` (404 for anyone else's, or one already gone).
    pub async fn revoke(db: &impl ConnectionTrait, user_id: i32, id: i32, now: DateTime<Utc>) -> Result<()> {
        let changed = ingame_session::Entity::update_many()
            .col_expr(ingame_session::Column::RevokedAt, sea_orm::sea_query::Expr::value(now))
            .filter(ingame_session::Column::Id.eq(id))
            .filter(ingame_session::Column::UserId.eq(user_id))
            .filter(ingame_session::Column::RevokedAt.is_null())
            .exec(db)
            .await?;
        if changed.rows_affected == 1 { Ok(()) } else { Err(Error::not_found()) }
    }
}
