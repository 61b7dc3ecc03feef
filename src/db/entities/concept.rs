//! A concept: a themed group of worlds within an event.

use sea_orm::entity::prelude::*;

use crate::types::kinds::{ConceptKind, Platform, Venue};

/// A row of `concepts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "concepts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    pub platform: Platform,
    pub venue: Venue,
    pub kind: ConceptKind,
    pub is_company: bool,
    pub image: Option<String>,
    pub logo: Option<String>,
    pub launch_link_image: Option<String>,
    pub map_image_ja: Option<String>,
    pub map_image_en: Option<String>,
    pub display_order: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
