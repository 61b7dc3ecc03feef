//! A user's pending proof that a VRChat account is theirs: the code to put in its bio.

use sea_orm::entity::prelude::*;

/// A row of `vrchat_link_challenges`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vrchat_link_challenges")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Whose (one per user).
    pub user_id: i32,
    /// The VRChat account to link (`usr_…`).
    pub vrchat_id: String,
    /// Its display name when the proof began.
    pub display_name: String,
    /// What its bio must contain.
    pub code: String,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
