//! The demo's slots placed (issue 28): every `paid` or `win` application of the demo events
//! takes the lowest free booth of its world's first area, in application order, as the console's
//! "assign in order" would. Idempotent: a placed slot keeps its booth.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::db::entities::{event_entry_application, event_entry_plan, world_area};
use crate::error::Result;
use crate::exhibit::placement::{Booth, place};
use crate::exhibit::slot::SLOT_STATUSES;

/// Places the demo's slots; how many are placed.
pub async fn seed(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<usize> {
    let slots = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.is_in(SLOT_STATUSES))
        .order_by_asc(event_entry_application::Column::Id)
        .all(db)
        .await?;
    let mut placed = 0;
    for slot in slots {
        let Some(plan) = event_entry_plan::Entity::find_by_id(slot.plan_id).one(db).await? else { continue };
        let first = world_area::Entity::find()
            .filter(world_area::Column::WorldId.eq(plan.world_id))
            .order_by_asc(world_area::Column::Number)
            .one(db)
            .await?;
        if let Some(area) = first {
            place(db, slot.id, Booth::NextIn { world_area_id: area.id }, None, now).await?;
            placed += 1;
        }
    }
    Ok(placed)
}
