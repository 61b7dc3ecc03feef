//! Schema migrations, applied in order on start and by `vmarket migrate`.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use crate::db::search::Searchable;

mod m20261121_000001_events_and_worlds;
mod m20261122_000010_accounts_and_users;
mod m20261122_000100_link_previews;
mod m20261122_000200_inquiries;
mod m20261122_000300_catalog;
mod m20261122_000400_hub;
mod m20261122_000500_redirects;
mod m20261122_000600_exhibitor_notifications;
mod m20261123_000700_sign_in_hardening;
mod m20261123_000800_mails;
mod m20261124_000900_circles;
mod m20261124_001000_staff_console;
mod m20261125_001000_entries;
mod m20261125_001100_lottery_secret;
mod m20261126_001300_payments;
mod m20261127_001400_lottery_result_mails;
mod m20261127_001410_lottery_results;
mod m20261127_001420_application_status_writes;
mod m20261127_001600_data_version;
mod m20261127_001801_order_provider_link;
pub mod m20261128_001900_money_rows_kept;
mod m20261128_001910_lottery_run_actors;
mod m20261129_002000_assets;

/// The list of every migration the schema is built from.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_events_and_worlds::Migration),
            Box::new(m20261122_000010_accounts_and_users::Migration),
            Box::new(m20261122_000100_link_previews::Migration),
            Box::new(m20261122_000200_inquiries::Migration),
            Box::new(m20261122_000300_catalog::Migration),
            Box::new(m20261122_000400_hub::Migration),
            Box::new(m20261122_000500_redirects::Migration),
            Box::new(m20261122_000600_exhibitor_notifications::Migration),
            Box::new(m20261123_000700_sign_in_hardening::Migration),
            Box::new(m20261123_000800_mails::Migration),
            Box::new(m20261124_000900_circles::Migration),
            Box::new(m20261124_001000_staff_console::Migration),
            Box::new(m20261125_001000_entries::Migration),
            Box::new(m20261125_001100_lottery_secret::Migration),
            Box::new(m20261126_001300_payments::Migration),
            Box::new(m20261127_001400_lottery_result_mails::Migration),
            Box::new(m20261127_001410_lottery_results::Migration),
            Box::new(m20261127_001420_application_status_writes::Migration),
            Box::new(m20261127_001600_data_version::Migration),
            Box::new(m20261127_001801_order_provider_link::Migration),
            Box::new(m20261128_001900_money_rows_kept::Migration),
            Box::new(m20261128_001910_lottery_run_actors::Migration),
            Box::new(m20261129_002000_assets::Migration),
        ]
    }
}

/// A foreign key from `table.column` to `target.id`, deleted with its parent.
pub(crate) fn fk(table: &'static str, column: &'static str, target: &'static str) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(table, column).to(target, "id").on_delete(ForeignKeyAction::Cascade).take()
}

/// A plain index over `columns` of `table`, named after them.
pub(crate) fn index(table: &'static str, columns: &[&'static str]) -> IndexCreateStatement {
    let mut stmt = Index::create();
    stmt.name(format!("idx_{table}_{}", columns.join("_"))).table(table);
    for column in columns {
        stmt.col(*column);
    }
    stmt.take()
}

/// The keyword-search index of `s`. Backend switch: an FTS5 trigram table on SQLite, a pg_trgm
/// GIN index on PostgreSQL (the expressions are the ones `crate::model::search` queries).
pub(crate) async fn search_index(m: &SchemaManager<'_>, s: Searchable) -> Result<(), DbErr> {
    let db = m.get_connection();
    match m.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let cols = s.columns.join(", ");
            let new_cols = s.columns.iter().map(|c| format!("new.{c}")).collect::<Vec<_>>().join(", ");
            let old_cols = s.columns.iter().map(|c| format!("old.{c}")).collect::<Vec<_>>().join(", ");
            let (t, f) = (s.table, s.fts_table);
            db.execute_unprepared(&format!(
                "CREATE VIRTUAL TABLE {f} USING fts5({cols}, content='{t}', content_rowid='id', tokenize='trigram')"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_ai AFTER INSERT ON {t} BEGIN \
                 INSERT INTO {f}(rowid, {cols}) VALUES (new.id, {new_cols}); END"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_ad AFTER DELETE ON {t} BEGIN \
                 INSERT INTO {f}({f}, rowid, {cols}) VALUES ('delete', old.id, {old_cols}); END"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_au AFTER UPDATE ON {t} BEGIN \
                 INSERT INTO {f}({f}, rowid, {cols}) VALUES ('delete', old.id, {old_cols}); \
                 INSERT INTO {f}(rowid, {cols}) VALUES (new.id, {new_cols}); END"
            ))
            .await?;
        }
        DatabaseBackend::Postgres => {
            db.execute_unprepared("CREATE EXTENSION IF NOT EXISTS pg_trgm").await?;
            db.execute_unprepared(&format!(
                "CREATE INDEX idx_{t}_search ON {t} USING gin (({expr}) gin_trgm_ops)",
                t = s.table,
                expr = s.pg_document()
            ))
            .await?;
        }
        other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
    }
    Ok(())
}
