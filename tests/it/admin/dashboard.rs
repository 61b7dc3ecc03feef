//! The dashboard: what needs attention — inquiries nobody has resolved, inquiries a forwarding
//! target gave up on — each card with its count, the oldest few, and a filter that lists the
//! same records.

use rocket::http::Method;
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde_json::json;
use vmarket::db::entities::inquiry;
use vmarket::model::inquiry::ForwardStatus;
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;

#[rocket::async_test]
async fn pending_and_failed_inquiries_need_attention() {
    let app = TestApp::builder().live().build().await;
    let support = app.as_staff(Role::UcStaff).await;
    let (_, empty) = support.get_json("/admin/api/dashboard?lang=en").await;
    let counts: Vec<_> = empty["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap(), c["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [("pending_inquiries", 0), ("failed_forwarding", 0)]);

    let mut ids = Vec::new();
    for who in ["first@example.com", "second@example.com", "third@example.com"] {
        let (status, _, body) = app
            .post_json(
                "/api/v1/inquiry",
                &json!({"email": who, "message": "質問です", "inquiry_category_id": 1, "agreement": true}),
            )
            .await;
        assert_eq!(status, 201);
        ids.push(body["id"].as_i64().unwrap());
    }
    let second = inquiry::Entity::find_by_id(ids[1] as i32).one(&app.db).await.unwrap().unwrap();
    let mut failed: inquiry::ActiveModel = second.into();
    failed.slack_status = Set(ForwardStatus::Failed);
    failed.last_error = Set(Some("slack: 404 no_service".into()));
    failed.update(&app.db).await.unwrap();
    let done = call(
        &app,
        &support,
        Method::Put,
        &format!("/admin/api/inquiries/{}", ids[2]),
        Some(&json!({"handling": "resolved"})),
    )
    .await;
    assert_eq!(done.status, 200);

    let (status, board) = support.get_json("/admin/api/dashboard?lang=en").await;
    assert_eq!(status, 200);
    let pending = &board["cards"][0];
    assert_eq!((pending["key"].as_str(), pending["count"].as_u64()), (Some("pending_inquiries"), Some(2)));
    assert_eq!(pending["items"][0]["title"], format!("#{} first@example.com", ids[0]));
    assert_eq!(pending["items"][0]["detail"], "Open");
    let failing = &board["cards"][1];
    assert_eq!(failing["count"], 1);
    assert_eq!(failing["items"][0]["title"], format!("#{} second@example.com (Slack)", ids[1]));
    assert_eq!(failing["items"][0]["detail"], "slack: 404 no_service");

    // Each card's filter lists the same records.
    for card in board["cards"].as_array().unwrap() {
        let path = list_path("/admin/api/inquiries", None, None, Some(&card["filter"].to_string()));
        let listed = call(&app, &support, Method::Get, &path, None).await;
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        assert_eq!(listed.body.as_array().unwrap().len() as u64, card["count"].as_u64().unwrap(), "{}", card["key"]);
    }
    assert_eq!(app.get_json("/admin/api/dashboard").await.0, 401);
}
