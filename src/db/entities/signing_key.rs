//! An RSA key the account service signs tokens with; retired keys keep verifying until they
//! expire.

use sea_orm::entity::prelude::*;

/// A row of `signing_keys`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "signing_keys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub kid: String,
    pub private_pem: String,
    pub n: String,
    pub e: String,
    pub created_at: DateTimeUtc,
    pub retired_at: Option<DateTimeUtc>,
    pub expires_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
