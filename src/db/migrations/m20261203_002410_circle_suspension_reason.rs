//! Why staff suspended a circle (issue 26 item 8): `circles.suspension_reason`, set with the
//! suspension (the console requires it), shown to the circle's owner and mailed to them, cleared
//! when the suspension is lifted.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

/// Adds the column.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(Table::alter().table("circles").add_column(string_len_null("suspension_reason", 500)).to_owned())
            .await
    }
}
