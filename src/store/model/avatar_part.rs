//! Avatar parts (`avatar_parts`, issue 31) as the avatar maker reads them. A part is offered to a
//! signed-in user when staff published it; a **limited** part is offered by its link only (never
//! in the maker's list, as a limited store item is never in the store's); a part that **requires
//! a purchase** is *available* only to the buyers of its store item who still hold it (a refund
//! takes it back) — to everyone else it is listed with `available: false` and where to buy it,
//! and its bundle is refused. The maker's version reads the parts made for it and for older
//! versions.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::avatar_part::{self, CharacterType, PartType};
use crate::db::entities::store_item::{self, AccessibleStatus};
use crate::db::entities::{asset, asset_version};
use crate::error::{Error, Result};
use crate::store::model::purchase::held;

/// A part as the avatar maker sees it (spec §3 "Avatar part").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AvatarPartView {
    /// Its public id.
    pub uuid: String,
    /// Name.
    pub name: String,
    /// English name ("" when none).
    pub name_en: String,
    /// The body it fits.
    pub character_type: CharacterType,
    /// Where it goes.
    pub part_type: PartType,
    /// Only the buyers of its store item get it.
    pub is_purchase_required: bool,
    /// Offered by its link only.
    pub is_limited: bool,
    /// Its place in the list (smaller first).
    pub order: i32,
    /// The oldest maker version that reads it.
    pub avatar_maker_version: i32,
    /// An avatar wearing it may be uploaded to VRChat.
    pub is_vrc_uploadable: bool,
    /// Whether the viewer may use it now.
    pub available: bool,
    /// Where the bundle is fetched (signed-in, `GET`: a redirect to a short-lived link); none when
    /// not available.
    pub bundle_url: Option<String>,
    /// The store item that sells it, when it is on view in the store.
    pub store_item_uuid: Option<String>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// The published, unlimited parts maker version `version` reads, in their order.
pub async fn offered(db: &impl ConnectionTrait, version: i32) -> Result<Vec<avatar_part::Model>> {
    Ok(avatar_part::Entity::find()
        .filter(avatar_part::Column::Published.eq(true))
        .filter(avatar_part::Column::IsLimited.eq(false))
        .filter(avatar_part::Column::AvatarMakerVersion.lte(version))
        .order_by_asc(avatar_part::Column::PartOrder)
        .order_by_asc(avatar_part::Column::Id)
        .all(db)
        .await?)
}

/// The published parts the buyers of store item `item_id` get, in their order (what its page
/// names).
pub async fn of_item(db: &impl ConnectionTrait, item_id: i32) -> Result<Vec<avatar_part::Model>> {
    Ok(avatar_part::Entity::find()
        .filter(avatar_part::Column::StoreItemId.eq(item_id))
        .filter(avatar_part::Column::Published.eq(true))
        .order_by_asc(avatar_part::Column::PartOrder)
        .order_by_asc(avatar_part::Column::Id)
        .all(db)
        .await?)
}

impl avatar_part::Model {
    /// The published part `uuid` (limited ones included: this is its link); 404 otherwise.
    pub async fn published(db: &impl ConnectionTrait, uuid: &str) -> Result<Self> {
        avatar_part::Entity::find()
            .filter(avatar_part::Column::Uuid.eq(uuid))
            .filter(avatar_part::Column::Published.eq(true))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }
}

/// The views of `rows` for `user_id`; `base` is the site's address the bundle URLs start with.
pub async fn views(
    db: &impl ConnectionTrait,
    rows: Vec<avatar_part::Model>,
    user_id: i32,
    base: &str,
) -> Result<Vec<AvatarPartView>> {
    let item_ids: Vec<i32> = rows.iter().filter_map(|p| p.store_item_id).collect();
    let held = held(db, user_id, item_ids.iter().copied()).await?;
    let items = store_item::Model::by_ids(db, item_ids).await?;
    Ok(rows
        .into_iter()
        .map(|p| {
            let available = !p.is_purchase_required || p.store_item_id.is_some_and(|i| held.contains(&i));
            let store_item_uuid = p
                .store_item_id
                .and_then(|i| items.get(&i))
                .filter(|i| !i.is_forced_private && i.accessible_status != AccessibleStatus::Private)
                .map(|i| i.uuid.clone());
            AvatarPartView {
                bundle_url: available.then(|| format!("{base}/api/v1/store/avatar_parts/{}/bundle", p.uuid)),
                uuid: p.uuid,
                name: p.name,
                name_en: p.name_en,
                character_type: p.character_type,
                part_type: p.part_type,
                is_purchase_required: p.is_purchase_required,
                is_limited: p.is_limited,
                order: p.part_order,
                avatar_maker_version: p.avatar_maker_version,
                is_vrc_uploadable: p.is_vrc_uploadable,
                available,
                store_item_uuid,
                updated_at: p.updated_at,
            }
        })
        .collect())
}

/// The file of part `uuid` for `user_id`: its bundle's newest upload. 404 for a part not
/// published (or whose bundle was deleted); 409 `purchase_required` for one they have not bought.
pub async fn bundle(db: &impl ConnectionTrait, user_id: i32, uuid: &str) -> Result<asset_version::Model> {
    let part = avatar_part::Model::published(db, uuid).await?;
    if part.is_purchase_required {
        let item = part.store_item_id.ok_or_else(|| Error::Conflict { code: "purchase_required" })?;
        if held(db, user_id, [item]).await?.is_empty() {
            return Err(Error::Conflict { code: "purchase_required" });
        }
    }
    let asset = asset::Model::by_id(db, part.asset_id).await?;
    if asset.deleted {
        return Err(Error::not_found());
    }
    asset_version::Model::newest_uploaded(db, &asset).await
}
