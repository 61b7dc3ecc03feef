//! `worlds`: the virtual worlds of a concept (its event follows from the concept), with their
//! pictures, keywords, artist credits and numbered areas ([`credits`]). A world that anything
//! else refers to (posters, companies, exhibitors and their slots in its areas, hub
//! notifications, entry plans) cannot be deleted (409 `in_use`, naming them); its keyword and
//! artist links and its areas go with it. Nor can such a world move to a concept of another
//! event (409 `world_event_fixed`): those records belong to its event.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter,
    QuerySelect, QueryTrait, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::credits::{self, AreaInput, AreaRecord, Credit, CreditInput};
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{
    company_world, concept, event_entry_plan, exhibitor, exhibitor_slot, hub_notification, poster, world, world_area,
};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::types::kinds::{Platform, Venue, WorldArtistCategory};

/// The resource.
pub struct Worlds;

/// A world as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct WorldRecord {
    /// World id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// Its concept.
    pub concept_id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// Supported clients.
    pub exhibition_platform: Platform,
    /// Where it is hosted.
    pub venue: Venue,
    /// For companies.
    pub is_company: bool,
    /// Where visitors jump in.
    pub launch_link: Option<String>,
    /// Position in lists.
    pub display_order: i32,
    /// Logo.
    pub logo: Option<String>,
    /// Key visual.
    pub image: Option<String>,
    /// Its keywords (`keywords` ids).
    pub keyword_ids: Vec<i32>,
    /// Who made it.
    pub artists: Vec<Credit<WorldArtistCategory>>,
    /// Its numbered areas.
    pub areas: Vec<AreaRecord>,
}

/// What staff send for a world.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct WorldInput {
    /// Its concept (the event follows).
    #[validate(required)]
    pub concept_id: Option<i32>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Japanese description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub description_ja: String,
    /// English description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub description_en: String,
    /// Supported clients.
    #[validate(required)]
    pub exhibition_platform: Option<Platform>,
    /// Where it is hosted.
    #[validate(required)]
    pub venue: Option<Venue>,
    /// For companies.
    pub is_company: bool,
    /// Where visitors jump in (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub launch_link: Option<String>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_order: i32,
    /// Key visual.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub image: Option<String>,
    /// Logo.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub logo: Option<String>,
    /// Its keywords (`keywords` ids; the list replaces the stored one).
    #[validate(length(max = 50))]
    pub keyword_ids: Vec<i32>,
    /// Who made it (replaces the stored credits).
    #[validate(nested, length(max = 50))]
    pub artists: Vec<CreditInput<WorldArtistCategory>>,
    /// Its numbered areas (kept by id, added without one, removed when left out).
    #[validate(nested, length(max = 50))]
    pub areas: Vec<AreaInput>,
}

impl Resource for Worlds {
    type Entity = world::Entity;
    type Record = WorldRecord;
    type Input = WorldInput;

    const NAME: &'static str = "worlds";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "concept_id", "display_order", "name_ja", "name_en"],
        filter: &["event_id", "concept_id", "exhibition_platform", "venue", "is_company"],
        search: &["name_ja", "name_en", "description_ja", "description_en"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] =
        &[ImageSlot::wide("image"), ImageSlot::square("logo"), ImageSlot::wide("areas.image")];

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<world::Model>) -> Result<Vec<WorldRecord>> {
        let ids: Vec<i32> = rows.iter().map(|w| w.id).collect();
        let mut keywords = credits::world_keywords(db, ids.clone()).await?;
        let mut artists = credits::world_artists(db, ids.clone()).await?;
        let mut areas = credits::world_areas(db, ids).await?;
        Ok(rows
            .into_iter()
            .map(|w| WorldRecord {
                keyword_ids: keywords.remove(&w.id).unwrap_or_default(),
                artists: artists.remove(&w.id).unwrap_or_default(),
                areas: areas.remove(&w.id).unwrap_or_default(),
                id: w.id,
                event_id: w.event_id,
                concept_id: w.concept_id,
                name_ja: w.name_ja,
                name_en: w.name_en,
                description_ja: w.description_ja,
                description_en: w.description_en,
                exhibition_platform: w.exhibition_platform,
                venue: w.venue,
                is_company: w.is_company,
                launch_link: w.launch_link,
                display_order: w.display_order,
                logo: w.logo,
                image: w.image,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: WorldInput, _cx: &Cx<'_>) -> Result<i32> {
        let links = input.clone();
        let id = fill(txn, Default::default(), input).await?.insert(txn).await?.id;
        replace_links(txn, id, &links).await?;
        Ok(id)
    }

    async fn update(txn: &DatabaseTransaction, row: world::Model, input: WorldInput, _cx: &Cx<'_>) -> Result<()> {
        let (id, event_id) = (row.id, row.event_id);
        let links = input.clone();
        let changed = fill(txn, row.into(), input).await?;
        if changed.event_id.as_ref() != &event_id {
            event_bound(txn, id).await?.refuse("world_event_fixed")?;
        }
        changed.update(txn).await?;
        replace_links(txn, id, &links).await
    }

    async fn delete(txn: &DatabaseTransaction, row: world::Model, _cx: &Cx<'_>) -> Result<()> {
        event_bound(txn, row.id)
            .await?
            .count(txn, "posters", poster::Entity::find().filter(poster::Column::WorldId.eq(row.id)))
            .await?
            .refuse("in_use")?;
        world::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

/// What refers to world `id` and belongs to its event: companies showing it, exhibitors in it
/// (or with a slot in one of its areas), hub notifications taking place in it, entry plans.
async fn event_bound(txn: &DatabaseTransaction, id: i32) -> Result<Uses> {
    let areas = world_area::Entity::find()
        .select_only()
        .column(world_area::Column::Id)
        .filter(world_area::Column::WorldId.eq(id))
        .into_query();
    let slotted = exhibitor_slot::Entity::find()
        .select_only()
        .column(exhibitor_slot::Column::ExhibitorId)
        .filter(exhibitor_slot::Column::WorldAreaId.in_subquery(areas))
        .into_query();
    let exhibitors = exhibitor::Entity::find().filter(
        Condition::any().add(exhibitor::Column::WorldId.eq(id)).add(exhibitor::Column::Id.in_subquery(slotted)),
    );
    Uses::new()
        .count(txn, "companies", company_world::Entity::find().filter(company_world::Column::WorldId.eq(id)))
        .await?
        .count(txn, "exhibitors", exhibitors)
        .await?
        .count(
            txn,
            "hub_notifications",
            hub_notification::Entity::find().filter(hub_notification::Column::WorldId.eq(id)),
        )
        .await?
        .count(txn, "entry_plans", event_entry_plan::Entity::find().filter(event_entry_plan::Column::WorldId.eq(id)))
        .await
}

/// World `id`'s keywords, credits and areas as `input` lists them (each keyword and artist must exist).
async fn replace_links(txn: &DatabaseTransaction, id: i32, input: &WorldInput) -> Result<()> {
    let problems = credits::unknown_references(txn, &input.keyword_ids, &input.artists).await?;
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    credits::replace_world_links(txn, id, &input.keyword_ids, &input.artists).await?;
    credits::replace_areas(txn, id, &input.areas).await
}

async fn fill(txn: &DatabaseTransaction, mut row: world::ActiveModel, input: WorldInput) -> Result<world::ActiveModel> {
    let concept = concept::Entity::find_by_id(input.concept_id.unwrap_or_default())
        .one(txn)
        .await?
        .ok_or_else(|| Error::invalid("concept_id", "validation.unknown_reference"))?;
    row.event_id = Set(concept.event_id);
    row.concept_id = Set(concept.id);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.description_ja = Set(input.description_ja);
    row.description_en = Set(input.description_en);
    row.exhibition_platform = Set(input.exhibition_platform.unwrap_or(Platform::None));
    row.venue = Set(input.venue.unwrap_or(Venue::None));
    row.is_company = Set(input.is_company);
    row.launch_link = Set(input.launch_link);
    row.display_order = Set(input.display_order);
    row.image = Set(input.image);
    row.logo = Set(input.logo);
    Ok(row)
}
