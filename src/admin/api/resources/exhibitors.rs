//! `exhibitors`: who exhibits in an event's catalogue — a circle's or a company's booth, of a
//! concept kind, optionally in a world. References must be of the exhibitor's event (circles
//! are not per event). An exhibitor with items or slots cannot be deleted.

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{catalog_item, circle, company, event, exhibitor, exhibitor_slot, world};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;
use crate::types::kinds::ConceptKind;

/// The resource.
pub struct Exhibitors;

/// An exhibitor as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ExhibitorRecord {
    /// Exhibitor id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// The circle behind it, if a circle's.
    pub circle_id: Option<i32>,
    /// The company behind it, if a company's.
    pub company_id: Option<i32>,
    /// Its concept kind.
    pub kind: ConceptKind,
    /// Its world, if placed.
    pub world_id: Option<i32>,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Position in lists.
    pub display_index: i32,
}

/// What staff send for an exhibitor.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ExhibitorInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// The circle behind it.
    pub circle_id: Option<i32>,
    /// The company behind it.
    pub company_id: Option<i32>,
    /// Its concept kind.
    #[validate(required)]
    pub kind: Option<ConceptKind>,
    /// Its world.
    pub world_id: Option<i32>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
}

impl Resource for Exhibitors {
    type Entity = exhibitor::Entity;
    type Record = ExhibitorRecord;
    type Input = ExhibitorInput;

    const NAME: &'static str = "exhibitors";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "display_index", "name_ja", "name_en", "kind"],
        filter: &["event_id", "circle_id", "company_id", "kind", "world_id"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<exhibitor::Model>) -> Result<Vec<ExhibitorRecord>> {
        Ok(rows
            .into_iter()
            .map(|e| ExhibitorRecord {
                id: e.id,
                event_id: e.event_id,
                circle_id: e.circle_id,
                company_id: e.company_id,
                kind: e.kind,
                world_id: e.world_id,
                name_ja: e.name_ja,
                name_en: e.name_en,
                display_index: e.display_index,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: ExhibitorInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: exhibitor::Model,
        input: ExhibitorInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: exhibitor::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new()
            .count(
                txn,
                "catalog_items",
                catalog_item::Entity::find().filter(catalog_item::Column::ExhibitorId.eq(row.id)),
            )
            .await?
            .count(txn, "worlds", exhibitor_slot::Entity::find().filter(exhibitor_slot::Column::ExhibitorId.eq(row.id)))
            .await?
            .refuse("in_use")?;
        exhibitor::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: exhibitor::ActiveModel,
    input: ExhibitorInput,
) -> Result<exhibitor::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    let mut problems = Vec::new();
    if let Some(id) = input.circle_id
        && circle::Entity::find_by_id(id).one(txn).await?.is_none()
    {
        problems.push(Invalid::new("circle_id", "validation.unknown_reference"));
    }
    if let Some(id) = input.company_id
        && company::Entity::find_by_id(id).one(txn).await?.map(|c| c.event_id) != Some(event_id)
    {
        problems.push(Invalid::new("company_id", "validation.unknown_reference"));
    }
    if let Some(id) = input.world_id
        && world::Entity::find_by_id(id).one(txn).await?.map(|w| w.event_id) != Some(event_id)
    {
        problems.push(Invalid::new("world_id", "validation.unknown_reference"));
    }
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    row.event_id = Set(event_id);
    row.circle_id = Set(input.circle_id);
    row.company_id = Set(input.company_id);
    row.kind = Set(input.kind.unwrap_or(ConceptKind::General));
    row.world_id = Set(input.world_id);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.display_index = Set(input.display_index);
    Ok(row)
}
