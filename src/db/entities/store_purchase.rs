//! A purchase of a store item (issue 31): who bought which item, at the price and fee charged.
//! One per buyer and item (a unique key).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whether a purchase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PurchaseStatus {
    /// Bought: the buyer may download the item and place it.
    Paid,
    /// Refunded by staff: the downloads are revoked.
    Refunded,
}

/// A row of `store_purchases`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "store_purchases")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id (the buyer's download address).
    pub uuid: String,
    pub item_id: i32,
    pub buyer_id: i32,
    /// The item's seller when it was bought.
    pub seller_id: i32,
    /// Yen charged (the price in force when the purchase was made; 0 for a free item).
    pub price: i32,
    /// The platform's share of `price`, in yen (rounded down).
    pub fee_amount: i32,
    pub status: PurchaseStatus,
    pub created_at: DateTimeUtc,
    pub refunded_at: Option<DateTimeUtc>,
    /// Why staff refunded it.
    pub refund_reason: Option<String>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
