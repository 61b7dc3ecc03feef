//! What a shared cache in front (Varnish, a CDN) may keep (README "Running at scale"): every
//! public GET route — the audited pages' example paths and every API list without a path
//! parameter — answers anonymously either as a shareable copy (`public` with `s-maxage`, a strong
//! `ETag`, `Vary: Accept-Encoding`, surrogate keys, never a `Set-Cookie`) or `private, no-store`;
//! the public pages and lists are shareable; nothing asked with a credential is.

use std::collections::BTreeSet;
use std::path::PathBuf;

use sea_orm::EntityTrait;
use serde_json::Value;

use std::time::{Duration, Instant};

use crate::support::TestApp;
use crate::support::actors::Via;
use crate::support::fake_remote::FakeRemote;

type Headers = Vec<(String, String)>;

fn header<'a>(headers: &'a Headers, name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

async fn anonymous(app: &TestApp, path: &str) -> (u16, Headers) {
    let res = app.get(path).await;
    let headers = res.headers().iter().map(|h| (h.name().to_string(), h.value().to_string())).collect();
    (res.status().code, headers)
}

/// The audited pages' example paths (`e2e/a11y-routes.json`, which `tests/it/a11y_routes.rs`
/// keeps complete) and every API GET route without a path parameter.
fn public_paths(app: &TestApp) -> BTreeSet<String> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("e2e/a11y-routes.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut paths: BTreeSet<String> = doc["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["paths"].as_array())
        .flatten()
        .filter_map(|p| p.as_str().map(str::to_string))
        .collect();
    for route in app.client.rocket().routes().filter(|r| r.method.as_str() == "GET") {
        let path = route.uri.path().to_string();
        if path.starts_with("/api/") && !path.contains('<') {
            paths.insert(path);
        }
    }
    paths
}

/// Paths that must be shareable: if none were, the walk below would prove nothing.
const MUST_SHARE: &[&str] = &[
    "/",
    "/en",
    "/worlds",
    "/en/worlds",
    "/world/130001",
    "/catalog",
    "/hub/2026Winter/notification",
    "/api/v1/events",
    "/api/v1/2026Summer/worlds?limit=50",
];

fn check_shareable(path: &str, headers: &Headers) {
    let control = header(headers, "Cache-Control").unwrap();
    let parts: Vec<&str> = control.split(", ").collect();
    assert_eq!(parts.first(), Some(&"public"), "{path}: {control}");
    assert!(parts.iter().any(|p| p.starts_with("s-maxage=")), "{path}: {control}");
    assert!(parts.iter().any(|p| p.starts_with("max-age=")), "{path}: {control}");
    assert!(parts.iter().any(|p| p.starts_with("stale-while-revalidate=")), "{path}: {control}");
    let etag = header(headers, "ETag").unwrap_or_else(|| panic!("{path}: a shareable answer has an ETag"));
    assert!(etag.starts_with('"'), "{path}: a strong ETag, not {etag}");
    assert_eq!(header(headers, "Vary"), Some("Accept-Encoding"), "{path}");
    assert!(header(headers, "Set-Cookie").is_none(), "{path}: a cookie would make it unshareable");
    let keys = header(headers, "xkey").unwrap_or_else(|| panic!("{path}: surrogate keys"));
    let keys: Vec<&str> = keys.split(' ').collect();
    assert!(keys.contains(&"vm"), "{path}: {keys:?}");
    assert!(keys.iter().any(|k| k.strip_prefix("dv-").is_some_and(|v| v.parse::<i64>().is_ok())), "{path}: {keys:?}");
    assert!(keys.iter().any(|k| k.starts_with("event-")), "{path}: {keys:?}");
}

#[rocket::async_test]
async fn every_public_get_route_says_what_a_shared_cache_may_keep() {
    let app = TestApp::builder().live().build().await;
    let kaede = app.with_user("kaede_cc").await.via(Via::Cookie);
    let mut paths = public_paths(&app);
    paths.extend(MUST_SHARE.iter().map(|p| p.to_string()));
    assert!(paths.len() > 60, "{paths:?}");
    let mut shared = BTreeSet::new();
    for path in &paths {
        let (status, headers) = anonymous(&app, path).await;
        assert!(status < 500, "{path}: {status}");
        let control = header(&headers, "Cache-Control").unwrap_or_else(|| panic!("{path}: no Cache-Control"));
        if control.starts_with("public") {
            assert!(matches!(status, 200 | 304), "{path}: {status} must not be shared");
            check_shareable(path, &headers);
            shared.insert(path.as_str());
        } else {
            assert!(control == "private, no-store" || control.contains("immutable"), "{path}: {control}");
            assert!(header(&headers, "xkey").is_none(), "{path}: keys only on shareable answers");
        }
        // Signed in, nothing is shareable.
        let (_, mine, _) = kaede.download(path).await;
        let control = header(&mine, "cache-control").unwrap_or_default();
        assert!(!control.starts_with("public"), "{path} signed in: {control}");
        assert!(header(&mine, "xkey").is_none(), "{path} signed in");
    }
    let missing: Vec<_> = MUST_SHARE.iter().filter(|p| !shared.contains(**p)).collect();
    assert!(missing.is_empty(), "public pages and lists not shareable: {missing:?}");
    // A bearer client of a public list: rendered for it, never shared.
    let res = app
        .client
        .get("/api/v1/events")
        .header(rocket::http::Header::new("Authorization", format!("Bearer {}", kaede.token)))
        .dispatch()
        .await;
    assert_eq!(res.headers().get_one("Cache-Control"), Some("private, no-store"));
}

#[rocket::async_test]
async fn a_shareable_answer_revalidates_with_its_etag_with_the_render_cache_off_too() {
    for cache in [true, false] {
        let app = TestApp::builder().config(move |c| c.render_cache = cache).build().await;
        let (_, headers) = anonymous(&app, "/worlds").await;
        let etag = header(&headers, "ETag").unwrap().to_string();
        let res =
            app.client.get("/worlds").header(rocket::http::Header::new("If-None-Match", etag.clone())).dispatch().await;
        assert_eq!(res.status().code, 304, "render cache {cache}");
        assert_eq!(res.headers().get_one("ETag"), Some(etag.as_str()));
        assert!(res.headers().get_one("Cache-Control").unwrap().starts_with("public"));
    }
}

#[rocket::async_test]
async fn the_data_version_key_follows_writes() {
    let app = TestApp::new().await;
    let (_, before) = anonymous(&app, "/worlds").await;
    let version =
        |h: &Headers| header(h, "xkey").unwrap().split(' ').find(|k| k.starts_with("dv-")).unwrap().to_string();
    let old = version(&before);
    sea_orm::ConnectionTrait::execute_unprepared(
        &app.db,
        "UPDATE worlds SET name_ja = name_ja || '!' WHERE id = 130001",
    )
    .await
    .unwrap();
    let (_, after) = anonymous(&app, "/worlds").await;
    assert_ne!(version(&after), old, "a write is a new version: purging the old key drops the old copies");
}

/// Waits until `cache` was asked to purge a key set containing `key` (answered as `ok` says).
async fn purged(cache: &FakeRemote, key: &str, ok: bool, since: usize) -> usize {
    let start = Instant::now();
    loop {
        let requests = cache.requests();
        if let Some(i) = requests.iter().skip(since).position(|r| {
            r.method == "PURGE"
                && r.answered_ok == ok
                && r.header("xkey-purge").is_some_and(|keys| keys.split(' ').any(|k| k == key))
        }) {
            return since + i + 1;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no purge of {key} (ok {ok}): {requests:#?}");
        rocket::tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[rocket::async_test]
async fn writes_and_time_travel_purge_the_shared_caches_and_a_cache_that_was_down_is_asked_again() {
    let cache = FakeRemote::start().await;
    let url = format!("{}/", cache.base);
    let app = TestApp::builder()
        .config(move |c| {
            c.cache_purge_urls = vec![url];
            c.data_version_poll_ms = 50;
        })
        .build()
        .await;
    let workers = app.start_workers().await;
    let seen = purged(&cache, "vm", true, 0).await;
    // A worker that starts cannot know what changed while none ran: everything goes.

    let version = vmarket::db::data_version::read(&app.db).await.unwrap();
    let write = "UPDATE worlds SET name_ja = name_ja || '!' WHERE id = 130001";
    sea_orm::ConnectionTrait::execute_unprepared(&app.db, write).await.unwrap();
    let written = Instant::now();
    let seen = purged(&cache, &format!("dv-{version}"), true, seen).await;
    assert!(written.elapsed() < Duration::from_secs(1), "purged within a second: {:?}", written.elapsed());

    // The cache is down: the write still commits, and the keys wait for it.
    cache.set_down(true);
    let version = vmarket::db::data_version::read(&app.db).await.unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(&app.db, write).await.unwrap();
    let seen = purged(&cache, &format!("dv-{version}"), false, seen).await;
    cache.set_down(false);
    let seen = purged(&cache, &format!("dv-{version}"), true, seen).await;

    // Moving the clock changes every page: everything goes.
    let staff = vmarket::db::entities::user::Entity::find().one(&app.db).await.unwrap().unwrap();
    vmarket::model::time_travel::store(&app.db, chrono::Duration::days(3), staff.id, app.clock.now()).await.unwrap();
    purged(&cache, "vm", true, seen).await;
    workers.stop().await;
}
