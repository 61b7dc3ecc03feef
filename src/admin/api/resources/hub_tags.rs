//! `hub_tags`: the tags hub notifications carry (spec §3 Hub), in display order. A tag still on
//! a notification cannot be deleted.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{hub_notification_tag, hub_tag};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct HubTags;

/// A tag as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct HubTagRecord {
    /// Tag id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Position in lists.
    pub display_index: i32,
    /// Notifications carrying it.
    pub notification_count: u64,
}

/// What staff send for a tag.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct HubTagInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
}

impl Resource for HubTags {
    type Entity = hub_tag::Entity;
    type Record = HubTagRecord;
    type Input = HubTagInput;

    const NAME: &'static str = "hub_tags";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["display_index", "name_ja", "name_en"],
        filter: &[],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<hub_tag::Model>) -> Result<Vec<HubTagRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for t in rows {
            let notification_count = uses(db, t.id).await?;
            out.push(HubTagRecord {
                id: t.id,
                name_ja: t.name_ja,
                name_en: t.name_en,
                display_index: t.display_index,
                notification_count,
            });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: HubTagInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(Default::default(), input).insert(txn).await?.id)
    }

    async fn update(txn: &DatabaseTransaction, row: hub_tag::Model, input: HubTagInput, _cx: &Cx<'_>) -> Result<()> {
        fill(row.into(), input).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: hub_tag::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new().add("hub_notifications", uses(txn, row.id).await?).refuse("in_use")?;
        hub_tag::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

async fn uses<C: ConnectionTrait>(db: &C, id: i32) -> Result<u64> {
    Ok(hub_notification_tag::Entity::find().filter(hub_notification_tag::Column::HubTagId.eq(id)).count(db).await?)
}

fn fill(mut row: hub_tag::ActiveModel, input: HubTagInput) -> hub_tag::ActiveModel {
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.display_index = Set(input.display_index);
    row
}
