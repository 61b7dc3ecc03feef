//! One payment attempt (DOMAIN.md "Payments"): which application, who pays, through which
//! provider, the `transaction_uuid` that names the attempt, the provider's own order id, the
//! amount (the application's fee at the draw) and where it stands.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A payment provider (spec §3 "Payment history" `paymentType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PaymentType {
    /// GMO Payment Gateway.
    SmbcGmo,
    /// PayPal Orders v2.
    Paypal,
    /// Stripe PaymentIntents.
    Stripe,
}

impl PaymentType {
    /// The snake_case name, as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SmbcGmo => "smbc_gmo",
            Self::Paypal => "paypal",
            Self::Stripe => "stripe",
        }
    }
}

/// Where an attempt stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum OrderState {
    /// Opened; the provider has not (yet, as far as we know) taken the money.
    Pending,
    /// The provider took the money and the payment is settled (a `payment_histories` row).
    Captured,
    /// The provider refused or cancelled it.
    Failed,
    /// Left unpaid until the payment window closed.
    Expired,
}

/// A row of `orders`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "orders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub application_id: i32,
    pub user_id: i32,
    pub provider: PaymentType,
    /// UUID v4, unique: names the attempt everywhere (idempotency keys, receipts, return URLs).
    pub transaction_uuid: String,
    /// The provider's id of the payment object (Stripe `pi_…`), once created.
    pub provider_order_id: Option<String>,
    /// JPY, the application's `fee_at_draw`.
    pub amount: i32,
    pub currency: String,
    pub state: OrderState,
    /// Why it failed (provider code), for staff.
    pub failure: Option<String>,
    /// How often a reconcile (the job, the sweep, staff) looked at it; spaces the sweep's looks.
    pub reconcile_attempts: i32,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub settled_at: Option<DateTimeUtc>,
    /// Redirect providers: the provider's page the payer is sent to (PayPal's approval link,
    /// GMO's payment URL), once issued.
    pub provider_url: Option<String>,
    /// Redirect providers: declines at capture so far (PayPal's capture key changes after one).
    pub provider_attempt: i32,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
