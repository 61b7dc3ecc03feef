//! `keywords`: the shared keyword list worlds and concepts are tagged with (spec §3 World
//! `worldKeywords`), in both languages. A keyword still on a world or concept cannot be deleted.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::input::blank;
use crate::admin::api::{Cx, Resource, unused};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{concept_keyword, keyword, world_keyword};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct Keywords;

/// A keyword as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct KeywordRecord {
    /// Keyword id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Worlds and concepts tagged with it.
    pub use_count: u64,
}

/// What staff send for a keyword.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct KeywordInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
}

impl Resource for Keywords {
    type Entity = keyword::Entity;
    type Record = KeywordRecord;
    type Input = KeywordInput;

    const NAME: &'static str = "keywords";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns =
        Columns { sort: &["name_ja", "name_en"], filter: &[], search: &["name_ja", "name_en"], computed: &[] };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<keyword::Model>) -> Result<Vec<KeywordRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for k in rows {
            let use_count = uses(db, k.id).await?;
            out.push(KeywordRecord { id: k.id, name_ja: k.name_ja, name_en: k.name_en, use_count });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: KeywordInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(Default::default(), input).insert(txn).await?.id)
    }

    async fn update(txn: &DatabaseTransaction, row: keyword::Model, input: KeywordInput, _cx: &Cx<'_>) -> Result<()> {
        fill(row.into(), input).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: keyword::Model, _cx: &Cx<'_>) -> Result<()> {
        unused(uses(txn, row.id).await?)?;
        keyword::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<u64> {
    let worlds = world_keyword::Entity::find().filter(world_keyword::Column::KeywordId.eq(id)).count(db).await?;
    let concepts = concept_keyword::Entity::find().filter(concept_keyword::Column::KeywordId.eq(id)).count(db).await?;
    Ok(worlds + concepts)
}

fn fill(mut row: keyword::ActiveModel, input: KeywordInput) -> keyword::ActiveModel {
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row
}
