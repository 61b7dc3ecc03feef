//! A picture of a store item (issue 31, spec §3 `itemImages`): at most five per item, each in a
//! numbered place (`position`, unique per item).

use sea_orm::entity::prelude::*;

/// A row of `store_item_images`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "store_item_images")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    pub store_item_id: i32,
    /// 1–5: the order the item page shows them in.
    pub position: i32,
    /// The large picture's width, px.
    pub width: i32,
    /// Its height, px.
    pub height: i32,
    /// Where its PNGs are in the object store (`<prefix>/1280.png`, `<prefix>/320.png`).
    pub key_prefix: String,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
