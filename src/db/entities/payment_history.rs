//! A settled payment (spec §3 "Payment history"): only written when the provider took the money,
//! at most one per application (unique key) and per order.

use sea_orm::entity::prelude::*;

use super::order::PaymentType;

/// A row of `payment_histories`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_histories")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// Unique: one settled payment per application.
    pub application_id: i32,
    /// Unique: the attempt that settled.
    pub order_id: i32,
    pub transaction_uuid: String,
    pub payment_type: PaymentType,
    /// The provider's id of the payment (Stripe `pi_…`).
    pub order_reference: String,
    /// JPY.
    pub amount: i32,
    /// Settled after the payment window had closed: flagged for staff (refund or accept).
    pub is_late: bool,
    pub paid_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
