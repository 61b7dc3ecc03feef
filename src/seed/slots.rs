//! The demo's slots placed (issue 28): every `paid` or `win` application of the demo events
//! takes the lowest free booth of its world's first area, in application order, as the console's
//! "assign in order" would. Idempotent: a placed slot keeps its booth.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::db::entities::event_entry_application;
use crate::error::Result;
use crate::exhibit::placement::{Booth, first_area, place};
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
        if let Some(area) = first_area(db, &slot).await? {
            place(db, slot.id, Booth::NextIn { world_area_id: area.id }, None, now).await?;
            placed += 1;
        }
    }
    Ok(placed)
}
