//! A world: one virtual venue where circles exhibit.

use sea_orm::entity::prelude::*;

use crate::types::kinds::{Platform, Venue};

/// A row of `worlds`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "worlds")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub concept_id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    pub image: Option<String>,
    pub logo: Option<String>,
    pub exhibition_platform: Platform,
    pub venue: Venue,
    pub is_company: bool,
    pub launch_link: Option<String>,
    pub display_order: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
