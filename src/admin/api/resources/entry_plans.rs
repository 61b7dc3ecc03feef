//! `entry_plans`: what circles apply for in an event (spec §3 "Event entry plan", DOMAIN.md
//! "Entries and applications"): a category, a world of the same event, `maximum` slots and an
//! integer fee in JPY. Plans are part of setting an event up, so they sit in the event area of
//! the role table (uc_staff and qa_tester read them). A plan that applications refer to is never
//! deleted (409 `plan_has_applications`) nor moved to another event: the lottery and payments
//! read its slots and fee.

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use sea_orm::{PaginatorTrait, QuerySelect};
use serde::{Deserialize, Serialize};
use validator::Validate;

use chrono::{DateTime, Utc};

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::event_entry_plan::ExhibitionCategory;
use crate::db::entities::{event, event_entry_application, event_entry_plan, world};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::model::entry_plan::{RateLabel, wish_counts};

/// The resource.
pub struct EntryPlans;

/// A plan as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct EntryPlanRecord {
    /// Plan id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// The world its slots are in.
    pub world_id: i32,
    /// Space, item or avatar.
    pub exhibition_category: ExhibitionCategory,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Slots the lottery gives away.
    pub maximum: i32,
    /// Fee per slot, JPY (0: free).
    pub fee: i32,
    /// Where circles look at the world before applying.
    pub preview_world_launch_url: Option<String>,
    /// Order within the event.
    pub display_order: i32,
    /// Wishes made for it so far.
    pub application_count: u64,
    /// How full it is (the label circles see while applying).
    pub rate_label: RateLabel,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a plan.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct EntryPlanInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// The world its slots are in (a world of that event).
    #[validate(required)]
    pub world_id: Option<i32>,
    /// Space, item or avatar.
    #[validate(required)]
    pub exhibition_category: Option<ExhibitionCategory>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Slots the lottery gives away.
    #[validate(required, range(min = 0, max = 100000))]
    pub maximum: Option<i32>,
    /// Fee per slot, JPY.
    #[validate(required, range(min = 0, max = 10000000))]
    pub fee: Option<i32>,
    /// Where circles look at the world before applying.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub preview_world_launch_url: Option<String>,
    /// Order within the event.
    #[validate(range(min = 0, max = 100000))]
    pub display_order: i32,
}

impl Resource for EntryPlans {
    type Entity = event_entry_plan::Entity;
    type Record = EntryPlanRecord;
    type Input = EntryPlanInput;

    const NAME: &'static str = "entry_plans";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "world_id", "exhibition_category", "name_ja", "name_en", "maximum", "fee", "display_order"],
        filter: &["event_id", "world_id", "exhibition_category", "fee"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_entry_plan::Model>,
    ) -> Result<Vec<EntryPlanRecord>> {
        let ids: Vec<i32> = rows.iter().map(|p| p.id).collect();
        let counts = wish_counts(db, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|p| {
                let applied = counts.get(&p.id).copied().unwrap_or(0);
                EntryPlanRecord {
                    id: p.id,
                    event_id: p.event_id,
                    world_id: p.world_id,
                    exhibition_category: p.exhibition_category,
                    name_ja: p.name_ja,
                    name_en: p.name_en,
                    maximum: p.maximum,
                    fee: p.fee,
                    preview_world_launch_url: p.preview_world_launch_url,
                    display_order: p.display_order,
                    application_count: applied,
                    rate_label: RateLabel::of(applied, p.maximum),
                    created_at: p.created_at,
                    updated_at: p.updated_at,
                }
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: EntryPlanInput, cx: &Cx<'_>) -> Result<i32> {
        let row = event_entry_plan::ActiveModel { created_at: Set(cx.acted_at()), ..Default::default() };
        Ok(fill(txn, row, input, cx).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: event_entry_plan::Model,
        input: EntryPlanInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        if input.event_id != Some(row.event_id) {
            Uses::new().add("applications", applications_of(txn, row.id).await?).refuse("plan_has_applications")?;
        }
        fill(txn, row.into(), input, cx).await?.update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: event_entry_plan::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new().add("applications", applications_of(txn, row.id).await?).refuse("plan_has_applications")?;
        event_entry_plan::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

/// How many applications are for plan `plan_id`.
async fn applications_of(txn: &DatabaseTransaction, plan_id: i32) -> Result<u64> {
    Ok(event_entry_application::Entity::find()
        .filter(event_entry_application::Column::PlanId.eq(plan_id))
        .select_only()
        .column(event_entry_application::Column::Id)
        .count(txn)
        .await?)
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: event_entry_plan::ActiveModel,
    input: EntryPlanInput,
    cx: &Cx<'_>,
) -> Result<event_entry_plan::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    let world_id = input.world_id.unwrap_or_default();
    let in_event = world::Entity::find_by_id(world_id).one(txn).await?.is_some_and(|w| w.event_id == event_id);
    if !in_event {
        return Err(Error::invalid("world_id", "validation.world_of_other_event"));
    }
    row.event_id = Set(event_id);
    row.world_id = Set(world_id);
    row.exhibition_category = Set(input.exhibition_category.unwrap_or(ExhibitionCategory::Space));
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.maximum = Set(input.maximum.unwrap_or_default());
    row.fee = Set(input.fee.unwrap_or_default());
    row.preview_world_launch_url = Set(input.preview_world_launch_url);
    row.display_order = Set(input.display_order);
    row.updated_at = Set(cx.acted_at());
    Ok(row)
}
