//! What a redirect provider's attempt keeps besides its order id (issue 13, PayPal and GMO):
//! `provider_url`, the page the payer is sent to (PayPal's approval link, GMO's link-type Plus
//! payment URL — GMO issues that URL once per order id, so it is stored to send a reload to the
//! same page), and `provider_attempt`, how many times the payer's funding was declined at
//! capture: PayPal replays the first answer to a repeated `PayPal-Request-Id`, so a capture after
//! a decline (the payer picked another card) needs a new key, and only then.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the two columns (one statement each: SQLite alters one column at a time).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("orders").add_column(string_len_null("provider_url", 2048)).to_owned())
            .await?;
        m.alter_table(Table::alter().table("orders").add_column(integer("provider_attempt").default(0)).to_owned())
            .await?;
        Ok(())
    }
}
