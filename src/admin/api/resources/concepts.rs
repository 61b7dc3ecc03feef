//! `concepts`: the themed areas of an event that hold its worlds. A concept with worlds cannot
//! be deleted (its worlds would go with it).

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::api::resources::credits::{self, Credit, CreditInput};
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{concept, event, world};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::types::kinds::{ConceptArtistCategory, ConceptKind, Platform, Venue};

/// The resource.
pub struct Concepts;

/// A concept as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ConceptRecord {
    /// Concept id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// Supported clients.
    pub platform: Platform,
    /// Where it is hosted.
    pub venue: Venue,
    /// Kind.
    pub kind: ConceptKind,
    /// For companies.
    pub is_company: bool,
    /// Position in lists.
    pub display_order: i32,
    /// Logo.
    pub logo: Option<String>,
    /// Picture of its launch link.
    pub launch_link_image: Option<String>,
    /// Japanese map.
    pub map_image_ja: Option<String>,
    /// English map.
    pub map_image_en: Option<String>,
    /// Key visual.
    pub image: Option<String>,
    /// How many worlds it holds.
    pub world_count: u64,
    /// Its keywords (`keywords` ids).
    pub keyword_ids: Vec<i32>,
    /// Who designed it.
    pub artists: Vec<Credit<ConceptArtistCategory>>,
}

/// What staff send for a concept.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ConceptInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
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
    pub platform: Option<Platform>,
    /// Where it is hosted.
    #[validate(required)]
    pub venue: Option<Venue>,
    /// Kind.
    #[validate(required)]
    pub kind: Option<ConceptKind>,
    /// For companies.
    pub is_company: bool,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_order: i32,
    /// Key visual (an uploaded picture's address).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub image: Option<String>,
    /// Logo.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub logo: Option<String>,
    /// Picture of its launch link.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub launch_link_image: Option<String>,
    /// Japanese map.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub map_image_ja: Option<String>,
    /// English map.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub map_image_en: Option<String>,
    /// Its keywords (`keywords` ids; the list replaces the stored one).
    #[validate(length(max = 50))]
    pub keyword_ids: Vec<i32>,
    /// Who designed it (replaces the stored credits).
    #[validate(nested, length(max = 50))]
    pub artists: Vec<CreditInput<ConceptArtistCategory>>,
}

impl Resource for Concepts {
    type Entity = concept::Entity;
    type Record = ConceptRecord;
    type Input = ConceptInput;

    const NAME: &'static str = "concepts";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "display_order", "name_ja", "name_en", "kind"],
        filter: &["event_id", "kind", "platform", "venue", "is_company"],
        search: &["name_ja", "name_en", "description_ja", "description_en"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[
        ImageSlot::wide("image"),
        ImageSlot::square("logo"),
        ImageSlot::thumbnail("launch_link_image"),
        ImageSlot::large("map_image_ja"),
        ImageSlot::large("map_image_en"),
    ];

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<concept::Model>) -> Result<Vec<ConceptRecord>> {
        let ids: Vec<i32> = rows.iter().map(|c| c.id).collect();
        let mut keywords = credits::concept_keywords(db, ids.clone()).await?;
        let mut artists = credits::concept_artists(db, ids).await?;
        let mut out = Vec::with_capacity(rows.len());
        for c in rows {
            let world_count = world::Entity::find().filter(world::Column::ConceptId.eq(c.id)).count(db).await?;
            out.push(ConceptRecord {
                id: c.id,
                event_id: c.event_id,
                name_ja: c.name_ja,
                name_en: c.name_en,
                description_ja: c.description_ja,
                description_en: c.description_en,
                platform: c.platform,
                venue: c.venue,
                kind: c.kind,
                is_company: c.is_company,
                display_order: c.display_order,
                map_image_en: c.map_image_en,
                map_image_ja: c.map_image_ja,
                launch_link_image: c.launch_link_image,
                logo: c.logo,
                image: c.image,
                world_count,
                keyword_ids: keywords.remove(&c.id).unwrap_or_default(),
                artists: artists.remove(&c.id).unwrap_or_default(),
            });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: ConceptInput, _cx: &Cx<'_>) -> Result<i32> {
        let links = input.clone();
        let id = fill(txn, Default::default(), input).await?.insert(txn).await?.id;
        replace_links(txn, id, &links).await?;
        Ok(id)
    }

    async fn update(txn: &DatabaseTransaction, row: concept::Model, input: ConceptInput, _cx: &Cx<'_>) -> Result<()> {
        let id = row.id;
        let links = input.clone();
        fill(txn, row.into(), input).await?.update(txn).await?;
        replace_links(txn, id, &links).await
    }

    async fn delete(txn: &DatabaseTransaction, row: concept::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new()
            .count(txn, "worlds", world::Entity::find().filter(world::Column::ConceptId.eq(row.id)))
            .await?
            .refuse("in_use")?;
        concept::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

/// Concept `id`'s keywords and credits as `input` lists them (each must exist).
async fn replace_links(txn: &DatabaseTransaction, id: i32, input: &ConceptInput) -> Result<()> {
    let problems = credits::unknown_references(txn, &input.keyword_ids, &input.artists).await?;
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    credits::replace_concept_links(txn, id, &input.keyword_ids, &input.artists).await
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: concept::ActiveModel,
    input: ConceptInput,
) -> Result<concept::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    row.event_id = Set(event_id);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.description_ja = Set(input.description_ja);
    row.description_en = Set(input.description_en);
    row.platform = Set(input.platform.unwrap_or(Platform::None));
    row.venue = Set(input.venue.unwrap_or(Venue::None));
    row.kind = Set(input.kind.unwrap_or(ConceptKind::General));
    row.is_company = Set(input.is_company);
    row.display_order = Set(input.display_order);
    row.image = Set(input.image);
    row.logo = Set(input.logo);
    row.launch_link_image = Set(input.launch_link_image);
    row.map_image_ja = Set(input.map_image_ja);
    row.map_image_en = Set(input.map_image_en);
    Ok(row)
}
