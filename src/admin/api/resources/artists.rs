//! `artists`: the people credited on worlds and concepts (spec §3 Artist) — modelers, composers,
//! designers —, named in both languages. An artist still credited cannot be deleted.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::input::blank;
use crate::admin::api::{Cx, Resource, unused};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{artist, concept_artist, world_artist};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct Artists;

/// An artist as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ArtistRecord {
    /// Artist id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Worlds and concepts crediting them.
    pub use_count: u64,
}

/// What staff send for an artist.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ArtistInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
}

impl Resource for Artists {
    type Entity = artist::Entity;
    type Record = ArtistRecord;
    type Input = ArtistInput;

    const NAME: &'static str = "artists";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns =
        Columns { sort: &["name_ja", "name_en"], filter: &[], search: &["name_ja", "name_en"], computed: &[] };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<artist::Model>) -> Result<Vec<ArtistRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for a in rows {
            let use_count = uses(db, a.id).await?;
            out.push(ArtistRecord { id: a.id, name_ja: a.name_ja, name_en: a.name_en, use_count });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: ArtistInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(Default::default(), input).insert(txn).await?.id)
    }

    async fn update(txn: &DatabaseTransaction, row: artist::Model, input: ArtistInput, _cx: &Cx<'_>) -> Result<()> {
        fill(row.into(), input).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: artist::Model, _cx: &Cx<'_>) -> Result<()> {
        unused(uses(txn, row.id).await?)?;
        artist::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<u64> {
    let worlds = world_artist::Entity::find().filter(world_artist::Column::ArtistId.eq(id)).count(db).await?;
    let concepts = concept_artist::Entity::find().filter(concept_artist::Column::ArtistId.eq(id)).count(db).await?;
    Ok(worlds + concepts)
}

fn fill(mut row: artist::ActiveModel, input: ArtistInput) -> artist::ActiveModel {
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row
}
