//! A company exhibiting at one event.

use sea_orm::entity::prelude::*;

/// A row of `companies`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "companies")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub display_index: i32,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    pub thumbnail: Option<String>,
    pub website_link: Option<String>,
    pub site_name_ja: String,
    pub site_name_en: String,
    pub vmarket_cloud_url: Option<String>,
    pub is_public: bool,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
