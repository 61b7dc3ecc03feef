//! A rule set of the asset uploader (ASSETS.md "Rule sets"): the checks one kind of upload is
//! validated against, stored as the JSON of `assets::analyse::RuleSet`. Staff edit it; every
//! change raises `version`, and each report names the id and version it used.

use sea_orm::entity::prelude::*;

/// A row of `asset_rule_sets`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_rule_sets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Stable name (`vket_avatar`, `vitdeck_booth`, …).
    pub key: String,
    pub version: i32,
    pub name_ja: String,
    pub name_en: String,
    /// The rules: the JSON of `assets::analyse::RuleSet`.
    pub rules: String,
    pub updated_by: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
