//! Where a slot's booth stands, as staff assign it: an area of the plan's world and a booth
//! number in it, one booth per area and number — checked here for a clear answer, and held by
//! the database's unique index when two staff members assign the same booth at once.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, SqlErr,
};

use crate::db::entities::{event_entry_application, event_entry_plan, event_slot_placement, world_area};
use crate::error::{Error, Result};
use crate::exhibit::slot::SLOT_STATUSES;

/// Where to place a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Booth {
    /// This number in this area.
    At {
        /// The area (of the slot's world).
        world_area_id: i32,
        /// The booth number, from 1.
        number: i32,
    },
    /// The lowest free number in this area ("assign in order").
    NextIn {
        /// The area (of the slot's world).
        world_area_id: i32,
    },
}

/// Places slot `application_id` at `booth` (moving it if it stood elsewhere), by staff member
/// `staff_id` (none: the demo data). 409 `not_a_slot`
/// for an application that is not `paid` or `win`, 409 `booth_taken` for a booth another slot
/// holds; 422 on `world_area_id` for an area of another world.
pub async fn place(
    db: &impl ConnectionTrait,
    application_id: i32,
    booth: Booth,
    staff_id: Option<i32>,
    now: DateTime<Utc>,
) -> Result<event_slot_placement::Model> {
    let application =
        event_entry_application::Entity::find_by_id(application_id).one(db).await?.ok_or_else(Error::not_found)?;
    if !SLOT_STATUSES.contains(&application.lottery_status) {
        return Err(Error::Conflict { code: "not_a_slot" });
    }
    let world_area_id = match booth {
        Booth::At { world_area_id, .. } | Booth::NextIn { world_area_id } => world_area_id,
    };
    // Locked (PostgreSQL; SQLite's write transaction holds the database) so that assignments
    // to one area — "assign in order" sends them at once — take their numbers one at a time.
    let area = world_area::Entity::find_by_id(world_area_id)
        .lock_exclusive()
        .one(db)
        .await?
        .ok_or_else(|| Error::invalid("world_area_id", "validation.unknown_reference"))?;
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?.ok_or_else(Error::not_found)?;
    if area.world_id != plan.world_id {
        return Err(Error::invalid("world_area_id", "validation.area_of_other_world"));
    }
    let existing = event_slot_placement::Entity::find_by_id(application_id).one(db).await?;
    let number = match booth {
        Booth::At { number, .. } => number,
        Booth::NextIn { .. } => match existing.as_ref().filter(|p| p.world_area_id == world_area_id) {
            Some(already) => return Ok(already.clone()),
            None => next_free(db, world_area_id).await?,
        },
    };
    let holder = event_slot_placement::Entity::find()
        .filter(event_slot_placement::Column::WorldAreaId.eq(world_area_id))
        .filter(event_slot_placement::Column::Number.eq(number))
        .one(db)
        .await?;
    if let Some(holder) = holder.filter(|h| h.application_id != application_id) {
        if is_slot(db, holder.application_id).await? {
            return Err(Error::Conflict { code: "booth_taken" });
        }
        // An application that is no longer a slot (corrected by staff) frees its booth.
        clear(db, holder.application_id).await?;
    }
    let mut row: event_slot_placement::ActiveModel = match existing {
        Some(found) => found.into(),
        None => event_slot_placement::ActiveModel { application_id: Set(application_id), ..Default::default() },
    };
    let is_new = row.world_area_id.is_not_set();
    row.world_area_id = Set(world_area_id);
    row.number = Set(number);
    row.assigned_by = Set(staff_id);
    row.updated_at = Set(now);
    let saved = if is_new { row.insert(db).await } else { row.update(db).await };
    let saved = saved.map_err(|e| match e.sql_err() {
        Some(SqlErr::UniqueConstraintViolation(_)) => Error::Conflict { code: "booth_taken" },
        _ => e.into(),
    })?;
    // A placed slot is listed in the public catalogue once it opens, items or not.
    crate::exhibit::exhibitor_row::ensure(db, application_id).await?;
    Ok(saved)
}

/// The first area (by number) of the world of application `application`'s plan; none when the
/// world has no areas.
pub async fn first_area(
    db: &impl ConnectionTrait,
    application: &event_entry_application::Model,
) -> Result<Option<world_area::Model>> {
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?.ok_or_else(Error::not_found)?;
    Ok(world_area::Entity::find()
        .filter(world_area::Column::WorldId.eq(plan.world_id))
        .order_by_asc(world_area::Column::Number)
        .one(db)
        .await?)
}

/// Takes slot `application_id`'s placement away (nothing when it had none).
pub async fn clear(db: &impl ConnectionTrait, application_id: i32) -> Result<()> {
    event_slot_placement::Entity::delete_by_id(application_id).exec(db).await?;
    Ok(())
}

/// Whether application `id` is a slot now.
async fn is_slot(db: &impl ConnectionTrait, id: i32) -> Result<bool> {
    let found = event_entry_application::Entity::find_by_id(id).one(db).await?;
    Ok(found.is_some_and(|a| SLOT_STATUSES.contains(&a.lottery_status)))
}

/// The lowest booth number from 1 that no slot holds in area `world_area_id` (a booth an
/// application that is no longer a slot still holds counts as free).
async fn next_free(db: &impl ConnectionTrait, world_area_id: i32) -> Result<i32> {
    let slots = Query::select()
        .column(event_entry_application::Column::Id)
        .from(event_entry_application::Entity)
        .and_where(event_entry_application::Column::LotteryStatus.is_in(SLOT_STATUSES))
        .to_owned();
    let taken = event_slot_placement::Entity::find()
        .filter(event_slot_placement::Column::WorldAreaId.eq(world_area_id))
        .filter(event_slot_placement::Column::ApplicationId.in_subquery(slots))
        .order_by_asc(event_slot_placement::Column::Number)
        .all(db)
        .await?;
    let mut next = 1;
    for row in taken {
        if row.number == next {
            next += 1;
        } else if row.number > next {
            break;
        }
    }
    Ok(next)
}
