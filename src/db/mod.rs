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
        // A connection is checked (pinged) when it comes out of the pool only after it has sat
        // idle: a ping on every checkout cost each statement an extra round trip — to the
        // server on PostgreSQL, to the connection's worker thread on SQLite (two thread
        // switches). A hot connection has just answered; an idle one may have been dropped by
        // the server or a proxy in between.
        .test_before_acquire_if_idle_for(Duration::from_secs(30))
        .map_sqlx_sqlite_opts(|o| {
            o.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
        });
    if url.starts_with("sqlite") {
        opts.max_connections(8).map_sqlx_sqlite_pool_opts(|pool| {
            pool.after_connect(|conn, _| Box::pin(async move { stable_query_plans(conn).await }))
        });
    }
    Database::connect(opts).await
}

/// Starts a transaction that will write: on SQLite an immediate one, which takes the write lock
/// at `BEGIN` (waiting up to the busy timeout for another writer). A deferred transaction
/// (`begin()`) can fail at once with "database is locked" while another connection — a
/// background worker, another request — holds the lock, even when its first statement writes
/// (`tests/it/write_locks.rs` shows it; that test also finds any `begin()` in `src/`).
/// PostgreSQL starts an ordinary transaction.
pub async fn begin_write<C: TransactionTrait>(db: &C) -> Result<C::Transaction, DbErr> {
    let options =
        TransactionOptions { sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate), ..Default::default() };
    db.begin_with_options(options).await
}

/// Turns on SQLite's query planner stability guarantee (`SQLITE_DBCONFIG_ENABLE_QPSG`) on `conn`.
///
/// Without it, SQLite (3.51) lets the value bound to `LIMIT ?` — and to a `LIKE ?` pattern —
/// shape the query plan, so binding a new value expires the cached statement and its next run
/// compiles it again: every paginated list paid a full re-prepare per request (about 0.3 M
/// instructions, a tenth of a list's cost). With the guarantee a cached statement keeps its plan.
async fn stable_query_plans(conn: &mut sea_orm::sqlx::SqliteConnection) -> Result<(), sea_orm::sqlx::Error> {
    use std::ffi::c_int;
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    let mut on: c_int = 0;
    // SAFETY: `db` is the open connection that `handle` holds locked for the whole call; this
    // option reads one int and writes the new setting through a pointer to a live local int.
    let rc = unsafe {
        libsqlite3_sys::sqlite3_db_config(
            db,
            libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as c_int,
            &mut on as *mut c_int,
        )
    };
    if rc != libsqlite3_sys::SQLITE_OK || on != 1 {
        return Err(sea_orm::sqlx::Error::Configuration(
            format!("SQLite refused the query planner stability guarantee (code {rc})").into(),
        ));
    }
    Ok(())
}

/// The file path inside a `sqlite://` URL, if it names a file.
fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && path != ":memory:").then_some(path)
}

/// Applies every pending migration, then puts the data-version trigger on every table that
/// should have it and lacks it ([`data_version::install`]). The job queue's tables are not ours:
/// whoever opens the database for the application sets them up after this (`crate::queue::setup`).
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    migrations::Migrator::up(db, None).await?;
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

    /// Whether the query planner stability guarantee is on for a connection of `db`'s SQLite pool.
    async fn query_plans_are_stable(db: &sea_orm::DatabaseConnection) -> Result<bool, sea_orm::DbErr> {
        use std::ffi::c_int;
        let mut conn =
            db.get_sqlite_connection_pool().acquire().await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        let mut handle = conn.lock_handle().await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        let raw = handle.as_raw_handle().as_ptr();
        let mut on: c_int = -1;
        // SAFETY: as in `stable_query_plans`; `-1` only reads the setting.
        unsafe {
            libsqlite3_sys::sqlite3_db_config(
                raw,
                libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
                -1 as c_int,
                &mut on as *mut c_int,
            )
        };
        Ok(on == 1)
    }

    #[tokio::test]
    async fn every_sqlite_connection_keeps_its_query_plans() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
        let db = super::connect(&url).await.unwrap();
        assert!(query_plans_are_stable(&db).await.unwrap());
        // Control: a pool opened without the hook reports the guarantee off.
        let plain = sea_orm::Database::connect(url.as_str()).await.unwrap();
        assert!(!query_plans_are_stable(&plain).await.unwrap());
    }

    #[test]
    fn sqlite_paths() {
        assert_eq!(sqlite_path("sqlite://data/vmarket.db?mode=rwc"), Some("data/vmarket.db"));
        assert_eq!(sqlite_path("sqlite::memory:"), None);
        assert_eq!(sqlite_path("postgres://localhost/x"), None);
    }
}
