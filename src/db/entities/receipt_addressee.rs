//! A value the addressee of a receipt had (`receipts::addressee`): the payer's payment, the
//! addressee, when it was set. The newest row of a payment is its current addressee.

use sea_orm::entity::prelude::*;

/// A row of `receipt_addressees`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "receipt_addressees")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub payment_history_id: i32,
    pub addressee: String,
    pub set_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
