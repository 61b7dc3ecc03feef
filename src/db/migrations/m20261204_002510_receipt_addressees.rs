//! The addressee of a receipt, with every change kept (issue 26 item 7, `receipts::addressee`):
//! `receipt_addressees` (payment, addressee, when set), read per payment in id order.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("receipt_addressees")
                .col(pk_auto("id"))
                .col(integer("payment_history_id"))
                .col(string_len("addressee", 100))
                .col(timestamp_with_time_zone("set_at"))
                .foreign_key(&mut fk("receipt_addressees", "payment_history_id", "payment_histories"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("receipt_addressees", &["payment_history_id", "id"])).await
    }
}
