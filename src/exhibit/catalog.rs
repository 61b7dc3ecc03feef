//! A slot's event catalogue items (issue 28 item 2, spec §7 "Event catalog items"): what the
//! circle lists in the event's catalogue. They are ordinary `catalog_items`, hung from the
//! slot's own exhibitor row (`crate::exhibit::exhibitor_row`, made with the first item), so the
//! public catalogue and the exhibitor page show them once the catalogue opens (today's gate:
//! `event_open`, `crate::model::catalog::is_open`) with no second copy.
//!
//! The owner of the slot's circle writes; members read; anyone else finds nothing (404).
//! **Edits close when `catalog_open` is reached** (the catalogue is prepared for publication
//! then; without that phase, when `event_open` is reached): a write after it answers 409
//! `catalog_closed` naming the deadline. A slot holds at most [`MAX_ITEMS`] items.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{catalog_item, exhibitor};
use crate::error::{Error, Result};
use crate::exhibit::slot::SlotView;
use crate::model::catalog::CatalogItemView;
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;
use crate::types::Lang;

/// Japanese name, at most this many characters (spec §5).
pub const NAME_JA_MAX: u64 = 32;
/// English name, at most this many characters (spec §5).
pub const NAME_EN_MAX: u64 = 64;
/// The item's link, at most this many characters.
pub const URL_MAX: u64 = 2048;
/// Items one slot may list.
pub const MAX_ITEMS: u64 = 50;

/// When the owner's edits close for `event`: `catalog_open`, else `event_open`; `None` when the
/// event has neither (edits stay open).
pub fn edits_close_at(event: &EventWithPhases) -> Option<DateTime<Utc>> {
    event.at(PhaseType::CatalogOpen).or_else(|| event.at(PhaseType::EventOpen))
}

/// Whether the owner may still change the catalogue of `event` at `now`.
pub fn is_editable(event: &EventWithPhases, now: DateTime<Utc>) -> bool {
    edits_close_at(event).is_none_or(|at| now < at)
}

/// The 409 for a write after the edits closed, or nothing.
fn ensure_editable(event: &EventWithPhases, now: DateTime<Utc>) -> Result<()> {
    match edits_close_at(event) {
        Some(deadline) if now >= deadline => Err(Error::Closed { code: "catalog_closed", deadline }),
        _ => Ok(()),
    }
}

/// The refusals of a write that do not depend on what is sent: 403 for a member (only the
/// owner writes), then 409 `catalog_closed` once the edits closed.
pub fn ensure_may_write(event: &EventWithPhases, slot: &SlotView, now: DateTime<Utc>) -> Result<()> {
    if !slot.circle.is_owner {
        return Err(Error::Forbidden);
    }
    ensure_editable(event, now)
}

/// One of a slot's items.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotItemView {
    /// The slot it is listed for.
    pub slot_id: i32,
    /// The item as the public catalogue shows it.
    #[serde(flatten)]
    pub item: CatalogItemView,
}

/// What the owner sends for an item, checked (`crate::forms::catalog_item`).
#[derive(Debug, Clone)]
pub struct ItemChange {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// An http(s) link, if any.
    pub url: Option<String>,
    /// An existing category of exhibitors' items.
    pub category_id: i32,
    /// Handed out free at the event.
    pub is_distributable: bool,
    /// The stored thumbnail's URL when a new one was sent (`None` keeps the current one).
    pub thumbnail: Option<String>,
}

/// The exhibitor rows of `slots`, by id, with the slot each belongs to.
async fn exhibitors_of(db: &impl ConnectionTrait, slots: &[SlotView]) -> Result<Vec<(i32, i32)>> {
    Ok(exhibitor::Entity::find()
        .filter(exhibitor::Column::ApplicationId.is_in(slots.iter().map(|s| s.id)))
        .all(db)
        .await?
        .into_iter()
        .filter_map(|e| e.application_id.map(|a| (e.id, a)))
        .collect())
}

/// The items of `slots` (the user's, from `crate::exhibit::slot::slots_for`), slot by slot in
/// the owner's order.
pub async fn items_of(db: &impl ConnectionTrait, slots: &[SlotView], lang: Lang) -> Result<Vec<SlotItemView>> {
    let exhibitors = exhibitors_of(db, slots).await?;
    let rows = catalog_item::Entity::find()
        .filter(catalog_item::Column::ExhibitorId.is_in(exhibitors.iter().map(|(e, _)| *e)))
        .order_by_asc(catalog_item::Column::ExhibitorId)
        .order_by_asc(catalog_item::Column::DisplayIndex)
        .order_by_asc(catalog_item::Column::Id)
        .all(db)
        .await?;
    let slot_of = |exhibitor_id: Option<i32>| {
        exhibitors.iter().find(|(e, _)| Some(*e) == exhibitor_id).map(|(_, slot)| *slot).unwrap_or_default()
    };
    let slot_ids: Vec<i32> = rows.iter().map(|r| slot_of(r.exhibitor_id)).collect();
    let views = CatalogItemView::load(db, rows, lang).await?;
    Ok(views.into_iter().zip(slot_ids).map(|(item, slot_id)| SlotItemView { slot_id, item }).collect())
}

/// How many items each of `slots` holds, by slot id (slots without items are absent).
pub async fn counts_of(db: &impl ConnectionTrait, slots: &[SlotView]) -> Result<HashMap<i32, usize>> {
    let exhibitors: HashMap<i32, i32> = exhibitors_of(db, slots).await?.into_iter().collect();
    let counts = catalog_item::Model::count_by_exhibitor(db, exhibitors.keys().copied().collect()).await?;
    Ok(counts.into_iter().filter_map(|(e, n)| Some((*exhibitors.get(&e)?, n as usize))).collect())
}

/// Item `item_id` among the items of `slots`, with its slot: 404 when it is not one of them.
pub async fn item_of<'s>(
    db: &impl ConnectionTrait,
    slots: &'s [SlotView],
    item_id: i32,
    lang: Lang,
) -> Result<(SlotItemView, &'s SlotView)> {
    let found =
        items_of(db, slots, lang).await?.into_iter().find(|i| i.item.id == item_id).ok_or_else(Error::not_found)?;
    let slot = slots.iter().find(|s| s.id == found.slot_id).ok_or_else(Error::not_found)?;
    Ok((found, slot))
}

/// Adds an item to `slot` (the owner, before the edits close, under [`MAX_ITEMS`]); its id.
pub async fn create<C: ConnectionTrait + TransactionTrait>(
    db: &C,
    event: &EventWithPhases,
    slot: &SlotView,
    change: ItemChange,
    now: DateTime<Utc>,
) -> Result<i32> {
    ensure_may_write(event, slot, now)?;
    insert(db, slot, change).await
}

/// Lists `change` for `slot` under [`MAX_ITEMS`], whoever asks and whenever (the demo's seed;
/// people go through [`create`]); its id.
pub async fn insert<C: ConnectionTrait + TransactionTrait>(db: &C, slot: &SlotView, change: ItemChange) -> Result<i32> {
    let txn = crate::db::begin_write(db).await?;
    let exhibitor_id = crate::exhibit::exhibitor_row::ensure(&txn, slot.id).await?;
    // Counted and numbered inside the transaction after the exhibitor row (locked on
    // PostgreSQL), so two adds at once cannot pass the cap together.
    exhibitor::Entity::find_by_id(exhibitor_id).lock_exclusive().one(&txn).await?;
    let count =
        catalog_item::Entity::find().filter(catalog_item::Column::ExhibitorId.eq(exhibitor_id)).all(&txn).await?;
    if count.len() as u64 >= MAX_ITEMS {
        return Err(Error::Conflict { code: "catalog_items_full" });
    }
    let next = count.iter().map(|i| i.display_index).max().unwrap_or(0) + 1;
    let row = catalog_item::ActiveModel {
        event_id: Set(slot.event_id),
        exhibitor_id: Set(Some(exhibitor_id)),
        company_id: Set(None),
        category_id: Set(change.category_id),
        name_ja: Set(change.name_ja),
        name_en: Set(change.name_en),
        description_ja: Set(String::new()),
        description_en: Set(String::new()),
        thumbnail: Set(change.thumbnail),
        url: Set(change.url),
        is_distributable: Set(change.is_distributable),
        price: Set(None),
        display_index: Set(next),
        ..Default::default()
    };
    let id = catalog_item::Entity::insert(row).exec(&txn).await?.last_insert_id;
    txn.commit().await?;
    Ok(id)
}

/// Changes item `item_id` of `slot` (found among the user's items by [`item_of`]) (the owner, before the edits close).
pub async fn update(
    db: &impl ConnectionTrait,
    event: &EventWithPhases,
    slot: &SlotView,
    item_id: i32,
    change: ItemChange,
    now: DateTime<Utc>,
) -> Result<()> {
    ensure_may_write(event, slot, now)?;
    let row = catalog_item::Entity::find_by_id(item_id).one(db).await?.ok_or_else(Error::not_found)?;
    let mut row: catalog_item::ActiveModel = row.into();
    row.name_ja = Set(change.name_ja);
    row.name_en = Set(change.name_en);
    row.url = Set(change.url);
    row.category_id = Set(change.category_id);
    row.is_distributable = Set(change.is_distributable);
    if let Some(thumbnail) = change.thumbnail {
        row.thumbnail = Set(Some(thumbnail));
    }
    row.update(db).await?;
    Ok(())
}

/// Removes item `item_id` of `slot` (found among the user's items by [`item_of`]) (the owner, before the edits close).
pub async fn delete(
    db: &impl ConnectionTrait,
    event: &EventWithPhases,
    slot: &SlotView,
    item_id: i32,
    now: DateTime<Utc>,
) -> Result<()> {
    ensure_may_write(event, slot, now)?;
    catalog_item::Entity::delete_by_id(item_id).exec(db).await?;
    Ok(())
}
