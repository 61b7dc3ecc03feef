//! The query budget: every public page and public API list runs a fixed number of SQL
//! statements, however many worlds, concepts or items it shows — no N+1 — and no more than
//! [`BUDGET`], except the routes in [`OVER`], each with its own budget and the reason.
//!
//! Counted as production runs: the render cache off (every request renders), the data version
//! polled rather than read per request, the event tree (`vmarket::model::tree`) loaded by the
//! first request of the data version (a fixed ~25 statements per version, whatever the size).

use serde_json::Value;

use crate::support::TestApp;

/// Statements one anonymous request may run.
const BUDGET: usize = 4;

/// Routes (by path prefix, the Japanese and English page alike) that need more, and why. Each
/// loads the rows of its own list and several kinds of related rows, one batched statement per
/// kind (`showing_more_rows_runs_no_more_statements` checks the lists).
const OVER: &[(&str, usize, &str)] = &[
    (
        "/2026Summer/catalog/1201",
        17,
        "a world's catalogue: its exhibitors (circles, slots, item counts), its companies (highlights, worlds, \
         links, items) and its first items, each a list of its own",
    ),
    ("/2026Summer/exhibitor/", 10, "an exhibitor with its circle, world, slots, areas, item count and items"),
    ("/2026Summer/company/", 7, "a company with highlights, worlds, links and items"),
    (
        "/2026Summer/catalog/search?viewType=circle",
        9,
        "exhibitor and company search: the rows and their counts, then circles, slots, areas and item counts",
    ),
    ("/api/v1/2026Summer/exhibitors", 8, "exhibitors: the rows and their counts, circles, slots, areas, item counts"),
    ("/api/v1/2026Summer/companies", 9, "companies: the rows and their counts, highlights, worlds, links, items"),
];

/// Routes (by path prefix) answered from the lists the event tree holds in memory
/// (`model::catalog_memory`, `model::hub_memory`): no statement at all once the version's lists
/// are loaded, keyword search included.
const FROM_MEMORY: &[&str] = &[
    "/api/v1/2026Summer/catalog_items",
    "/api/v1/2026Summer/company_items",
    "/api/v1/2026Winter/hub_notifications",
    "/2026Summer/catalog/search?keyword",
    "/hub/2026Winter/notification",
    "/hub/search",
];

/// The budget of `path` (with or without the `/en` prefix).
fn budget_of(path: &str) -> usize {
    let bare = path.strip_prefix("/en").filter(|p| p.starts_with('/')).unwrap_or(path);
    if FROM_MEMORY.iter().any(|prefix| bare.starts_with(prefix)) {
        return 0;
    }
    OVER.iter().find(|(prefix, ..)| bare.starts_with(prefix)).map_or(BUDGET, |(_, n, _)| *n)
}

/// Public pages, as a visitor opens them (the Japanese path; the English one is checked too).
const PAGES: &[&str] = &[
    "/",
    "/worlds",
    "/world/130001",
    "/2026Summer/worlds",
    "/2026Summer/world/120001",
    "/event_history",
    "/access",
    "/access/2026Winter/venues",
    "/contact",
    "/catalog",
    "/catalog/search",
    "/catalog/1301?world_id=130001",
    "/2026Summer/catalog",
    "/2026Summer/catalog/search",
    "/2026Summer/catalog/search?viewType=circle&type=exhibitor",
    "/2026Summer/catalog/search?viewType=circle&type=company&q=%E3%83%AB",
    "/2026Summer/catalog/search?keyword=%E3%83%AF&page=2",
    "/2026Summer/catalog/1201?world_id=120001",
    "/2026Summer/confirmation",
    "/2026Summer/exhibitor/120",
    "/2026Summer/company/7",
    "/hub/2026Winter/notification",
    "/hub/2026Winter/virtual_events",
    "/hub/2026Winter/official_stream",
    "/hub/2026Winter/campaign",
    "/hub/2026Winter/official_streamers",
    "/hub/2026Winter/official_ambassador",
    "/hub/search",
    "/hub/search?q=%E3%83%A9",
];

/// Public API lists.
const LISTS: &[&str] = &[
    "/api/v1/events",
    "/api/v1/active_events",
    "/api/v1/2026Winter/worlds?limit=50",
    "/api/v1/2026Summer/worlds?limit=50",
    "/api/v1/2026Summer/concepts",
    "/api/v1/2026Summer/catalog_items",
    "/api/v1/2026Summer/catalog_items?keyword=%E3%83%AF",
    "/api/v1/2026Summer/companies",
    "/api/v1/2026Summer/company_items",
    "/api/v1/2026Summer/exhibitors",
    "/api/v1/2026Winter/hub_notifications",
    "/api/v1/2026Winter/hub_notifications/top_live",
    "/api/v1/2026Winter/hub_notifications/vmarket_info",
    "/api/v1/2026Winter/streamers",
    "/api/v1/ambassadors",
    "/api/v1/hub_tags",
    "/api/v1/catalog_item_groups",
    "/api/v1/company_catalog_item_groups",
    "/api/v1/inquiry_categories",
];

/// The app as production runs it, with the render cache off (every request renders) and the data
/// version polled (not read per request).
async fn uncached() -> TestApp {
    TestApp::builder()
        .config(|c| {
            c.render_cache = false;
            c.data_version_poll_ms = 3_600_000;
        })
        .build()
        .await
}

#[rocket::async_test]
async fn public_pages_and_lists_stay_within_the_query_budget() {
    let app = uncached().await;
    let mut over = Vec::new();
    let paths = PAGES.iter().flat_map(|p| [p.to_string(), format!("/en{}", if *p == "/" { "" } else { p })]);
    for path in paths.chain(LISTS.iter().map(|p| p.to_string())) {
        app.get(&path).await; // warm: first-use caches (templates, messages) are not per-request work
        app.lists_held().await; // and the lists it started loading in the background
        app.sql.take();
        let status = app.get(&path).await.status().code;
        let statements = app.sql.take();
        assert_eq!(status, 200, "{path} answers 200");
        eprintln!("budget {:>3} {path}", statements.len());
        if statements.len() > budget_of(&path) {
            over.push(format!(
                "{path}: {} statements, budget {}\n    {}",
                statements.len(),
                budget_of(&path),
                statements.join("\n    ")
            ));
        }
    }
    assert!(over.is_empty(), "over the budget:\n{}", over.join("\n"));
}

/// Lists that take `limit`: one row or fifty, no more statements (batched loads, not one query
/// per row).
const LIMITED: &[&str] = &[
    "/api/v1/events",
    "/api/v1/2026Summer/worlds",
    "/api/v1/2026Summer/concepts",
    "/api/v1/2026Summer/catalog_items",
    "/api/v1/2026Summer/companies",
    "/api/v1/2026Summer/company_items",
    "/api/v1/2026Summer/exhibitors",
    "/api/v1/2026Winter/hub_notifications",
];

fn rows(body: &Value) -> usize {
    body["data"].as_array().or(body.as_array()).map_or(0, Vec::len)
}

#[rocket::async_test]
async fn showing_more_rows_runs_no_more_statements() {
    let app = uncached().await;
    for list in LIMITED {
        let mut counts = Vec::new();
        let mut sizes = Vec::new();
        for limit in [1, 50] {
            let path = format!("{list}?limit={limit}");
            app.get(&path).await;
            app.lists_held().await;
            app.sql.take();
            let (status, body) = app.get_json(&path).await;
            assert_eq!(status, 200, "{path}");
            counts.push(app.sql.take().len());
            sizes.push(rows(&body));
        }
        assert!(sizes[1] > sizes[0], "{list}: the demo has more than one row to show (got {sizes:?})");
        // Fewer when the longer page is the last one: its rows tell the count.
        assert!(counts[1] <= counts[0], "{list}: {counts:?} statements for 1 row vs {} rows", sizes[1]);
    }
}
