//! What the mypage dashboard shows of the work after the win (issue 28 item 7): for each slot
//! of the user's circles in an event that has not closed, its checklist's next deadline
//! (`crate::exhibit::checklist::next_deadline`) — the same answer the event's hub gives.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::db::entities::event;
use crate::error::Result;
use crate::exhibit::catalog::counts_of;
use crate::exhibit::checklist::{SlotFacts, StepKind, next_deadline, steps};
use crate::exhibit::slot::{SlotView, all_slots_for};
use crate::exhibit::submission::newest_of;
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;
use crate::types::Lang;

/// A slot and what is due next for it.
pub struct SlotDue {
    /// The slot's event.
    pub event: event::Model,
    /// The slot.
    pub slot: SlotView,
    /// The step due next and its deadline; none when nothing is due (all done, or waiting on
    /// staff or the clock).
    pub next: Option<(StepKind, DateTime<Utc>)>,
}

/// The slots of `user_id`'s circles in events not closed at `now`, soonest deadline first
/// (slots with nothing due last), each with its next deadline.
pub async fn due_for(db: &impl ConnectionTrait, user_id: i32, lang: Lang, now: DateTime<Utc>) -> Result<Vec<SlotDue>> {
    let slots = all_slots_for(db, user_id, lang).await?;
    let mut by_event: BTreeMap<i32, Vec<SlotView>> = BTreeMap::new();
    for slot in slots {
        by_event.entry(slot.event_id).or_default().push(slot);
    }
    let events = event::Entity::find().filter(event::Column::Id.is_in(by_event.keys().copied())).all(db).await?;
    let mut due = Vec::new();
    for e in events {
        let Some(slots) = by_event.remove(&e.id) else { continue };
        let found = EventWithPhases::load(db, e).await?;
        if found.reached(PhaseType::EventClose, now) {
            continue;
        }
        let counts = counts_of(db, &slots).await?;
        let ids: Vec<i32> = slots.iter().map(|s| s.id).collect();
        let newest = newest_of(db, &ids).await?;
        for slot in slots {
            let facts = SlotFacts { items: counts.get(&slot.id).copied().unwrap_or(0), newest: newest.get(&slot.id) };
            let next = next_deadline(&steps(&found, &facts, now), now);
            due.push(SlotDue { event: found.event.clone(), slot, next });
        }
    }
    due.sort_by_key(|d| (d.next.is_none(), d.next.map(|(_, at)| at), d.slot.id));
    Ok(due)
}
