//! A provider event (webhook) already processed: unique per provider and event id.

use sea_orm::entity::prelude::*;

use super::order::PaymentType;

/// A row of `payment_webhook_events`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_webhook_events")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub provider: PaymentType,
    pub event_id: String,
    pub event_type: String,
    pub received_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
