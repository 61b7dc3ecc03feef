//! A circle's event slots as its owner and members see them (`GET /api/v1/user/{event}/event_slots`
//! and `/{slot_id}`): which plan and world each won, what was paid, and the booth's placement
//! once staff assigned one. A slot of a circle the user neither owns nor belongs to does not
//! exist for them (404).

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::event_entry_plan::ExhibitionCategory;
use crate::db::entities::{
    circle, circle_member, event, event_entry, event_entry_application, event_entry_plan, event_slot_placement, world,
    world_area,
};
use crate::error::{Error, Result};
use crate::model::event::EventWithPhases;
use crate::types::Lang;

/// The stored statuses that make an application a slot: won and paid, or won without a fee.
pub const SLOT_STATUSES: [LotteryStatus; 2] = [LotteryStatus::Paid, LotteryStatus::Win];

/// One slot.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotView {
    /// The slot's id (its application's).
    pub id: i32,
    /// The event.
    pub event_id: i32,
    /// `paid`, or `win` for a plan without a fee.
    pub lottery_status: LotteryStatus,
    /// The round that won it.
    pub won_round: Option<LotteryRound>,
    /// The fee at the draw, in yen (0 for `win`).
    pub fee: i32,
    /// The circle that holds it, and how the user stands in it.
    pub circle: SlotCircle,
    /// The plan won.
    pub plan: SlotPlan,
    /// The plan's world.
    pub world: SlotWorld,
    /// Where the booth stands, once staff assigned it.
    pub placement: Option<Placement>,
}

/// The circle of a slot.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotCircle {
    /// Id.
    pub id: i32,
    /// Name in the request's language.
    pub name: String,
    /// Whether the user owns it (else a member: reads only).
    pub is_owner: bool,
}

/// The plan of a slot.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotPlan {
    /// Id.
    pub id: i32,
    /// Name in the request's language.
    pub name: String,
    /// `space`, `item` or `avatar`.
    pub exhibition_category: ExhibitionCategory,
}

/// The world of a slot.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotWorld {
    /// Id.
    pub id: i32,
    /// Name in the request's language.
    pub name: String,
}

/// A booth's placement: an area of the world and a number in it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Placement {
    /// The area.
    pub world_area_id: i32,
    /// The area's name.
    pub area_name: String,
    /// The area's number in its world.
    pub area_number: i32,
    /// The booth's number in the area.
    pub number: i32,
}

/// The circles `user_id` owns or belongs to, by id, each with whether they own it.
pub async fn circles_of(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<(circle::Model, bool)>> {
    let joined: Vec<i32> = circle_member::Entity::find()
        .filter(circle_member::Column::UserId.eq(user_id))
        .all(db)
        .await?
        .into_iter()
        .map(|m| m.circle_id)
        .collect();
    let circles = circle::Entity::find()
        .filter(
            sea_orm::Condition::any()
                .add(circle::Column::OwnerUserId.eq(user_id))
                .add(circle::Column::Id.is_in(joined)),
        )
        .order_by_asc(circle::Column::Id)
        .all(db)
        .await?;
    Ok(circles
        .into_iter()
        .map(|c| {
            let owns = c.owner_user_id == Some(user_id);
            (c, owns)
        })
        .collect())
}

/// The slots of `event_id` held by circles `user_id` owns or belongs to, oldest first.
pub async fn slots_for(db: &impl ConnectionTrait, event_id: i32, user_id: i32, lang: Lang) -> Result<Vec<SlotView>> {
    slots_where(db, Some(event_id), user_id, lang).await
}

/// The slots of every event held by circles `user_id` owns or belongs to, oldest first.
pub async fn all_slots_for(db: &impl ConnectionTrait, user_id: i32, lang: Lang) -> Result<Vec<SlotView>> {
    slots_where(db, None, user_id, lang).await
}

async fn slots_where(
    db: &impl ConnectionTrait,
    event_id: Option<i32>,
    user_id: i32,
    lang: Lang,
) -> Result<Vec<SlotView>> {
    let circles = circles_of(db, user_id).await?;
    let owned: Vec<i32> = circles.iter().filter(|(_, own)| *own).map(|(c, _)| c.id).collect();
    let mut entries =
        event_entry::Entity::find().filter(event_entry::Column::CircleId.is_in(circles.iter().map(|(c, _)| c.id)));
    if let Some(event_id) = event_id {
        entries = entries.filter(event_entry::Column::EventId.eq(event_id));
    }
    let entries = entries.all(db).await?;
    let applications = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.is_in(entries.iter().map(|e| e.id)))
        .filter(event_entry_application::Column::LotteryStatus.is_in(SLOT_STATUSES))
        .order_by_asc(event_entry_application::Column::Id)
        .all(db)
        .await?;
    views(db, applications, &entries, &owned, lang).await
}

/// Event `key` (permalink or id) with the slots `user_id`'s circles hold in it; 404 when they
/// hold none — the gate of every page and call of a circle's event.
pub async fn event_slots(
    db: &impl ConnectionTrait,
    key: &str,
    user_id: i32,
    lang: Lang,
) -> Result<(EventWithPhases, Vec<SlotView>)> {
    let found = EventWithPhases::load(db, event::Model::resolve(db, key).await?).await?;
    let slots = slots_for(db, found.event.id, user_id, lang).await?;
    if slots.is_empty() {
        return Err(Error::not_found());
    }
    Ok((found, slots))
}

/// Slot `slot_id` of `event_id` for `user_id`: 404 unless a circle they own or belong to holds it.
pub async fn slot_for(
    db: &impl ConnectionTrait,
    event_id: i32,
    slot_id: i32,
    user_id: i32,
    lang: Lang,
) -> Result<SlotView> {
    slots_for(db, event_id, user_id, lang).await?.into_iter().find(|s| s.id == slot_id).ok_or_else(Error::not_found)
}

/// The placements of `application_ids`, with their areas, by application.
pub async fn placements_of(
    db: &impl ConnectionTrait,
    application_ids: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, Placement>> {
    let rows = event_slot_placement::Entity::find()
        .filter(event_slot_placement::Column::ApplicationId.is_in(application_ids))
        .all(db)
        .await?;
    let areas: HashMap<i32, world_area::Model> = world_area::Entity::find()
        .filter(world_area::Column::Id.is_in(rows.iter().map(|r| r.world_area_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let area = areas.get(&r.world_area_id)?;
            Some((
                r.application_id,
                Placement {
                    world_area_id: area.id,
                    area_name: area.name.clone(),
                    area_number: area.number,
                    number: r.number,
                },
            ))
        })
        .collect())
}

async fn views(
    db: &impl ConnectionTrait,
    applications: Vec<event_entry_application::Model>,
    entries: &[event_entry::Model],
    owned: &[i32],
    lang: Lang,
) -> Result<Vec<SlotView>> {
    let entries: HashMap<i32, &event_entry::Model> = entries.iter().map(|e| (e.id, e)).collect();
    let circles: HashMap<i32, circle::Model> = circle::Entity::find()
        .filter(circle::Column::Id.is_in(entries.values().map(|e| e.circle_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    let plans: HashMap<i32, event_entry_plan::Model> = event_entry_plan::Entity::find()
        .filter(event_entry_plan::Column::Id.is_in(applications.iter().map(|a| a.plan_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let worlds: HashMap<i32, world::Model> = world::Entity::find()
        .filter(world::Column::Id.is_in(plans.values().map(|p| p.world_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|w| (w.id, w))
        .collect();
    let mut placements = placements_of(db, applications.iter().map(|a| a.id)).await?;
    Ok(applications
        .into_iter()
        .filter_map(|a| {
            let entry = entries.get(&a.entry_id)?;
            let circle = circles.get(&entry.circle_id)?;
            let plan = plans.get(&a.plan_id)?;
            let world = worlds.get(&plan.world_id)?;
            Some(SlotView {
                id: a.id,
                event_id: entry.event_id,
                lottery_status: a.lottery_status,
                won_round: a.won_round,
                fee: a.fee_at_draw.unwrap_or(0),
                circle: SlotCircle {
                    id: circle.id,
                    name: circle.name(lang).to_string(),
                    is_owner: owned.contains(&circle.id),
                },
                plan: SlotPlan {
                    id: plan.id,
                    name: lang.pick(&plan.name_ja, &plan.name_en).to_string(),
                    exhibition_category: plan.exhibition_category,
                },
                world: SlotWorld { id: world.id, name: lang.pick(&world.name_ja, &world.name_en).to_string() },
                placement: placements.remove(&a.id),
            })
        })
        .collect())
}
