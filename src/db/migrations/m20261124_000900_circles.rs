//! Circles get owners, members and invitations: `circle_members` (one row per circle and user;
//! the owner has one too), `circle_invitations` (at most one `pending` per circle and user,
//! held by a partial unique index on both backends) and the stored thumbnail of a circle
//! (`thumbnail_key`: the object-store prefix of its small / medium / large versions).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables and indexes above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("circles").add_column(string_null("thumbnail_key")).to_owned()).await?;
        m.create_index(index("circles", &["owner_user_id"])).await?;

        m.create_table(
            Table::create()
                .table("circle_members")
                .col(pk_auto("id"))
                .col(integer("circle_id"))
                .col(integer("user_id"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("circle_members", "circle_id", "circles"))
                .foreign_key(&mut fk("circle_members", "user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("circle_members", &["circle_id", "user_id"]).unique().take()).await?;
        m.create_index(index("circle_members", &["user_id"])).await?;

        m.create_table(
            Table::create()
                .table("circle_invitations")
                .col(pk_auto("id"))
                .col(integer("circle_id"))
                .col(integer("user_id"))
                .col(integer("invited_by_user_id"))
                .col(string_len("status", 16))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("responded_at"))
                .foreign_key(&mut fk("circle_invitations", "circle_id", "circles"))
                .foreign_key(&mut fk("circle_invitations", "user_id", "users"))
                .foreign_key(&mut fk("circle_invitations", "invited_by_user_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("circle_invitations", &["user_id", "status"])).await?;
        m.create_index(index("circle_invitations", &["circle_id", "status"])).await?;
        // One pending invitation per circle and user: the same partial index on SQLite and
        // PostgreSQL (answered and expired ones stay as history).
        m.get_connection()
            .execute_unprepared(
                "CREATE UNIQUE INDEX idx_circle_invitations_one_pending \
                 ON circle_invitations (circle_id, user_id) WHERE status = 'pending'",
            )
            .await?;
        Ok(())
    }
}
