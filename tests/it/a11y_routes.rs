//! The accessibility audit's page list (`e2e/a11y-routes.json`, read by `e2e/a11y.test.mjs`)
//! matches the pages the built application mounts: every GET route that is not an API
//! operation, a file or a support endpoint is audited or skipped with a reason, and nothing
//! listed is stale. A new page fails this test until it is listed, so it is audited by default.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::support::TestApp;

/// Mounted prefixes that serve JSON, files or media rather than pages of the site (`/api-docs`:
/// the OpenAPI document and Swagger UI, a third-party tool served in development only;
/// `/uploader`: the asset uploader's API and its downloads; `/ingame`: the in-game API).
const NOT_PAGES: &[&str] = &[
    "/api",
    "/api-docs",
    "/_i18n",
    "/builds",
    "/admin/api",
    "/media",
    "/static",
    "/uploader",
    "/ingame",
    "/account/vso",
    "/account/auth/discovery",
];

fn under(path: &str, base: &str) -> bool {
    path == base || path.strip_prefix(base).is_some_and(|rest| rest.starts_with('/'))
}

/// `/catalog/search?<q..>` → `/catalog/search`; no trailing slash except for `/` itself.
fn page_route(path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() { "/".into() } else { trimmed.into() }
}

/// The GET page routes the built application mounts.
fn mounted(app: &TestApp) -> BTreeSet<String> {
    app.client
        .rocket()
        .routes()
        .filter(|route| route.method.as_str() == "GET")
        .map(|route| page_route(route.uri.path()))
        .filter(|path| !NOT_PAGES.iter().any(|base| under(path, base)))
        .collect()
}

fn listed() -> (BTreeSet<String>, BTreeSet<String>) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("e2e/a11y-routes.json");
    let text = std::fs::read_to_string(&file).expect("e2e/a11y-routes.json exists");
    let doc: Value = serde_json::from_str(&text).expect("e2e/a11y-routes.json is JSON");
    let pages: BTreeSet<String> = doc["pages"]
        .as_array()
        .expect("pages is a list")
        .iter()
        .map(|page| {
            let route = page["route"].as_str().expect("every page has a route").to_string();
            let examples = ["paths", "follow", "setup"].iter().filter(|k| page.get(**k).is_some()).count();
            assert_eq!(examples, 1, "{route}: give exactly one of paths, follow or setup");
            if let Some(paths) = page["paths"].as_array() {
                assert!(!paths.is_empty(), "{route}: at least one example path");
            }
            if page.get("exclude").is_some() {
                let why = page["why"].as_str().unwrap_or_default();
                assert!(!why.trim().is_empty(), "{route}: say `why` parts of it are left out of the audit");
            }
            route
        })
        .collect();
    let skipped: BTreeSet<String> =
        doc["skip"].as_object().expect("skip is an object of route → reason").keys().cloned().collect();
    (pages, skipped)
}

#[test]
fn page_routes_are_spelled_without_query_or_trailing_slash() {
    assert_eq!(page_route("/catalog/search?<q..>"), "/catalog/search");
    assert_eq!(page_route("/api-docs/"), "/api-docs");
    assert_eq!(page_route("/"), "/");
    assert!(under("/admin/api/session", "/admin/api") && !under("/admin", "/admin/api"));
    assert!(!under("/apiary", "/api") && under("/api", "/api"));
}

#[rocket::async_test]
async fn every_mounted_page_is_audited_or_skipped_with_a_reason() {
    let app = TestApp::builder().empty().build().await;
    let mounted = mounted(&app);
    assert!(mounted.contains("/") && mounted.contains("/mypage") && mounted.contains("/admin"), "{mounted:?}");
    let (pages, skipped) = listed();
    let overlap: Vec<_> = pages.intersection(&skipped).collect();
    assert!(overlap.is_empty(), "listed both as audited and skipped: {overlap:?}");
    let listed: BTreeSet<String> = pages.union(&skipped).cloned().collect();
    let missing: Vec<_> = mounted.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&mounted).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "e2e/a11y-routes.json and the mounted pages differ.\n\
         Mounted but not listed (add an entry with a demo-data example to `pages`, or a reason to \
         `skip`): {missing:#?}\nListed but not mounted (remove or rename): {stale:#?}",
    );
}
