//! Events: lookups by permalink, the current / active / past events, and the view sent to
//! clients with phases computed against the clock.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{event, event_phase};
use crate::error::{Error, Result};
use crate::model::phase::{self, DisplayLabel, PhaseStatus, PhaseType};
use crate::types::{Lang, Localized, localized};

/// An event together with its timeline, oldest phase first.
#[derive(Debug, Clone)]
pub struct EventWithPhases {
    /// The event row.
    pub event: event::Model,
    /// Its phases, sorted by time.
    pub phases: Vec<event_phase::Model>,
}

impl event::Model {
    /// Finds an event by an API or page key: its permalink, or its numeric id. Private events
    /// are unknown to the public.
    pub async fn resolve(db: &impl ConnectionTrait, key: &str) -> Result<Self> {
        let by_permalink = event::Entity::find()
            .filter(event::Column::Permalink.eq(key))
            .filter(event::Column::IsPublic.eq(true))
            .one(db)
            .await?;
        if let Some(found) = by_permalink {
            return Ok(found);
        }
        if let Ok(id) = key.parse::<i32>()
            && let Some(found) = event::Entity::find_by_id(id).filter(event::Column::IsPublic.eq(true)).one(db).await?
        {
            return Ok(found);
        }
        Err(Error::unknown_permalink())
    }

    /// The event's phases, oldest first.
    pub async fn phases(&self, db: &impl ConnectionTrait) -> Result<Vec<event_phase::Model>> {
        Ok(event_phase::Entity::find()
            .filter(event_phase::Column::EventId.eq(self.id))
            .order_by_asc(event_phase::Column::PhaseTimestamp)
            .order_by_asc(event_phase::Column::Id)
            .all(db)
            .await?)
    }
}

impl EventWithPhases {
    /// Loads the phases of `event`.
    pub async fn load(db: &impl ConnectionTrait, event: event::Model) -> Result<Self> {
        let phases = event.phases(db).await?;
        Ok(Self { event, phases })
    }

    /// Every public event with its phases, newest version first.
    pub async fn all_public(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        let events = event::Entity::find()
            .filter(event::Column::IsPublic.eq(true))
            .order_by_desc(event::Column::Version)
            .all(db)
            .await?;
        let ids: Vec<i32> = events.iter().map(|e| e.id).collect();
        let mut phases = event_phase::Entity::find()
            .filter(event_phase::Column::EventId.is_in(ids))
            .order_by_asc(event_phase::Column::PhaseTimestamp)
            .order_by_asc(event_phase::Column::Id)
            .all(db)
            .await?;
        Ok(events
            .into_iter()
            .map(|event| {
                let (mine, rest) = phases.drain(..).partition(|p| p.event_id == event.id);
                phases = rest;
                Self { event, phases: mine }
            })
            .collect())
    }

    /// When the phase of type `kind` happens, if the event has one.
    pub fn at(&self, kind: PhaseType) -> Option<DateTime<Utc>> {
        self.phases.iter().find(|p| p.phase_type == kind).map(|p| p.phase_timestamp)
    }

    /// Whether the phase of type `kind` has been reached at `now`.
    pub fn reached(&self, kind: PhaseType, now: DateTime<Utc>) -> bool {
        self.at(kind).is_some_and(|t| t <= now)
    }

    /// Whether the event is still running or ahead at `now` (its close is in the future).
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        !self.reached(PhaseType::EventClose, now)
    }

    /// The timestamps of the public phases, in order: statuses are computed over what clients
    /// see, so a private phase never makes a public one "past" behind the scenes.
    fn public_timeline(&self) -> Vec<DateTime<Utc>> {
        self.phases.iter().filter(|p| !p.is_private).map(|p| p.phase_timestamp).collect()
    }
}

/// Picks the event the site is about at `now`, among `events`:
///
/// 1. among the events under way (entry started, event not closed), the one whose show opens
///    first: the running show, or else the next show to happen;
/// 2. failing that, the latest event whose entry started (between a show's close and the next
///    entry, the site stays with the show just past);
/// 3. failing that, the next event to start.
///
/// An event without `entry_start` counts from its creation; one without `event_open` opens
/// after every event that has one; one without `event_close` has not closed. Rule 1 is what
/// keeps a show that has not happened yet on the public pages while the next event already
/// takes entries (the demo's 2027Summer during 2026Winter's submission phase): its exhibitors
/// apply from mypage, which lists every event open for entry.
pub fn pick_current(mut events: Vec<EventWithPhases>, now: DateTime<Utc>) -> Option<EventWithPhases> {
    let picked = pick_current_index(&events, now)?;
    Some(events.swap_remove(picked))
}

/// The index in `events` of the event [`pick_current`] picks.
pub fn pick_current_index(events: &[EventWithPhases], now: DateTime<Utc>) -> Option<usize> {
    let start = |e: &EventWithPhases| e.at(PhaseType::EntryStart).unwrap_or(e.event.created_at);
    let opens = |e: &EventWithPhases| (e.at(PhaseType::EventOpen).is_none(), e.at(PhaseType::EventOpen), start(e));
    let indexed = || events.iter().enumerate();
    let under_way = indexed().filter(|(_, e)| start(e) <= now && e.is_active(now));
    if let Some((i, _)) = under_way.min_by_key(|(_, e)| opens(e)) {
        return Some(i);
    }
    let past = indexed().filter(|(_, e)| start(e) <= now && !e.is_active(now));
    if let Some((i, _)) = past.max_by_key(|(_, e)| start(e)) {
        return Some(i);
    }
    indexed().filter(|(_, e)| start(e) > now).min_by_key(|(_, e)| start(e)).map(|(i, _)| i)
}

/// The current event at `now` (see [`pick_current`]).
pub async fn current(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Option<EventWithPhases>> {
    Ok(pick_current(EventWithPhases::all_public(db).await?, now))
}

/// A phase as clients see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PhaseView {
    /// Row id.
    pub id: i32,
    /// The phase type.
    pub phase_type: PhaseType,
    /// Its numeric code (spec §3).
    pub phase_code: i32,
    /// When it happens (UTC, RFC 3339).
    pub phase_timestamp: DateTime<Utc>,
    /// Past, present or future against the server clock.
    pub phase_status: PhaseStatus,
    /// Display label for `display_*` phases.
    pub display_label: Option<DisplayLabel>,
    /// Hidden from the public timeline.
    pub is_private: bool,
    /// Shown on timelines.
    pub is_displayable: bool,
}

/// An event as clients see it (spec §3 Event).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventView {
    /// Event id.
    pub id: i32,
    /// URL key, e.g. `2025Summer`.
    pub permalink: String,
    /// Edition number.
    pub version: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Key visual.
    pub image: Option<String>,
    /// Logo.
    pub logo: Option<String>,
    /// Icon.
    pub icon: Option<String>,
    /// First-view (hero) image.
    pub first_view_image: Option<String>,
    /// Theme: `theme` in the request's language, `theme_ja`, `theme_en`.
    #[serde(flatten)]
    pub theme: localized::Theme,
    /// Theme description: `theme_description` in the request's language, `theme_description_ja`, `theme_description_en`.
    #[serde(flatten)]
    pub theme_description: localized::ThemeDescription,
    /// Entry is closed.
    pub is_entry_closed: bool,
    /// Visible to the public.
    pub is_public: bool,
    /// Exhibition terms.
    pub exhibition_term_url: Option<String>,
    /// Exhibition guideline.
    pub exhibition_guideline_url: Option<String>,
    /// Submission rules.
    pub submission_rule_url: Option<String>,
    /// The version of these three documents an entry agrees to (`agreed_terms` of an entry);
    /// null when the event names none.
    pub terms_digest: Option<String>,
    /// Public phases, oldest first.
    pub event_phases: Vec<PhaseView>,
}

impl EventView {
    /// The view of `e` in `lang`, with phase statuses at `now`. Private phases are left out.
    pub fn new(e: &EventWithPhases, lang: Lang, now: DateTime<Utc>) -> Self {
        let timeline = e.public_timeline();
        let ev = &e.event;
        Self {
            id: ev.id,
            permalink: ev.permalink.clone(),
            version: ev.version,
            name: Localized::new(lang, ev.name_ja.clone(), ev.name_en.clone()),
            image: ev.image.clone(),
            logo: ev.logo.clone(),
            icon: ev.icon.clone(),
            first_view_image: ev.first_view_image.clone(),
            theme: Localized::new(lang, ev.theme_ja.clone(), ev.theme_en.clone()),
            theme_description: Localized::new(lang, ev.theme_description_ja.clone(), ev.theme_description_en.clone()),
            is_entry_closed: ev.is_entry_closed,
            is_public: ev.is_public,
            exhibition_term_url: ev.exhibition_term_url.clone(),
            exhibition_guideline_url: ev.exhibition_guideline_url.clone(),
            submission_rule_url: ev.submission_rule_url.clone(),
            terms_digest: crate::model::entry_terms::Terms::of(ev).map(|t| t.digest),
            event_phases: e
                .phases
                .iter()
                .filter(|p| !p.is_private)
                .map(|p| PhaseView {
                    id: p.id,
                    phase_type: p.phase_type,
                    phase_code: p.phase_type.code(),
                    phase_timestamp: p.phase_timestamp,
                    phase_status: phase::status_of(p.phase_timestamp, &timeline, now),
                    display_label: p.phase_type.display_label(),
                    is_private: p.is_private,
                    is_displayable: p.is_displayable,
                })
                .collect(),
        }
    }
}

/// A stretch of the timeline during which something is open to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Entries are accepted.
    Entry,
    /// The first lottery is drawn.
    FirstLottery,
    /// First-lottery winners pay.
    FirstPayment,
    /// The second lottery is drawn.
    SecondLottery,
    /// Second-lottery winners pay.
    SecondPayment,
    /// Booths are submitted.
    Submission,
    /// Staff inspect booths.
    Inspection,
    /// The event is open to visitors.
    Event,
}

impl Window {
    const ALL: [(Window, PhaseType, PhaseType); 8] = [
        (Window::Entry, PhaseType::EntryStart, PhaseType::EntryEnd),
        (Window::FirstLottery, PhaseType::FirstLotteryStart, PhaseType::FirstLotteryEnd),
        (Window::FirstPayment, PhaseType::FirstPaymentStart, PhaseType::FirstPaymentEnd),
        (Window::SecondLottery, PhaseType::SecondLotteryStart, PhaseType::SecondLotteryEnd),
        (Window::SecondPayment, PhaseType::SecondPaymentStart, PhaseType::SecondPaymentEnd),
        (Window::Submission, PhaseType::SubmissionStart, PhaseType::SubmissionEnd),
        (Window::Inspection, PhaseType::InspectionStart, PhaseType::InspectionEnd),
        (Window::Event, PhaseType::EventOpen, PhaseType::EventClose),
    ];

    /// The snake_case name, used in message keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Entry => "entry",
            Self::FirstLottery => "first_lottery",
            Self::FirstPayment => "first_payment",
            Self::SecondLottery => "second_lottery",
            Self::SecondPayment => "second_payment",
            Self::Submission => "submission",
            Self::Inspection => "inspection",
            Self::Event => "event",
        }
    }
}

impl EventWithPhases {
    /// The windows open at `now`, each with the instant it closes.
    pub fn open_windows(&self, now: DateTime<Utc>) -> Vec<(Window, DateTime<Utc>)> {
        Window::ALL
            .iter()
            .filter_map(|(window, start, end)| {
                let (start, end) = (self.at(*start)?, self.at(*end)?);
                (start <= now && now < end).then_some((*window, end))
            })
            .collect()
    }
}

/// Unit tests' events: one constructor instead of a literal of every column in each test module.
#[cfg(test)]
impl event::Model {
    /// Event `id` (permalink `e{id}`, version `id`), public, taking entries unless its phases say
    /// otherwise, without names, images or documents, made and last changed at `at`.
    pub(crate) fn fixture(id: i32, at: DateTime<Utc>) -> Self {
        Self {
            id,
            permalink: format!("e{id}"),
            version: id,
            name_ja: String::new(),
            name_en: String::new(),
            image: None,
            logo: None,
            icon: None,
            first_view_image: None,
            theme_ja: String::new(),
            theme_en: String::new(),
            theme_description_ja: String::new(),
            theme_description_en: String::new(),
            is_entry_closed: false,
            is_public: true,
            exhibition_term_url: None,
            exhibition_guideline_url: None,
            submission_rule_url: None,
            created_at: at,
            updated_at: at,
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    /// An event `id` with phases at `days` after a fixed origin: entry start, event open, event
    /// close (`None` leaves the phase out).
    fn event(id: i32, entry: Option<i64>, open: Option<i64>, close: Option<i64>) -> EventWithPhases {
        let origin = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap().to_utc();
        let day = |d: i64| origin + Duration::days(d);
        let phases = [(PhaseType::EntryStart, entry), (PhaseType::EventOpen, open), (PhaseType::EventClose, close)]
            .into_iter()
            .filter_map(|(kind, d)| d.map(|d| (kind, day(d))))
            .enumerate()
            .map(|(i, (phase_type, phase_timestamp))| event_phase::Model {
                id: id * 10 + i as i32,
                event_id: id,
                phase_type,
                phase_timestamp,
                is_private: false,
                is_displayable: true,
            })
            .collect();
        let event = event::Model::fixture(id, day(-1000));
        EventWithPhases { event, phases }
    }

    fn current_at(events: &[EventWithPhases], day: i64) -> Option<i32> {
        let origin = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap().to_utc();
        pick_current(events.to_vec(), origin + Duration::days(day)).map(|e| e.event.id)
    }

    #[test]
    fn the_show_ahead_stays_current_while_the_next_event_takes_entries() {
        // Summer: entry day 0, show 100..115. Winter: entry 150, show 250..265. Next: entry 230,
        // show 340..355 (its entry opens while Winter's show is still ahead).
        let events = [
            event(1, Some(0), Some(100), Some(115)),
            event(2, Some(150), Some(250), Some(265)),
            event(3, Some(230), Some(340), Some(355)),
        ];
        assert_eq!(current_at(&events, -10), Some(1), "before anything: the next to start");
        assert_eq!(current_at(&events, 50), Some(1), "taking entries");
        assert_eq!(current_at(&events, 105), Some(1), "its show is running");
        assert_eq!(current_at(&events, 120), Some(1), "closed, the next entry not open: the show just past");
        assert_eq!(current_at(&events, 160), Some(2), "the next one's entry opened");
        assert_eq!(current_at(&events, 235), Some(2), "Next takes entries, Winter's show is ahead");
        assert_eq!(current_at(&events, 255), Some(2), "Winter's show is running");
        assert_eq!(current_at(&events, 270), Some(3), "Winter closed: Next is under way");
        assert_eq!(current_at(&events, 400), Some(3), "everything closed: the latest");
    }

    #[test]
    fn missing_phases_have_defaults() {
        // No event_open: after every event that has one. No event_close: never closes.
        let events = [event(1, Some(0), None, None), event(2, Some(10), Some(100), Some(115))];
        assert_eq!(current_at(&events, 20), Some(2));
        assert_eq!(current_at(&events, 200), Some(1), "the other one never closes");
        assert_eq!(current_at(&[], 0), None);
    }
}
