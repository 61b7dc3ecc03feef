//! Orders for priced store items (`store_orders`, issue 31): a buyer's attempt to pay for one
//! item through a provider, and the purchase it makes once paid.
//!
//! - [`open`]: the amount and fee are fixed from the price in force when the order opens and
//!   hold for its lifetime ([`LIFETIME_MINUTES`]) — a discount that ends, or a price the seller
//!   raises, during checkout changes nothing for it. A buyer has one open order per item (the
//!   unique `open_key`): a second tab, a reload or twenty requests at once get the same order.
//!   An order past its lifetime closes and a new one opens at the price then in force.
//! - [`settle`]: a payment the provider took becomes the purchase in one transaction with the
//!   order's `captured` (the purchase's unique key on (item, buyer) still decides: a second
//!   payment for an item held already is `duplicate`, and the caller refunds it).

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, SqlErr,
    TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::store_item;
use crate::db::entities::store_order::{self, PaymentType, StoreOrderState};
use crate::db::entities::store_purchase::{self, PurchaseStatus};
use crate::error::{Error, Result};
use crate::store::model::purchase::{held_through_set, insert_in, of_buyer_and_item};
use crate::store::pricing::{fee_amount, on_sale, price_at};

/// How long an open order holds its price, minutes.
pub const LIFETIME_MINUTES: i64 = 60;

/// An order [`open`] answered, and the orders it closed on the way (past their lifetime, or
/// opened with another provider), whose payment objects the caller cancels at the provider.
#[derive(Debug, Clone)]
pub struct Opening {
    /// The buyer's open order.
    pub order: store_order::Model,
    /// The item it is for.
    pub item: store_item::Model,
    /// Orders closed here.
    pub closed: Vec<store_order::Model>,
}

fn open_key(item_id: i32, buyer_id: i32) -> String {
    format!("{item_id}:{buyer_id}")
}

/// Opens (or answers the open) order of `buyer_id` for item `uuid` through `provider` at `now`.
/// 404 for an item they may not see; 409 `own_item`, `already_purchased`, `held_through_set`
/// (in a set they bought), `purchase_refunded`, `not_on_sale`, `free_item` (bought without
/// paying).
pub async fn open(
    db: &(impl ConnectionTrait + TransactionTrait),
    buyer_id: i32,
    uuid: &str,
    provider: PaymentType,
    now: DateTime<Utc>,
) -> Result<Opening> {
    let item = store_item::Model::visible(db, uuid, Some(buyer_id)).await?;
    if item.user_id == buyer_id {
        return Err(Error::Conflict { code: "own_item" });
    }
    if let Some(held) = of_buyer_and_item(db, buyer_id, item.id).await? {
        return Err(Error::Conflict {
            code: match held.status {
                PurchaseStatus::Paid => "already_purchased",
                PurchaseStatus::Refunded => "purchase_refunded",
            },
        });
    }
    if held_through_set(db, buyer_id, item.id).await?.is_some() {
        return Err(Error::Conflict { code: "held_through_set" });
    }
    let mut closed = Vec::new();
    if let Some(found) = open_of(db, item.id, buyer_id).await? {
        if found.expires_at > now && found.provider == provider {
            return Ok(Opening { order: found, item, closed });
        }
        let reason = if found.expires_at > now { "replaced" } else { "expired" };
        if close(db, found.id, reason, now).await? {
            closed.push(found);
        }
    }
    let price = price_at(&item, now);
    if !on_sale(&item, now) {
        return Err(Error::Conflict { code: "not_on_sale" });
    }
    if price.amount == 0 {
        return Err(Error::Conflict { code: "free_item" });
    }
    let inserted = store_order::ActiveModel {
        uuid: Set(uuid::Uuid::new_v4().to_string()),
        item_id: Set(item.id),
        buyer_id: Set(buyer_id),
        amount: Set(price.amount),
        fee_amount: Set(fee_amount(price.amount, item.fee)),
        provider: Set(provider),
        provider_order_id: Set(None),
        state: Set(StoreOrderState::Pending),
        open_key: Set(Some(open_key(item.id, buyer_id))),
        purchase_id: Set(None),
        closed_reason: Set(None),
        expires_at: Set(now + Duration::minutes(LIFETIME_MINUTES)),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await;
    match inserted {
        Ok(order) => Ok(Opening { order, item, closed }),
        // Another request opened it first: that one is the answer.
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            let order = open_of(db, item.id, buyer_id)
                .await?
                .filter(|o| o.provider == provider)
                .ok_or(Error::Conflict { code: "order_open" })?;
            Ok(Opening { order, item, closed })
        }
        Err(e) => Err(e.into()),
    }
}

/// The open order of `buyer_id` for item `item_id`, if any.
async fn open_of(db: &impl ConnectionTrait, item_id: i32, buyer_id: i32) -> Result<Option<store_order::Model>> {
    Ok(store_order::Entity::find().filter(store_order::Column::OpenKey.eq(open_key(item_id, buyer_id))).one(db).await?)
}

/// Buyer `buyer_id`'s order `uuid` (404 for anyone else's).
pub async fn of_buyer(db: &impl ConnectionTrait, buyer_id: i32, uuid: &str) -> Result<store_order::Model> {
    store_order::Entity::find()
        .filter(store_order::Column::Uuid.eq(uuid))
        .filter(store_order::Column::BuyerId.eq(buyer_id))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)
}

/// The order whose payment object at `provider` is `provider_order_id`, if any.
pub async fn by_provider_id(
    db: &impl ConnectionTrait,
    provider: PaymentType,
    provider_order_id: &str,
) -> Result<Option<store_order::Model>> {
    Ok(store_order::Entity::find()
        .filter(store_order::Column::Provider.eq(provider))
        .filter(store_order::Column::ProviderOrderId.eq(provider_order_id))
        .one(db)
        .await?)
}

/// The order that made purchase `purchase_id`, if it was paid for.
pub async fn of_purchase(db: &impl ConnectionTrait, purchase_id: i32) -> Result<Option<store_order::Model>> {
    Ok(store_order::Entity::find()
        .filter(store_order::Column::PurchaseId.eq(purchase_id))
        .filter(store_order::Column::State.eq(StoreOrderState::Captured))
        .one(db)
        .await?)
}

/// `buyer_id`'s open orders, newest first (what they started and may finish).
pub async fn open_of_buyer(db: &impl ConnectionTrait, buyer_id: i32) -> Result<Vec<store_order::Model>> {
    Ok(store_order::Entity::find()
        .filter(store_order::Column::BuyerId.eq(buyer_id))
        .filter(store_order::Column::State.eq(StoreOrderState::Pending))
        .order_by_desc(store_order::Column::Id)
        .all(db)
        .await?)
}

/// Stores the provider's payment object `provider_order_id` (and, for GMO, `url`, the page where
/// the payer pays) on order `id` unless one is stored already; answers the order as it then is
/// (a concurrent first call may have stored its own).
pub async fn set_provider_id(
    db: &impl ConnectionTrait,
    id: i32,
    provider_order_id: &str,
    url: Option<&str>,
    now: DateTime<Utc>,
) -> Result<store_order::Model> {
    store_order::Entity::update_many()
        .col_expr(store_order::Column::ProviderOrderId, Expr::value(provider_order_id))
        .col_expr(store_order::Column::ProviderUrl, Expr::value(url))
        .col_expr(store_order::Column::UpdatedAt, Expr::value(now))
        .filter(store_order::Column::Id.eq(id))
        .filter(store_order::Column::ProviderOrderId.is_null())
        .exec(db)
        .await?;
    store_order::Entity::find_by_id(id).one(db).await?.ok_or_else(|| Error::Internal("an order vanished".into()))
}

/// Counts a capture PayPal declined on `found` (once, however many looks saw the decline): the
/// payer's next approval is captured under a new request id.
pub async fn count_declined(db: &impl ConnectionTrait, found: &store_order::Model, now: DateTime<Utc>) -> Result<()> {
    store_order::Entity::update_many()
        .col_expr(store_order::Column::ProviderAttempt, Expr::value(found.provider_attempt + 1))
        .col_expr(store_order::Column::UpdatedAt, Expr::value(now))
        .filter(store_order::Column::Id.eq(found.id))
        .filter(store_order::Column::ProviderAttempt.eq(found.provider_attempt))
        .exec(db)
        .await?;
    Ok(())
}

/// Closes the pending order `id` as `failed` with `reason`; `false` when it was not pending.
pub async fn close(db: &impl ConnectionTrait, id: i32, reason: &str, now: DateTime<Utc>) -> Result<bool> {
    let done = store_order::Entity::update_many()
        .col_expr(store_order::Column::State, Expr::value(StoreOrderState::Failed))
        .col_expr(store_order::Column::OpenKey, Expr::value(Option::<String>::None))
        .col_expr(store_order::Column::ClosedReason, Expr::value(reason))
        .col_expr(store_order::Column::UpdatedAt, Expr::value(now))
        .filter(store_order::Column::Id.eq(id))
        .filter(store_order::Column::State.eq(StoreOrderState::Pending))
        .exec(db)
        .await?;
    Ok(done.rows_affected == 1)
}

/// What a settle made of a payment the provider took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The purchase (made now, or by an earlier settle of this order).
    Purchase(store_purchase::Model),
    /// The buyer held the item already: this payment is `duplicate`, to be refunded.
    Duplicate,
}

/// Settles `order`, which the provider says is paid: the purchase at the order's amount and fee
/// and the order `captured`, in one transaction. Idempotent: a second settle (the payer's
/// capture and a webhook, or twenty captures at once) answers the first's purchase. An order
/// closed meanwhile (its lifetime passed while the payer paid) is still settled: the money was
/// taken.
pub async fn settle(
    db: &(impl ConnectionTrait + TransactionTrait),
    order: &store_order::Model,
    now: DateTime<Utc>,
) -> Result<Settled> {
    let item = store_item::Entity::find_by_id(order.item_id)
        .one(db)
        .await?
        .ok_or_else(|| Error::Internal("an order's item vanished".into()))?;
    let txn = crate::db::begin_write(db).await?;
    // Holds the order's row (SQLite: the write transaction; PostgreSQL: `FOR UPDATE`), so two
    // settles of one order run one after the other and the second finds it captured.
    let current = store_order::Entity::find_by_id(order.id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or_else(|| Error::Internal("an order vanished".into()))?;
    match (current.state, current.purchase_id) {
        (StoreOrderState::Captured, Some(purchase_id)) => {
            txn.rollback().await?;
            let purchase = store_purchase::Entity::find_by_id(purchase_id)
                .one(db)
                .await?
                .ok_or_else(|| Error::Internal("a captured order's purchase vanished".into()))?;
            return Ok(Settled::Purchase(purchase));
        }
        (StoreOrderState::Duplicate, _) => {
            txn.rollback().await?;
            return Ok(Settled::Duplicate);
        }
        _ => {}
    }
    match insert_in(&txn, &item, order.buyer_id, current.amount, current.fee_amount, now).await? {
        Some(purchase) => {
            mark(&txn, order.id, StoreOrderState::Captured, Some(purchase.id), None, now).await?;
            txn.commit().await?;
            Ok(Settled::Purchase(purchase))
        }
        None => {
            txn.rollback().await?;
            tracing::warn!(order_id = order.id, "a store item paid for twice: the second payment is refunded");
            mark(db, order.id, StoreOrderState::Duplicate, None, Some("duplicate"), now).await?;
            Ok(Settled::Duplicate)
        }
    }
}

async fn mark(
    db: &impl ConnectionTrait,
    id: i32,
    state: StoreOrderState,
    purchase_id: Option<i32>,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<()> {
    store_order::Entity::update_many()
        .col_expr(store_order::Column::State, Expr::value(state))
        .col_expr(store_order::Column::OpenKey, Expr::value(Option::<String>::None))
        .col_expr(store_order::Column::PurchaseId, Expr::value(purchase_id))
        .col_expr(store_order::Column::ClosedReason, Expr::value(reason.map(str::to_string)))
        .col_expr(store_order::Column::UpdatedAt, Expr::value(now))
        .filter(store_order::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// An order as its buyer sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OrderView {
    /// Its public id.
    pub uuid: String,
    /// The item's public id.
    pub item_uuid: String,
    /// Yen asked (fixed when the order opened).
    pub amount: i32,
    /// `stripe`.
    pub payment_type: PaymentType,
    /// `pending`, `captured`, `failed` or `duplicate`.
    pub state: StoreOrderState,
    /// Until when a pending order holds its price.
    pub expires_at: DateTime<Utc>,
    /// The purchase it made, once captured.
    pub purchase_uuid: Option<String>,
}

impl OrderView {
    /// The view of `order` for `item` and its `purchase`.
    pub fn of(order: &store_order::Model, item: &store_item::Model, purchase: Option<&store_purchase::Model>) -> Self {
        Self {
            uuid: order.uuid.clone(),
            item_uuid: item.uuid.clone(),
            amount: order.amount,
            payment_type: order.provider,
            state: order.state,
            expires_at: order.expires_at,
            purchase_uuid: purchase.map(|p| p.uuid.clone()),
        }
    }
}
