//! Accounts that can sign in at once, with their product user and staff role: what `vmarket
//! user create` makes, and what the demo seed makes for its demo sign-in accounts.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;

use crate::account::store::NewAccount;
use crate::db::entities::{account, user};
use crate::error::Result;
use crate::model::user::{Identity, Role};

/// Creates the account (with the token subject `sub`, see [`NewAccount::create_as`]), the
/// product user it signs in as (or finds the one with that `sub`), and gives that user `role`.
pub async fn create_sign_in_account(
    db: &impl ConnectionTrait,
    new: NewAccount,
    sub: Option<&str>,
    role: Role,
    now: DateTime<Utc>,
) -> Result<(account::Model, user::Model)> {
    let created = new.create_as(db, sub, now).await?;
    let product_user = provision(db, &created, now).await?;
    let product_user =
        if product_user.role == role { product_user } else { product_user.set_role(db, role, now).await? };
    Ok((created, product_user))
}

/// The product user of account `a`, created on first use (as a first sign-in would).
pub async fn provision(db: &impl ConnectionTrait, a: &account::Model, now: DateTime<Utc>) -> Result<user::Model> {
    let identity = Identity {
        sub: a.sub.clone(),
        vmarket_id: a.vmarket_id.clone(),
        name_ja: a.name_ja.clone(),
        name_en: a.name_en.clone(),
        email: Some(a.email.clone()),
    };
    user::Model::provision(db, &identity, now).await
}
