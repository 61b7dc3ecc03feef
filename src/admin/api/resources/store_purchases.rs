//! `store_purchases`: who got which store item, at what price and fee (issue 31), for the staff
//! who answer buyers and sellers. A purchase is made by its buyer; an admin **refunds** one with
//! a reason (`POST /admin/api/store_purchases/{id}/refund`): one paid by card gets its money
//! back at Stripe first (a silent Stripe: 502, nothing changed), then the purchase is
//! `refunded`, which revokes its downloads and takes bought furniture out of the booth maker.
//! Audited with the reason.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::{NoInput, Reconciliation, Resource, Row};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::store_purchase::{self, PurchaseStatus};
use crate::error::{Error, Result};
use crate::store::checkout;

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
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show, Action::Refund];
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

    async fn refund(row: Row<Self>, cx: &Cx<'_>, reason: &str) -> Result<Reconciliation> {
        if row.status == PurchaseStatus::Refunded {
            return Err(Error::Conflict { code: "purchase_refunded" });
        }
        match checkout::refund(cx.db, cx.providers, &row, reason, cx.acted_at()).await {
            Ok(_) => Ok(Reconciliation { outcome: "refunded", error: None }),
            Err(error @ Error::BadGateway { .. }) => {
                Ok(Reconciliation { outcome: "provider_unavailable", error: Some(error) })
            }
            Err(other) => Err(other),
        }
    }
}
