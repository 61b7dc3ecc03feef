//! Store items (`store_items`, issue 31): made by a seller from one of their own uploaded
//! assets, changed by them alone, hidden by staff (`is_forced_private`); who may see one, the
//! public listing with keyword search, and what a client sees of an item — the price in force
//! by the application clock ([`crate::store::pricing`]).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::store_item::{self, AccessibleStatus, ProductCategory, SubCategory};
use crate::db::entities::{asset, asset_setting, asset_version, user};
use crate::error::{Error, Result};
use crate::forms::store_item::StoreItemFields;
use crate::model::pagination::PageRequest;
use crate::model::search::{STORE_ITEMS, matches, name_rank};
use crate::store::model::item_set::{self, ItemRef};
use crate::store::model::store_item_image::ItemImage;
use crate::store::pricing::{Price, on_sale, price_at};

/// The platform's share of a sale, in percent, of a new item (staff change it per item).
pub const DEFAULT_FEE: i32 = 10;

/// What an asset of the upload kind `label` is sold as; `None` for kinds the store does not sell.
pub fn category_of(label: &str) -> Option<ProductCategory> {
    match label {
        "avatar" => Some(ProductCategory::Avatar),
        "furniture" => Some(ProductCategory::HousingFurniture),
        "avatar_part_bundle" => Some(ProductCategory::AvatarPart),
        _ => None,
    }
}

/// The seller, as an item names them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Seller {
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

/// The file a buyer downloads (spec §3 `itemZip`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ItemFile {
    /// The uploaded version's id.
    pub id: i32,
    /// The name it was uploaded as.
    pub file_name: String,
    /// Bytes.
    pub file_size: i64,
}

/// A store item as a client sees it (spec §3 "Store item").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoreItemView {
    /// Its public id (the item page's address).
    pub uuid: String,
    /// Name.
    pub name: String,
    /// English name ("" when none).
    pub name_en: String,
    /// Description.
    pub description: String,
    /// `avatar`, `housing_furniture` or `avatar_part`.
    pub product_category: ProductCategory,
    /// Furniture: `floor`, `wall`, `ceiling`; otherwise `no_sub_category`.
    pub sub_category: SubCategory,
    /// The price in force now (the clock the server runs on, time travel included).
    pub price: Price,
    /// The platform's share of a sale, in percent.
    pub fee: i32,
    /// Whether it can be bought now (its sale window).
    pub on_sale: bool,
    /// On sale from.
    pub start_at: Option<DateTime<Utc>>,
    /// On sale until.
    pub end_at: Option<DateTime<Utc>>,
    /// The discount as the seller set it (whether or not it is in force now).
    pub discount_rate: i32,
    /// The discount's start.
    pub discount_start_at: Option<DateTime<Utc>>,
    /// The discount's end.
    pub discount_end_at: Option<DateTime<Utc>>,
    /// Who may see it.
    pub accessible_status: AccessibleStatus,
    /// Hidden by staff.
    pub is_forced_private: bool,
    /// The seller's order.
    pub item_order: i32,
    /// Purchases that stand.
    pub purchase_count: i32,
    /// Whether the signed-in viewer bought it (none when nobody is signed in).
    pub purchased: Option<bool>,
    /// The seller.
    pub seller: Seller,
    /// The asset sold.
    pub asset_id: i32,
    /// Its picture (320 px): the seller's first picture, else the upload's rendering if it made
    /// one.
    pub image: Option<String>,
    /// Its large picture (the seller's first, up to 1280 px; else the upload's, 640 px).
    pub image_large: Option<String>,
    /// The seller's pictures, in order (spec §3 `itemImages`; at most five).
    pub item_images: Vec<ItemImage>,
    /// What a buyer downloads.
    pub item_zip: Option<ItemFile>,
    /// A set's items, in the set's order (spec: a set is the parent of each); none for an
    /// ordinary item. Whoever buys the set holds them.
    pub included_items: Vec<ItemRef>,
    /// The sets this item is in (spec §3 `parentItems`): the public ones, and all of them for
    /// the seller.
    pub parent_items: Vec<ItemRef>,
}

/// The views of `rows` at `now`, for `viewer` (whose purchases say `purchased`).
pub async fn views(
    db: &impl ConnectionTrait,
    rows: Vec<store_item::Model>,
    viewer: Option<i32>,
    now: DateTime<Utc>,
) -> Result<Vec<StoreItemView>> {
    let asset_ids: Vec<i32> = rows.iter().map(|r| r.asset_id).collect();
    let assets: HashMap<i32, asset::Model> = asset::Entity::find()
        .filter(asset::Column::Id.is_in(asset_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    let version_ids: Vec<i32> = assets.values().filter_map(|a| a.latest_version_id).collect();
    let versions: HashMap<i32, asset_version::Model> = asset_version::Entity::find()
        .filter(asset_version::Column::Id.is_in(version_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    let sellers = user::Model::by_ids(db, rows.iter().map(|r| r.user_id)).await?;
    let mut pictures = crate::store::model::store_item_image::of_items(db, rows.iter().map(|r| r.id)).await?;
    let ids: Vec<i32> = rows.iter().map(|r| r.id).collect();
    let contents = item_set::contents_of(db, ids.iter().copied()).await?;
    let parents = item_set::sets_of(db, ids.iter().copied()).await?;
    let linked: Vec<i32> = contents.values().chain(parents.values()).flatten().copied().collect();
    let linked: HashMap<i32, ItemRef> =
        store_item::Model::by_ids(db, linked).await?.into_iter().map(|(id, item)| (id, ItemRef::of(&item))).collect();
    let refs = |ids: Option<&Vec<i32>>| -> Vec<ItemRef> {
        ids.into_iter().flatten().filter_map(|id| linked.get(id).cloned()).collect()
    };
    let bought: HashSet<i32> = match viewer {
        Some(buyer) => crate::store::model::purchase::held(db, buyer, rows.iter().map(|r| r.id)).await?,
        None => HashSet::new(),
    };
    Ok(rows
        .into_iter()
        .map(|r| {
            let version = assets
                .get(&r.asset_id)
                .and_then(|a| a.latest_version_id)
                .and_then(|id| versions.get(&id))
                .filter(|v| v.upload_status == UploadStatus::Uploaded);
            let picture = |size: &str| {
                version.and_then(|v| v.thumbnail_key.as_ref()).map(|prefix| format!("/media/{prefix}/{size}.png"))
            };
            let seller = sellers.get(&r.user_id);
            let item_images = pictures.remove(&r.id).unwrap_or_default();
            let first = item_images.first();
            StoreItemView {
                uuid: r.uuid.clone(),
                name: r.name.clone(),
                name_en: r.name_en.clone(),
                description: r.description.clone(),
                product_category: r.product_category,
                sub_category: r.sub_category,
                price: price_at(&r, now),
                fee: r.fee,
                on_sale: on_sale(&r, now),
                start_at: r.start_at,
                end_at: r.end_at,
                discount_rate: r.discount_rate,
                discount_start_at: r.discount_start_at,
                discount_end_at: r.discount_end_at,
                accessible_status: r.accessible_status,
                is_forced_private: r.is_forced_private,
                item_order: r.item_order,
                purchase_count: r.purchase_count,
                purchased: viewer.map(|_| bought.contains(&r.id)),
                seller: Seller {
                    vmarket_id: seller.map(|s| s.vmarket_id.clone()).unwrap_or_default(),
                    name_ja: seller.map(|s| s.name_ja.clone()).unwrap_or_default(),
                    name_en: seller.map(|s| s.name_en.clone()).unwrap_or_default(),
                },
                asset_id: r.asset_id,
                image: first.map(|i| i.thumbnail_url.clone()).or_else(|| picture("320")),
                image_large: first.map(|i| i.url.clone()).or_else(|| picture("640")),
                item_images,
                item_zip: version.map(|v| ItemFile {
                    id: v.id,
                    file_name: v.file_name.clone(),
                    file_size: v.byte_size,
                }),
                included_items: refs(contents.get(&r.id)),
                parent_items: refs(parents.get(&r.id))
                    .into_iter()
                    .filter(|set| set.public || viewer == Some(r.user_id))
                    .collect(),
            }
        })
        .collect())
}

/// What the public listing asks for.
#[derive(Debug, Clone, Default)]
pub struct ListingFilter {
    /// One category (none: all).
    pub category: Option<ProductCategory>,
    /// Furniture: one sub category.
    pub sub_category: Option<SubCategory>,
    /// A keyword (names and description, Japanese and English alike).
    pub q: Option<String>,
}

/// The condition "anyone may see it in the listing at `now`": published, not hidden by staff,
/// inside its sale window.
fn listed(now: DateTime<Utc>) -> Condition {
    Condition::all()
        .add(store_item::Column::AccessibleStatus.eq(AccessibleStatus::Published))
        .add(store_item::Column::IsForcedPrivate.eq(false))
        .add(Condition::any().add(store_item::Column::StartAt.is_null()).add(store_item::Column::StartAt.lte(now)))
        .add(Condition::any().add(store_item::Column::EndAt.is_null()).add(store_item::Column::EndAt.gt(now)))
}

/// One page of the public listing at `now`: its rows, how many match and how many are listed at
/// all. Newest first; with a keyword, name matches first.
pub async fn listing(
    db: &impl ConnectionTrait,
    filter: &ListingFilter,
    page: PageRequest,
    now: DateTime<Utc>,
) -> Result<(Vec<store_item::Model>, u64, u64)> {
    let backend = db.get_database_backend();
    let all = store_item::Entity::find().filter(listed(now)).count(db).await?;
    let mut query = store_item::Entity::find().filter(listed(now));
    if let Some(category) = filter.category {
        query = query.filter(store_item::Column::ProductCategory.eq(category));
    }
    if let Some(sub) = filter.sub_category {
        query = query.filter(store_item::Column::SubCategory.eq(sub));
    }
    let keyword = filter.q.as_deref().unwrap_or_default();
    let hit = matches(backend, STORE_ITEMS, keyword);
    let unfiltered = filter.category.is_none() && filter.sub_category.is_none() && hit.is_none();
    if let Some(hit) = hit {
        query = query.filter(hit);
    }
    let counted = query.clone();
    if let Some(rank) = name_rank(backend, STORE_ITEMS, keyword) {
        query = query.order_by(rank, sea_orm::Order::Asc);
    }
    let rows = query
        .order_by_desc(store_item::Column::CreatedAt)
        .order_by_desc(store_item::Column::Id)
        .offset(page.offset())
        .limit(page.limit)
        .all(db)
        .await?;
    // The last page tells the count; an unfiltered listing's count is `all`.
    let count = match page.count_from_rows(rows.len()) {
        Some(count) => count,
        None if unfiltered => all,
        None => counted.count(db).await?,
    };
    Ok((rows, count, all))
}

impl store_item::Model {
    /// The items `ids` by id (one query): what lists of purchases and orders name.
    pub async fn by_ids(
        db: &impl ConnectionTrait,
        ids: impl IntoIterator<Item = i32>,
    ) -> Result<std::collections::HashMap<i32, Self>> {
        Ok(store_item::Entity::find()
            .filter(store_item::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|i| (i.id, i))
            .collect())
    }

    /// The item `uuid` as `viewer` may see it: anyone sees a published or limited item that staff
    /// have not hidden; its seller sees it always. 404 otherwise (a private item does not exist
    /// to strangers).
    pub async fn visible(db: &impl ConnectionTrait, uuid: &str, viewer: Option<i32>) -> Result<Self> {
        let found = store_item::Entity::find()
            .filter(store_item::Column::Uuid.eq(uuid))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)?;
        let public = !found.is_forced_private && found.accessible_status != AccessibleStatus::Private;
        if public || viewer == Some(found.user_id) { Ok(found) } else { Err(Error::not_found()) }
    }

    /// Seller `user_id`'s item `uuid`: 404 for anyone else's.
    pub async fn of_seller(db: &impl ConnectionTrait, uuid: &str, user_id: i32) -> Result<Self> {
        store_item::Entity::find()
            .filter(store_item::Column::Uuid.eq(uuid))
            .filter(store_item::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Every item of seller `user_id`, in their order.
    pub async fn all_of_seller(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<Self>> {
        Ok(store_item::Entity::find()
            .filter(store_item::Column::UserId.eq(user_id))
            .order_by_asc(store_item::Column::ItemOrder)
            .order_by_desc(store_item::Column::Id)
            .all(db)
            .await?)
    }

    /// A new item of `user_id` from `fields`: the asset must be theirs (404 otherwise), of a kind
    /// the store sells (422 at `asset_id`) and uploaded (409 `asset_not_uploaded`).
    pub async fn create(
        db: &impl ConnectionTrait,
        user_id: i32,
        fields: &StoreItemFields,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let asset_id = fields.asset_id.ok_or_else(|| Error::invalid("asset_id", "validation.required"))?;
        let asset = asset::Model::for_owner(db, asset_id, user_id).await?;
        if asset.deleted {
            return Err(Error::not_found());
        }
        let setting = asset_setting::Model::by_id(db, asset.asset_setting_id).await?;
        let category =
            category_of(&setting.label).ok_or_else(|| Error::invalid("asset_id", "validation.not_sellable"))?;
        asset_version::Model::newest_uploaded(db, &asset).await?;
        let sub_category = match (category, asset.sub_type) {
            (ProductCategory::HousingFurniture, Some(crate::db::entities::asset::SubType::Wall)) => SubCategory::Wall,
            (ProductCategory::HousingFurniture, Some(crate::db::entities::asset::SubType::Ceiling)) => {
                SubCategory::Ceiling
            }
            (ProductCategory::HousingFurniture, _) => SubCategory::Floor,
            _ => SubCategory::NoSubCategory,
        };
        let mut row = store_item::ActiveModel {
            uuid: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id),
            asset_id: Set(asset.id),
            product_category: Set(category),
            sub_category: Set(sub_category),
            is_forced_private: Set(false),
            fee: Set(DEFAULT_FEE),
            purchase_count: Set(0),
            created_at: Set(now),
            ..Default::default()
        };
        fill(&mut row, fields, now);
        Ok(row.insert(db).await?)
    }

    /// Changes this item after `fields` (its asset stays).
    pub async fn change(self, db: &impl ConnectionTrait, fields: &StoreItemFields, now: DateTime<Utc>) -> Result<Self> {
        let mut row: store_item::ActiveModel = self.into();
        fill(&mut row, fields, now);
        Ok(row.update(db).await?)
    }

    /// Counts one more purchase (or, with `-1`, one refunded), in the caller's transaction.
    pub async fn count_purchase(db: &impl ConnectionTrait, id: i32, by: i32, now: DateTime<Utc>) -> Result<()> {
        store_item::Entity::update_many()
            .col_expr(store_item::Column::PurchaseCount, Expr::col(store_item::Column::PurchaseCount).add(by))
            .col_expr(store_item::Column::UpdatedAt, Expr::value(now))
            .filter(store_item::Column::Id.eq(id))
            .exec(db)
            .await?;
        Ok(())
    }
}

/// Writes the seller's fields onto `row`.
fn fill(row: &mut store_item::ActiveModel, f: &StoreItemFields, now: DateTime<Utc>) {
    row.name = Set(f.name.clone());
    row.name_en = Set(f.name_en.clone());
    row.description = Set(f.description.clone());
    row.price = Set(f.price);
    row.accessible_status = Set(f.accessible_status);
    row.start_at = Set(f.start_at);
    row.end_at = Set(f.end_at);
    row.discount_rate = Set(f.discount_rate);
    row.discount_start_at = Set(f.discount_start_at);
    row.discount_end_at = Set(f.discount_end_at);
    row.item_order = Set(f.item_order);
    row.updated_at = Set(now);
}

/// The seller's uploaded assets that may become items (their kind sells; not deleted; uploaded),
/// newest first: id and name.
pub async fn sellable_assets(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<(i32, String, ProductCategory)>> {
    let settings: HashMap<i32, ProductCategory> = asset_setting::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .filter_map(|s| category_of(&s.label).map(|c| (s.id, c)))
        .collect();
    let assets = asset::Entity::find()
        .filter(asset::Column::UserId.eq(user_id))
        .filter(asset::Column::Deleted.eq(false))
        .filter(asset::Column::LatestVersionId.is_not_null())
        .filter(asset::Column::AssetSettingId.is_in(settings.keys().copied()))
        .order_by_desc(asset::Column::Id)
        .all(db)
        .await?;
    Ok(assets.into_iter().filter_map(|a| settings.get(&a.asset_setting_id).map(|c| (a.id, a.name, *c))).collect())
}
