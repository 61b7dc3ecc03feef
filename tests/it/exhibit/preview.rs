//! The exhibitor page before it opens (issue 28 item 3) and what the dashboard shows of the work
//! after the win (item 7): `GET /api/v1/user/{event}/exhibitors/preview` and
//! `/mypage/entry_history/{permalink}/preview/{slot_id}` show the circle's members what visitors
//! will see — name, world, the booth staff placed, the items — before `event_open`, and nobody
//! else; the public page shows the same placement once the event opens; the mypage dashboard
//! names each slot's next deadline.

use chrono::Duration;
use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::phase::PhaseType;
use vmarket::model::user::Role;

use super::slots::{areas, drawn};
use crate::admin::call;
use crate::support::TestApp;
use crate::support::html::Doc;

const PREVIEW: &str = "/api/v1/user/2031Prev/exhibitors/preview";

fn previews(body: &Value) -> Vec<Value> {
    body["previews"].as_array().cloned().unwrap_or_default()
}

#[rocket::async_test]
async fn the_circle_previews_its_exhibitor_page_and_visitors_see_it_when_the_event_opens() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.user("prev_owner").await;
    let member = app.user("prev_member").await;
    let stranger = app.user("prev_stranger").await;
    let admin = app.as_staff(Role::Admin).await;
    let (ev, circles) = drawn(&app, &[&owner], "2031Prev", 2).await;
    app.join(&owner, circles[0] as i64, &member).await;

    // Before any item or placement: the page as it will look, made from the circle and its world.
    let (status, body) = owner.get_json(PREVIEW).await;
    assert_eq!(status, 200, "{body}");
    let shown = previews(&body);
    assert_eq!(shown.len(), 1, "{body}");
    let slot = shown[0]["slot_id"].as_i64().unwrap();
    assert_eq!(shown[0]["is_public"], false);
    assert_eq!(shown[0]["exhibitor"]["name_ja"], "2031Prev 工房0");
    assert_eq!(shown[0]["exhibitor"]["catalog_items"], json!([]));
    assert_eq!(shown[0]["exhibitor"]["slots"], json!([]), "no booth yet");
    let opens = ev.at(PhaseType::EventOpen);
    let public_from = chrono::DateTime::parse_from_rfc3339(shown[0]["public_from"].as_str().unwrap()).unwrap();
    assert_eq!(public_from, opens);

    // Who may look: the circle's owner and members; strangers find nothing; signed out: 401.
    assert_eq!(member.get_json(PREVIEW).await.0, 200);
    assert_eq!(stranger.get_json(PREVIEW).await.0, 404);
    assert_eq!(app.get_json(PREVIEW).await.0, 401);
    assert_eq!(owner.get_json(&format!("{PREVIEW}?slot_id={}", slot + 1000)).await.0, 404, "not one of theirs");
    let (status, body) = owner.get_json(&format!("{PREVIEW}?slot_id=abc")).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("slot_id")), "{body}");
    let (status, body) = owner.get_json(&format!("{PREVIEW}?slot_id={slot}")).await;
    assert_eq!((status, previews(&body).len()), (200, 1), "{body}");

    // Staff place the booth and the owner lists an item: both show in the preview.
    let world = shown[0]["exhibitor"]["world"]["id"].as_i64().unwrap();
    let (area, _) = areas(&app, &admin, world).await;
    let placed = call(
        &app,
        &admin,
        Method::Put,
        &format!("/admin/api/event_slots/{slot}"),
        Some(&json!({"world_area_id": area, "number": 12})),
    )
    .await;
    assert_eq!(placed.status, 200, "{:?}", placed.body);
    let category =
        app.get_json("/api/v1/catalog_item_groups").await.1[0]["categories"][0]["id"].as_i64().unwrap().to_string();
    let fields = [("name_ja", "星の髪飾り"), ("category_id", category.as_str())];
    let (status, item) =
        owner.multipart(Method::Post, "/api/v1/user/2031Prev/event_catalog_items", &fields, None).await;
    assert_eq!(status, 201, "{item}");
    let (_, body) = owner.get_json(PREVIEW).await;
    let exhibitor = &previews(&body)[0]["exhibitor"];
    assert_eq!(exhibitor["slots"][0]["number"], 12, "{exhibitor}");
    assert_eq!(exhibitor["slots"][0]["world_area"]["name"], "A");
    assert_eq!(exhibitor["catalog_items"][0]["name_ja"], "星の髪飾り");
    let exhibitor_id = exhibitor["id"].as_i64().unwrap();
    assert!(exhibitor_id > 0, "placing the slot made its exhibitor row");

    // The preview page: the public page's content, with a banner naming the opening.
    let page = format!("/mypage/entry_history/2031Prev/preview/{slot}");
    let (status, html) = owner.page(&page).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=preview-banner]"), 1);
    assert!(
        doc.text("[data-testid=preview-banner]").contains(&vmarket::i18n::tera::format_jst(opens, true)),
        "{}",
        doc.text("[data-testid=preview-banner]")
    );
    assert_eq!(doc.texts("h1"), ["2031Prev 工房0"]);
    assert!(doc.text("[data-testid=placement]").contains("A"), "{}", doc.text("[data-testid=placement]"));
    assert!(html.contains("星の髪飾り"));
    assert_eq!(member.page(&page).await.0, 200);
    assert_eq!(stranger.page(&page).await.0, 404);
    assert_eq!(owner.page(&format!("/mypage/entry_history/2031Prev/preview/{}", slot + 1000)).await.0, 404);
    let hub = Doc::parse(&owner.page("/mypage/entry_history/2031Prev/hub").await.1);
    assert_eq!(hub.count(&format!("a[href=\"{page}\"]")), 1, "the hub links the preview");

    // Visitors: nothing before the event opens; then the same booth and item.
    let public = format!("/2031Prev/exhibitor/{exhibitor_id}");
    assert_eq!(app.get(&public).await.status().code, 404);
    app.clock.set(opens + Duration::minutes(1));
    owner.renew().await;
    let response = app.get(&public).await;
    assert_eq!(response.status().code, 200);
    let html = response.into_string().await.unwrap();
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=placement]").contains("A"), "{}", doc.text("[data-testid=placement]"));
    assert!(html.contains("星の髪飾り"));
    let (_, body) = owner.get_json(PREVIEW).await;
    assert_eq!(previews(&body)[0]["is_public"], true);
    let doc = Doc::parse(&owner.page(&page).await.1);
    assert_eq!(doc.count("[data-testid=preview-public]"), 1, "the preview leads to the public page");
}

#[rocket::async_test]
async fn the_dashboard_names_each_slots_next_deadline() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.user("due_owner").await;
    let bystander = app.user("due_bystander").await;
    let (ev, _) = drawn(&app, &[&owner], "2031Due", 2).await;

    // Before the catalogue closes (this event closes it at event_open): list items by then.
    let (status, html) = owner.page("/mypage").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=exhibit-due]"), 1);
    let next = doc.text("[data-testid=exhibit-next]");
    assert!(next.contains("カタログアイテムの登録"), "{next}");
    assert!(next.contains(&vmarket::i18n::tera::format_jst(ev.at(PhaseType::EventOpen), true)), "{next}");
    assert_eq!(doc.count("a[href=\"/mypage/entry_history/2031Due/hub\"]"), 1);
    let doc = Doc::parse(&owner.page("/en/mypage").await.1);
    assert!(doc.text("[data-testid=exhibit-next]").contains("catalogue"), "{}", doc.text("[data-testid=exhibit-next]"));

    // In the submission window the booth is due first.
    app.clock.set(ev.at(PhaseType::SubmissionStart) + Duration::hours(1));
    owner.renew().await;
    let doc = Doc::parse(&owner.page("/mypage").await.1);
    let next = doc.text("[data-testid=exhibit-next]");
    assert!(next.contains("ブースの入稿"), "{next}");
    assert!(next.contains(&vmarket::i18n::tera::format_jst(ev.at(PhaseType::SubmissionEnd), true)), "{next}");

    // Once the event has closed the slot leaves the dashboard; others never had it.
    app.clock.set(ev.at(PhaseType::EventClose) + Duration::hours(1));
    owner.renew().await;
    assert_eq!(Doc::parse(&owner.page("/mypage").await.1).count("[data-testid=dashboard-exhibits]"), 0);
    assert_eq!(Doc::parse(&bystander.page("/mypage").await.1).count("[data-testid=dashboard-exhibits]"), 0);
}
