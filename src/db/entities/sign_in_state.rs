//! A sign-in the product started: the `state` it sent to the account service (stored hashed, its
//! value lives in the starting browser's cookie), the PKCE verifier only this server knows, and
//! where to go afterwards. Used once.

use sea_orm::entity::prelude::*;

/// A row of `sign_in_states`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sign_in_states")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub state_hash: String,
    pub code_verifier: String,
    pub next: String,
    pub lang: String,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub used_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
