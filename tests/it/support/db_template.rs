//! Test databases cloned from a template instead of migrated and seeded per test.
//!
//! Migrating (23 migrations, each its own commit and fsync) and seeding the demo data took most
//! of a test's setup: seconds per test, 526 tests, twice (SQLite and PostgreSQL). Now what a test
//! starts from is built once per test binary and [`Contents`] — empty, or the demo data seeded
//! at a given instant (the seed places some event phases relative to it) — and each test gets
//! its own copy of it:
//!
//! - SQLite: the template is a database file under the system temp dir, written by `db::migrate`
//!   and `seed::demo` as before, checkpointed (the WAL folded into the file) and published by an
//!   atomic rename; a test copies the file.
//! - PostgreSQL: the template is a database on the test server (`vmt_…`, connections refused
//!   so that it can always be cloned); a test runs `CREATE DATABASE … TEMPLATE …`.
//!
//! nextest runs every test in its own process, so a template is shared across processes: it is
//! built under a lock (a file lock; a PostgreSQL advisory lock) by whichever test needs it first,
//! while the others wait, and found by name afterwards. The name holds what the contents depend
//! on: the test binary (its path, modification time and size: a rebuild, whatever changed, gets
//! new templates) and the contents. Templates of an older build of the same binary path, or of a
//! binary that no longer exists, are deleted when a new one is built.
//!
//! A copy is a whole database of its own, so a test's writes reach neither the template nor any
//! other test (`tests` below checks it on either backend); the demo fingerprint test
//! (`seed::the_demo_seed_writes_the_same_site`) checks that a copy holds exactly what a fresh
//! seed writes.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};
use sha2::{Digest, Sha256};
use vmarket::db;

/// What a test database starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contents {
    /// Migrated, nothing else.
    Empty,
    /// Migrated and seeded with the demo data at this instant.
    Demo(DateTime<Utc>),
}

impl Contents {
    /// A short, file- and identifier-safe name.
    fn slug(self) -> String {
        match self {
            Self::Empty => "empty".into(),
            Self::Demo(now) => format!("demo_{}", now.timestamp_micros()),
        }
    }

    /// Writes these contents into a fresh database, as every test did before templates.
    async fn fill(self, conn: &DatabaseConnection) {
        db::migrate(conn).await.expect("migrations apply");
        vmarket::queue::setup(conn).await.expect("job queue tables");
        // What `vmarket serve` writes at start-up, stamped with the seeding instant (a fixed one
        // for an empty database) so that copies fingerprint alike (`seed::the_demo_seed_writes_the_same_site`).
        let stamped = if let Self::Demo(now) = self { now } else { crate::support::default_now() };
        vmarket::assets::model::defaults::ensure(conn, stamped).await.expect("asset settings");
        // The account service's signing key, made on first use otherwise: an RSA-2048 key
        // generated in every test that signs a token (a tenth of a short test's CPU time).
        vmarket::account::keys::signing(conn, stamped).await.expect("a signing key");
        if let Self::Demo(now) = self {
            vmarket::seed::demo(conn, now).await.expect("demo seed");
        }
    }
}

/// The running test binary, which every template depends on.
struct Build {
    /// The binary's path.
    exe: PathBuf,
    /// Hash of the path: templates of one binary path, whatever its build.
    path_key: String,
    /// Hash of path, modification time and size: this build.
    build_key: String,
}

fn build() -> &'static Build {
    static BUILD: OnceLock<Build> = OnceLock::new();
    BUILD.get_or_init(|| {
        let exe = std::env::current_exe().and_then(fs::canonicalize).expect("the test binary's path");
        let meta = fs::metadata(&exe).expect("the test binary's metadata");
        let mtime = meta.modified().expect("mtime").duration_since(std::time::UNIX_EPOCH).expect("after 1970");
        let path_key = short_hash(exe.display().to_string().as_bytes());
        let build_key = short_hash(format!("{}|{}|{}", exe.display(), mtime.as_nanos(), meta.len()).as_bytes());
        Build { exe, path_key, build_key }
    })
}

fn short_hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..4])
}

// ---------------------------------------------------------------------------------------------
// SQLite

/// Copies the template of `contents` to `dest` (building the template first if no test has).
pub async fn sqlite_copy(contents: Contents, dest: &Path) {
    let template = sqlite_template(contents).await;
    fs::copy(&template, dest)
        .unwrap_or_else(|e| panic!("copy the template {} to {}: {e}", template.display(), dest.display()));
}

/// Where the templates live: `<temp>/vmarket-test-templates/<path_key>/<build_key>/<slug>.db`.
fn sqlite_root() -> PathBuf {
    std::env::temp_dir().join("vmarket-test-templates")
}

async fn sqlite_template(contents: Contents) -> PathBuf {
    let build = build();
    let binary_dir = sqlite_root().join(&build.path_key);
    let dir = binary_dir.join(&build.build_key);
    let file = dir.join(format!("{}.db", contents.slug()));
    if file.exists() {
        // Published by a rename: present means complete.
        return file;
    }
    fs::create_dir_all(&dir).expect("the template dir");
    let lock = File::create(binary_dir.join(".lock")).expect("the template lock file");
    // Blocks this test's thread while another process builds: nothing else runs in it yet.
    lock.lock().expect("lock the templates");
    if !file.exists() {
        let part = dir.join(format!("{}.db.part", contents.slug()));
        for stale in [part.clone(), wal(&part, "-wal"), wal(&part, "-shm")] {
            let _ = fs::remove_file(stale);
        }
        let conn = db::connect(&format!("sqlite://{}?mode=rwc", part.display())).await.expect("template database");
        contents.fill(&conn).await;
        // Fold the write-ahead log into the file, so that the file alone is the database.
        conn.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)").await.expect("checkpoint the template");
        conn.close().await.expect("close the template");
        let left = fs::metadata(wal(&part, "-wal")).map(|m| m.len()).unwrap_or(0);
        assert_eq!(left, 0, "the template's WAL was checkpointed into {}", part.display());
        fs::rename(&part, &file).expect("publish the template");
        fs::write(binary_dir.join("exe"), build.exe.display().to_string()).expect("note the template's binary");
        sqlite_collect(&binary_dir, &build.build_key);
    }
    lock.unlock().expect("unlock the templates");
    file
}

fn wal(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Deletes templates of older builds of this binary, and of binaries that are gone (holding
/// this binary's lock: another binary's templates are only deleted when it no longer exists).
fn sqlite_collect(binary_dir: &Path, keep: &str) {
    for entry in fs::read_dir(binary_dir).into_iter().flatten().flatten() {
        if entry.path().is_dir() && entry.file_name() != keep {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
    for entry in fs::read_dir(sqlite_root()).into_iter().flatten().flatten() {
        let exe = fs::read_to_string(entry.path().join("exe")).unwrap_or_default();
        if !exe.is_empty() && !Path::new(&exe).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/// Creates the database `name` on the server of `admin` as a copy of the template of
/// `contents` (building the template first if no test has).
pub async fn pg_create(admin: &DatabaseConnection, admin_url: &str, name: &str, contents: Contents) {
    let template = format!("vmt_{}_{}_{}", build().path_key, build().build_key, contents.slug());
    let create = format!("CREATE DATABASE \"{name}\" TEMPLATE \"{template}\"");
    if admin.execute_unprepared(&create).await.is_ok() {
        return;
    }
    // Missing (the first test to need it, or deleted by a newer build): build it and try again.
    pg_template(admin, admin_url, &template, contents).await;
    admin.execute_unprepared(&create).await.unwrap_or_else(|e| panic!("create {name} from {template}: {e}"));
}

/// The advisory lock key under which templates are built and deleted.
const PG_LOCK: i64 = 0x766d_745f_6275_696c;

async fn pg_template(admin: &DatabaseConnection, admin_url: &str, template: &str, contents: Contents) {
    // A transaction-scoped advisory lock on one connection of the pool; the work runs on others.
    let lock = admin.begin().await.expect("begin");
    lock.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({PG_LOCK})")).await.expect("lock the templates");
    if pg_databases(admin).await.iter().all(|(name, _)| name != template) {
        let part = format!("{template}_part");
        admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{part}\" WITH (FORCE)")).await.expect("drop");
        admin.execute_unprepared(&format!("CREATE DATABASE \"{part}\"")).await.expect("create the template");
        let conn = db::connect(&database_url(admin_url, &part)).await.expect("connect to the template");
        contents.fill(&conn).await;
        conn.close().await.expect("close the template");
        // PostgreSQL waits (up to 5 s) for the closed sessions' backends to exit.
        admin
            .execute_unprepared(&format!("ALTER DATABASE \"{part}\" RENAME TO \"{template}\""))
            .await
            .expect("publish the template");
        // Nobody may connect to a template: a session on it would make every clone fail.
        admin
            .execute_unprepared(&format!("ALTER DATABASE \"{template}\" WITH ALLOW_CONNECTIONS false"))
            .await
            .expect("close the template");
        let exe = build().exe.display().to_string().replace('\'', "''");
        admin
            .execute_unprepared(&format!("COMMENT ON DATABASE \"{template}\" IS 'vmarket test template of {exe}'"))
            .await
            .expect("note the template's binary");
        pg_collect(admin).await;
    }
    lock.commit().await.expect("unlock the templates");
}

/// Deletes templates of older builds of this binary path, and of binaries that are gone (from
/// this machine: another machine's tests sharing the server build theirs again when they miss).
async fn pg_collect(admin: &DatabaseConnection) {
    let ours = format!("vmt_{}_", build().path_key);
    let current = format!("{ours}{}_", build().build_key);
    for (name, comment) in pg_databases(admin).await {
        let exe = comment.strip_prefix("vmarket test template of ").unwrap_or_default();
        let stale =
            (name.starts_with(&ours) && !name.starts_with(&current)) || (!exe.is_empty() && !Path::new(exe).exists());
        if stale {
            // Waits for clones being made from it; later clones miss and rebuild it.
            let _ = admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\"")).await;
        }
    }
}

/// The templates on the server, with their comments.
async fn pg_databases(admin: &DatabaseConnection) -> Vec<(String, String)> {
    let rows = admin
        .query_all_raw(sea_orm::Statement::from_string(
            sea_orm::DatabaseBackend::Postgres,
            "SELECT datname, COALESCE(shobj_description(oid, 'pg_database'), '') AS comment FROM pg_database \
             WHERE datname LIKE 'vmt\\_%'",
        ))
        .await
        .expect("list the templates");
    rows.iter()
        .map(|r| (r.try_get::<String>("", "datname").expect("datname"), r.try_get("", "comment").expect("comment")))
        .collect()
}

/// `admin_url` with its database replaced by `name`.
pub fn database_url(admin_url: &str, name: &str) -> String {
    let mut url = url::Url::parse(admin_url).expect("VMARKET_TEST_DATABASE_URL is a URL");
    url.set_path(&format!("/{name}"));
    url.to_string()
}

/// The copies are independent: on SQLite and, with `VMARKET_TEST_DATABASE_URL`, on PostgreSQL.
mod tests {
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};
    use vmarket::db::entities::{event_phase, user};

    use super::super::{TestApp, default_now};
    use super::*;

    async fn leaked(app: &TestApp) -> u64 {
        user::Entity::find().filter(user::Column::NameEn.eq("leaked")).count(&app.db).await.unwrap()
    }

    /// A write to one test's database — rows and schema — reaches neither another test's
    /// database made from the same template at the same time, nor one made after it.
    #[rocket::async_test]
    async fn a_write_to_one_copy_reaches_no_other() {
        let (a, b) = (TestApp::new().await, TestApp::new().await);
        assert_ne!(a.config.database_url, b.config.database_url, "each test has a database of its own");
        let users = user::Entity::find().count(&a.db).await.unwrap();
        assert!(users > 0, "the demo users are there");
        a.db.execute_unprepared("UPDATE users SET name_en = 'leaked'").await.unwrap();
        a.db.execute_unprepared("CREATE TABLE leak_check (id INTEGER PRIMARY KEY)").await.unwrap();
        a.db.execute_unprepared("INSERT INTO leak_check (id) VALUES (1)").await.unwrap();
        assert_eq!(leaked(&a).await, users);
        let c = TestApp::new().await;
        for other in [&b, &c] {
            assert_eq!(leaked(other).await, 0, "another copy kept the demo names");
            assert_eq!(user::Entity::find().count(&other.db).await.unwrap(), users);
            let table = other.db.execute_unprepared("SELECT id FROM leak_check").await;
            assert!(table.is_err(), "another copy has no table the first one created");
        }
    }

    /// The empty template is migrated and holds nothing; the demo template is keyed by the
    /// seeding instant (the seed places some phases relative to it), not shared across instants.
    #[rocket::async_test]
    async fn templates_are_keyed_by_contents_and_seeding_instant() {
        let empty = TestApp::builder().empty().build().await;
        assert_eq!(user::Entity::find().count(&empty.db).await.unwrap(), 0);
        assert_eq!(empty.get("/api/v1/events").await.status().code, 200, "the empty database is migrated");

        async fn phases(app: &TestApp) -> Vec<chrono::DateTime<chrono::Utc>> {
            let all = event_phase::Entity::find().order_by_asc(event_phase::Column::Id).all(&app.db).await.unwrap();
            all.into_iter().map(|p| p.phase_timestamp).collect()
        }
        let later = default_now() + chrono::Duration::days(10);
        let at_default = phases(&TestApp::new().await).await;
        let at_later = phases(&TestApp::builder().at(later).build().await).await;
        assert_eq!(at_default.len(), at_later.len());
        let moved = at_default.iter().zip(&at_later).filter(|(a, b)| a != b).count();
        assert!(moved > 0, "phases placed from the seeding instant moved with it");
        assert!(moved < at_default.len(), "fixed phases stayed");
        assert_eq!(phases(&TestApp::new().await).await, at_default, "the same instant gives the same data");
    }
}
