//! Database connection and schema: SQLite by default, PostgreSQL by URL, one code path. Entities
//! own their enums (or take shared vocabularies from `types`); nothing here imports `model` or
//! an edge (`forms`, `api`, `web`).

#[expect(
    missing_docs,
    reason = "entity fields are the columns of the migrations; the client views in `model` document them"
)]
pub mod entities;
pub mod migrations;
pub mod search;

pub mod data_version;

use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, DbErr, SqliteTransactionMode,
    Statement, TransactionOptions, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;

/// Opens a connection pool for `url`. For SQLite, the parent directory is created, and the
/// database uses WAL, foreign keys, a busy timeout and `synchronous = FULL`.
///
/// Why FULL: in WAL mode, FULL syncs the log to disk at every commit, so a committed write — a
/// payment the client was told is settled, a mail queued with it — survives an OS crash or a
/// power cut, not only a killed process. NORMAL (WAL's usual choice) stays consistent but may lose
/// the last commits after a power cut, which would lose acknowledged payments (the provider keeps
/// the money; we would forget it). FULL costs one fsync per commit. SQLite's built-in default is
/// FULL too; it is set here so that a different build of SQLite cannot change it
/// (`bench/payments-durability` kills the server mid-payment and checks what stayed).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    if let Some(path) = sqlite_path(url)
        && let Some(dir) = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| DbErr::Custom(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut opts = ConnectOptions::new(url);
    opts.sqlx_logging(false)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        .map_sqlx_sqlite_opts(|o| {
            o.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
        });
    if url.starts_with("sqlite") {
        opts.max_connections(8);
    }
    Database::connect(opts).await
}

/// Starts a transaction that will write: on SQLite an immediate one, which takes the write lock
/// at its first statement (waiting up to the busy timeout for another writer). A deferred
/// transaction that reads first and writes later fails at once ("database is locked") when
/// another connection — a background worker — wrote in between; one that writes first is safe
/// either way. PostgreSQL starts an ordinary transaction.
pub async fn begin_write<C: TransactionTrait>(db: &C) -> Result<C::Transaction, DbErr> {
    let options =
        TransactionOptions { sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate), ..Default::default() };
    db.begin_with_options(options).await
}

/// The file path inside a `sqlite://` URL, if it names a file.
fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && path != ":memory:").then_some(path)
}

/// Applies every pending migration, then puts the data-version trigger on every table that
/// should have it and lacks it ([`data_version::install`]).
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    migrations::Migrator::up(db, None).await?;
    crate::jobs::Queue::for_db(db)?.setup().await?;
    data_version::install(db).await
}

/// After rows were inserted with explicit ids, moves PostgreSQL's id sequences past them so
/// later inserts get fresh ids. SQLite needs nothing (`AUTOINCREMENT`-less rowids follow the max).
///
/// Backend switch: PostgreSQL only.
pub async fn reset_sequences(db: &impl ConnectionTrait, tables: &[&str]) -> Result<(), DbErr> {
    if db.get_database_backend() != DatabaseBackend::Postgres {
        return Ok(());
    }
    for table in tables {
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE((SELECT MAX(id) FROM \"{table}\"), 0) + 1, false)"
        );
        db.execute_raw(Statement::from_string(DatabaseBackend::Postgres, sql)).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::sqlite_path;

    #[test]
    fn sqlite_paths() {
        assert_eq!(sqlite_path("sqlite://data/vmarket.db?mode=rwc"), Some("data/vmarket.db"));
        assert_eq!(sqlite_path("sqlite::memory:"), None);
        assert_eq!(sqlite_path("postgres://localhost/x"), None);
    }
}
