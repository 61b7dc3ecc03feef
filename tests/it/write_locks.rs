//! SQLite lets one connection write at a time, and a transaction that has read before its first
//! write is refused at once ("database is locked", no busy timeout) when another connection
//! writes meanwhile — a background worker, another request. Every write transaction of the
//! product therefore starts with `db::begin_write`, which takes the write lock first and waits
//! for it. Circle creation began deferred and answered 500 now and then while the workers
//! polled (CI, 2026-11-27): the test below holds the lock from another connection the way a
//! worker does.

use std::path::PathBuf;
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseBackend};
use vmarket::db::entities::circle;
use vmarket::model::circle::CircleChange;

use crate::support::TestApp;

/// A circle created while another connection holds the write lock waits for it and is made.
#[rocket::async_test]
async fn a_circle_is_created_while_another_connection_writes() {
    let app = TestApp::builder().live().build().await;
    if app.db.get_database_backend() != DatabaseBackend::Sqlite {
        return; // PostgreSQL locks rows, not the database
    }
    let owner = app.user("lock_owner").await.user;
    let other = vmarket::db::connect(&app.config.database_url).await.expect("another connection");
    for round in 0..5 {
        let holder = vmarket::db::begin_write(&other).await.expect("the other writer's lock");
        holder.execute_unprepared("UPDATE data_version SET version = version").await.expect("the other write");
        let release = rocket::tokio::spawn(async move {
            rocket::tokio::time::sleep(Duration::from_millis(200)).await;
            holder.commit().await.expect("the other writer commits");
        });
        let change = CircleChange {
            name_ja: format!("ロック{round}"),
            name_en: format!("Lock {round}"),
            description_ja: "説明".into(),
            description_en: "About".into(),
            website_link: None,
            thumbnail_key: None,
        };
        let made = circle::Model::create_owned(&app.db, &owner, change, app.clock.now()).await;
        assert!(made.is_ok(), "round {round}: {made:?}");
        release.await.unwrap();
    }
}

/// No transaction of the product starts deferred (`.begin()`): each writes, so each takes the
/// write lock first with `db::begin_write`.
#[test]
fn every_transaction_starts_with_the_write_lock() {
    let mut found = Vec::new();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    crate::support::sources::each_rust_file(&src, &mut |path, text| {
        for (n, line) in text.lines().enumerate() {
            if line.contains(".begin().await") && !line.trim_start().starts_with("//") {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    });
    assert!(found.is_empty(), "start write transactions with db::begin_write:\n{}", found.join("\n"));
}
