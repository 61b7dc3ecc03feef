//! The data version (DOMAIN.md "Caching public pages"): every table is either covered by the
//! version trigger or excluded with a reason, a committed write to a covered table raises the
//! version, a rolled-back one does not, and a table a later migration adds is covered by the
//! next `db::migrate` without anyone listing it.

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement, TransactionTrait};
use vmarket::db::data_version::{self, EXCLUDED};

use crate::support::TestApp;

async fn version(app: &TestApp) -> i64 {
    data_version::read(&app.db).await.expect("the version reads")
}

async fn exec(app: &TestApp, sql: &str) {
    app.db
        .execute_raw(Statement::from_string(app.db.get_database_backend(), sql))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

#[rocket::async_test]
async fn every_table_is_covered_or_excluded_with_a_reason() {
    let app = TestApp::new().await;
    let (tables, virtual_tables) = data_version::tables(&app.db).await.unwrap();
    let covered = data_version::covered(&app.db).await.unwrap();
    let mut neither = Vec::new();
    for table in &tables {
        let excluded = data_version::exclusion(table, &virtual_tables);
        match (covered.contains(table), &excluded) {
            (true, Some(why)) => panic!("{table} is covered although excluded ({why})"),
            (false, None) => neither.push(table.clone()),
            (_, Some(why)) => assert!(why.len() > 10, "{table}: the reason says why"),
            (true, None) => {}
        }
    }
    assert!(neither.is_empty(), "tables neither covered nor excluded with a reason: {neither:?}");
    for (name, why) in EXCLUDED {
        assert!(!why.trim().is_empty(), "{name} has a reason");
        let elsewhere = ["Jobs", "Workers", "_sqlx_migrations"].contains(name)
            && app.db.get_database_backend() == DatabaseBackend::Postgres;
        assert!(tables.iter().any(|t| t == name) || elsewhere, "{name} is excluded but no such table exists");
    }
    for public in
        ["events", "event_phases", "worlds", "concepts", "catalog_items", "hub_notifications", "circles", "users"]
    {
        assert!(covered.iter().any(|t| t == public), "{public} raises the version");
    }
}

#[rocket::async_test]
async fn a_committed_write_to_any_covered_table_raises_the_version() {
    let app = TestApp::new().await;
    let backend = app.db.get_database_backend();
    let row = match backend {
        DatabaseBackend::Postgres => "ctid = (SELECT MIN(ctid) FROM",
        _ => "rowid = (SELECT MIN(rowid) FROM",
    };
    let mut written = 0;
    for table in data_version::covered(&app.db).await.unwrap() {
        let sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM \"{table}\"");
        let count: i64 = app
            .db
            .query_one_raw(Statement::from_string(backend, sql))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap();
        if count == 0 {
            continue;
        }
        // An update that changes nothing is still a write.
        let first_column: String = app
            .db
            .query_one_raw(Statement::from_string(
                backend,
                match backend {
                    DatabaseBackend::Postgres => format!(
                        "SELECT CAST(column_name AS TEXT) FROM information_schema.columns WHERE table_schema = current_schema() \
                         AND table_name = '{table}' ORDER BY ordinal_position LIMIT 1"
                    ),
                    _ => format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid LIMIT 1"),
                },
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap();
        let before = version(&app).await;
        exec(&app, &format!("UPDATE \"{table}\" SET \"{first_column}\" = \"{first_column}\" WHERE {row} \"{table}\")"))
            .await;
        assert!(version(&app).await > before, "a write to {table} raised the version");
        written += 1;
    }
    assert!(written >= 20, "the demo has rows in most covered tables ({written} written)");

    // Rolled back: no change. Committed, on PostgreSQL: raised once however many rows changed.
    let before = version(&app).await;
    let txn = app.db.begin().await.unwrap();
    txn.execute_unprepared("UPDATE worlds SET name_ja = name_ja").await.unwrap();
    txn.rollback().await.unwrap();
    assert_eq!(version(&app).await, before, "a rolled-back write leaves the version");
    let txn = app.db.begin().await.unwrap();
    txn.execute_unprepared("UPDATE worlds SET name_ja = name_ja").await.unwrap();
    txn.execute_unprepared("UPDATE concepts SET name_ja = name_ja").await.unwrap();
    txn.commit().await.unwrap();
    let after = version(&app).await;
    assert!(after > before);
    if backend == DatabaseBackend::Postgres {
        assert_eq!(after, before + 1, "one raise per transaction, taken at commit");
    }

    // A first sign-in's new user does not raise it (no public row names them yet); a change to a
    // user does.
    let before = version(&app).await;
    exec(
        &app,
        "INSERT INTO users (sub, vmarket_id, name_ja, name_en, icon_version, score, role, attribute, \
         min_token_generation, lang, created_at, updated_at) SELECT 'new-sub', 'new_user', name_ja, name_en, \
         icon_version, score, role, attribute, 0, lang, created_at, updated_at FROM users WHERE id = (SELECT MIN(id) FROM users)",
    )
    .await;
    assert_eq!(version(&app).await, before, "a new user alone changes no public page");
    exec(&app, "UPDATE users SET name_ja = 'あたらしい' WHERE vmarket_id = 'new_user'").await;
    assert!(version(&app).await > before, "a changed user raises it");

    // Excluded tables do not raise it.
    let before = version(&app).await;
    exec(&app, "UPDATE mails SET status = status").await;
    exec(&app, "DELETE FROM sign_in_states").await;
    assert_eq!(version(&app).await, before, "private tables leave the version");
}

#[rocket::async_test]
async fn a_table_added_later_is_covered_by_the_next_migrate() {
    let app = TestApp::builder().empty().build().await;
    exec(&app, "CREATE TABLE later_things (id INTEGER PRIMARY KEY, name TEXT)").await;
    vmarket::db::migrate(&app.db).await.expect("migrate again");
    vmarket::db::migrate(&app.db).await.expect("and again: installing is idempotent");
    assert!(data_version::covered(&app.db).await.unwrap().iter().any(|t| t == "later_things"));
    let before = version(&app).await;
    exec(&app, "INSERT INTO later_things (id, name) VALUES (1, 'x')").await;
    assert!(version(&app).await > before, "the new table raises the version");
}

/// A table excluded after its trigger was installed (a database migrated before the exclusion,
/// like `lottery_result_mails`) loses the trigger at the next migrate.
#[rocket::async_test]
async fn a_table_excluded_later_loses_its_trigger_at_the_next_migrate() {
    let app = TestApp::builder().empty().build().await;
    match app.db.get_database_backend() {
        DatabaseBackend::Postgres => {
            exec(&app, "DROP TRIGGER IF EXISTS \"lottery_result_mails_data_version\" ON \"lottery_result_mails\"")
                .await;
            exec(
                &app,
                "CREATE CONSTRAINT TRIGGER \"lottery_result_mails_data_version\" AFTER INSERT OR UPDATE OR DELETE \
                 ON \"lottery_result_mails\" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \
                 vmarket_bump_data_version()",
            )
            .await
        }
        _ => {
            for (suffix, event) in [("ai", "INSERT"), ("au", "UPDATE"), ("ad", "DELETE")] {
                exec(
                    &app,
                    &format!(
                        "CREATE TRIGGER IF NOT EXISTS \"lottery_result_mails_data_version_{suffix}\" AFTER {event} ON \
                         \"lottery_result_mails\" BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END"
                    ),
                )
                .await
            }
        }
    }
    assert!(data_version::covered(&app.db).await.unwrap().iter().any(|t| t == "lottery_result_mails"));
    vmarket::db::migrate(&app.db).await.expect("migrate again");
    assert!(!data_version::covered(&app.db).await.unwrap().iter().any(|t| t == "lottery_result_mails"));
}
