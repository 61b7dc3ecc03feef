//! Payments (issue 13, DOMAIN.md "Payments"): `orders`, one row per payment attempt (the
//! application, the payer, the provider, a `transaction_uuid` (UUID v4), the provider's order id,
//! the amount snapshotted from the application's fee at the draw, and the state `pending` →
//! `captured` | `failed` | `expired`); `payment_histories`, one row per *settled* payment, with a
//! unique key on `application_id` (exactly one settled payment per application, held by the
//! database) and on `order_id`; `payment_webhook_events`, the provider events already processed
//! (unique per provider and event id, so a replayed event is processed once).
//!
//! At most one `pending` order per application and provider (a partial unique index): a second
//! tab or a double click reuses the attempt, and so the provider's payment object, instead of
//! opening a second one that could be charged too.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables and indexes above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("orders")
                .col(pk_auto("id"))
                .col(integer("application_id"))
                .col(integer("user_id"))
                .col(string_len("provider", 16))
                .col(string_len("transaction_uuid", 36))
                .col(string_len_null("provider_order_id", 255))
                .col(integer("amount"))
                .col(string_len("currency", 3))
                .col(string_len("state", 16))
                .col(string_len_null("failure", 255))
                .col(integer("reconcile_attempts"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .col(timestamp_with_time_zone_null("settled_at"))
                .foreign_key(&mut fk("orders", "application_id", "event_entry_applications"))
                .foreign_key(&mut fk("orders", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("orders", &["transaction_uuid"]).unique().take()).await?;
        m.create_index(index("orders", &["application_id", "state"])).await?;
        m.create_index(index("orders", &["state", "updated_at"])).await?;
        m.create_index(index("orders", &["provider", "provider_order_id"]).unique().take()).await?;
        // One open attempt per application and provider (partial index: SQLite and PostgreSQL).
        m.get_connection()
            .execute_unprepared(
                "CREATE UNIQUE INDEX idx_orders_one_pending ON orders (application_id, provider) \
                 WHERE state = 'pending'",
            )
            .await?;

        m.create_table(
            Table::create()
                .table("payment_histories")
                .col(pk_auto("id"))
                .col(integer("user_id"))
                .col(integer("application_id"))
                .col(integer("order_id"))
                .col(string_len("transaction_uuid", 36))
                .col(string_len("payment_type", 16))
                .col(string_len("order_reference", 255))
                .col(integer("amount"))
                .col(boolean("is_late"))
                .col(timestamp_with_time_zone("paid_at"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("payment_histories", "application_id", "event_entry_applications"))
                .foreign_key(&mut fk("payment_histories", "order_id", "orders"))
                .foreign_key(&mut fk("payment_histories", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        // Exactly one settled payment per application: the database holds it.
        m.create_index(index("payment_histories", &["application_id"]).unique().take()).await?;
        m.create_index(index("payment_histories", &["order_id"]).unique().take()).await?;
        m.create_index(index("payment_histories", &["transaction_uuid"]).unique().take()).await?;
        m.create_index(index("payment_histories", &["user_id", "paid_at"])).await?;

        m.create_table(
            Table::create()
                .table("payment_webhook_events")
                .col(pk_auto("id"))
                .col(string_len("provider", 16))
                .col(string_len("event_id", 255))
                .col(string_len("event_type", 128))
                .col(timestamp_with_time_zone("received_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("payment_webhook_events", &["provider", "event_id"]).unique().take()).await?;
        Ok(())
    }
}
