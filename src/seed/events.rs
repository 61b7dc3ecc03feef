//! Demo events (`data/events.json`): the artists, then each event with its phases, concepts and
//! worlds (see [`super::concepts`]). Event, concept and world ids are explicit in the file
//! (events 1, 11, 12 and 13 are spec'd). An event that already exists (by id or permalink) is
//! left alone.
//!
//! A phase is at a fixed instant (`at`) or a number of days after the seed runs
//! (`days_after_seed`): the upcoming demo event (2027Summer) has its entry window open from the
//! day before the demo is seeded, so a fresh `make run` has an event to apply to. Its phases are
//! written once, like every row here; seeding again does not move them.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::concepts::{self, ConceptSeed, Lookups};
use super::data::{self, Keys, Reader, Source};
use super::report::SeedReport;
use crate::db::entities::{artist, event, event_phase};
use crate::error::Result;
use crate::model::phase::PhaseType;

/// The file.
const FILE: Source = Source { name: "events.json", text: include_str!("data/events.json") };

/// The contents of `events.json`.
pub struct Events {
    artists: Vec<ArtistSeed>,
    events: Vec<EventSeed>,
}

/// An artist, referred to by `key` from concepts and worlds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtistSeed {
    key: String,
    name_ja: String,
    name_en: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
struct PhaseSeed {
    #[serde(rename = "type")]
    phase_type: PhaseType,
    /// A fixed instant; or
    #[serde(default)]
    at: Option<DateTime<Utc>>,
    /// days after the seed runs (negative: before).
    #[serde(default)]
    days_after_seed: Option<i64>,
    is_private: bool,
    is_displayable: bool,
}

impl PhaseSeed {
    /// When the phase is, for a seed run at `now`.
    fn instant(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        match (self.at, self.days_after_seed) {
            (Some(at), _) => at,
            (None, Some(days)) => now + chrono::Duration::days(days),
            (None, None) => now,
        }
    }
}

/// Reads `events.json` and checks that every artist a concept or world names exists.
pub fn load() -> Result<Events> {
    let mut file = Reader::open(FILE)?;
    let artists: Vec<ArtistSeed> = file.list("artists")?;
    let events: Vec<EventSeed> = file.list("events")?;
    file.finish()?;
    for (i, ev) in events.iter().enumerate() {
        let timed = ev.phases.iter().all(|p| p.at.is_some() != p.days_after_seed.is_some());
        if !timed {
            let what = format!("a phase of {} without exactly one of `at` and `days_after_seed`", ev.permalink);
            return Err(data::bad_entry(FILE.name, "events", i, what));
        }
        for artist in ev.concepts.iter().flat_map(ConceptSeed::artist_keys) {
            let ok = artists.iter().any(|a| a.key == artist);
            data::known(ok, FILE.name, "events", i, format_args!("artist `{artist}` in {}", ev.permalink))?;
        }
    }
    Ok(Events { artists, events })
}

impl Events {
    /// Adds the event permalinks and world ids other files may refer to.
    pub fn keys(&self, keys: &mut Keys) {
        for ev in &self.events {
            keys.events.insert(ev.permalink.clone());
            keys.worlds.extend(ev.concepts.iter().flat_map(ConceptSeed::world_ids));
        }
    }
}

/// Writes the artists and every event that is not there yet.
pub async fn seed(db: &impl ConnectionTrait, data: &Events, now: DateTime<Utc>) -> Result<SeedReport> {
    let mut lookups = Lookups::default();
    for a in &data.artists {
        lookups.artists.insert(a.key.clone(), find_or_create_artist(db, a).await?);
    }
    let mut report = SeedReport::default();
    for ev in &data.events {
        if event::Entity::find_by_id(ev.id).one(db).await?.is_some()
            || event::Entity::find().filter(event::Column::Permalink.eq(&ev.permalink)).one(db).await?.is_some()
        {
            report.skipped.push(ev.permalink.clone());
            continue;
        }
        insert_event(db, ev, now, &mut lookups).await?;
        report.created.push(ev.permalink.clone());
    }
    Ok(report)
}

async fn find_or_create_artist(db: &impl ConnectionTrait, a: &ArtistSeed) -> Result<i32> {
    if let Some(found) = artist::Entity::find()
        .filter(artist::Column::NameJa.eq(&a.name_ja))
        .filter(artist::Column::NameEn.eq(&a.name_en))
        .one(db)
        .await?
    {
        return Ok(found.id);
    }
    let row =
        artist::ActiveModel { name_ja: Set(a.name_ja.clone()), name_en: Set(a.name_en.clone()), ..Default::default() };
    Ok(row.insert(db).await?.id)
}

async fn insert_event(
    db: &impl ConnectionTrait,
    ev: &EventSeed,
    now: DateTime<Utc>,
    lookups: &mut Lookups,
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
            phase_timestamp: Set(p.instant(now)),
            is_private: Set(p.is_private),
            is_displayable: Set(p.is_displayable),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    let mut world_order = 0;
    for (index, c) in ev.concepts.iter().enumerate() {
        concepts::insert(db, ev.id, index as i32, c, &mut world_order, lookups).await?;
    }
    Ok(())
}
