//! Emotes and pallets (spec §3 "Emote", "Emote pallets"): the emotes staff publish, as a player
//! with a given client version sees them — owned (free emotes are everyone's; paid ones come with
//! the store), blacklisted, or needing a newer client — and the player's pallet: which emote sits
//! in which of the ten slots. A pallet takes only emotes the player owns, that are not
//! blacklisted and that their client can play; it is replaced whole, in one transaction.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::{ingame_emote, ingame_emote_pallet};
use crate::error::{Error, Invalid, Result};
use crate::ingame::window::Window;
use crate::types::Lang;

/// Slots on a pallet.
pub const PALLET_SLOTS: i32 = 10;

/// An emote as a player sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmoteView {
    /// Id.
    pub id: i32,
    /// The name in the request's language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Its icon.
    pub icon_url: String,
    /// The motion the game loads.
    pub json_url: String,
    /// Position in lists.
    pub order: i32,
    /// The client version it needs.
    pub version: i32,
    /// The player owns it.
    pub is_owned: bool,
    /// Staff blacklisted it: it cannot be put on a pallet.
    pub is_blacklist: bool,
    /// The player's client is older than it needs.
    pub is_unavailable_version: bool,
}

/// One slot of a pallet, as sent and answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PalletSlot {
    /// The slot, 1 to 10.
    pub pallet_num: i32,
    /// The emote in it.
    pub emote_id: i32,
}

/// A client version as sent (`version`): a whole number of at least 1 (422 otherwise).
pub fn client_version(raw: Option<&str>) -> Result<i32> {
    raw.map(str::trim)
        .and_then(|v| v.parse::<i32>().ok())
        .filter(|v| *v >= 1)
        .ok_or_else(|| Error::invalid("version", "validation.ingame_version"))
}

fn view(row: &ingame_emote::Model, client: i32, lang: Lang) -> EmoteView {
    EmoteView {
        id: row.id,
        name: lang.pick(&row.name, &row.name_en).to_string(),
        name_ja: row.name.clone(),
        name_en: row.name_en.clone(),
        icon_url: row.icon_url.clone(),
        json_url: row.json_url.clone(),
        order: row.emote_order,
        version: row.version,
        is_owned: row.is_free,
        is_blacklist: row.is_blacklist,
        is_unavailable_version: row.version > client,
    }
}

/// The emotes of `ids`, by id, in one statement.
async fn by_id(
    db: &impl ConnectionTrait,
    ids: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, ingame_emote::Model>> {
    let ids: Vec<i32> = ids.into_iter().collect();
    let rows = ingame_emote::Entity::find().filter(ingame_emote::Column::Id.is_in(ids)).all(db).await?;
    Ok(rows.into_iter().map(|e| (e.id, e)).collect())
}

/// The emotes in `window`, in list order, as a client of version `client` sees them, and how
/// many there are.
pub async fn list(db: &impl ConnectionTrait, client: i32, window: Window, lang: Lang) -> Result<(Vec<EmoteView>, u64)> {
    let query = ingame_emote::Entity::find();
    let total = query.clone().count(db).await?;
    let rows = query
        .order_by_asc(ingame_emote::Column::EmoteOrder)
        .order_by_asc(ingame_emote::Column::Id)
        .offset(window.offset)
        .limit(window.limit)
        .all(db)
        .await?;
    Ok((rows.iter().map(|r| view(r, client, lang)).collect(), total))
}

/// `user_id`'s pallet, slot by slot, each with its emote as a client of version `client` sees it.
pub async fn pallet(
    db: &impl ConnectionTrait,
    user_id: i32,
    client: i32,
    lang: Lang,
) -> Result<Vec<(PalletSlot, EmoteView)>> {
    let slots = ingame_emote_pallet::Entity::find()
        .filter(ingame_emote_pallet::Column::UserId.eq(user_id))
        .order_by_asc(ingame_emote_pallet::Column::PalletNum)
        .all(db)
        .await?;
    let emotes = by_id(db, slots.iter().map(|s| s.emote_id)).await?;
    Ok(slots
        .iter()
        .filter_map(|s| {
            let emote = emotes.get(&s.emote_id)?;
            Some((PalletSlot { pallet_num: s.pallet_num, emote_id: s.emote_id }, view(emote, client, lang)))
        })
        .collect())
}

/// Why `emote` cannot be played by a client of version `client` (the message key), if it
/// cannot: unknown, not owned, blacklisted, or too new.
pub fn unplayable(emote: Option<&ingame_emote::Model>, client: i32) -> Option<&'static str> {
    match emote {
        None => Some("validation.ingame_emote_unknown"),
        Some(e) if !e.is_free => Some("validation.ingame_emote_not_owned"),
        Some(e) if e.is_blacklist => Some("validation.ingame_emote_blacklisted"),
        Some(e) if e.version > client => Some("validation.ingame_emote_version"),
        Some(_) => None,
    }
}

/// What is wrong with `slots` for a client of version `client`, slot by slot
/// (`pallets.{i}.pallet_num`, `pallets.{i}.emote_id`).
async fn problems(db: &impl ConnectionTrait, slots: &[PalletSlot], client: i32) -> Result<Vec<Invalid>> {
    let emotes = by_id(db, slots.iter().map(|s| s.emote_id)).await?;
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for (i, slot) in slots.iter().enumerate() {
        if !(1..=PALLET_SLOTS).contains(&slot.pallet_num) {
            found.push(
                Invalid::new(format!("pallets.{i}.pallet_num"), "validation.number_between")
                    .with("min", 1)
                    .with("max", PALLET_SLOTS),
            );
        } else if !seen.insert(slot.pallet_num) {
            found.push(Invalid::new(format!("pallets.{i}.pallet_num"), "validation.ingame_pallet_twice"));
        }
        if let Some(key) = unplayable(emotes.get(&slot.emote_id), client) {
            found.push(Invalid::new(format!("pallets.{i}.emote_id"), key));
        }
    }
    Ok(found)
}

/// Replaces `user_id`'s pallet with `slots` (422 naming each slot that cannot be set; nothing
/// changes then).
pub async fn set_pallet(
    db: &DatabaseConnection,
    user_id: i32,
    slots: &[PalletSlot],
    client: i32,
    now: DateTime<Utc>,
) -> Result<()> {
    if slots.len() > PALLET_SLOTS as usize {
        return Err(Error::Validation(vec![
            Invalid::new("pallets", "validation.ingame_pallet_size").with("max", PALLET_SLOTS),
        ]));
    }
    let found = problems(db, slots, client).await?;
    if !found.is_empty() {
        return Err(Error::Validation(found));
    }
    let txn = crate::db::begin_write(db).await?;
    ingame_emote_pallet::Entity::delete_many()
        .filter(ingame_emote_pallet::Column::UserId.eq(user_id))
        .exec(&txn)
        .await?;
    for slot in slots {
        ingame_emote_pallet::ActiveModel {
            user_id: Set(user_id),
            pallet_num: Set(slot.pallet_num),
            emote_id: Set(slot.emote_id),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(())
}

/// Removes emote `id` from every pallet (staff deleted it).
pub async fn off_every_pallet(db: &impl ConnectionTrait, id: i32) -> Result<()> {
    ingame_emote_pallet::Entity::delete_many().filter(ingame_emote_pallet::Column::EmoteId.eq(id)).exec(db).await?;
    Ok(())
}
