//! Rate limits every node shares (issue 32 item 4, `crate::http::limit`): `rate_limits` holds,
//! per limiter and key (`bucket`, a digest: no address or email is stored), the key's theoretical
//! arrival time (`tat`, Unix milliseconds) of the generic cell rate algorithm; rows whose time has
//! passed are pruned as the limiters are used.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::index;

/// Creates the table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("rate_limits")
                .col(string_len("bucket", 40).primary_key())
                .col(big_integer("tat"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("rate_limits", &["tat"])).await
    }
}
