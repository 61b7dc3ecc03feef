//! `events`: an event with its phase timeline, edited together (the phases a form sends replace
//! the event's phases: kept by id, added without one, removed when left out). An event that
//! anything else refers to — content, the catalogue, redirects, news, entry plans, entries,
//! lottery runs — cannot be deleted (409 `event_not_empty`, naming them); its phases go with it.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, Instant, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{
    catalog_item, company, concept, event, event_entry, event_entry_plan, event_phase, exhibitor,
    exhibitor_notification, hub_notification, lottery_run, vrc_redirect, world,
};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::model::phase::PhaseType;

/// The resource.
pub struct Events;

/// A phase of an event's timeline.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseRecord {
    /// Phase id.
    pub id: i32,
    /// Phase type.
    pub phase_type: PhaseType,
    /// Its numeric code (spec §3).
    pub phase_code: i32,
    /// When it happens.
    pub phase_timestamp: DateTime<Utc>,
    /// Left off the public timeline.
    pub is_private: bool,
    /// Shown on timelines.
    pub is_displayable: bool,
}

/// An event as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct EventRecord {
    /// Event id.
    pub id: i32,
    /// URL key.
    pub permalink: String,
    /// Edition number.
    pub version: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese theme.
    pub theme_ja: String,
    /// English theme.
    pub theme_en: String,
    /// Japanese theme description.
    pub theme_description_ja: String,
    /// English theme description.
    pub theme_description_en: String,
    /// Entry closed early.
    pub is_entry_closed: bool,
    /// Visible to the public.
    pub is_public: bool,
    /// Exhibition terms.
    pub exhibition_term_url: Option<String>,
    /// Exhibition guideline.
    pub exhibition_guideline_url: Option<String>,
    /// Submission rules.
    pub submission_rule_url: Option<String>,
    /// Key visual.
    pub image: Option<String>,
    /// Logo.
    pub logo: Option<String>,
    /// Icon.
    pub icon: Option<String>,
    /// The top page's first view.
    pub first_view_image: Option<String>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
    /// The timeline, oldest first.
    pub phases: Vec<PhaseRecord>,
}

/// What staff send for an event.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct EventInput {
    /// URL key.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "input::permalink"))]
    pub permalink: Option<String>,
    /// Edition number.
    #[validate(required, range(min = 1, max = 1000))]
    pub version: Option<i32>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Japanese theme.
    #[validate(length(max = 256), custom(function = "checks::clean_text"))]
    pub theme_ja: String,
    /// English theme.
    #[validate(length(max = 256), custom(function = "checks::clean_text"))]
    pub theme_en: String,
    /// Japanese theme description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub theme_description_ja: String,
    /// English theme description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub theme_description_en: String,
    /// Entry closed early.
    pub is_entry_closed: bool,
    /// Visible to the public.
    pub is_public: bool,
    /// Exhibition terms.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub exhibition_term_url: Option<String>,
    /// Exhibition guideline.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub exhibition_guideline_url: Option<String>,
    /// Submission rules.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub submission_rule_url: Option<String>,
    /// Key visual (an uploaded picture's address).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub image: Option<String>,
    /// Logo.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub logo: Option<String>,
    /// Icon.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub icon: Option<String>,
    /// The top page's first view.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub first_view_image: Option<String>,
    /// The whole timeline.
    #[validate(nested, length(max = 64))]
    pub phases: Vec<PhaseInput>,
}

/// One phase of [`EventInput::phases`].
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct PhaseInput {
    /// The phase's id when it already exists.
    pub id: Option<i32>,
    /// Phase type.
    #[validate(required)]
    pub phase_type: Option<PhaseType>,
    /// When it happens.
    #[validate(required)]
    pub phase_timestamp: Option<Instant>,
    /// Left off the public timeline.
    pub is_private: bool,
    /// Shown on timelines.
    pub is_displayable: bool,
}

impl Resource for Events {
    type Entity = event::Entity;
    type Record = EventRecord;
    type Input = EventInput;

    const NAME: &'static str = "events";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["permalink", "version", "name_ja", "name_en", "is_public", "created_at", "updated_at"],
        filter: &["permalink", "version", "is_public", "is_entry_closed"],
        search: &["permalink", "name_ja", "name_en", "theme_ja", "theme_en"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[
        ImageSlot::wide("image"),
        ImageSlot::square("logo"),
        ImageSlot::square("icon"),
        ImageSlot::wide("first_view_image"),
    ];

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<event::Model>) -> Result<Vec<EventRecord>> {
        let ids: Vec<i32> = rows.iter().map(|e| e.id).collect();
        let mut phases: HashMap<i32, Vec<PhaseRecord>> = HashMap::new();
        let found = event_phase::Entity::find()
            .filter(event_phase::Column::EventId.is_in(ids))
            .order_by_asc(event_phase::Column::PhaseTimestamp)
            .order_by_asc(event_phase::Column::Id)
            .all(db)
            .await?;
        for p in found {
            phases.entry(p.event_id).or_default().push(PhaseRecord {
                id: p.id,
                phase_type: p.phase_type,
                phase_code: p.phase_type.code(),
                phase_timestamp: p.phase_timestamp,
                is_private: p.is_private,
                is_displayable: p.is_displayable,
            });
        }
        Ok(rows
            .into_iter()
            .map(|e| EventRecord {
                phases: phases.remove(&e.id).unwrap_or_default(),
                id: e.id,
                permalink: e.permalink,
                version: e.version,
                name_ja: e.name_ja,
                name_en: e.name_en,
                theme_ja: e.theme_ja,
                theme_en: e.theme_en,
                theme_description_ja: e.theme_description_ja,
                theme_description_en: e.theme_description_en,
                is_entry_closed: e.is_entry_closed,
                is_public: e.is_public,
                exhibition_term_url: e.exhibition_term_url,
                exhibition_guideline_url: e.exhibition_guideline_url,
                submission_rule_url: e.submission_rule_url,
                image: e.image,
                logo: e.logo,
                icon: e.icon,
                first_view_image: e.first_view_image,
                created_at: e.created_at,
                updated_at: e.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: EventInput, cx: &Cx<'_>) -> Result<i32> {
        let row = event::ActiveModel { created_at: Set(cx.acted_at()), ..Default::default() };
        let phases = input.phases.clone();
        let saved = fill(txn, row, input, None, cx).await?.insert(txn).await?;
        replace_phases(txn, saved.id, phases).await?;
        Ok(saved.id)
    }

    async fn update(txn: &DatabaseTransaction, row: event::Model, input: EventInput, cx: &Cx<'_>) -> Result<()> {
        let id = row.id;
        let phases = input.phases.clone();
        fill(txn, row.into(), input, Some(id), cx).await?.update(txn).await?;
        replace_phases(txn, id, phases).await
    }

    async fn delete(txn: &DatabaseTransaction, row: event::Model, _cx: &Cx<'_>) -> Result<()> {
        let id = row.id;
        Uses::new()
            .count(txn, "concepts", concept::Entity::find().filter(concept::Column::EventId.eq(id)))
            .await?
            .count(txn, "worlds", world::Entity::find().filter(world::Column::EventId.eq(id)))
            .await?
            .count(txn, "companies", company::Entity::find().filter(company::Column::EventId.eq(id)))
            .await?
            .count(txn, "exhibitors", exhibitor::Entity::find().filter(exhibitor::Column::EventId.eq(id)))
            .await?
            .count(txn, "catalog_items", catalog_item::Entity::find().filter(catalog_item::Column::EventId.eq(id)))
            .await?
            .count(
                txn,
                "hub_notifications",
                hub_notification::Entity::find().filter(hub_notification::Column::EventId.eq(id)),
            )
            .await?
            .count(
                txn,
                "exhibitor_notifications",
                exhibitor_notification::Entity::find().filter(exhibitor_notification::Column::EventId.eq(id)),
            )
            .await?
            .count(txn, "vrc_redirects", vrc_redirect::Entity::find().filter(vrc_redirect::Column::EventId.eq(id)))
            .await?
            .count(
                txn,
                "entry_plans",
                event_entry_plan::Entity::find().filter(event_entry_plan::Column::EventId.eq(id)),
            )
            .await?
            .count(txn, "entries", event_entry::Entity::find().filter(event_entry::Column::EventId.eq(id)))
            .await?
            .count(txn, "lottery_runs", lottery_run::Entity::find().filter(lottery_run::Column::EventId.eq(id)))
            .await?
            .refuse("event_not_empty")?;
        event::Entity::delete_by_id(id).exec(txn).await?;
        Ok(())
    }
}

/// `row` with the input's fields, after checking that the permalink is free.
async fn fill(
    txn: &DatabaseTransaction,
    mut row: event::ActiveModel,
    input: EventInput,
    id: Option<i32>,
    cx: &Cx<'_>,
) -> Result<event::ActiveModel> {
    let permalink = input.permalink.unwrap_or_default();
    let taken = event::Entity::find()
        .filter(event::Column::Permalink.eq(permalink.as_str()))
        .one(txn)
        .await?
        .is_some_and(|other| Some(other.id) != id);
    if taken {
        return Err(Error::invalid("permalink", "validation.taken"));
    }
    row.permalink = Set(permalink);
    row.version = Set(input.version.unwrap_or(1));
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.theme_ja = Set(input.theme_ja);
    row.theme_en = Set(input.theme_en);
    row.theme_description_ja = Set(input.theme_description_ja);
    row.theme_description_en = Set(input.theme_description_en);
    row.is_entry_closed = Set(input.is_entry_closed);
    row.is_public = Set(input.is_public);
    row.exhibition_term_url = Set(input.exhibition_term_url);
    row.exhibition_guideline_url = Set(input.exhibition_guideline_url);
    row.submission_rule_url = Set(input.submission_rule_url);
    row.image = Set(input.image);
    row.logo = Set(input.logo);
    row.icon = Set(input.icon);
    row.first_view_image = Set(input.first_view_image);
    row.updated_at = Set(cx.acted_at());
    Ok(row)
}

/// Makes the event's phases exactly `phases`.
async fn replace_phases(txn: &DatabaseTransaction, event_id: i32, phases: Vec<PhaseInput>) -> Result<()> {
    let existing: Vec<event_phase::Model> =
        event_phase::Entity::find().filter(event_phase::Column::EventId.eq(event_id)).all(txn).await?;
    let kept: Vec<i32> = phases.iter().filter_map(|p| p.id).filter(|id| existing.iter().any(|e| e.id == *id)).collect();
    event_phase::Entity::delete_many()
        .filter(event_phase::Column::EventId.eq(event_id))
        .filter(event_phase::Column::Id.is_not_in(kept.clone()))
        .exec(txn)
        .await?;
    for phase in phases {
        let (Some(phase_type), Some(at)) = (phase.phase_type, phase.phase_timestamp) else { continue };
        let mut row = event_phase::ActiveModel {
            event_id: Set(event_id),
            phase_type: Set(phase_type),
            phase_timestamp: Set(at.0),
            is_private: Set(phase.is_private),
            is_displayable: Set(phase.is_displayable),
            ..Default::default()
        };
        match phase.id.filter(|id| kept.contains(id)) {
            Some(id) => {
                row.id = Set(id);
                row.update(txn).await?;
            }
            None => {
                row.insert(txn).await?;
            }
        }
    }
    Ok(())
}
