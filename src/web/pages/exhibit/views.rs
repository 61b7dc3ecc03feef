//! What the exhibitor's event pages share: the event with the user's slots (404 without one),
//! a slot as the pages show it, and enum values as locale key parts.

use serde_json::{Value, json};

use crate::error::Result;
use crate::exhibit::slot::SlotView;
use crate::model::event::EventWithPhases;
use crate::web::page::Page;

/// The event of a page and the user's slots in it; 404 when they hold none.
pub(crate) async fn event_slots(
    p: &Page<'_>,
    user_id: i32,
    permalink: &str,
) -> Result<(EventWithPhases, Vec<SlotView>)> {
    crate::exhibit::slot::event_slots(p.db, permalink, user_id, p.lang).await
}

/// What every page of a slot shows about it: circle, plan, world, booth.
pub(crate) fn slot_json(p: &Page<'_>, slot: &SlotView) -> Value {
    let booth = slot.placement.as_ref().map(|pl| {
        p.site.messages.tf(p.lang, "exhibit.slot.booth", &[("area", &pl.area_name), ("number", &pl.number.to_string())])
    });
    json!({
        "id": slot.id,
        "circle": slot.circle.name,
        "is_owner": slot.circle.is_owner,
        "plan": slot.plan.name,
        "world": slot.world.name,
        "booth": booth,
    })
}
