//! Pictures of a store item (`store_item_images`, issue 31, spec §3 `itemImages`): up to
//! [`MAX_IMAGES`] a seller adds beside the asset's own rendering, shown on the item page in the
//! order they were added, the first one on the item's card.
//!
//! A picture is decoded within the site's shared image budget ([`crate::http::upload`]: the
//! type from the bytes, the size and pixel ceilings before decoding), stored as two PNGs — at
//! most [`LARGE_SIDE`] px a side, never enlarged, and a [`SMALL_SIDE`] px square — and then takes
//! the lowest free place (`position` 1–5). The place is unique per item in the database, so
//! uploads at once never store a sixth: one that finds no place removes what it stored and is
//! refused with 409 `too_many_images`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set, SqlErr};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{store_item, store_item_image};
use crate::error::{Error, Result};
use crate::http::upload::{Uploads, fill, fit, png};
use crate::storage::Storage;

/// The most pictures an item holds.
pub const MAX_IMAGES: i32 = 5;

/// The large picture's longest side, px.
pub const LARGE_SIDE: u32 = 1280;

/// The small square's side, px (cards, the gallery's thumbnails).
pub const SMALL_SIDE: u32 = 320;

/// A picture as a client sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ItemImage {
    /// Its public id (to remove it).
    pub uuid: String,
    /// The large picture (at most 1280 px a side).
    pub url: String,
    /// The 320 px square.
    pub thumbnail_url: String,
    /// The large picture's width, px.
    pub width: i32,
    /// Its height, px.
    pub height: i32,
}

impl From<&store_item_image::Model> for ItemImage {
    fn from(row: &store_item_image::Model) -> Self {
        Self {
            uuid: row.uuid.clone(),
            url: format!("/media/{}/{LARGE_SIDE}.png", row.key_prefix),
            thumbnail_url: format!("/media/{}/{SMALL_SIDE}.png", row.key_prefix),
            width: row.width,
            height: row.height,
        }
    }
}

/// The pictures of `items`, by item id, each item's in order (one query).
pub async fn of_items(
    db: &impl ConnectionTrait,
    items: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, Vec<ItemImage>>> {
    let rows = store_item_image::Entity::find()
        .filter(store_item_image::Column::StoreItemId.is_in(items))
        .order_by_asc(store_item_image::Column::Position)
        .all(db)
        .await?;
    let mut by_item: HashMap<i32, Vec<ItemImage>> = HashMap::new();
    for row in &rows {
        by_item.entry(row.store_item_id).or_default().push(ItemImage::from(row));
    }
    Ok(by_item)
}

/// The rows of `item`'s pictures, in order.
async fn rows_of(db: &impl ConnectionTrait, item: &store_item::Model) -> Result<Vec<store_item_image::Model>> {
    Ok(store_item_image::Entity::find()
        .filter(store_item_image::Column::StoreItemId.eq(item.id))
        .order_by_asc(store_item_image::Column::Position)
        .all(db)
        .await?)
}

/// The lowest place 1–[`MAX_IMAGES`] none of `taken` holds.
fn free_place(taken: &[store_item_image::Model]) -> Option<i32> {
    (1..=MAX_IMAGES).find(|p| taken.iter().all(|r| r.position != *p))
}

/// Adds the picture `bytes` to `item` (its seller's: the caller checked) at `now`, stored
/// through `uploads`. 409 `too_many_images` when it holds [`MAX_IMAGES`] already (checked before
/// decoding, and again by the unique place); 422 at `file` for bytes that are no picture or have
/// too many pixels.
pub async fn add(
    db: &impl ConnectionTrait,
    uploads: &Uploads<'_>,
    item: &store_item::Model,
    bytes: Vec<u8>,
    now: DateTime<Utc>,
) -> Result<ItemImage> {
    let full = || Error::Conflict { code: "too_many_images" };
    if free_place(&rows_of(db, item).await?).is_none() {
        return Err(full());
    }
    let (large, small, width, height) = uploads
        .images
        .render(bytes, LARGE_SIDE, |img| {
            let large = fit(&img, LARGE_SIDE, LARGE_SIDE);
            Ok((png(&large)?, png(&fill(&img, SMALL_SIDE))?, large.width(), large.height()))
        })
        .await
        .map_err(|refusal| Error::invalid("file", refusal.message_key()))?;
    let uuid = uuid::Uuid::new_v4().to_string();
    let prefix = format!("store/items/{}/{}", item.uuid, uuid::Uuid::new_v4().simple());
    uploads.storage.put(&format!("{prefix}/{LARGE_SIDE}.png"), large).await?;
    uploads.storage.put(&format!("{prefix}/{SMALL_SIDE}.png"), small).await?;
    // The place: the lowest free one; another upload taking it first means look again.
    for _ in 0..=MAX_IMAGES {
        let Some(position) = free_place(&rows_of(db, item).await?) else { break };
        let inserted = store_item_image::ActiveModel {
            uuid: Set(uuid.clone()),
            store_item_id: Set(item.id),
            position: Set(position),
            width: Set(i32::try_from(width).unwrap_or(i32::MAX)),
            height: Set(i32::try_from(height).unwrap_or(i32::MAX)),
            key_prefix: Set(prefix.clone()),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await;
        match inserted {
            Ok(row) => return Ok(ItemImage::from(&row)),
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    uploads.storage.delete_prefix(&prefix).await?;
    Err(full())
}

/// Removes `item`'s picture `uuid` and its files (404 when the item has no such picture); the
/// later pictures keep their places, the next upload fills the gap.
pub async fn remove(db: &impl ConnectionTrait, storage: &Storage, item: &store_item::Model, uuid: &str) -> Result<()> {
    let row = store_item_image::Entity::find()
        .filter(store_item_image::Column::StoreItemId.eq(item.id))
        .filter(store_item_image::Column::Uuid.eq(uuid))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)?;
    store_item_image::Entity::delete_by_id(row.id).exec(db).await?;
    storage.delete_prefix(&row.key_prefix).await
}
