//! An item in an event's catalogue, offered by an exhibitor or a company.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Who offers an item (an exhibitor or a company: `exhibitor_id` or `company_id` is set): the
/// `type` of a catalogue search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OwnerType {
    /// Exhibitors (circles).
    Exhibitor,
    /// Companies.
    Company,
}

/// A row of `catalog_items`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "catalog_items")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub exhibitor_id: Option<i32>,
    pub company_id: Option<i32>,
    pub category_id: i32,
    pub name_ja: String,
    pub name_en: String,
    pub description_ja: String,
    pub description_en: String,
    pub thumbnail: Option<String>,
    pub url: Option<String>,
    pub is_distributable: bool,
    pub price: Option<i32>,
    pub display_index: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
