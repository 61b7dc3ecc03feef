//! Accounts, their browser sessions and one-time codes. Secrets (session tokens, codes) are
//! random 32-byte values; only their SHA-256 hashes are stored.

use chrono::{DateTime, Duration, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ConnectionTrait, Set};
use sha2::{Digest, Sha256};

use crate::account::password;
use crate::db::entities::{account, account_code, account_session};
use crate::error::{Error, Result};

/// How long a browser stays signed in to the account service.
pub fn session_lifetime() -> Duration {
    Duration::days(30)
}

/// How long a one-time code may be exchanged.
pub fn code_lifetime() -> Duration {
    Duration::seconds(120)
}

/// A new random secret, URL-safe.
pub fn new_secret() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

/// The stored form of a secret.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A validated sign-up.
#[derive(Debug, Clone)]
pub struct NewAccount {
    /// Lowercased email.
    pub email: String,
    /// The password in clear (hashed before storing).
    pub password: String,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

impl NewAccount {
    /// Creates the account; `Conflict` when the email or handle is taken.
    pub async fn create(self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<account::Model> {
        if account::Model::by_email(db, &self.email).await?.is_some() {
            return Err(Error::Conflict { code: "email_taken" });
        }
        if account::Entity::find().filter(account::Column::VmarketId.eq(&self.vmarket_id)).one(db).await?.is_some() {
            return Err(Error::Conflict { code: "vmarket_id_taken" });
        }
        let row = account::ActiveModel {
            sub: Set(uuid::Uuid::new_v4().to_string()),
            email: Set(self.email),
            password_hash: Set(password::hash(&self.password)?),
            vmarket_id: Set(self.vmarket_id),
            name_ja: Set(self.name_ja),
            name_en: Set(self.name_en),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        row.insert(db).await.map_err(|_| Error::Conflict { code: "email_taken" })
    }
}

impl account::Model {
    /// Finds an account by email, case-insensitively.
    pub async fn by_email(db: &impl ConnectionTrait, email: &str) -> Result<Option<Self>> {
        if !crate::model::text::is_clean(email) {
            // No account has one (sign-up refuses it), and PostgreSQL cannot compare it.
            return Ok(None);
        }
        Ok(account::Entity::find().filter(account::Column::Email.eq(email.trim().to_lowercase())).one(db).await?)
    }

    /// The account whose email and password match; `None` for either mistake alike.
    pub async fn authenticate(db: &impl ConnectionTrait, email: &str, password: &str) -> Result<Option<Self>> {
        match Self::by_email(db, email).await? {
            Some(found) if password::verify(password, &found.password_hash) => Ok(Some(found)),
            Some(_) => Ok(None),
            None => {
                password::dummy_verify(password);
                Ok(None)
            }
        }
    }

    /// Starts a browser session; returns the secret for the cookie.
    pub async fn start_session(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<String> {
        let secret = new_secret();
        account_session::ActiveModel {
            account_id: Set(self.id),
            token_hash: Set(digest(&secret)),
            created_at: Set(now),
            expires_at: Set(now + session_lifetime()),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok(secret)
    }

    /// The account of a live session secret.
    pub async fn by_session(db: &impl ConnectionTrait, secret: &str, now: DateTime<Utc>) -> Result<Option<Self>> {
        let Some(session) = account_session::Entity::find()
            .filter(account_session::Column::TokenHash.eq(digest(secret)))
            .filter(account_session::Column::ExpiresAt.gt(now))
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        Ok(account::Entity::find_by_id(session.account_id).one(db).await?)
    }

    /// Ends every session of this account (sign-out everywhere).
    pub async fn end_sessions(&self, db: &impl ConnectionTrait) -> Result<()> {
        account_session::Entity::delete_many().filter(account_session::Column::AccountId.eq(self.id)).exec(db).await?;
        Ok(())
    }

    /// Issues a one-time code for the product's callback.
    pub async fn issue_code(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<String> {
        let secret = new_secret();
        account_code::ActiveModel {
            account_id: Set(self.id),
            token_hash: Set(digest(&secret)),
            created_at: Set(now),
            expires_at: Set(now + code_lifetime()),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok(secret)
    }

    /// Redeems a one-time code: the account it was issued to, once, before it expires.
    pub async fn redeem_code(db: &impl ConnectionTrait, code: &str, now: DateTime<Utc>) -> Result<Option<Self>> {
        let Some(row) =
            account_code::Entity::find().filter(account_code::Column::TokenHash.eq(digest(code))).one(db).await?
        else {
            return Ok(None);
        };
        // Delete first: whoever deletes the row owns the code.
        let deleted = account_code::Entity::delete_by_id(row.id).exec(db).await?;
        if deleted.rows_affected != 1 || row.expires_at <= now {
            return Ok(None);
        }
        Ok(account::Entity::find_by_id(row.account_id).one(db).await?)
    }
}
