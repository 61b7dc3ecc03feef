//! A user's linked VRChat account (spec §3 "VRChat" account link) and its profile as last read.

use sea_orm::entity::prelude::*;

/// A row of `vrchat_account_links`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vrchat_account_links")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Whose (one per user).
    pub user_id: i32,
    /// The VRChat account (`usr_…`; one user each).
    pub vrchat_id: String,
    pub display_name: String,
    /// The icon's URL on VRChat ("" when none).
    pub user_icon: String,
    pub bio: String,
    pub linked_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
