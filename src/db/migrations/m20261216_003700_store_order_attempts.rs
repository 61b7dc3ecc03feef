//! A store order's PayPal capture attempts (issue 31): `store_orders.provider_attempt`, counted up
//! when PayPal declines a capture, so that the payer's next approval is captured under a new
//! request id (PayPal answers a repeated one with its first answer: the decline).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the column.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let mut column = integer("provider_attempt");
        column.default(0);
        m.alter_table(Table::alter().table("store_orders").add_column(&mut column).to_owned()).await
    }
}
