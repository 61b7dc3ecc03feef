//! The exhibitor page before visitors see it (issue 28 item 3): for each of the user's slots in
//! an event, the exhibitor page's own view (`crate::model::exhibitor::ExhibitorDetailView`) of the
//! slot — its circle, world, placement and catalogue items — built the way the public page builds
//! it, whether or not the slot's exhibitor row exists yet (`crate::exhibit::exhibitor_row::draft`),
//! and whatever the phase.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::exhibit::exhibitor_row;
use crate::exhibit::slot::SlotView;
use crate::model::event::EventWithPhases;
use crate::model::exhibitor::ExhibitorDetailView;
use crate::model::phase::PhaseType;
use crate::types::Lang;

/// One slot's exhibitor page as visitors will see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExhibitorPreview {
    /// The slot.
    pub slot_id: i32,
    /// When visitors see the page (`event_open`), if the event has that phase.
    pub public_from: Option<DateTime<Utc>>,
    /// Whether visitors see it now.
    pub is_public: bool,
    /// The page's content, as `GET /api/v1/{event}/exhibitors/{id}` answers it once public (`id`
    /// is 0 while the slot has no exhibitor row: before its first item or placement).
    pub exhibitor: ExhibitorDetailView,
}

/// The preview of `slot` of `event` at `now`, in `lang`.
pub async fn of_slot(
    db: &impl ConnectionTrait,
    event: &EventWithPhases,
    slot: &SlotView,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<ExhibitorPreview> {
    let row = match exhibitor_row::find(db, slot.id).await? {
        Some(row) => row,
        None => exhibitor_row::draft(db, slot.id).await?,
    };
    let public_from = event.at(PhaseType::EventOpen);
    Ok(ExhibitorPreview {
        slot_id: slot.id,
        public_from,
        is_public: crate::model::catalog::is_open(event, now),
        exhibitor: ExhibitorDetailView::load(db, row, lang).await?,
    })
}
