//! Accounts, their browser sessions and one-time codes. Secrets (session tokens, codes) are
//! random 32-byte values; only their SHA-256 hashes are stored.

use chrono::{DateTime, Duration, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, Func};
use sea_orm::{ConnectionTrait, Set};

use crate::auth::password;
use crate::auth::secret::{digest, new_secret, pkce_matches};
use crate::db::entities::{account, account_code, account_session, user};
use crate::error::{Error, Result};

/// How long a browser stays signed in to the account service.
pub fn session_lifetime() -> Duration {
    Duration::days(30)
}

/// How long a one-time code may be exchanged.
pub fn code_lifetime() -> Duration {
    Duration::seconds(60)
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
        self.create_as(db, None, now).await
    }

    /// Creates the account with the token subject `sub` (a new random one when `None`). When a
    /// product user already has that `sub` and this handle, the account signs in as that user
    /// (the demo seed links its sign-in accounts to demo users this way); the handle must be
    /// free everywhere else. `Conflict` when the email or handle is taken.
    pub async fn create_as(
        self,
        db: &impl ConnectionTrait,
        sub: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<account::Model> {
        if account::Model::by_email(db, &self.email).await?.is_some() {
            return Err(Error::Conflict { code: "email_taken" });
        }
        if handle_taken_except(db, &self.vmarket_id, sub).await? {
            return Err(Error::Conflict { code: "vmarket_id_taken" });
        }
        let (email, handle) = (self.email.clone(), self.vmarket_id.clone());
        let row = account::ActiveModel {
            sub: Set(sub.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_string)),
            email: Set(self.email),
            password_hash: Set(password::hash(&self.password)?),
            vmarket_id: Set(self.vmarket_id),
            name_ja: Set(self.name_ja),
            name_en: Set(self.name_en),
            token_generation: Set(0),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        match row.insert(db).await {
            Ok(created) => Ok(created),
            // A sign-up racing this one took the email or the handle (unique indexes decide).
            Err(_) if account::Model::by_email(db, &email).await?.is_some() => {
                Err(Error::Conflict { code: "email_taken" })
            }
            Err(_) if handle_taken_except(db, &handle, sub).await? => Err(Error::Conflict { code: "vmarket_id_taken" }),
            Err(e) => Err(e.into()),
        }
    }
}

/// Whether an account or a product user already has `handle`, whatever its case. The built-in
/// service shares one handle namespace with the product's users (both tables also hold a unique
/// case-insensitive index, so a race cannot slip through).
pub async fn handle_taken(db: &impl ConnectionTrait, handle: &str) -> Result<bool> {
    handle_taken_except(db, handle, None).await
}

/// [`handle_taken`], not counting the product user whose subject is `sub` (the user an account
/// is being linked to).
async fn handle_taken_except(db: &impl ConnectionTrait, handle: &str, sub: Option<&str>) -> Result<bool> {
    let lower = handle.to_lowercase();
    let in_accounts = account::Entity::find()
        .filter(Expr::expr(Func::lower(Expr::col(account::Column::VmarketId))).eq(Expr::val(lower.clone())))
        .one(db)
        .await?
        .is_some();
    let in_users = user::Entity::find()
        .filter(Expr::expr(Func::lower(Expr::col(user::Column::VmarketId))).eq(Expr::val(lower)))
        .one(db)
        .await?
        .is_some_and(|u| Some(u.sub.as_str()) != sub);
    Ok(in_accounts || in_users)
}

impl account::Model {
    /// Finds an account by its token subject.
    pub async fn by_sub(db: &impl ConnectionTrait, sub: &str) -> Result<Option<Self>> {
        Ok(account::Entity::find().filter(account::Column::Sub.eq(sub)).one(db).await?)
    }

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

    /// Ends every session of this account and moves its token generation on, so that every
    /// token issued so far stops working at the product; returns the new generation.
    pub async fn sign_out_everywhere(&self, db: &impl ConnectionTrait) -> Result<i64> {
        self.end_sessions(db).await?;
        account::Entity::update_many()
            .col_expr(account::Column::TokenGeneration, Expr::col(account::Column::TokenGeneration).add(1))
            .filter(account::Column::Id.eq(self.id))
            .exec(db)
            .await?;
        let now = account::Entity::find_by_id(self.id).one(db).await?.ok_or_else(Error::not_found)?;
        Ok(now.token_generation)
    }

    /// Issues a one-time code for a registered callback, bound to that exact `redirect_url` and
    /// to the PKCE `code_challenge` (S256) of the sign-in that asked for it.
    pub async fn issue_code(
        &self,
        db: &impl ConnectionTrait,
        binding: &CodeBinding,
        now: DateTime<Utc>,
    ) -> Result<String> {
        let secret = new_secret();
        account_code::ActiveModel {
            account_id: Set(self.id),
            token_hash: Set(digest(&secret)),
            created_at: Set(now),
            expires_at: Set(now + code_lifetime()),
            redirect_url: Set(binding.redirect_url.clone()),
            code_challenge: Set(binding.code_challenge.clone()),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok(secret)
    }

    /// Redeems a one-time code: the account it was issued to — once, before it expires, and only
    /// for the same `redirect_url` and a `code_verifier` whose S256 hash is the challenge.
    pub async fn redeem_code(
        db: &impl ConnectionTrait,
        grant: &CodeGrant<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Self>> {
        let Some(row) =
            account_code::Entity::find().filter(account_code::Column::TokenHash.eq(digest(grant.code))).one(db).await?
        else {
            return Ok(None);
        };
        // Delete first: whoever deletes the row owns the code, and a failed attempt burns it.
        let deleted = account_code::Entity::delete_by_id(row.id).exec(db).await?;
        let bound = row.redirect_url == grant.redirect_url && pkce_matches(grant.code_verifier, &row.code_challenge);
        if deleted.rows_affected != 1 || row.expires_at <= now || !bound {
            return Ok(None);
        }
        Ok(account::Entity::find_by_id(row.account_id).one(db).await?)
    }
}

/// What a one-time code is bound to.
#[derive(Debug, Clone)]
pub struct CodeBinding {
    /// The registered callback the code is sent to.
    pub redirect_url: String,
    /// The PKCE S256 challenge of the sign-in.
    pub code_challenge: String,
}

/// A code exchange: the code, the callback it was sent to and the PKCE verifier.
#[derive(Debug, Clone, Copy)]
pub struct CodeGrant<'a> {
    /// The one-time code.
    pub code: &'a str,
    /// The callback the code was issued for.
    pub redirect_url: &'a str,
    /// The PKCE verifier.
    pub code_verifier: &'a str,
}
