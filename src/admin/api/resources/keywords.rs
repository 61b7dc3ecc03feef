//! `keywords`: the shared keyword list worlds and concepts are tagged with (spec §3 World
//! `worldKeywords`), named in both languages ([`names`](super::names)). A keyword still on a
//! world or concept cannot be deleted.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::admin::api::resources::names::name_list;
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
async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<u64> {
    let worlds = world_keyword::Entity::find().filter(world_keyword::Column::KeywordId.eq(id)).count(db).await?;
    let concepts = concept_keyword::Entity::find().filter(concept_keyword::Column::KeywordId.eq(id)).count(db).await?;
    Ok(worlds + concepts)
}
