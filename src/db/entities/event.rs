//! An event: one edition of the marketplace (e.g. `2025Summer`).

use sea_orm::entity::prelude::*;

/// A row of `events`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "events")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub permalink: String,
    pub version: i32,
    pub name_ja: String,
    pub name_en: String,
    pub image: Option<String>,
    pub logo: Option<String>,
    pub icon: Option<String>,
    pub first_view_image: Option<String>,
    pub theme_ja: String,
    pub theme_en: String,
    pub theme_description_ja: String,
    pub theme_description_en: String,
    pub is_entry_closed: bool,
    pub is_public: bool,
    pub exhibition_term_url: Option<String>,
    pub exhibition_guideline_url: Option<String>,
    pub submission_rule_url: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
