//! Keyword search at volume: bulk-inserts catalogue items, then checks that the search query
//! is answered from the trigram index (SQLite: the FTS5 table; PostgreSQL: a Bitmap Index Scan
//! on the pg_trgm GIN index) instead of a scan of every item, and prints latencies.
//!
//! The plan check runs with 20,000 items in the normal suite; `bench/catalog-search` runs the
//! ignored 100,000-item measurement and holds the timing targets. Both also measure the same
//! searches on the catalogue held in memory (load time, bytes held, latency).

use std::time::Instant;

use sea_orm::{ConnectionTrait, DatabaseBackend, QuerySelect, QueryTrait, Statement};
use vmarket::db::entities::catalog_item;
use vmarket::model::catalog::{CatalogItemView, ItemFilter, OwnerType};
use vmarket::model::pagination::PageRequest;
use vmarket::types::Lang;

use crate::support::TestApp;

/// Inserts `n` items into event 1 (2025Summer) under one exhibitor, in one statement; one in
/// 500 is a cat-ear headband, the rest furniture packs.
async fn bulk_insert(app: &TestApp, n: u32) {
    let db = &app.db;
    let backend = db.get_database_backend();
    let exhibitor: i32 = db
        .query_one_raw(Statement::from_string(backend, "SELECT MIN(id) AS id FROM exhibitors WHERE event_id = 1"))
        .await
        .unwrap()
        .unwrap()
        .try_get("", "id")
        .unwrap();
    let columns = "event_id, exhibitor_id, company_id, category_id, name_ja, name_en, description_ja, \
                   description_en, thumbnail, url, is_distributable, price, display_index";
    let values = format!(
        "SELECT 1, {exhibitor}, NULL, 1 + i % 10, \
         CASE WHEN i % 500 = 0 THEN '猫耳カチューシャ 量産型' || i ELSE 'ローポリ家具パック 第' || i || '弾' END, \
         CASE WHEN i % 500 = 0 THEN 'Cat-Ear Headband Mk ' || i ELSE 'Low-Poly Furniture Pack No. ' || i END, \
         'ワールドにそのまま置ける軽量モデルです。' || i, 'A lightweight model for your world, batch ' || i, \
         NULL, NULL, i % 4 = 0, 1000, 100000 + i"
    );
    let sql = match backend {
        DatabaseBackend::Postgres => {
            format!("INSERT INTO catalog_items ({columns}) {values} FROM generate_series(1, {n}) AS g(i)")
        }
        _ => format!(
            "WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < {n}) \
             INSERT INTO catalog_items ({columns}) {values} FROM g"
        ),
    };
    let started = Instant::now();
    db.execute_unprepared(&sql).await.expect("bulk insert");
    // PostgreSQL: flush the GIN pending list as autovacuum would after a bulk load; with a
    // long pending list the planner prices the trigram index above a sequential scan.
    let analyze = if backend == DatabaseBackend::Postgres { "VACUUM ANALYZE" } else { "ANALYZE" };
    db.execute_unprepared(analyze).await.expect("analyze");
    println!("BENCH backend={backend:?} items={n} insert_ms={}", started.elapsed().as_millis());
}

/// The query plan of the item search for `filter`, one line per plan node.
async fn plan(app: &TestApp, filter: &ItemFilter) -> Vec<String> {
    let backend = app.db.get_database_backend();
    let stmt = catalog_item::Model::filtered(backend, 1, filter).limit(20).build(backend);
    let (prefix, column) = match backend {
        DatabaseBackend::Postgres => ("EXPLAIN", "QUERY PLAN"),
        _ => ("EXPLAIN QUERY PLAN", "detail"),
    };
    let explain = Statement::from_sql_and_values(
        backend,
        format!("{prefix} {}", stmt.sql),
        stmt.values.map(|v| v.0).unwrap_or_default(),
    );
    app.db
        .query_all_raw(explain)
        .await
        .expect("explain")
        .iter()
        .map(|row| row.try_get::<String>("", column).expect("plan column"))
        .collect()
}

fn keyword(owner: OwnerType, k: &str) -> ItemFilter {
    ItemFilter { keyword: Some(k.into()), ..ItemFilter::of(owner) }
}

/// Asserts that the plan reads the trigram index and never scans the items table.
fn assert_index_used(backend: DatabaseBackend, plan: &[String]) {
    let text = plan.join("\n");
    match backend {
        DatabaseBackend::Postgres => {
            assert!(text.contains("Bitmap Index Scan on idx_catalog_items_search"), "{text}");
            assert!(!text.contains("Seq Scan on catalog_items"), "{text}");
        }
        _ => {
            assert!(text.contains("catalog_items_fts VIRTUAL TABLE INDEX"), "{text}");
            assert!(
                !plan
                    .iter()
                    .any(|l| l.trim_start_matches(|c: char| !c.is_alphabetic()).starts_with("SCAN catalog_items")
                        && !l.contains("catalog_items_fts")),
                "{text}"
            );
        }
    }
}

async fn measure(app: &TestApp, n: u32) {
    measure_in_memory(app, n).await;
    let backend = app.db.get_database_backend();
    let cases = [
        ("ja_3plus", keyword(OwnerType::Exhibitor, "猫耳カチ")),
        ("en_word", keyword(OwnerType::Exhibitor, "headband")),
        ("ja_2char_fallback", keyword(OwnerType::Exhibitor, "猫耳")),
        (
            "filters",
            ItemFilter {
                category_id: Some(1),
                is_distributable: Some(true),
                ..keyword(OwnerType::Exhibitor, "headband")
            },
        ),
        ("no_keyword", ItemFilter::of(OwnerType::Exhibitor)),
    ];
    for (name, filter) in cases {
        let page = PageRequest { page: 1, limit: 20 };
        catalog_item::Model::page(&app.db, 1, &filter, page).await.expect("warm-up");
        let started = Instant::now();
        let runs = 5;
        let mut found = 0;
        for _ in 0..runs {
            found = catalog_item::Model::page(&app.db, 1, &filter, page).await.expect("search").count;
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / runs as f64;
        println!("BENCH backend={backend:?} items={n} query={name} matches={found} ms={ms:.1}");
    }
}

/// The same searches on the catalogue held in memory (`model::catalog_memory`): how long it takes
/// to load, what it holds, and each search's latency (the mean of 5 runs, in ms).
async fn measure_in_memory(app: &TestApp, n: u32) {
    let backend = app.db.get_database_backend();
    let version = vmarket::db::data_version::read(&app.db).await.unwrap();
    let tree = vmarket::model::tree::Trees::new(256).get(&app.db, version).await.unwrap();
    let started = Instant::now();
    assert!(tree.catalogue(&app.db, 1).await.unwrap().is_none(), "loaded in the background");
    tree.settled().await;
    let (catalogue, _) = tree.catalogue(&app.db, 1).await.unwrap().expect("the catalogue fits in 256 MiB");
    println!(
        "BENCH backend={backend:?} items={n} memory_load_ms={} memory_bytes={}",
        started.elapsed().as_millis(),
        catalogue.size()
    );
    let page = PageRequest { page: 1, limit: 20 };
    for (name, k) in [("ja_3plus", "猫耳カチ"), ("en_word", "headband"), ("ja_2char_fallback", "猫耳")] {
        let filter = keyword(OwnerType::Exhibitor, k);
        let started = Instant::now();
        let mut found = 0;
        for _ in 0..5 {
            found = CatalogItemView::page(&app.db, &tree, 1, &filter, page, Lang::Ja).await.unwrap().count;
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / 5.0;
        println!("BENCH backend={backend:?} items={n} memory_query={name} matches={found} ms={ms:.1}");
    }
}

#[rocket::async_test]
async fn keyword_search_uses_the_trigram_index() {
    let app = TestApp::new().await;
    let n = 20_000;
    bulk_insert(&app, n).await;
    let backend = app.db.get_database_backend();
    for k in ["猫耳カチ", "headband", "Headband Mk"] {
        assert_index_used(backend, &plan(&app, &keyword(OwnerType::Exhibitor, k)).await);
    }
    // With filters too.
    let filtered = ItemFilter {
        category_id: Some(3),
        is_distributable: Some(false),
        ..keyword(OwnerType::Exhibitor, "カチューシャ")
    };
    assert_index_used(backend, &plan(&app, &filtered).await);
    // And the search still answers correctly at volume.
    let page = PageRequest { page: 1, limit: 100 };
    let found = catalog_item::Model::page(&app.db, 1, &keyword(OwnerType::Exhibitor, "猫耳カチ"), page).await.unwrap();
    assert!(found.count >= u64::from(n / 500), "{}", found.count);
    assert!(found.items.iter().all(|i| i.name_ja.contains("猫耳カチ")));
    measure(&app, n).await;
}

#[rocket::async_test]
#[ignore = "volume measurement; run by bench/catalog-search"]
async fn keyword_search_at_100k_items() {
    let app = TestApp::new().await;
    let n = std::env::var("VMARKET_BENCH_ITEMS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    bulk_insert(&app, n).await;
    assert_index_used(app.db.get_database_backend(), &plan(&app, &keyword(OwnerType::Exhibitor, "猫耳カチ")).await);
    measure(&app, n).await;
}
