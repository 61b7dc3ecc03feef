//! `store_items`: what sellers put in the store (issue 31), for the staff who keep it clean.
//! Staff read every item and change two things: `is_forced_private` (hide an item from everyone
//! but its seller, whatever the seller chose) and `fee` (the platform's share of its future
//! sales, in percent; a sale keeps the fee it was made with). Both are audited. The rest is the
//! seller's; a set's record lists the items it holds and an item's the sets it is in.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::store_item::{self, AccessibleStatus, ProductCategory, SubCategory};
use crate::error::Result;
use crate::store::model::item_set;

/// The resource.
pub struct StoreItems;

/// A store item as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct StoreItemRecord {
    /// Id.
    pub id: i32,
    /// Its public id (the item page's address).
    pub uuid: String,
    /// The seller.
    pub user_id: i32,
    /// The asset sold.
    pub asset_id: i32,
    /// Name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Description.
    pub description: String,
    /// What kind of thing.
    pub product_category: ProductCategory,
    /// Where furniture goes.
    pub sub_category: SubCategory,
    /// Who the seller lets see it.
    pub accessible_status: AccessibleStatus,
    /// Hidden by staff.
    pub is_forced_private: bool,
    /// Yen before any discount.
    pub price: i32,
    /// Percent off in its window.
    pub discount_rate: i32,
    /// The discount's window.
    pub discount_start_at: Option<DateTime<Utc>>,
    /// The discount's window.
    pub discount_end_at: Option<DateTime<Utc>>,
    /// The platform's share, percent.
    pub fee: i32,
    /// On sale from.
    pub start_at: Option<DateTime<Utc>>,
    /// On sale until.
    pub end_at: Option<DateTime<Utc>>,
    /// Purchases that stand.
    pub purchase_count: i32,
    /// A set's items (store item ids, in the set's order); empty for an item that is no set.
    pub included_item_ids: Vec<i32>,
    /// The sets this item is in (store item ids).
    pub parent_item_ids: Vec<i32>,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct StoreItemInput {
    /// Hide it from everyone but its seller.
    pub is_forced_private: bool,
    /// The platform's share of its sales, 0–100 %.
    #[validate(range(min = 0, max = 100))]
    pub fee: i32,
}

impl Resource for StoreItems {
    type Entity = store_item::Entity;
    type Record = StoreItemRecord;
    type Input = StoreItemInput;

    const NAME: &'static str = "store_items";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["id", "created_at", "price", "purchase_count"],
        filter: &["user_id", "product_category", "accessible_status", "is_forced_private"],
        search: &["name", "name_en", "uuid"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<store_item::Model>) -> Result<Vec<StoreItemRecord>> {
        let mut contents = item_set::contents_of(db, rows.iter().map(|r| r.id)).await?;
        let mut sets = item_set::sets_of(db, rows.iter().map(|r| r.id)).await?;
        Ok(rows
            .into_iter()
            .map(|r| StoreItemRecord {
                id: r.id,
                uuid: r.uuid,
                user_id: r.user_id,
                asset_id: r.asset_id,
                name: r.name,
                name_en: r.name_en,
                description: r.description,
                product_category: r.product_category,
                sub_category: r.sub_category,
                accessible_status: r.accessible_status,
                is_forced_private: r.is_forced_private,
                price: r.price,
                discount_rate: r.discount_rate,
                discount_start_at: r.discount_start_at,
                discount_end_at: r.discount_end_at,
                fee: r.fee,
                start_at: r.start_at,
                end_at: r.end_at,
                purchase_count: r.purchase_count,
                included_item_ids: contents.remove(&r.id).unwrap_or_default(),
                parent_item_ids: sets.remove(&r.id).unwrap_or_default(),
                created_at: r.created_at,
                updated_at: r.updated_at,
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: store_item::Model,
        input: StoreItemInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let mut active: store_item::ActiveModel = row.into();
        active.is_forced_private = Set(input.is_forced_private);
        active.fee = Set(input.fee);
        active.updated_at = Set(cx.now);
        active.update(txn).await?;
        Ok(())
    }
}
