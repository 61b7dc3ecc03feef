//! `store_purchases`: who got which store item, at what price and fee (issue 31), for the staff
//! who answer buyers and sellers. Read only: a purchase is made by its buyer; refunds of paid
//! purchases come with paying through the providers (not built yet).

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::{NoInput, Resource};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::store_purchase::{self, PurchaseStatus};
use crate::error::Result;

/// The resource.
pub struct StorePurchases;

/// A purchase as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct StorePurchaseRecord {
    /// Id.
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    /// The item.
    pub item_id: i32,
    /// The buyer.
    pub buyer_id: i32,
    /// The seller.
    pub seller_id: i32,
    /// Yen charged.
    pub price: i32,
    /// The platform's share, yen.
    pub fee_amount: i32,
    /// `paid` or `refunded`.
    pub status: PurchaseStatus,
    /// Bought.
    pub created_at: DateTime<Utc>,
    /// Refunded.
    pub refunded_at: Option<DateTime<Utc>>,
    /// Why.
    pub refund_reason: Option<String>,
}

impl Resource for StorePurchases {
    type Entity = store_purchase::Entity;
    type Record = StorePurchaseRecord;
    type Input = NoInput;

    const NAME: &'static str = "store_purchases";
    const AREA: Area = Area::Payments;
    const ACTIONS: &'static [Action] = Action::READ;
    const COLUMNS: Columns = Columns {
        sort: &["id", "created_at", "price"],
        filter: &["item_id", "buyer_id", "seller_id", "status"],
        search: &["uuid"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<store_purchase::Model>,
    ) -> Result<Vec<StorePurchaseRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| StorePurchaseRecord {
                id: r.id,
                uuid: r.uuid,
                item_id: r.item_id,
                buyer_id: r.buyer_id,
                seller_id: r.seller_id,
                price: r.price,
                fee_amount: r.fee_amount,
                status: r.status,
                created_at: r.created_at,
                refunded_at: r.refunded_at,
                refund_reason: r.refund_reason,
            })
            .collect())
    }
}
