//! The catalogue in the console: `companies` (with their `company_highlights` and items),
//! `catalog_item_categories` and `catalog_items`. What staff write shows in the public API;
//! references must exist (an item has exactly one seller of its own event); nothing that others
//! still use is deleted; support staff only read.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::actors::Actor;
use crate::support::{TestApp, at};

async fn send(app: &TestApp, who: &Actor<'_>, method: Method, path: &str, body: Value) -> Answer {
    call(app, who, method, &format!("{path}?lang=en"), Some(&body)).await
}

#[rocket::async_test]
async fn a_company_with_highlights_and_items_is_written_shown_and_kept_while_used() {
    let app = TestApp::builder().live().build().await;
    app.clock.set(at("2026-12-12T03:00:00Z")); // 2026Winter is open: its catalogue is public
    let director = app.as_staff(Role::Director).await;
    let company = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/companies",
        json!({"event_id": 13, "name_ja": "ルミナ電機", "name_en": "Lumina Electric", "website_link": "https://lumina.example", "is_public": true}),
    )
    .await;
    assert_eq!(company.status, 201, "{:?}", company.body);
    let id = company.body["id"].as_i64().unwrap();
    let (_, listed) = app.get_json("/api/v1/2026Winter/companies?limit=100&lang=en").await;
    assert!(listed["data"].as_array().unwrap().iter().any(|c| c["name"] == "Lumina Electric"), "{listed}");

    let highlight = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/company_highlights",
        json!({"company_id": id, "image": "/static/demo/worlds/harbour-0.svg"}),
    )
    .await;
    assert_eq!(highlight.status, 201, "{:?}", highlight.body);
    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/company_highlights",
        json!({"company_id": id, "image": "//evil.example/x.png"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["image".to_string()]));
    assert_eq!(bad.body["details"][0]["message"], "Use a site path starting with a single / or an http or https URL.");

    let groups = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/catalog_item_categories", None, Some("[0,0]"), None),
        None,
    )
    .await;
    let group = groups.body[0]["group_id"].as_i64().unwrap();
    let category = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/catalog_item_categories",
        json!({"group_id": group, "name_ja": "照明", "name_en": "Lighting"}),
    )
    .await;
    assert_eq!(category.status, 201, "{:?}", category.body);
    let category_id = category.body["id"].as_i64().unwrap();

    let item = json!({"event_id": 13, "company_id": id, "category_id": category_id, "name_ja": "月のランプ", "name_en": "Moon lamp", "price": 500});
    let made = send(&app, &director, Method::Post, "/admin/api/catalog_items", item.clone()).await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let shown = call(&app, &director, Method::Get, &format!("/admin/api/companies/{id}"), None).await;
    assert_eq!((shown.body["highlight_count"].as_u64(), shown.body["item_count"].as_u64()), (Some(1), Some(1)));

    // One seller, of the item's event; a category that exists.
    let mut both = item.clone();
    both["exhibitor_id"] = json!(1);
    let bad = send(&app, &director, Method::Post, "/admin/api/catalog_items", both).await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["company_id".to_string()]));
    assert_eq!(bad.body["details"][0]["message"], "Choose either an exhibitor or a company, not both.");
    let mut elsewhere = item.clone();
    elsewhere["event_id"] = json!(1);
    elsewhere["category_id"] = json!(999_999);
    let bad = send(&app, &director, Method::Post, "/admin/api/catalog_items", elsewhere).await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["category_id".to_string(), "company_id".to_string()]));
    let mut priced = item.clone();
    priced["price"] = json!(-1);
    assert_eq!(send(&app, &director, Method::Post, "/admin/api/catalog_items", priced).await.attributes(), ["price"]);

    // In use: neither the company nor the category goes.
    let refused = call(&app, &director, Method::Delete, &format!("/admin/api/companies/{id}"), None).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("in_use")));
    let refused =
        call(&app, &director, Method::Delete, &format!("/admin/api/catalog_item_categories/{category_id}"), None).await;
    assert_eq!(refused.status, 409);
    let item_id = made.body["id"].as_i64().unwrap();
    let highlight_id = highlight.body["id"].as_i64().unwrap();
    assert_eq!(
        call(&app, &director, Method::Delete, &format!("/admin/api/catalog_items/{item_id}"), None).await.status,
        200
    );
    assert_eq!(
        call(&app, &director, Method::Delete, &format!("/admin/api/company_highlights/{highlight_id}"), None)
            .await
            .status,
        200
    );
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/companies/{id}"), None).await.status, 200);
    assert_eq!(
        call(&app, &director, Method::Delete, &format!("/admin/api/catalog_item_categories/{category_id}"), None)
            .await
            .status,
        200
    );

    // Support staff read the catalogue and cannot change it.
    let support = app.as_staff(Role::UcStaff).await;
    assert_eq!(call(&app, &support, Method::Get, "/admin/api/companies", None).await.status, 200);
    let refused = send(
        &app,
        &support,
        Method::Post,
        "/admin/api/companies",
        json!({"event_id": 13, "name_ja": "x", "name_en": "x"}),
    )
    .await;
    assert_eq!(refused.status, 403);
}

#[rocket::async_test]
async fn exhibitors_refer_to_their_own_event() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let worlds = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/worlds", None, Some("[0,0]"), Some(r#"{"event_id":13}"#)),
        None,
    )
    .await;
    let world = worlds.ids()[0];
    let booth = json!({"event_id": 13, "kind": "general", "world_id": world, "name_ja": "ルミナ試験ブース", "name_en": "Lumina booth"});
    let made = send(&app, &director, Method::Post, "/admin/api/exhibitors", booth.clone()).await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let id = made.body["id"].as_i64().unwrap();

    let mut elsewhere = booth.clone();
    elsewhere["event_id"] = json!(1);
    elsewhere["circle_id"] = json!(999_999);
    let bad = send(&app, &director, Method::Post, "/admin/api/exhibitors", elsewhere).await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["circle_id".to_string(), "world_id".to_string()]));
    let mut kind = booth.clone();
    kind["kind"] = json!("spaceship");
    assert_eq!(send(&app, &director, Method::Post, "/admin/api/exhibitors", kind).await.attributes(), ["kind"]);

    let renamed =
        send(&app, &director, Method::Put, &format!("/admin/api/exhibitors/{id}"), json!({"name_en": "Lumina hall"}))
            .await;
    assert_eq!((renamed.status, renamed.body["name_en"].as_str()), (200, Some("Lumina hall")));
    let found = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/exhibitors", None, None, Some(r#"{"q":"ルミナ試験"}"#)),
        None,
    )
    .await;
    assert_eq!(found.ids(), vec![id]);
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/exhibitors/{id}"), None).await.status, 200);
    let qa = app.as_staff(Role::QaTester).await;
    assert_eq!(send(&app, &qa, Method::Post, "/admin/api/exhibitors", booth).await.status, 403);
}
