//! The API contract: every mounted API route is in the OpenAPI document and every documented
//! operation is mounted; the copy of the document the front end builds against
//! (`widgets/openapi.json`) is the live one; Swagger UI is served in development only.

use std::collections::BTreeSet;

use rocket::http::Status;
use serde_json::Value;
use vmarket::config::Environment;

use crate::support::TestApp;

/// Mount bases whose every route is an API operation that the document must describe.
const API_BASES: &[&str] = &["/api", "/admin/api", "/uploader", "/ingame", "/account", "/_i18n", "/builds"];

/// Routes under [`API_BASES`] that are not API operations: the built-in account service's
/// browser pages (an HTML sign-in form, its form posts, the sign-out redirect and the password
/// pages).
const NOT_API: &[&str] = &[
    "GET /account/auth/vmarket_account",
    "POST /account/auth/sign_in",
    "POST /account/auth/sign_up",
    "GET /account/auth/logout",
    "POST /account/auth/logout",
    "GET /account/auth/password/forgot",
    "POST /account/auth/password/forgot",
    "GET /account/auth/password/reset",
    "POST /account/auth/password/reset",
    "GET /account/auth/password/change",
    "POST /account/auth/password/change",
];

/// `METHOD /path` of a Rocket route in OpenAPI spelling: `<id>` → `{id}`, `<rest..>` → `{rest}`,
/// the query part dropped, no trailing slash (except for `/` itself).
fn operation(method: &str, rocket_path: &str) -> String {
    let segments: Vec<String> = rocket_path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| match s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            Some(param) => format!("{{{}}}", param.trim_end_matches("..")),
            None => s.to_string(),
        })
        .collect();
    format!("{} /{}", method.to_uppercase(), segments.join("/"))
}

fn under_api_base(path: &str) -> bool {
    API_BASES.iter().any(|base| path == *base || path.strip_prefix(base).is_some_and(|rest| rest.starts_with('/')))
}

/// The API operations the built application mounts.
fn mounted(app: &TestApp) -> BTreeSet<String> {
    app.client
        .rocket()
        .routes()
        .filter(|route| under_api_base(route.uri.path()))
        .map(|route| operation(route.method.as_str(), route.uri.path()))
        .filter(|op| !NOT_API.contains(&op.as_str()))
        .collect()
}

/// The operations an OpenAPI document describes.
fn documented(doc: &Value) -> BTreeSet<String> {
    const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    let paths = doc["paths"].as_object().expect("the document has paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            METHODS.iter().filter(|m| item.get(**m).is_some()).map(move |m| format!("{} {path}", m.to_uppercase()))
        })
        .collect()
}

fn listing(ops: &BTreeSet<&String>) -> String {
    ops.iter().map(|op| format!("\n  {op}")).collect()
}

#[test]
fn rocket_paths_are_spelled_the_openapi_way() {
    assert_eq!(operation("GET", "/api/v1/<event>/concepts/<id>"), "GET /api/v1/{event}/concepts/{id}");
    assert_eq!(operation("get", "/media/<path..>"), "GET /media/{path}");
    assert_eq!(operation("POST", "/api/v1/inquiry/"), "POST /api/v1/inquiry");
    assert!(under_api_base("/api/ogp") && under_api_base("/api") && under_api_base("/admin/api/events"));
    assert!(!under_api_base("/api-docs/openapi.json") && !under_api_base("/admin/<_path..>"));
    assert!(!under_api_base("/apiary") && !under_api_base("/<permalink>/worlds"));
}

#[rocket::async_test]
async fn every_mounted_api_route_is_documented_and_every_documented_operation_is_mounted() {
    let app = TestApp::builder().empty().build().await;
    let (status, doc) = app.get_json("/api-docs/openapi.json").await;
    assert_eq!(status, 200);
    let mounted = mounted(&app);
    let documented = documented(&doc);
    assert!(mounted.len() >= 40, "the API routes are found: {mounted:?}");

    let undocumented: BTreeSet<_> = mounted.difference(&documented).collect();
    let unmounted: BTreeSet<_> = documented.difference(&mounted).collect();
    assert!(
        undocumented.is_empty() && unmounted.is_empty(),
        "the OpenAPI document and the mounted routes differ.\n\
         Mounted but missing from the document (add the handler to its module's `Doc` paths(...) \
         next to `routes()`, or check its #[utoipa::path] path and parameter names):{}\n\
         Documented but not mounted (a stale or misspelled #[utoipa::path] path, or a handler \
         missing from `routes()`):{}",
        listing(&undocumented),
        listing(&unmounted),
    );
}

#[rocket::async_test]
async fn operation_ids_are_unique_for_generated_clients() {
    let app = TestApp::builder().empty().build().await;
    let (_, doc) = app.get_json("/api-docs/openapi.json").await;
    let mut seen = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has an operationId"));
            assert!(seen.insert(id.to_string()), "operationId {id} ({method} {path}) is used twice");
        }
    }
    assert!(seen.contains("events_list") && seen.contains("user_hub_update") && seen.contains("account_me"));
}

/// Where `a` and `b` differ (at most `limit` places), as `paths › /api/v1/events › get`.
fn differences(a: &Value, b: &Value, at: &str, out: &mut Vec<String>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let place = if at.is_empty() { key.to_string() } else { format!("{at} › {key}") };
                differences(x.get(key).unwrap_or(&Value::Null), y.get(key).unwrap_or(&Value::Null), &place, out, limit);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (x, y)) in x.iter().zip(y).enumerate() {
                differences(x, y, &format!("{at} › {i}"), out, limit);
            }
        }
        _ => out.push(if at.is_empty() { "the whole file (missing or not JSON?)".into() } else { at.to_string() }),
    }
}

#[rocket::async_test]
async fn the_front_end_builds_against_the_live_document() {
    let app = TestApp::builder().empty().build().await;
    let (_, live) = app.get_json("/api-docs/openapi.json").await;
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("widgets/openapi.json");
    let committed: Value =
        std::fs::read_to_string(&file).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or(Value::Null);
    let mut diffs = Vec::new();
    differences(&committed, &live, "", &mut diffs, 12);
    assert!(
        diffs.is_empty(),
        "widgets/openapi.json (the API document the front end's types are generated from) is not the \
         live document; regenerate it with\n\n    cargo run --bin vmarket -- openapi > widgets/openapi.json\n\n\
         (or `make openapi`) and commit it. It differs at:\n  {}",
        diffs.join("\n  ")
    );
}

#[rocket::async_test]
async fn swagger_ui_is_served_in_development() {
    let app = TestApp::builder().empty().build().await;
    let res = app.get("/api-docs").await;
    assert_eq!(res.status(), Status::MovedPermanently);
    assert_eq!(res.headers().get_one("Location"), Some("/api-docs/"));

    let res = app.get("/api-docs/").await;
    assert_eq!(res.status(), Status::Ok);
    assert_eq!(res.content_type(), Some(rocket::http::ContentType::HTML));
    let page = res.into_string().await.unwrap_or_default();
    assert!(page.contains(r#"<div id="swagger-ui">"#), "{page}");
    // Only script files, no inline script (Content-Security-Policy `script-src 'self'`).
    let scripts: Vec<&str> = page.match_indices("<script").map(|(i, _)| &page[i..]).collect();
    assert_eq!(scripts.len(), 3, "{page}");
    assert!(scripts.iter().all(|s| s.starts_with("<script src=\"./")), "{page}");
    assert!(!page.contains("<style") && !page.contains(" style="), "{page}");

    let res = app.get("/api-docs/swagger-initializer.js").await;
    assert_eq!(res.status(), Status::Ok);
    assert_eq!(res.content_type(), Some(rocket::http::ContentType::JavaScript));
    let init = res.into_string().await.unwrap_or_default();
    assert!(init.contains(r#""url": "/api-docs/openapi.json""#), "{init}");
    assert!(init.contains(r#""validatorUrl": "none""#), "{init}");
    assert!(init.contains(r#""layout": "BaseLayout""#), "no top bar with its inline-styled logo: {init}");

    for (file, kind) in [("swagger-ui-bundle.js", "javascript"), ("swagger-ui.css", "css")] {
        let res = app.get(&format!("/api-docs/{file}")).await;
        assert_eq!(res.status(), Status::Ok, "{file}");
        assert!(res.content_type().is_some_and(|t| t.sub() == kind), "{file}: {:?}", res.content_type());
        assert!(res.into_bytes().await.unwrap_or_default().len() > 10_000, "{file} is the real file");
    }
    let (status, body) = app.get_json("/api-docs/no-such-file.js").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
}

#[rocket::async_test]
async fn swagger_ui_is_not_served_in_staging_or_production() {
    for environment in [Environment::Staging, Environment::Production] {
        let app = TestApp::builder().empty().config(move |c| c.environment = environment).build().await;
        for path in ["/api-docs", "/api-docs/", "/api-docs/index.html", "/api-docs/swagger-initializer.js"] {
            let (status, body) = app.get_json(path).await;
            assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{environment:?} {path}");
        }
        let (status, doc) = app.get_json("/api-docs/openapi.json").await;
        assert_eq!(status, 200, "the document itself stays public in {environment:?}");
        assert!(doc["paths"]["/api/v1/events"]["get"].is_object());
    }
}
