//! The booth maker's autosaved draft of a housing scene (issue 29, spec §3 "Temporary scene"):
//! one per scene, with a revision a stale tab's save is refused by.

use sea_orm::entity::prelude::*;

/// A row of `temporary_scenes`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "temporary_scenes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub housing_scene_id: i32,
    /// The owner (the scene's).
    pub user_id: i32,
    /// The draft (`crate::booth::scene::SceneJson`).
    pub scene_json: String,
    /// Bumped by every autosave.
    pub revision: i32,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
