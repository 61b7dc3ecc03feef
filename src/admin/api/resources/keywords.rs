//! `keywords`: the shared keyword list worlds and concepts are tagged with (spec §3 World
//! `worldKeywords`), named in both languages ([`names`](super::names)). A keyword still on a
//! world or concept cannot be deleted.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::admin::api::resources::names::name_list;
use crate::admin::api::uses::Uses;
use crate::db::entities::{concept_keyword, keyword, world_keyword};
use crate::error::Result;

name_list!(
    /// The resource.
    Keywords,
    "keywords",
    keyword,
    uses
);

/// Worlds and concepts tagged with keyword `id`.
async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<Uses> {
    Uses::new()
        .count(db, "worlds", world_keyword::Entity::find().filter(world_keyword::Column::KeywordId.eq(id)))
        .await?
        .count(db, "concepts", concept_keyword::Entity::find().filter(concept_keyword::Column::KeywordId.eq(id)))
        .await
}
