//! A user's booth made in the booth maker (issue 29, spec §3 "Housing scene"): a preset home and
//! the furniture placed in it (`scene_json`), saved with the server's totals; staff set the world
//! it is shown for (`world_id`, `world_code`, `published`).

use sea_orm::entity::prelude::*;

/// A row of `housing_scenes`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "housing_scenes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The owner.
    pub user_id: i32,
    pub preset_home_id: i32,
    pub world_id: Option<i32>,
    /// The code `GET /api/v1/booth_maker/housing_scenes/{worldCode}` finds it by.
    pub world_code: Option<String>,
    pub name: String,
    pub introduction: String,
    /// The saved scene (`crate::booth::scene::SceneJson`).
    pub scene_json: String,
    /// Bumped by every save.
    pub revision: i32,
    /// The server's totals of the saved scene (`crate::booth::totals::Totals`, JSON).
    pub totals: String,
    /// Served by the world's lookup.
    pub published: bool,
    /// The asset the scene is frozen into when submitted (a version per submission).
    pub asset_id: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
