//! The events a user's circles can apply to (`GET /api/v1/user/active_events`, `/mypage/events`):
//! every active public event, whether its entry window is open by the clock and until when, and
//! each circle the user owns with its entry to the event, if any.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{circle, event_entry};
use crate::error::Result;
use crate::model::event::{EventView, EventWithPhases};
use crate::model::phase::PhaseType;
use crate::types::{Lang, Localized, localized};

/// One of the user's own circles, and its entry to the event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OwnCircleEntry {
    /// Circle id (what `circle_id` takes).
    pub circle_id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Suspended: cannot apply.
    pub is_suspended: bool,
    /// Its entry to the event, if it has applied.
    pub entry_id: Option<i32>,
}

/// An active event as a would-be applicant sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActiveEventView {
    /// The event, with phases.
    pub event: EventView,
    /// Entries are accepted now.
    pub entry_open: bool,
    /// When the entry window opens.
    pub entry_starts_at: Option<DateTime<Utc>>,
    /// When the entry window closes.
    pub entry_ends_at: Option<DateTime<Utc>>,
    /// The user's own circles, oldest first.
    pub circles: Vec<OwnCircleEntry>,
}

/// Body of `GET /api/v1/user/active_events`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActiveEvents {
    /// Active events, newest first.
    pub active_events: Vec<ActiveEventView>,
}

/// The active events at `now` for `user_id`, in `lang`.
pub async fn active_for(
    db: &impl ConnectionTrait,
    user_id: i32,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Vec<ActiveEventView>> {
    let events: Vec<EventWithPhases> =
        EventWithPhases::all_public(db).await?.into_iter().filter(|e| e.is_active(now)).collect();
    let circles = circle::Entity::find()
        .filter(circle::Column::OwnerUserId.eq(user_id))
        .order_by_asc(circle::Column::CreatedAt)
        .order_by_asc(circle::Column::Id)
        .all(db)
        .await?;
    let entries = event_entry::Entity::find()
        .filter(event_entry::Column::CircleId.is_in(circles.iter().map(|c| c.id).collect::<Vec<_>>()))
        .all(db)
        .await?;
    Ok(events
        .iter()
        .map(|e| ActiveEventView {
            event: EventView::new(e, lang, now),
            entry_open: e.entry_open(now),
            entry_starts_at: e.at(PhaseType::EntryStart),
            entry_ends_at: e.at(PhaseType::EntryEnd),
            circles: circles
                .iter()
                .map(|c| OwnCircleEntry {
                    circle_id: c.id,
                    name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()),
                    is_suspended: c.is_suspended,
                    entry_id: entries.iter().find(|x| x.circle_id == c.id && x.event_id == e.event.id).map(|x| x.id),
                })
                .collect(),
        })
        .collect())
}
