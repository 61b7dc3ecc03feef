//! A user of the product, keyed by the account service's `sub`.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A staff role (spec §6). `none` is everyone else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Not staff.
    None,
    /// Full access.
    Admin,
    /// Runs events.
    Director,
    /// Support staff.
    UcStaff,
    /// Tests releases.
    QaTester,
}

/// A user attribute (spec §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum UserAttribute {
    /// Nothing special.
    None,
    /// An official streamer.
    CertificatedStreamer,
}

/// A row of `users`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub sub: String,
    pub vmarket_id: String,
    pub name_ja: String,
    pub name_en: String,
    pub icon_version: i32,
    pub icon_key: Option<String>,
    pub memo: Option<String>,
    pub score: i32,
    pub role: Role,
    pub attribute: UserAttribute,
    pub min_token_generation: i64,
    pub email: Option<String>,
    pub lang: String,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
