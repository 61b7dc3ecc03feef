//! A circle: the group of creators behind an exhibitor, with an owner (a user) and members.

use sea_orm::entity::prelude::*;

/// A row of `circles`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "circles")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    /// The thumbnail shown (its largest version for an uploaded one).
    pub thumbnail: Option<String>,
    /// Object-store prefix of an uploaded thumbnail's versions (`{key}-small.png` …).
    pub thumbnail_key: Option<String>,
    pub website_link: Option<String>,
    pub is_suspended: bool,
    /// Why staff suspended it (while suspended).
    pub suspension_reason: Option<String>,
    pub owner_user_id: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
