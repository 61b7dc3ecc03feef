//! Purchases of store items (`store_purchases`, issue 31): buying (one purchase per buyer and
//! item — the database's unique key decides a race), a buyer's purchases and a seller's sales,
//! and staff's refund, which revokes the downloads.
//!
//! Whoever holds a set holds what is in it ([`held`], [`bought_assets`], [`held_through_set`];
//! `crate::store::model::item_set`).
//!
//! Free items (price in force 0) are bought here at once, with no payment; an item with a price
//! is paid for through an order (`crate::store::model::order`, `crate::store::card`), whose
//! settle inserts the purchase with [`insert_in`] under the same unique key.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set, SqlErr,
    TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::store_item::{self, ProductCategory};
use crate::db::entities::store_purchase::{self, PurchaseStatus};
use crate::error::{Error, Result};
use crate::store::model::item_set::{self, ItemRef};
use crate::store::pricing::{fee_amount, on_sale, price_at};

/// How a buy ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bought {
    /// The buyer's purchase of the item.
    pub purchase: store_purchase::Model,
    /// Whether this call made it (a repeat, or a request that lost a race, answers the one made).
    pub new: bool,
}

/// `buyer_id` buys item `uuid` at `now`. 404 for an item they may not see; 409 `own_item` for
/// their own, `held_through_set` for one in a set they bought, `not_on_sale` outside its sale
/// window, `purchase_refunded` after a refund,
/// `payment_required` for an item with a price (paid for through an order). Buying again (or twenty times at once)
/// answers the one purchase: the unique key on (item, buyer) decides, and the item's
/// `purchase_count` is raised in the same transaction as the one insert that won.
pub async fn buy(
    db: &(impl ConnectionTrait + TransactionTrait),
    buyer_id: i32,
    uuid: &str,
    now: DateTime<Utc>,
) -> Result<Bought> {
    let item = store_item::Model::visible(db, uuid, Some(buyer_id)).await?;
    if item.user_id == buyer_id {
        return Err(Error::Conflict { code: "own_item" });
    }
    if held_through_set(db, buyer_id, item.id).await?.is_some() {
        // Held through a set: a purchase of its own made before is still the answer.
        return match of_buyer_and_item(db, buyer_id, item.id).await? {
            Some(found) => answer_existing(found),
            None => Err(Error::Conflict { code: "held_through_set" }),
        };
    }
    let price = price_at(&item, now);
    let refused = if !on_sale(&item, now) {
        Some("not_on_sale")
    } else if price.amount > 0 {
        Some("payment_required")
    } else {
        None
    };
    if let Some(code) = refused {
        // Bought before (a repeat after the sale ended): that purchase is the answer.
        return match of_buyer_and_item(db, buyer_id, item.id).await? {
            Some(found) => answer_existing(found),
            None => Err(Error::Conflict { code }),
        };
    }
    // No look for an earlier purchase first: the insert is the one check, and the unique key on
    // (item, buyer) its guard (a look-then-insert would race).
    match record(db, &item, buyer_id, price.amount, fee_amount(price.amount, item.fee), now).await? {
        Some(purchase) => Ok(Bought { purchase, new: true }),
        None => {
            let found = of_buyer_and_item(db, buyer_id, item.id)
                .await?
                .ok_or_else(|| Error::Internal("the purchase that won the race vanished".into()))?;
            answer_existing(found)
        }
    }
}

/// Records `buyer_id`'s purchase of `item` at `price` and `fee` yen and raises the item's count,
/// in one transaction; `None` when the buyer holds a purchase of it already (the unique key).
async fn record(
    db: &(impl ConnectionTrait + TransactionTrait),
    item: &store_item::Model,
    buyer_id: i32,
    price: i32,
    fee: i32,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let txn = crate::db::begin_write(db).await?;
    match insert_in(&txn, item, buyer_id, price, fee, now).await? {
        Some(purchase) => {
            txn.commit().await?;
            Ok(Some(purchase))
        }
        None => {
            txn.rollback().await?;
            Ok(None)
        }
    }
}

/// Inside the caller's write transaction `txn`: inserts `buyer_id`'s purchase of `item` at
/// `price` and `fee` yen and raises the item's count. `None` when the buyer holds a purchase of
/// it already (the unique key on (item, buyer)); the caller must then roll `txn` back (on
/// PostgreSQL the failed insert aborted it).
pub async fn insert_in(
    txn: &impl ConnectionTrait,
    item: &store_item::Model,
    buyer_id: i32,
    price: i32,
    fee: i32,
    now: DateTime<Utc>,
) -> Result<Option<store_purchase::Model>> {
    let inserted = store_purchase::ActiveModel {
        uuid: Set(uuid::Uuid::new_v4().to_string()),
        item_id: Set(item.id),
        buyer_id: Set(buyer_id),
        seller_id: Set(item.user_id),
        price: Set(price),
        fee_amount: Set(fee),
        status: Set(PurchaseStatus::Paid),
        created_at: Set(now),
        refunded_at: Set(None),
        refund_reason: Set(None),
        ..Default::default()
    }
    .insert(txn)
    .await;
    match inserted {
        Ok(purchase) => {
            store_item::Model::count_purchase(txn, item.id, 1, now).await?;
            Ok(Some(purchase))
        }
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A purchase made before: itself while it stands, 409 `purchase_refunded` after a refund (a
/// refunded item is not bought again: the buyer asks staff).
fn answer_existing(found: store_purchase::Model) -> Result<Bought> {
    match found.status {
        PurchaseStatus::Paid => Ok(Bought { purchase: found, new: false }),
        PurchaseStatus::Refunded => Err(Error::Conflict { code: "purchase_refunded" }),
    }
}

/// `buyer_id`'s purchase of item `item_id`, if any.
pub async fn of_buyer_and_item(
    db: &impl ConnectionTrait,
    buyer_id: i32,
    item_id: i32,
) -> Result<Option<store_purchase::Model>> {
    Ok(store_purchase::Entity::find()
        .filter(store_purchase::Column::BuyerId.eq(buyer_id))
        .filter(store_purchase::Column::ItemId.eq(item_id))
        .one(db)
        .await?)
}

/// The items among `items` that `buyer_id` holds: bought and not refunded, or in a set they
/// bought and that was not refunded (`crate::store::model::item_set`). What a list of items
/// says `purchased` with, and what a part for buyers asks.
pub async fn held(
    db: &impl ConnectionTrait,
    buyer_id: i32,
    items: impl IntoIterator<Item = i32>,
) -> Result<HashSet<i32>> {
    let items: Vec<i32> = items.into_iter().collect();
    if items.is_empty() {
        return Ok(HashSet::new());
    }
    let sets = item_set::sets_of(db, items.iter().copied()).await?;
    let asked: HashSet<i32> = items.iter().copied().chain(sets.values().flatten().copied()).collect();
    let bought = bought_among(db, buyer_id, asked).await?;
    Ok(items
        .into_iter()
        .filter(|id| bought.contains(id) || sets.get(id).is_some_and(|s| s.iter().any(|set| bought.contains(set))))
        .collect())
}

/// The items among `items` of which `buyer_id` holds a purchase of their own that stands.
async fn bought_among(
    db: &impl ConnectionTrait,
    buyer_id: i32,
    items: impl IntoIterator<Item = i32>,
) -> Result<HashSet<i32>> {
    Ok(store_purchase::Entity::find()
        .filter(store_purchase::Column::BuyerId.eq(buyer_id))
        .filter(store_purchase::Column::Status.eq(PurchaseStatus::Paid))
        .filter(store_purchase::Column::ItemId.is_in(items))
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.item_id)
        .collect())
}

/// The set through which `buyer_id` holds item `item_id` (a standing purchase of a set it is in),
/// if any.
pub async fn held_through_set(db: &impl ConnectionTrait, buyer_id: i32, item_id: i32) -> Result<Option<i32>> {
    let sets = item_set::sets_of(db, [item_id]).await?.remove(&item_id).unwrap_or_default();
    if sets.is_empty() {
        return Ok(None);
    }
    let bought = bought_among(db, buyer_id, sets.iter().copied()).await?;
    Ok(sets.into_iter().find(|s| bought.contains(s)))
}

/// The assets of `category` whose items `buyer_id` holds (bought, or in a bought set; a refund
/// takes them away): what the booth maker lets them place beside their own furniture.
pub async fn bought_assets(db: &impl ConnectionTrait, buyer_id: i32, category: ProductCategory) -> Result<Vec<i32>> {
    let mut items: Vec<i32> = store_purchase::Entity::find()
        .filter(store_purchase::Column::BuyerId.eq(buyer_id))
        .filter(store_purchase::Column::Status.eq(PurchaseStatus::Paid))
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.item_id)
        .collect();
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let contents = item_set::contents_of(db, items.iter().copied()).await?;
    items.extend(contents.into_values().flatten());
    Ok(store_item::Entity::find()
        .filter(store_item::Column::Id.is_in(items))
        .filter(store_item::Column::ProductCategory.eq(category))
        .all(db)
        .await?
        .into_iter()
        .map(|i| i.asset_id)
        .collect())
}

/// A purchase as its buyer or seller sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PurchaseView {
    /// Its public id.
    pub uuid: String,
    /// The item's public id.
    pub item_uuid: String,
    /// The item's name.
    pub item_name: String,
    /// Its English name ("" when none).
    pub item_name_en: String,
    /// Yen charged.
    pub price: i32,
    /// The platform's share, yen.
    pub fee_amount: i32,
    /// What the seller receives, yen.
    pub proceeds: i32,
    /// `paid` or `refunded`.
    pub status: PurchaseStatus,
    /// When it was bought.
    pub created_at: DateTime<Utc>,
    /// When staff refunded it.
    pub refunded_at: Option<DateTime<Utc>>,
    /// A set's items, which the purchase holds too (none for an ordinary item).
    pub included: Vec<ItemRef>,
}

/// Views of `rows` with their items' names and their sets' contents.
pub async fn views(db: &impl ConnectionTrait, rows: Vec<store_purchase::Model>) -> Result<Vec<PurchaseView>> {
    let items = store_item::Model::by_ids(db, rows.iter().map(|r| r.item_id)).await?;
    let contents = item_set::contents_of(db, rows.iter().map(|r| r.item_id)).await?;
    let inside = store_item::Model::by_ids(db, contents.values().flatten().copied()).await?;
    let included: HashMap<i32, Vec<ItemRef>> = contents
        .into_iter()
        .map(|(set, ids)| (set, ids.iter().filter_map(|id| inside.get(id)).map(ItemRef::of).collect()))
        .collect();
    Ok(rows
        .into_iter()
        .map(|p| {
            let item = items.get(&p.item_id);
            PurchaseView {
                uuid: p.uuid,
                item_uuid: item.map(|i| i.uuid.clone()).unwrap_or_default(),
                item_name: item.map(|i| i.name.clone()).unwrap_or_default(),
                item_name_en: item.map(|i| i.name_en.clone()).unwrap_or_default(),
                price: p.price,
                fee_amount: p.fee_amount,
                proceeds: p.price - p.fee_amount,
                status: p.status,
                created_at: p.created_at,
                refunded_at: p.refunded_at,
                included: included.get(&p.item_id).cloned().unwrap_or_default(),
            }
        })
        .collect())
}

/// Whose purchases: the buyer's, or the seller's sales.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// What `user_id` bought.
    Buyer,
    /// What others bought from `user_id`.
    Seller,
}

/// `user_id`'s purchases or sales, newest first.
pub async fn of_user(db: &impl ConnectionTrait, user_id: i32, side: Side) -> Result<Vec<store_purchase::Model>> {
    let column = match side {
        Side::Buyer => store_purchase::Column::BuyerId,
        Side::Seller => store_purchase::Column::SellerId,
    };
    Ok(store_purchase::Entity::find()
        .filter(column.eq(user_id))
        .order_by_desc(store_purchase::Column::Id)
        .all(db)
        .await?)
}

/// Buyer `user_id`'s purchase `uuid`, standing (404 for anyone else's; 409
/// `purchase_refunded` after a refund: its downloads are revoked).
pub async fn standing(db: &impl ConnectionTrait, user_id: i32, uuid: &str) -> Result<store_purchase::Model> {
    let found = store_purchase::Entity::find()
        .filter(store_purchase::Column::Uuid.eq(uuid))
        .filter(store_purchase::Column::BuyerId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)?;
    match found.status {
        PurchaseStatus::Paid => Ok(found),
        PurchaseStatus::Refunded => Err(Error::Conflict { code: "purchase_refunded" }),
    }
}

/// Refunds `purchase` (staff): `refunded` with `reason`, its item's count lowered, in one
/// transaction; a purchase refunded already changes nothing (`false`).
pub async fn refund(
    txn: &impl ConnectionTrait,
    purchase: &store_purchase::Model,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    let done = store_purchase::Entity::update_many()
        .col_expr(store_purchase::Column::Status, Expr::value(PurchaseStatus::Refunded))
        .col_expr(store_purchase::Column::RefundedAt, Expr::value(now))
        .col_expr(store_purchase::Column::RefundReason, Expr::value(reason))
        .filter(store_purchase::Column::Id.eq(purchase.id))
        .filter(store_purchase::Column::Status.eq(PurchaseStatus::Paid))
        .exec(txn)
        .await?;
    if done.rows_affected == 1 {
        store_item::Model::count_purchase(txn, purchase.item_id, -1, now).await?;
    }
    Ok(done.rows_affected == 1)
}
