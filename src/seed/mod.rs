//! `vmarket seed demo`: writes a believable marketplace from `demo.json` (events, phases,
//! concepts, worlds, keywords, artists, areas, posters). Events that already exist are left
//! alone, so running it twice changes nothing.

mod catalog;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TransactionSession, TransactionTrait,
};
use serde::Deserialize;

use crate::db::entities::{
    artist, concept, concept_artist, concept_keyword, event, event_phase, keyword, poster, world, world_area,
    world_artist, world_keyword,
};
use crate::db::reset_sequences;
use crate::error::{Error, Result};
use crate::model::kinds::{ConceptArtistCategory, ConceptKind, Platform, Venue, WorldArtistCategory};
use crate::model::phase::PhaseType;

/// The demo data set, compiled into the binary.
const DEMO: &str = include_str!("demo.json");

#[derive(Deserialize)]
struct Demo {
    artists: Vec<ArtistSeed>,
    events: Vec<EventSeed>,
}

#[derive(Deserialize)]
struct ArtistSeed {
    key: String,
    name_ja: String,
    name_en: String,
}

#[derive(Deserialize)]
struct EventSeed {
    id: i32,
    permalink: String,
    version: i32,
    name_ja: String,
    name_en: String,
    theme_ja: String,
    theme_en: String,
    theme_description_ja: String,
    theme_description_en: String,
    is_entry_closed: bool,
    is_public: bool,
    image: Option<String>,
    logo: Option<String>,
    icon: Option<String>,
    first_view_image: Option<String>,
    exhibition_term_url: Option<String>,
    exhibition_guideline_url: Option<String>,
    submission_rule_url: Option<String>,
    phases: Vec<PhaseSeed>,
    concepts: Vec<ConceptSeed>,
}

#[derive(Deserialize)]
struct PhaseSeed {
    #[serde(rename = "type")]
    phase_type: PhaseType,
    at: DateTime<Utc>,
    is_private: bool,
    is_displayable: bool,
}

#[derive(Deserialize)]
struct KeywordSeed {
    ja: String,
    en: String,
}

#[derive(Deserialize)]
struct ConceptSeed {
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
    artists: Vec<String>,
    worlds: Vec<WorldSeed>,
}

#[derive(Deserialize)]
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
struct WorldArtistSeed {
    category: WorldArtistCategory,
    artist: String,
}

#[derive(Deserialize)]
struct NumberedSeed {
    number: i32,
    name: String,
}

/// What a seed run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// Permalinks of the events written.
    pub created: Vec<String>,
    /// Permalinks of the events that were already there.
    pub skipped: Vec<String>,
}

/// Writes the demo data set; events already present are skipped.
pub async fn demo<C: ConnectionTrait + TransactionTrait>(db: &C, now: DateTime<Utc>) -> Result<SeedReport> {
    let demo: Demo = serde_json::from_str(DEMO).map_err(|e| Error::Internal(format!("demo.json: {e}")))?;
    let txn = db.begin().await?;
    let mut report = SeedReport::default();
    let mut artists: HashMap<String, i32> = HashMap::new();
    for a in &demo.artists {
        artists.insert(a.key.clone(), find_or_create_artist(&txn, &a.name_ja, &a.name_en).await?);
    }
    let mut keywords: HashMap<(String, String), i32> = HashMap::new();
    for ev in &demo.events {
        if event::Entity::find_by_id(ev.id).one(&txn).await?.is_some()
            || event::Entity::find().filter(event::Column::Permalink.eq(&ev.permalink)).one(&txn).await?.is_some()
        {
            report.skipped.push(ev.permalink.clone());
            continue;
        }
        insert_event(&txn, ev, now, &artists, &mut keywords).await?;
        report.created.push(ev.permalink.clone());
    }
    catalog::seed(&txn, now).await?;
    reset_sequences(
        &txn,
        &[
            "events",
            "event_phases",
            "concepts",
            "worlds",
            "keywords",
            "artists",
            "concept_keywords",
            "concept_artists",
            "world_keywords",
            "world_artists",
            "world_areas",
            "posters",
            "circles",
            "catalog_item_category_groups",
            "catalog_item_categories",
        ],
    )
    .await?;
    txn.commit().await?;
    Ok(report)
}

async fn find_or_create_artist(db: &impl ConnectionTrait, ja: &str, en: &str) -> Result<i32> {
    if let Some(a) = artist::Entity::find()
        .filter(artist::Column::NameJa.eq(ja))
        .filter(artist::Column::NameEn.eq(en))
        .one(db)
        .await?
    {
        return Ok(a.id);
    }
    let row = artist::ActiveModel { name_ja: Set(ja.into()), name_en: Set(en.into()), ..Default::default() };
    Ok(row.insert(db).await?.id)
}

async fn keyword_id(
    db: &impl ConnectionTrait,
    cache: &mut HashMap<(String, String), i32>,
    k: &KeywordSeed,
) -> Result<i32> {
    let key = (k.ja.clone(), k.en.clone());
    if let Some(id) = cache.get(&key) {
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
            let row =
                keyword::ActiveModel { name_ja: Set(k.ja.clone()), name_en: Set(k.en.clone()), ..Default::default() };
            row.insert(db).await?.id
        }
    };
    cache.insert(key, id);
    Ok(id)
}

fn artist_id(artists: &HashMap<String, i32>, key: &str) -> Result<i32> {
    artists.get(key).copied().ok_or_else(|| Error::Internal(format!("demo.json: unknown artist {key}")))
}

async fn insert_event(
    db: &impl ConnectionTrait,
    ev: &EventSeed,
    now: DateTime<Utc>,
    artists: &HashMap<String, i32>,
    keywords: &mut HashMap<(String, String), i32>,
) -> Result<()> {
    event::ActiveModel {
        id: Set(ev.id),
        permalink: Set(ev.permalink.clone()),
        version: Set(ev.version),
        name_ja: Set(ev.name_ja.clone()),
        name_en: Set(ev.name_en.clone()),
        image: Set(ev.image.clone()),
        logo: Set(ev.logo.clone()),
        icon: Set(ev.icon.clone()),
        first_view_image: Set(ev.first_view_image.clone()),
        theme_ja: Set(ev.theme_ja.clone()),
        theme_en: Set(ev.theme_en.clone()),
        theme_description_ja: Set(ev.theme_description_ja.clone()),
        theme_description_en: Set(ev.theme_description_en.clone()),
        is_entry_closed: Set(ev.is_entry_closed),
        is_public: Set(ev.is_public),
        exhibition_term_url: Set(ev.exhibition_term_url.clone()),
        exhibition_guideline_url: Set(ev.exhibition_guideline_url.clone()),
        submission_rule_url: Set(ev.submission_rule_url.clone()),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    for p in &ev.phases {
        event_phase::ActiveModel {
            event_id: Set(ev.id),
            phase_type: Set(p.phase_type),
            phase_timestamp: Set(p.at),
            is_private: Set(p.is_private),
            is_displayable: Set(p.is_displayable),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    let mut order = 0;
    for (index, c) in ev.concepts.iter().enumerate() {
        insert_concept(db, ev.id, index as i32, c, artists, keywords).await?;
        for w in &c.worlds {
            order += 1;
            insert_world(db, ev.id, c.id, order, w, artists, keywords).await?;
        }
    }
    Ok(())
}

async fn insert_concept(
    db: &impl ConnectionTrait,
    event_id: i32,
    order: i32,
    c: &ConceptSeed,
    artists: &HashMap<String, i32>,
    keywords: &mut HashMap<(String, String), i32>,
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
        let keyword_id = keyword_id(db, keywords, k).await?;
        concept_keyword::ActiveModel { concept_id: Set(c.id), keyword_id: Set(keyword_id), ..Default::default() }
            .insert(db)
            .await?;
    }
    for key in &c.artists {
        concept_artist::ActiveModel {
            concept_id: Set(c.id),
            artist_id: Set(artist_id(artists, key)?),
            category: Set(ConceptArtistCategory::ArtDesigner),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

async fn insert_world(
    db: &impl ConnectionTrait,
    event_id: i32,
    concept_id: i32,
    order: i32,
    w: &WorldSeed,
    artists: &HashMap<String, i32>,
    keywords: &mut HashMap<(String, String), i32>,
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
    for k in &w.keywords {
        let keyword_id = keyword_id(db, keywords, k).await?;
        world_keyword::ActiveModel { world_id: Set(w.id), keyword_id: Set(keyword_id), ..Default::default() }
            .insert(db)
            .await?;
    }
    for a in &w.artists {
        world_artist::ActiveModel {
            world_id: Set(w.id),
            artist_id: Set(artist_id(artists, &a.artist)?),
            category: Set(a.category),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    for area in &w.areas {
        world_area::ActiveModel {
            world_id: Set(w.id),
            name: Set(area.name.clone()),
            number: Set(area.number),
            image: Set(None),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    for p in &w.posters {
        poster::ActiveModel {
            world_id: Set(w.id),
            number: Set(p.number),
            name: Set(p.name.clone()),
            image: Set(None),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}
