//! One attempt of a buyer to pay for a store item through a provider (issue 31): the amount and
//! fee fixed when it opened, the provider's payment object, where it stands and the purchase it
//! made.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::db::entities::order::PaymentType;

/// Where a store order stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum StoreOrderState {
    /// Open: the buyer may pay it until `expires_at`.
    Pending,
    /// Paid; `purchase_id` is the purchase it made.
    Captured,
    /// Refused, cancelled at the provider, or left unpaid past its lifetime.
    Failed,
    /// Paid while the buyer already held the item: refunded at the provider.
    Duplicate,
}

/// A row of `store_orders`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "store_orders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id (UUID v4): the provider's idempotency keys and the buyer's links.
    pub uuid: String,
    pub item_id: i32,
    pub buyer_id: i32,
    /// Yen asked of the buyer: the item's price in force when the order opened.
    pub amount: i32,
    /// The platform's share of `amount`, yen, fixed with it.
    pub fee_amount: i32,
    pub provider: PaymentType,
    /// The provider's payment object (Stripe `pi_…`, PayPal's order id, GMO's `OrderID`), once created.
    pub provider_order_id: Option<String>,
    /// PayPal captures declined so far: the next capture's request id counts from it.
    pub provider_attempt: i32,
    /// The provider's page where the payer pays (a GMO payment link), once issued.
    pub provider_url: Option<String>,
    pub state: StoreOrderState,
    /// `"<item_id>:<buyer_id>"` while pending, NULL after: unique, one open order per buyer and item.
    pub open_key: Option<String>,
    /// The purchase a captured order made.
    pub purchase_id: Option<i32>,
    /// Why it closed without a purchase (a provider's code, `expired`, `duplicate`).
    pub closed_reason: Option<String>,
    /// Past this, an unpaid order is closed and a new one opens at the price then in force.
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
