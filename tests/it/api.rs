//! `/api/v1` and support calls: JSON shapes (snapshots), filters, pagination, `lang`, and the
//! OpenAPI document.

use crate::support::{TestApp, at};

#[rocket::async_test]
async fn event_shape() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/events/1?lang=en").await;
    assert_eq!(status, 200);
    assert_eq!(body["name"], "Virtual Market 2025 Summer");
    insta::assert_json_snapshot!("event_1_en", body);
    let (_, body) = app.get_json("/api/v1/events/11").await;
    assert_eq!(body["permalink"], "2025Winter");
    assert_eq!(body["name"], "バーチャルマーケット2025 Winter");
}

#[rocket::async_test]
async fn events_list_is_paginated_newest_first() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/events?limit=3").await;
    let permalinks: Vec<_> = body["data"].as_array().unwrap().iter().map(|e| e["permalink"].clone()).collect();
    assert_eq!(permalinks, ["2027Summer", "2027Spring", "2026Winter"]);
    insta::assert_json_snapshot!("events_pagination_page1", body["pagination"]);
    let (_, body) = app.get_json("/api/v1/events?limit=3&page=2").await;
    assert_eq!(body["data"][0]["permalink"], "2026Summer");
    assert_eq!(body["data"][1]["permalink"], "2025Winter");
    assert_eq!(body["data"][2]["permalink"], "2025Summer");
    assert_eq!(body["pagination"]["from"], 4);
    assert_eq!(body["pagination"]["next"], serde_json::Value::Null);
}

#[rocket::async_test]
async fn active_events_are_the_ones_not_closed() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/active_events").await;
    let names: Vec<_> = body["active_events"].as_array().unwrap().iter().map(|e| e["permalink"].clone()).collect();
    assert_eq!(names, ["2026Winter", "2027Spring", "2027Summer"], "2027Spring's winners pay, 2027Summer takes entries");
    app.clock.set(at("2026-12-28T00:00:00Z"));
    let (_, body) = app.get_json("/api/v1/active_events").await;
    let names: Vec<_> = body["active_events"].as_array().unwrap().iter().map(|e| e["permalink"].clone()).collect();
    assert_eq!(names, ["2027Spring", "2027Summer"], "2026Winter closed on 12/27");
    // 2027Spring closes 90 days after the seed (2026-11-21): 2027-02-19.
    app.clock.set(at("2027-02-20T00:00:00Z"));
    let (_, body) = app.get_json("/api/v1/active_events").await;
    let names: Vec<_> = body["active_events"].as_array().unwrap().iter().map(|e| e["permalink"].clone()).collect();
    assert_eq!(names, ["2027Summer"]);
    // 2027Summer closes 130 days after the seed (2026-11-21): 2027-03-31.
    app.clock.set(at("2027-04-01T00:00:00Z"));
    let (_, body) = app.get_json("/api/v1/active_events").await;
    assert_eq!(body, serde_json::json!({"active_events": []}));
    app.clock.set(at("2025-06-01T00:00:00Z"));
    let (_, body) = app.get_json("/api/v1/active_events").await;
    assert_eq!(body["active_events"].as_array().unwrap().len(), 6);
}

#[rocket::async_test]
async fn worlds_shape_and_filters() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/2026Winter/worlds?limit=2&lang=en").await;
    assert_eq!(status, 200);
    insta::assert_json_snapshot!("worlds_2026winter_limit2_en", body);

    // Keyword, Japanese, partial, matching a name.
    let (_, body) = app.get_json("/api/v1/2026Winter/worlds?keyword=%E9%96%B2%E8%A6%A7").await;
    let names: Vec<_> =
        body["data"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, ["珊瑚の大閲覧室"]);
    // Keyword, English, any case, matching a keyword.
    let (_, body) = app.get_json("/api/v1/2026Winter/worlds?keyword=TRANQUIL&lang=en").await;
    assert!(body["data"].as_array().unwrap().iter().any(|w| w["name"] == "The Great Coral Reading Room"));
    // Wildcards are literal.
    let (_, body) = app.get_json("/api/v1/2026Winter/worlds?keyword=%25").await;
    assert_eq!(body["pagination"]["count"], 0);
    assert_eq!(body["pagination"]["all"], 16);
    // Concept and company filters.
    let (_, body) = app.get_json("/api/v1/2026Winter/worlds?concept_id=1305&is_company=true&limit=100").await;
    assert!(body["data"].as_array().unwrap().iter().all(|w| w["concept_id"] == 1305 && w["is_company"] == true));
    assert!(body["pagination"]["count"].as_u64().unwrap() >= 2);
    // Event by id works like the permalink.
    let (_, by_id) = app.get_json("/api/v1/13/worlds?limit=1").await;
    assert_eq!(by_id["data"][0]["id"], 130001);
}

#[rocket::async_test]
async fn bad_filters_get_field_errors() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/2026Winter/worlds?venue=moon&is_company=maybe&lang=en").await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "validation_failed");
    assert_eq!(body["details"][0], serde_json::json!({"attribute": "venue", "message": "Not an allowed value."}));
    let (status, body) = app.get_json("/api/v1/2026Winter/worlds?concept_id=-4").await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["attribute"], "concept_id");
    // Page numbers too large for a row offset are refused, not a server error.
    for path in ["/api/v1/events?page=9223372036854775808&lang=en", "/api/v1/ambassadors?page=1000000001&lang=en"] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(status, 422, "{path}");
        assert_eq!(
            body["details"][0],
            serde_json::json!({"attribute": "page", "message": "Must be at most 1000000000."})
        );
    }
    let (status, body) = app.get_json("/api/v1/events?page=1000000000").await;
    assert_eq!((status, body["data"].as_array().map(Vec::len)), (200, Some(0)));
}

#[rocket::async_test]
async fn concepts_shape() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/2025Summer/concepts?page=2&limit=1&lang=en").await;
    assert_eq!(body["data"][0]["id"], 102);
    assert_eq!(body["pagination"]["prev"], 1);
    assert_eq!(body["pagination"]["last"], 4);
    let (status, body) = app.get_json("/api/v1/2025Summer/concepts/101?lang=en").await;
    assert_eq!(status, 200);
    assert_eq!(body["event"]["permalink"], "2025Summer");
    assert!(!body["concept_artists"].as_array().unwrap().is_empty());
    assert!(body["concept_artists"].as_array().unwrap().iter().all(|a| a["category"] == "art_designer"));
    insta::assert_json_snapshot!("concept_101_en", body);
    // A concept of another event is not found here.
    let (status, _) = app.get_json("/api/v1/2025Summer/concepts/1301").await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn messages_are_served_with_a_day_of_cache() {
    let app = TestApp::new().await;
    for lang in ["ja", "en"] {
        let res = app.get(&format!("/_i18n/{lang}/messages.json")).await;
        assert_eq!(res.status().code, 200);
        assert_eq!(res.headers().get_one("Cache-Control"), Some("public, max-age=86400"));
        let body: serde_json::Value = serde_json::from_str(&res.into_string().await.unwrap()).unwrap();
        let expected = if lang == "ja" { "トップページへ戻る" } else { "Return to TOP" };
        assert_eq!(body["error_page"]["return_top"], expected);
    }
}

#[rocket::async_test]
async fn openapi_covers_every_operation() {
    let app = TestApp::new().await;
    let (status, doc) = app.get_json("/api-docs/openapi.json").await;
    assert_eq!(status, 200);
    let paths = doc["paths"].as_object().expect("paths");
    for path in [
        "/api/v1/events",
        "/api/v1/events/{id}",
        "/api/v1/active_events",
        "/api/v1/{event}/worlds",
        "/api/v1/{event}/concepts",
        "/api/v1/{event}/concepts/{id}",
        "/_i18n/{locale}/messages.json",
        "/builds/latest.json",
    ] {
        assert!(paths.contains_key(path), "OpenAPI documents {path}");
    }
    for schema in ["EventView", "WorldView", "ConceptView", "FullConceptView", "Pagination", "ErrorBody"] {
        assert!(doc["components"]["schemas"].get(schema).is_some(), "schema {schema}");
    }
}
