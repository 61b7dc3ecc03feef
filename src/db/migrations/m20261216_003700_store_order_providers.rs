//! Store orders through the redirect providers (issue 31): `store_orders.provider_attempt`, the
//! PayPal captures declined so far (the next capture gets a new request id: PayPal answers a
//! repeated one with its first answer, the decline), and `provider_url`, the provider's page
//! where the payer pays (GMO issues a payment link once per order id, so it is kept).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the columns.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let mut attempt = integer("provider_attempt");
        attempt.default(0);
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for mut column in [attempt, text_null("provider_url")] {
            m.alter_table(Table::alter().table("store_orders").add_column(&mut column).to_owned()).await?;
        }
        Ok(())
    }
}
