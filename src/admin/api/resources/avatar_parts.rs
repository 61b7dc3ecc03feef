//! `avatar_parts`: the parts the avatar maker offers (issue 31, spec §3 "Avatar part"), curated
//! by staff. A part is an uploaded `avatar_part_bundle` asset (its newest upload is what the
//! maker fetches); staff decide its type, its place in the list, the oldest maker version that
//! reads it, whether it is published, limited (offered by its link only), VRChat-uploadable, and
//! whether only the buyers of a store item (of the `avatar_part` category) get it.
//!
//! Filters: `part_type`, `published`, `is_limited`, `is_purchase_required`,
//! `avatar_maker_version`; `q` finds a name or a uuid.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::avatar_part::{self, CharacterType, PartType};
use crate::db::entities::store_item::{self, ProductCategory};
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};

/// The resource.
pub struct AvatarParts;

/// A part as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct AvatarPartRecord {
    /// Id.
    pub id: i32,
    /// Its public id (the link of a limited part).
    pub uuid: String,
    /// Name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// The body it fits.
    pub character_type: CharacterType,
    /// Where it goes.
    pub part_type: PartType,
    /// The `avatar_part_bundle` asset.
    pub asset_id: i32,
    /// The store item whose buyers get it.
    pub store_item_id: Option<i32>,
    /// Only that item's buyers get it.
    pub is_purchase_required: bool,
    /// Offered by its link only.
    pub is_limited: bool,
    /// Offered at all.
    pub published: bool,
    /// Its place in the list.
    pub part_order: i32,
    /// The oldest maker version that reads it.
    pub avatar_maker_version: i32,
    /// An avatar wearing it may go to VRChat.
    pub is_vrc_uploadable: bool,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a part.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AvatarPartInput {
    /// Name, 1–64 characters.
    #[validate(required, length(min = 1, max = 64, code = "too_long"))]
    pub name: Option<String>,
    /// English name, up to 64 characters.
    #[validate(length(max = 64, code = "too_long"))]
    pub name_en: Option<String>,
    /// Where it goes.
    #[validate(required)]
    pub part_type: Option<PartType>,
    /// The bundle: an `avatar_part_bundle` asset with a finished upload.
    #[validate(required)]
    pub asset_id: Option<i32>,
    /// The store item whose buyers get it (required when `is_purchase_required`).
    pub store_item_id: Option<i32>,
    /// Only that item's buyers get it.
    pub is_purchase_required: bool,
    /// Offered by its link only.
    pub is_limited: bool,
    /// Offered at all.
    pub published: bool,
    /// Its place in the list.
    #[validate(range(min = 0, max = 100000))]
    pub part_order: i32,
    /// The oldest maker version that reads it (1 and up).
    #[validate(required, range(min = 1, max = 100000))]
    pub avatar_maker_version: Option<i32>,
    /// An avatar wearing it may go to VRChat.
    pub is_vrc_uploadable: bool,
}

impl Resource for AvatarParts {
    type Entity = avatar_part::Entity;
    type Record = AvatarPartRecord;
    type Input = AvatarPartInput;

    const NAME: &'static str = "avatar_parts";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["id", "part_order", "avatar_maker_version", "updated_at"],
        filter: &["part_type", "published", "is_limited", "is_purchase_required", "avatar_maker_version"],
        search: &["name", "name_en", "uuid"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<avatar_part::Model>,
    ) -> Result<Vec<AvatarPartRecord>> {
        Ok(rows
            .into_iter()
            .map(|p| AvatarPartRecord {
                id: p.id,
                uuid: p.uuid,
                name: p.name,
                name_en: p.name_en,
                character_type: p.character_type,
                part_type: p.part_type,
                asset_id: p.asset_id,
                store_item_id: p.store_item_id,
                is_purchase_required: p.is_purchase_required,
                is_limited: p.is_limited,
                published: p.published,
                part_order: p.part_order,
                avatar_maker_version: p.avatar_maker_version,
                is_vrc_uploadable: p.is_vrc_uploadable,
                created_at: p.created_at,
                updated_at: p.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: AvatarPartInput, cx: &Cx<'_>) -> Result<i32> {
        let row = avatar_part::ActiveModel {
            uuid: Set(uuid::Uuid::new_v4().to_string()),
            character_type: Set(CharacterType::Human),
            created_at: Set(cx.now),
            ..Default::default()
        };
        Ok(fill(txn, row, input, cx.now).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: avatar_part::Model,
        input: AvatarPartInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input, cx.now).await?.update(txn).await?;
        Ok(())
    }
}

/// Checks what the fields name — the bundle is an uploaded `avatar_part_bundle`, the store item
/// sells avatar parts and is set when a purchase is required — and writes them into `row`.
async fn fill(
    txn: &DatabaseTransaction,
    mut row: avatar_part::ActiveModel,
    input: AvatarPartInput,
    now: DateTime<Utc>,
) -> Result<avatar_part::ActiveModel> {
    let asset_id = input.asset_id.unwrap_or_default();
    check_bundle(txn, asset_id).await?;
    if let Some(item_id) = input.store_item_id {
        let item = store_item::Entity::find_by_id(item_id).one(txn).await?;
        let item = item.ok_or_else(|| Error::invalid("store_item_id", "validation.unknown_reference"))?;
        if item.product_category != ProductCategory::AvatarPart {
            return Err(Error::invalid("store_item_id", "validation.not_avatar_part_item"));
        }
    } else if input.is_purchase_required {
        return Err(Error::invalid("store_item_id", "validation.required"));
    }
    row.name = Set(input.name.unwrap_or_default().trim().to_string());
    row.name_en = Set(input.name_en.unwrap_or_default().trim().to_string());
    row.part_type = Set(input.part_type.unwrap_or(PartType::Accessory));
    row.asset_id = Set(asset_id);
    row.store_item_id = Set(input.store_item_id);
    row.is_purchase_required = Set(input.is_purchase_required);
    row.is_limited = Set(input.is_limited);
    row.published = Set(input.published);
    row.part_order = Set(input.part_order);
    row.avatar_maker_version = Set(input.avatar_maker_version.unwrap_or(1));
    row.is_vrc_uploadable = Set(input.is_vrc_uploadable);
    row.updated_at = Set(now);
    Ok(row)
}

/// `Ok` when asset `id` is an `avatar_part_bundle`, not deleted, with a finished upload; a
/// validation error on `asset_id` otherwise.
async fn check_bundle(txn: &DatabaseTransaction, id: i32) -> Result<()> {
    let found = asset::Entity::find_by_id(id).one(txn).await?.filter(|a| !a.deleted);
    let asset = found.ok_or_else(|| Error::invalid("asset_id", "validation.unknown_reference"))?;
    let setting = asset_setting::Entity::find_by_id(asset.asset_setting_id).one(txn).await?;
    if setting.is_none_or(|s| s.label != "avatar_part_bundle") {
        return Err(Error::invalid("asset_id", "validation.not_avatar_part_bundle"));
    }
    if asset_version::Model::newest_uploaded(txn, &asset).await.is_err() {
        return Err(Error::invalid("asset_id", "validation.asset_not_uploaded"));
    }
    Ok(())
}
