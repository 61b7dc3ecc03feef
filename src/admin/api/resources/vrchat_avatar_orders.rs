//! `vrchat_avatar_orders`: users' VRChat avatar orders (issue 31) — what each costs and buys,
//! how it is paid (PayPal's order and invoice id, GMO's order id: what staff look up at the
//! provider), where it stands and when it was paid. Read only: orders are opened and paid by
//! their users through the providers.
//!
//! Filters: `user_id`, `state`, `payment_type`; `q` finds an order's uuid or a provider's id.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::{NoInput, Resource};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::vrchat_avatar_order::{self, AvatarOrderState, AvatarPaymentType, PurchaseType};
use crate::error::Result;

/// The resource.
pub struct VrchatAvatarOrders;

/// An order as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct VrchatAvatarOrderRecord {
    /// Id.
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    /// Whose.
    pub user_id: i32,
    /// The avatar it made or converts again.
    pub vrchat_avatar_id: Option<i32>,
    /// Its name on VRChat.
    pub avatar_name: String,
    /// `new` or `update`.
    pub purchase_type: PurchaseType,
    /// `paypal` or `gmo_payment`.
    pub payment_type: AvatarPaymentType,
    /// Yen.
    pub total_price: i32,
    /// Uploads to VRChat it buys.
    pub uploads: i32,
    /// Where the order stands.
    pub state: AvatarOrderState,
    /// Payable until then.
    pub closing_date: DateTime<Utc>,
    /// PayPal's order, once created.
    pub paypal_order_id: Option<String>,
    /// The invoice id sent to PayPal (the order's uuid).
    pub invoice_id: Option<String>,
    /// GMO's order id, once a payment link was made.
    pub gmo_payment_order_id: Option<String>,
    /// When it was paid.
    pub paid_at: Option<DateTime<Utc>>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

impl Resource for VrchatAvatarOrders {
    type Entity = vrchat_avatar_order::Entity;
    type Record = VrchatAvatarOrderRecord;
    type Input = NoInput;

    const NAME: &'static str = "vrchat_avatar_orders";
    const AREA: Area = Area::Payments;
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show];
    const COLUMNS: Columns = Columns {
        sort: &["id", "created_at", "paid_at"],
        filter: &["user_id", "state", "payment_type"],
        search: &["uuid", "paypal_order_id", "gmo_payment_order_id"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<vrchat_avatar_order::Model>,
    ) -> Result<Vec<VrchatAvatarOrderRecord>> {
        Ok(rows
            .into_iter()
            .map(|o| VrchatAvatarOrderRecord {
                id: o.id,
                uuid: o.uuid,
                user_id: o.user_id,
                vrchat_avatar_id: o.vrchat_avatar_id,
                avatar_name: o.avatar_name,
                purchase_type: o.purchase_type,
                payment_type: o.payment_type,
                total_price: o.total_price,
                uploads: o.uploads,
                state: o.state,
                closing_date: o.closing_date,
                paypal_order_id: o.paypal_order_id,
                invoice_id: o.invoice_id,
                gmo_payment_order_id: o.gmo_payment_order_id,
                paid_at: o.paid_at,
                created_at: o.created_at,
            })
            .collect())
    }
}
