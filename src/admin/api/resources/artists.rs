//! `artists`: the people credited on worlds and concepts (spec §3 Artist) — modelers,
//! composers, designers —, named in both languages ([`names`](super::names)). An artist still
//! credited cannot be deleted.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::admin::api::resources::names::name_list;
use crate::admin::api::uses::Uses;
use crate::db::entities::{artist, concept_artist, world_artist};
use crate::error::Result;

name_list!(
    /// The resource.
    Artists,
    "artists",
    artist,
    uses
);

/// Worlds and concepts crediting artist `id`.
async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<Uses> {
    Uses::new()
        .count(db, "worlds", world_artist::Entity::find().filter(world_artist::Column::ArtistId.eq(id)))
        .await?
        .count(db, "concepts", concept_artist::Entity::find().filter(concept_artist::Column::ArtistId.eq(id)))
        .await
}
