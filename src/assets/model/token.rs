//! Download tokens (spec §3 "Asset download token", ASSETS.md): the owner of an uploaded version
//! makes a token — optionally with a password — valid until a chosen time, and hands it out.
//! Only the token's SHA-256 and the password's argon2 hash are stored; the token is shown once.
//! Whoever holds it trades it (and the password) for a short-lived download URL; an unknown,
//! expired or revoked token and a wrong password all answer the same, so an answer never tells
//! which was wrong (and a missing password costs as much time as a wrong one).

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::auth::password;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset_download_token, asset_version};
use crate::error::{Error, Result};
use crate::forms::asset::NewToken;

/// The longest a token may live: 90 days.
pub const MAX_DAYS: i64 = 90;

/// A token as its owner sees it (the token itself only in the answer that made it).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TokenView {
    /// Id.
    pub id: i32,
    /// The version it downloads.
    pub asset_version_id: i32,
    /// The token: only in the answer that created it, `null` afterwards.
    pub token: Option<String>,
    /// Whether a password is needed.
    pub password: bool,
    /// Until when it works.
    pub expires_at: DateTime<Utc>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

impl From<&asset_download_token::Model> for TokenView {
    fn from(row: &asset_download_token::Model) -> Self {
        Self {
            id: row.id,
            asset_version_id: row.asset_version_id,
            token: None,
            password: row.password_hash.is_some(),
            expires_at: row.expires_at,
            revoked_at: row.revoked_at,
            created_at: row.created_at,
        }
    }
}

/// The stored form of a token.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl asset_download_token::Model {
    /// Makes a token for `version` (uploaded only: 409 `version_not_uploaded`); returns the row and
    /// the token.
    pub async fn create(
        db: &impl ConnectionTrait,
        version: &asset_version::Model,
        input: &NewToken,
        by: i32,
        now: DateTime<Utc>,
    ) -> Result<TokenView> {
        if version.upload_status != UploadStatus::Uploaded {
            return Err(Error::Conflict { code: "version_not_uploaded" });
        }
        let expires_at = input.expires_at.unwrap_or(now + Duration::days(7));
        if expires_at <= now || expires_at > now + Duration::days(MAX_DAYS) {
            return Err(Error::invalid("expires_at", "validation.token_expiry"));
        }
        let token = hex::encode(rand::random::<[u8; 24]>());
        let password_hash = match &input.password {
            Some(p) => Some(password::hash(p)?),
            None => None,
        };
        let row = asset_download_token::ActiveModel {
            asset_version_id: Set(version.id),
            token_hash: Set(hash(&token)),
            password_hash: Set(password_hash),
            expires_at: Set(expires_at),
            created_by: Set(by),
            created_at: Set(now),
            revoked_at: Set(None),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok(TokenView { token: Some(token), ..TokenView::from(&row) })
    }

    /// The tokens of `version_id`, newest first.
    pub async fn of_version(db: &impl ConnectionTrait, version_id: i32) -> Result<Vec<Self>> {
        Ok(asset_download_token::Entity::find()
            .filter(asset_download_token::Column::AssetVersionId.eq(version_id))
            .order_by_desc(asset_download_token::Column::Id)
            .all(db)
            .await?)
    }

    /// Revokes token `id` of `version_id` (404 otherwise).
    pub async fn revoke(db: &impl ConnectionTrait, version_id: i32, id: i32, now: DateTime<Utc>) -> Result<()> {
        let done = asset_download_token::Entity::update_many()
            .col_expr(asset_download_token::Column::RevokedAt, Expr::value(now))
            .filter(asset_download_token::Column::Id.eq(id))
            .filter(asset_download_token::Column::AssetVersionId.eq(version_id))
            .filter(asset_download_token::Column::RevokedAt.is_null())
            .exec(db)
            .await?;
        if done.rows_affected == 0 {
            return Err(Error::not_found());
        }
        Ok(())
    }

    /// The uploaded version `token` (with `given` password) downloads; 403 `download_refused`
    /// whatever was wrong.
    pub async fn redeem(
        db: &impl ConnectionTrait,
        token: &str,
        given: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<asset_version::Model> {
        let refused = || Error::Denied { code: "download_refused" };
        let found = asset_download_token::Entity::find()
            .filter(asset_download_token::Column::TokenHash.eq(hash(token)))
            .one(db)
            .await?;
        let Some(found) = found else {
            password::dummy_verify(given.unwrap_or_default());
            return Err(refused());
        };
        let password_ok = match (&found.password_hash, given) {
            (Some(stored), Some(given)) => password::verify(given, stored),
            (Some(_), None) => {
                password::dummy_verify("");
                false
            }
            (None, _) => {
                password::dummy_verify(given.unwrap_or_default());
                true
            }
        };
        if !password_ok || found.revoked_at.is_some() || found.expires_at <= now {
            return Err(refused());
        }
        let version = asset_version::Model::by_id(db, found.asset_version_id).await.map_err(|_| refused())?;
        if version.upload_status != UploadStatus::Uploaded {
            return Err(refused());
        }
        Ok(version)
    }
}
