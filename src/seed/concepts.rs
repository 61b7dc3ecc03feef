//! The concepts and worlds of a demo event (inside `data/events.json`): each concept with its
//! keywords and art designers, then its worlds with keywords, artists, areas and posters.
//! Keywords are shared between events (found by their two names); artists are named by key.

use std::collections::HashMap;

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use crate::db::entities::{
    concept, concept_artist, concept_keyword, keyword, poster, world, world_area, world_artist, world_keyword,
};
use crate::error::{Error, Result};
use crate::types::kinds::{ConceptArtistCategory, ConceptKind, Platform, Venue, WorldArtistCategory};

/// A concept of an event, with its worlds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConceptSeed {
    id: i32,
    name_ja: String,
    name_en: String,
    description_ja: String,
    description_en: String,
    platform: Platform,
    venue: Venue,
    kind: ConceptKind,
    is_company: bool,
    image: Option<String>,
    logo: Option<String>,
    launch_link_image: Option<String>,
    map_image_ja: Option<String>,
    map_image_en: Option<String>,
    keywords: Vec<KeywordSeed>,
    /// Keys of the concept's art designers.
    artists: Vec<String>,
    worlds: Vec<WorldSeed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldSeed {
    id: i32,
    name_ja: String,
    name_en: String,
    description_ja: String,
    description_en: String,
    exhibition_platform: Platform,
    venue: Venue,
    is_company: bool,
    image: Option<String>,
    logo: Option<String>,
    launch_link: Option<String>,
    keywords: Vec<KeywordSeed>,
    artists: Vec<WorldArtistSeed>,
    areas: Vec<NumberedSeed>,
    posters: Vec<NumberedSeed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeywordSeed {
    ja: String,
    en: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldArtistSeed {
    category: WorldArtistCategory,
    artist: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NumberedSeed {
    number: i32,
    name: String,
}

impl ConceptSeed {
    /// The artist keys the concept and its worlds name.
    pub fn artist_keys(&self) -> impl Iterator<Item = &str> {
        let worlds = self.worlds.iter().flat_map(|w| w.artists.iter().map(|a| a.artist.as_str()));
        self.artists.iter().map(String::as_str).chain(worlds)
    }

    /// The ids of the concept's worlds.
    pub fn world_ids(&self) -> impl Iterator<Item = i32> {
        self.worlds.iter().map(|w| w.id)
    }
}

/// Ids found or created so far: artists by key, keywords by their two names.
#[derive(Default)]
pub struct Lookups {
    /// Artist ids by key.
    pub artists: HashMap<String, i32>,
    keywords: HashMap<(String, String), i32>,
}

impl Lookups {
    fn artist(&self, key: &str) -> Result<i32> {
        self.artists.get(key).copied().ok_or_else(|| Error::Internal(format!("seed data events.json: artist {key}")))
    }

    async fn keyword(&mut self, db: &impl ConnectionTrait, k: &KeywordSeed) -> Result<i32> {
        let key = (k.ja.clone(), k.en.clone());
        if let Some(id) = self.keywords.get(&key) {
            return Ok(*id);
        }
        let found = keyword::Entity::find()
            .filter(keyword::Column::NameJa.eq(&k.ja))
            .filter(keyword::Column::NameEn.eq(&k.en))
            .one(db)
            .await?;
        let id = match found {
            Some(row) => row.id,
            None => {
                let row = keyword::ActiveModel {
                    name_ja: Set(k.ja.clone()),
                    name_en: Set(k.en.clone()),
                    ..Default::default()
                };
                row.insert(db).await?.id
            }
        };
        self.keywords.insert(key, id);
        Ok(id)
    }
}

/// Writes concept `c` of event `event_id` (at `order`) and its worlds, which continue the
/// event's world order `world_order`.
pub async fn insert(
    db: &impl ConnectionTrait,
    event_id: i32,
    order: i32,
    c: &ConceptSeed,
    world_order: &mut i32,
    lookups: &mut Lookups,
) -> Result<()> {
    concept::ActiveModel {
        id: Set(c.id),
        event_id: Set(event_id),
        name_ja: Set(c.name_ja.clone()),
        name_en: Set(c.name_en.clone()),
        description_ja: Set(c.description_ja.clone()),
        description_en: Set(c.description_en.clone()),
        platform: Set(c.platform),
        venue: Set(c.venue),
        kind: Set(c.kind),
        is_company: Set(c.is_company),
        image: Set(c.image.clone()),
        logo: Set(c.logo.clone()),
        launch_link_image: Set(c.launch_link_image.clone()),
        map_image_ja: Set(c.map_image_ja.clone()),
        map_image_en: Set(c.map_image_en.clone()),
        display_order: Set(order),
    }
    .insert(db)
    .await?;
    for k in &c.keywords {
        let keyword_id = lookups.keyword(db, k).await?;
        concept_keyword::ActiveModel { concept_id: Set(c.id), keyword_id: Set(keyword_id), ..Default::default() }
            .insert(db)
            .await?;
    }
    for key in &c.artists {
        concept_artist::ActiveModel {
            concept_id: Set(c.id),
            artist_id: Set(lookups.artist(key)?),
            category: Set(ConceptArtistCategory::ArtDesigner),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    for w in &c.worlds {
        *world_order += 1;
        insert_world(db, event_id, c.id, *world_order, w, lookups).await?;
    }
    Ok(())
}

async fn insert_world(
    db: &impl ConnectionTrait,
    event_id: i32,
    concept_id: i32,
    order: i32,
    w: &WorldSeed,
    lookups: &mut Lookups,
) -> Result<()> {
    world::ActiveModel {
        id: Set(w.id),
        event_id: Set(event_id),
        concept_id: Set(concept_id),
        name_ja: Set(w.name_ja.clone()),
        name_en: Set(w.name_en.clone()),
        description_ja: Set(w.description_ja.clone()),
        description_en: Set(w.description_en.clone()),
        image: Set(w.image.clone()),
        logo: Set(w.logo.clone()),
        exhibition_platform: Set(w.exhibition_platform),
        venue: Set(w.venue),
        is_company: Set(w.is_company),
        launch_link: Set(w.launch_link.clone()),
        display_order: Set(order),
    }
    .insert(db)
    .await?;
    insert_world_links(db, w, lookups).await
}

/// The keywords, artists, areas and posters of world `w`.
async fn insert_world_links(db: &impl ConnectionTrait, w: &WorldSeed, lookups: &mut Lookups) -> Result<()> {
    for k in &w.keywords {
        let keyword_id = lookups.keyword(db, k).await?;
        world_keyword::ActiveModel { world_id: Set(w.id), keyword_id: Set(keyword_id), ..Default::default() }
            .insert(db)
            .await?;
    }
    for a in &w.artists {
        let artist_id = lookups.artist(&a.artist)?;
        world_artist::ActiveModel {
            world_id: Set(w.id),
            artist_id: Set(artist_id),
            category: Set(a.category),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    for area in &w.areas {
        let row = world_area::ActiveModel {
            world_id: Set(w.id),
            name: Set(area.name.clone()),
            number: Set(area.number),
            image: Set(None),
            ..Default::default()
        };
        row.insert(db).await?;
    }
    for p in &w.posters {
        let row = poster::ActiveModel {
            world_id: Set(w.id),
            number: Set(p.number),
            name: Set(p.name.clone()),
            image: Set(None),
            ..Default::default()
        };
        row.insert(db).await?;
    }
    Ok(())
}
