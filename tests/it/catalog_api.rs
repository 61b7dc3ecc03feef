//! Catalogue API: shapes (snapshots), keyword search in Japanese and English, filters,
//! pagination edges, parameter errors and the event-open gate.

use serde_json::Value;

use crate::support::{TestApp, at};

fn names(body: &Value) -> Vec<String> {
    body["data"].as_array().expect("data").iter().map(|d| d["name"].as_str().unwrap_or_default().to_string()).collect()
}

/// `keyword` percent-encoded for a query string.
fn q(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[rocket::async_test]
async fn shapes_of_the_catalogue_calls() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/2025Summer/exhibitors?limit=2&lang=en").await;
    assert_eq!(status, 200);
    insta::assert_json_snapshot!("catalog_exhibitors_2025summer_limit2_en", body);
    let id = body["data"][0]["id"].as_i64().unwrap();
    let (status, detail) = app.get_json(&format!("/api/v1/2025Summer/exhibitors/{id}")).await;
    assert_eq!(status, 200);
    insta::assert_json_snapshot!("catalog_exhibitor_detail_ja", detail);
    let (_, items) = app.get_json("/api/v1/2025Summer/catalog_items?limit=2&lang=en").await;
    insta::assert_json_snapshot!("catalog_items_2025summer_limit2_en", items);
    let (_, companies) = app.get_json("/api/v1/2025Summer/companies?limit=1&lang=en").await;
    insta::assert_json_snapshot!("catalog_companies_2025summer_limit1_en", companies);
    let (_, groups) = app.get_json("/api/v1/catalog_item_groups?lang=en").await;
    insta::assert_json_snapshot!("catalog_item_groups_en", groups);
    let (_, groups) = app.get_json("/api/v1/company_catalog_item_groups").await;
    assert_eq!(groups[0]["group_type"], "company");
    assert_eq!(groups[0]["categories"].as_array().unwrap().len(), 4);
    let (_, company_items) = app.get_json("/api/v1/2025Summer/company_items?limit=100").await;
    assert_eq!(company_items["pagination"]["count"], 12);
    assert!(company_items["data"].as_array().unwrap().iter().all(|i| i["company_id"].is_number()));
    let (status, info) = app.get_json("/api/v1/2025Summer/worlds/10001/catalog_info?lang=en").await;
    assert_eq!(status, 200);
    assert_eq!(info["world"]["name"], "Morning Market on the Floating Pier");
    assert_eq!(info["exhibitor_count"], info["exhibitors"].as_array().unwrap().len());
    assert!(info["exhibitor_item_count"].as_u64().unwrap() >= info["exhibitor_count"].as_u64().unwrap() * 3);
    let (_, info) = app.get_json("/api/v1/2025Summer/worlds/10011/catalog_info?lang=en").await;
    assert_eq!(info["companies"][0]["name"], "Hoshimigaoka Railway");
    assert_eq!(info["company_item_count"], 4);
}

#[rocket::async_test]
async fn japanese_partial_words_find_items() {
    let app = TestApp::new().await;
    // Two characters: below the trigram size, answered by the LIKE fallback.
    let (_, short) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=100&keyword={}", q("猫耳"))).await;
    let found = names(&short);
    assert!(found.iter().any(|n| n == "猫耳カチューシャ"), "{found:?}");
    assert!(found.iter().all(|n| n.contains("猫耳")), "{found:?}");
    // Three characters: the trigram index; the same items.
    let (_, long) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=100&keyword={}", q("猫耳カ"))).await;
    assert_eq!(names(&long), found);
    // One character.
    let (_, one) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=100&keyword={}", q("猫"))).await;
    assert!(one["pagination"]["count"].as_u64().unwrap() >= found.len() as u64);
    // Two words, both required (ideographic space).
    let (_, both) =
        app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=100&keyword={}", q("浴衣\u{3000}セット"))).await;
    assert!(names(&both).iter().all(|n| n.contains("浴衣") && n.contains("セット")), "{both}");
    // Descriptions count too.
    let (_, desc) = app.get_json("/api/v1/2025Summer/catalog_items?limit=100&keyword=lilToon").await;
    assert!(desc["pagination"]["count"].as_u64().unwrap() > 0);
    assert!(desc["data"].as_array().unwrap().iter().all(|i| i["description_ja"].as_str().unwrap().contains("lilToon")));
}

#[rocket::async_test]
async fn english_search_is_partial_and_case_insensitive() {
    let app = TestApp::new().await;
    let (_, lower) = app.get_json("/api/v1/2025Summer/catalog_items?limit=100&lang=en&keyword=headband").await;
    assert!(names(&lower).iter().any(|n| n == "Cat-Ear Headband"), "{lower}");
    let (_, upper) = app.get_json("/api/v1/2025Summer/catalog_items?limit=100&lang=en&keyword=HEADBAND").await;
    assert_eq!(names(&upper), names(&lower));
    // Name matches come before description-only matches.
    let (_, quest) = app.get_json("/api/v1/2025Summer/catalog_items?limit=100&lang=en&keyword=quest").await;
    let data = quest["data"].as_array().unwrap();
    let first_desc_only = data.iter().position(|i| !i["name_en"].as_str().unwrap().to_lowercase().contains("quest"));
    if let Some(k) = first_desc_only {
        assert!(data[k..].iter().all(|i| !i["name_en"].as_str().unwrap().to_lowercase().contains("quest")));
    }
    // Wildcards are literal.
    let (_, percent) = app.get_json("/api/v1/2025Summer/catalog_items?keyword=%25%25%25").await;
    assert_eq!(percent["pagination"]["count"], 0);
    // Circles by their name, companies by theirs or their items'.
    let (_, circles) = app.get_json(&format!("/api/v1/2025Summer/exhibitors?limit=100&keyword={}", q("星屑"))).await;
    assert!(circles["pagination"]["count"].as_u64().unwrap() > 0);
    assert!(names(&circles).iter().all(|n| n.contains("星屑")), "{circles}");
    let (_, companies) = app.get_json(&format!("/api/v1/2025Summer/companies?keyword={}", q("サイダー"))).await;
    assert_eq!(names(&companies), ["水無月飲料"]);
}

#[rocket::async_test]
async fn filters_combine() {
    let app = TestApp::new().await;
    let path = "/api/v1/2025Summer/catalog_items?limit=100&category_id=3&is_distributable=false&world_id=10001";
    let (_, body) = app.get_json(path).await;
    let data = body["data"].as_array().unwrap();
    assert!(!data.is_empty());
    let (_, world) = app.get_json("/api/v1/2025Summer/exhibitors?limit=100&world_id=10001").await;
    let in_world: Vec<_> = world["data"].as_array().unwrap().iter().map(|e| e["id"].clone()).collect();
    for item in data {
        assert_eq!(item["category"]["id"], 3);
        assert_eq!(item["is_distributable"], false);
        assert!(in_world.contains(&item["exhibitor_id"]), "{item}");
    }
    assert!(body["pagination"]["count"].as_u64() < body["pagination"]["all"].as_u64());
    // Exhibitors: kind and category.
    let (_, cross) = app.get_json("/api/v1/2025Summer/exhibitors?limit=100&kind=cross&category_id=1").await;
    let cross = cross["data"].as_array().unwrap();
    assert!(!cross.is_empty());
    assert!(cross.iter().all(|e| e["kind"] == "cross" && e["world"]["concept_id"] == 102));
    let (_, none) = app.get_json("/api/v1/2025Summer/exhibitors?kind=company").await;
    assert_eq!(none["pagination"]["count"], 0);
}

#[rocket::async_test]
async fn pagination_edges() {
    let app = TestApp::new().await;
    let (_, all) = app.get_json("/api/v1/2025Summer/catalog_items?limit=100").await;
    let count = all["pagination"]["count"].as_u64().unwrap();
    let last = count.div_ceil(7);
    let (_, last_page) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=7&page={last}")).await;
    let expected_in = count - (last - 1) * 7;
    assert_eq!(last_page["data"].as_array().unwrap().len() as u64, expected_in);
    assert_eq!(last_page["pagination"]["next"], Value::Null);
    assert_eq!(last_page["pagination"]["to"], count);
    let (status, beyond) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=7&page={}", last + 5)).await;
    assert_eq!(status, 200);
    assert_eq!(beyond["data"], serde_json::json!([]));
    assert_eq!((beyond["pagination"]["from"].clone(), beyond["pagination"]["prev"].clone()), (0.into(), last.into()));
    // Pages do not overlap and cover everything.
    let mut seen = std::collections::HashSet::new();
    for page in 1..=count.div_ceil(100) {
        let (_, body) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?limit=100&page={page}")).await;
        for item in body["data"].as_array().unwrap() {
            assert!(seen.insert(item["id"].as_i64().unwrap()), "item on two pages");
        }
    }
    assert_eq!(seen.len() as u64, count);
    for bad in ["limit=0", "limit=101", "page=0", "page=x", "world_id=-1", "category_id=abc", "is_distributable=maybe"]
    {
        let (status, body) = app.get_json(&format!("/api/v1/2025Summer/catalog_items?{bad}")).await;
        assert_eq!(status, 422, "{bad}");
        assert_eq!(body["code"], "validation_failed");
    }
    let (status, body) = app.get_json("/api/v1/2025Summer/exhibitors?kind=robot&lang=en").await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["attribute"], "kind");
    let (status, body) = app.get_json("/api/v1/NoSuchEvent/catalog_items").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));
}

#[rocket::async_test]
async fn the_catalogue_unlocks_when_the_event_opens() {
    let app = TestApp::new().await;
    // 2026Winter before its event-open phase: empty lists, no details, no world catalogue.
    let (_, body) = app.get_json("/api/v1/2026Winter/exhibitors").await;
    assert_eq!((body["data"].as_array().unwrap().len(), body["pagination"]["all"].as_u64()), (0, Some(0)));
    let (_, body) = app.get_json("/api/v1/2026Winter/catalog_items?keyword=abc").await;
    assert_eq!(body["pagination"]["count"], 0);
    let (_, body) = app.get_json("/api/v1/2026Winter/companies").await;
    assert_eq!(body["pagination"]["count"], 0);
    let (status, _) = app.get_json("/api/v1/2026Winter/worlds/130001/catalog_info").await;
    assert_eq!(status, 404);

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let (_, body) = app.get_json("/api/v1/2026Winter/exhibitors?limit=1").await;
    assert!(body["pagination"]["all"].as_u64().unwrap() >= 40);
    let id = body["data"][0]["id"].as_i64().unwrap();
    let (status, _) = app.get_json(&format!("/api/v1/2026Winter/exhibitors/{id}")).await;
    assert_eq!(status, 200);
    let (status, _) = app.get_json("/api/v1/2026Winter/worlds/130001/catalog_info").await;
    assert_eq!(status, 200);

    // A second earlier: locked again.
    app.clock.set(at("2026-12-12T02:59:59Z"));
    let (status, body) = app.get_json(&format!("/api/v1/2026Winter/exhibitors/{id}")).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
}

#[rocket::async_test]
async fn suspended_circles_disappear() {
    let app = TestApp::new().await;
    // The seed suspends the last circle of the pool; 2025Winter places it.
    let (_, body) = app.get_json("/api/v1/2025Winter/exhibitors?limit=100").await;
    assert!(body["data"].as_array().unwrap().iter().all(|e| e["circle"]["is_suspended"] == false));
    let visible = body["pagination"]["all"].as_u64().unwrap();
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    use vmarket::db::entities::exhibitor;
    let stored = exhibitor::Entity::find().filter(exhibitor::Column::EventId.eq(11)).count(&app.db).await.unwrap();
    assert_eq!(stored, visible + 1);
}
