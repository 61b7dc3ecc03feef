//! A room a booth is built in (issue 29, spec §3 "Housing" preset home), kept by staff: its GLB
//! and its interior, `width` × `height` × `depth` metres (floor at y = 0, walls at the back
//! (z = -depth/2) and both sides (x = ±width/2), ceiling at y = height, the front open).

use sea_orm::entity::prelude::*;

/// A row of `preset_homes`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "preset_homes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The platform the home is made for (`vket_cloud`, …).
    pub platform_code: String,
    pub name_ja: String,
    pub name_en: String,
    /// Position in the editor's list, lowest first.
    pub order: i32,
    /// The room's GLB: a path on this site (`/static/…`) or an https URL.
    pub scene_url: String,
    /// A picture of the room.
    pub thumbnail_url: Option<String>,
    /// Interior width (x), metres.
    pub width: f64,
    /// Interior height (y), metres.
    pub height: f64,
    /// Interior depth (z), metres.
    pub depth: f64,
    /// Offered in the editor.
    pub published: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
