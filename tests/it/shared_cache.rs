//! What a shared cache in front (Varnish, a CDN) may keep (README "Running at scale"): every
//! public GET route — the audited pages' example paths and every API list without a path
//! parameter — answers anonymously either as a shareable copy (`public` with `s-maxage`, a strong
//! `ETag`, `Vary: Accept-Encoding`, surrogate keys, never a `Set-Cookie`) or `private, no-store`;
//! the public pages and lists are shareable; nothing asked with a credential is.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::support::TestApp;
use crate::support::actors::Via;

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
