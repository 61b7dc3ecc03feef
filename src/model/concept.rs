//! Concepts: paginated listing per event and the views with worlds, keywords and artists.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::world;
use crate::db::entities::{concept, concept_artist, concept_keyword};
use crate::error::{Error, Result};
use crate::model::event::{EventView, EventWithPhases};
use crate::model::pagination::PageRequest;
use crate::model::people::{ArtistView, KeywordView, artists_by_id, keywords_by_id};
use crate::model::tree::Tree;
use crate::model::world::WorldView;
use crate::types::kinds::{ConceptArtistCategory, ConceptKind, Platform, Venue};
use crate::types::{Lang, Localized, localized};

/// A concept with its worlds (spec §3 Concept).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConceptView {
    /// Concept id.
    pub id: i32,
    /// Owning event.
    pub event_id: i32,
    /// Supported clients.
    pub platform: Platform,
    /// Hosting venue.
    pub venue: Venue,
    /// Concept kind.
    pub kind: ConceptKind,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// Key image.
    pub image: Option<String>,
    /// A corporate concept.
    pub is_company: bool,
    /// Logo.
    pub logo: Option<String>,
    /// Keywords.
    pub keywords: Vec<KeywordView>,
    /// Image of the launch button.
    pub launch_link_image: Option<String>,
    /// Map: `map_image` in the request's language, `map_image_ja`, `map_image_en`.
    #[serde(flatten)]
    pub map_image: localized::MapImage,
    /// The concept's worlds in display order.
    pub worlds: Vec<WorldView>,
}

/// An artist credit on a concept.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConceptArtistView {
    /// Link id.
    pub id: i32,
    /// What the artist did.
    pub category: ConceptArtistCategory,
    /// The artist.
    pub artist: ArtistView,
}

/// A concept with worlds, concept artists and its event (spec §3 "full concept with event").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FullConceptView {
    /// The concept and its worlds.
    #[serde(flatten)]
    pub concept: ConceptView,
    /// Artist credits.
    pub concept_artists: Vec<ConceptArtistView>,
    /// The event.
    pub event: EventView,
}

/// One page of concepts.
pub struct ConceptPage {
    /// The concepts on this page.
    pub concepts: Vec<concept::Model>,
    /// How many the event has.
    pub count: u64,
}

impl concept::Model {
    /// Concepts of `event_id` in display order, one page of them.
    pub async fn page(db: &impl ConnectionTrait, event_id: i32, page: PageRequest) -> Result<ConceptPage> {
        let select = concept::Entity::find().filter(concept::Column::EventId.eq(event_id));
        let count = select.clone().count(db).await?;
        let concepts = select
            .order_by_asc(concept::Column::DisplayOrder)
            .order_by_asc(concept::Column::Id)
            .offset(page.offset())
            .limit(page.limit)
            .all(db)
            .await?;
        Ok(ConceptPage { concepts, count })
    }

    /// Every concept of `event_id`, in display order.
    pub async fn of_event(db: &impl ConnectionTrait, event_id: i32) -> Result<Vec<Self>> {
        Ok(concept::Entity::find()
            .filter(concept::Column::EventId.eq(event_id))
            .order_by_asc(concept::Column::DisplayOrder)
            .order_by_asc(concept::Column::Id)
            .all(db)
            .await?)
    }

    /// Finds a concept of `event_id` by id.
    pub async fn find_in_event(db: &impl ConnectionTrait, event_id: i32, id: i32) -> Result<Self> {
        concept::Entity::find_by_id(id)
            .filter(concept::Column::EventId.eq(event_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }
}

impl ConceptView {
    /// Views of `concepts` in `lang` with their worlds, keywords and artists, in a fixed number
    /// of queries.
    pub async fn load(db: &impl ConnectionTrait, concepts: Vec<concept::Model>, lang: Lang) -> Result<Vec<Self>> {
        let ids: Vec<i32> = concepts.iter().map(|c| c.id).collect();
        let worlds: Vec<world::Model> = world::Model::of_concepts(db, ids.clone()).await?;
        let mut worlds_by_concept: HashMap<i32, Vec<WorldView>> = HashMap::new();
        for w in WorldView::load(db, worlds, lang).await? {
            worlds_by_concept.entry(w.concept_id).or_default().push(w);
        }
        let links = concept_keyword::Entity::find()
            .filter(concept_keyword::Column::ConceptId.is_in(ids))
            .order_by_asc(concept_keyword::Column::Id)
            .all(db)
            .await?;
        let keywords = keywords_by_id(db, links.iter().map(|l| l.keyword_id).collect()).await?;
        let mut kw_by_concept: HashMap<i32, Vec<KeywordView>> = HashMap::new();
        for link in &links {
            if let Some(k) = keywords.get(&link.keyword_id) {
                kw_by_concept.entry(link.concept_id).or_default().push(KeywordView::new(k, lang));
            }
        }
        Ok(concepts
            .into_iter()
            .map(|c| Self {
                name: Localized::new(lang, c.name_ja, c.name_en),
                description: Localized::new(lang, c.description_ja, c.description_en),
                map_image: Localized::new(lang, c.map_image_ja, c.map_image_en),
                keywords: kw_by_concept.remove(&c.id).unwrap_or_default(),
                worlds: worlds_by_concept.remove(&c.id).unwrap_or_default(),
                id: c.id,
                event_id: c.event_id,
                platform: c.platform,
                venue: c.venue,
                kind: c.kind,
                image: c.image,
                is_company: c.is_company,
                logo: c.logo,
                launch_link_image: c.launch_link_image,
            })
            .collect())
    }
}

impl ConceptView {
    /// Views of `concepts` in `lang` with their worlds, keywords and artists, from the event tree
    /// (no statement).
    pub fn from_tree<'a>(tree: &Tree, concepts: impl IntoIterator<Item = &'a concept::Model>, lang: Lang) -> Vec<Self> {
        concepts
            .into_iter()
            .map(|c| {
                let worlds = tree.worlds_of(c.event_id).iter().filter(|w| w.concept_id == c.id);
                Self {
                    name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()),
                    description: Localized::new(lang, c.description_ja.clone(), c.description_en.clone()),
                    map_image: Localized::new(lang, c.map_image_ja.clone(), c.map_image_en.clone()),
                    keywords: tree
                        .concept_keywords
                        .get(&c.id)
                        .into_iter()
                        .flatten()
                        .filter_map(|l| tree.keywords.get(&l.keyword_id).map(|k| KeywordView::new(k, lang)))
                        .collect(),
                    worlds: WorldView::from_tree(tree, worlds, lang),
                    id: c.id,
                    event_id: c.event_id,
                    platform: c.platform,
                    venue: c.venue,
                    kind: c.kind,
                    image: c.image.clone(),
                    is_company: c.is_company,
                    logo: c.logo.clone(),
                    launch_link_image: c.launch_link_image.clone(),
                }
            })
            .collect()
    }
}

impl FullConceptView {
    /// The full view of `concept` of `event` in `lang` from the event tree, phases at `now`.
    pub fn from_tree(
        tree: &Tree,
        concept: &concept::Model,
        event: &EventWithPhases,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Self {
        let concept_artists = tree
            .concept_artists
            .get(&concept.id)
            .into_iter()
            .flatten()
            .filter_map(|l| {
                tree.artists.get(&l.artist_id).map(|a| ConceptArtistView {
                    id: l.id,
                    category: l.category,
                    artist: ArtistView::new(a, lang),
                })
            })
            .collect();
        let concept = ConceptView::from_tree(tree, [concept], lang).pop().expect("one view per concept");
        Self { concept, concept_artists, event: EventView::new(event, lang, now) }
    }

    /// The full view of `concept` of `event` in `lang`, phases computed at `now`.
    pub async fn load(
        db: &impl ConnectionTrait,
        concept: concept::Model,
        event: &EventWithPhases,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let links = concept_artist::Entity::find()
            .filter(concept_artist::Column::ConceptId.eq(concept.id))
            .order_by_asc(concept_artist::Column::Id)
            .all(db)
            .await?;
        let artists = artists_by_id(db, links.iter().map(|l| l.artist_id).collect()).await?;
        let concept_artists = links
            .iter()
            .filter_map(|l| {
                artists.get(&l.artist_id).map(|a| ConceptArtistView {
                    id: l.id,
                    category: l.category,
                    artist: ArtistView::new(a, lang),
                })
            })
            .collect();
        let concept = ConceptView::load(db, vec![concept], lang)
            .await?
            .pop()
            .ok_or_else(|| Error::Internal("concept view vanished".into()))?;
        Ok(Self { concept, concept_artists, event: EventView::new(event, lang, now) })
    }
}
