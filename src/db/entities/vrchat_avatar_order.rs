//! A user's order for a VRChat avatar conversion (spec §3 "VRChat" avatar order), paid through
//! PayPal or GMO like an application.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What an avatar order buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PurchaseType {
    /// A new VRChat avatar from one of the user's uploaded avatars.
    New,
    /// An avatar of theirs converted again, from a newer version, with more uploads.
    Update,
}

/// How an avatar order is paid (spec §3: `paypal` or `gmo_payment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AvatarPaymentType {
    /// PayPal Orders v2.
    Paypal,
    /// GMO Payment Gateway (link type Plus).
    GmoPayment,
}

/// Where an avatar order stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum AvatarOrderState {
    /// Payable until `closing_date`.
    Open,
    /// Paid: its avatar waits for (or went through) its conversion.
    Paid,
    /// Left unpaid past `closing_date`.
    Expired,
    /// Withdrawn by its user before paying.
    Cancelled,
}

/// A row of `vrchat_avatar_orders`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vrchat_avatar_orders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Its public id (UUID v4): the providers' idempotency keys and the user's links.
    pub uuid: String,
    pub user_id: i32,
    /// The avatar it made (`new`, once paid) or converts again (`update`).
    pub vrchat_avatar_id: Option<i32>,
    /// The avatar version to convert.
    pub asset_version_id: i32,
    pub avatar_name: String,
    pub purchase_type: PurchaseType,
    pub payment_type: AvatarPaymentType,
    /// Yen, 0 or more, fixed when it opened.
    pub total_price: i32,
    /// Uploads to VRChat it buys.
    pub uploads: i32,
    /// Payable until then.
    pub closing_date: DateTimeUtc,
    pub state: AvatarOrderState,
    /// `"<user_id>"` while open, NULL after: unique, one open order per user.
    pub open_key: Option<String>,
    /// PayPal's order, once created.
    pub paypal_order_id: Option<String>,
    /// The invoice id sent to PayPal (the order's uuid).
    pub invoice_id: Option<String>,
    /// GMO's `OrderID`, once a payment link was made.
    pub gmo_payment_order_id: Option<String>,
    /// Where the payer approves the payment at the provider.
    pub provider_url: Option<String>,
    pub paid_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
