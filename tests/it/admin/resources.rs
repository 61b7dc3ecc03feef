//! Each console resource does what staff rely on: what they write shows on the public site (or
//! changes its behaviour), references are checked, deletions never take other records along,
//! and moderation works as bulk changes of one field.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

async fn setup() -> TestApp {
    TestApp::builder().live().build().await
}

async fn post(app: &TestApp, who: &Actor<'_>, resource: &str, body: Value) -> Answer {
    call(app, who, Method::Post, &format!("/admin/api/{resource}?lang=en"), Some(&body)).await
}

async fn put(app: &TestApp, who: &Actor<'_>, resource: &str, id: i64, body: Value) -> Answer {
    call(app, who, Method::Put, &format!("/admin/api/{resource}/{id}?lang=en"), Some(&body)).await
}

async fn delete(app: &TestApp, who: &Actor<'_>, resource: &str, id: i64) -> Answer {
    call(app, who, Method::Delete, &format!("/admin/api/{resource}/{id}"), None).await
}

#[rocket::async_test]
async fn a_concept_and_its_world_appear_on_the_public_site() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let concept = post(
        &app,
        &director,
        "concepts",
        json!({"event_id": 13, "name_ja": "氷の回廊", "name_en": "Ice Corridor", "platform": "pc", "venue": "vrc", "kind": "general", "display_order": 99}),
    )
    .await;
    assert_eq!(concept.status, 201, "{:?}", concept.body);
    let concept_id = concept.body["id"].as_i64().unwrap();
    let world = post(
        &app,
        &director,
        "worlds",
        json!({"concept_id": concept_id, "name_ja": "氷柱の間", "name_en": "Hall of Icicles", "exhibition_platform": "cross_platform", "venue": "vrc", "launch_link": "https://vrchat.com/home/launch?worldId=wrld_x"}),
    )
    .await;
    assert_eq!(world.status, 201, "{:?}", world.body);
    assert_eq!(world.body["event_id"], 13, "the world's event is its concept's");
    let world_id = world.body["id"].as_i64().unwrap();

    let (_, concepts) = app.get_json("/api/v1/2026Winter/concepts?limit=50&lang=en").await;
    assert!(concepts["data"].as_array().unwrap().iter().any(|c| c["name"] == "Ice Corridor"));
    let (status, html) = app.page(&format!("/en/2026Winter/world/{world_id}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("Hall of Icicles"));
    let listed = call(&app, &director, Method::Get, &format!("/admin/api/concepts/{concept_id}"), None).await;
    assert_eq!(listed.body["world_count"], 1);

    // Deleting the concept would take its world along: refused until the world is gone.
    let refused = delete(&app, &director, "concepts", concept_id).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("in_use")));
    assert_eq!(delete(&app, &director, "worlds", world_id).await.status, 200);
    assert_eq!(delete(&app, &director, "concepts", concept_id).await.status, 200);

    let bad = post(&app, &director, "worlds", json!({"concept_id": 999999, "name_ja": "x", "name_en": "x", "exhibition_platform": "pc", "venue": "vrc", "launch_link": "ftp://x"})).await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["launch_link".to_string()]));
    let bad = post(
        &app,
        &director,
        "worlds",
        json!({"concept_id": 999999, "name_ja": "x", "name_en": "x", "exhibition_platform": "pc", "venue": "vrc"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["concept_id".to_string()]));
    assert_eq!(bad.body["details"][0]["message"], "Choose one that exists.");
}

#[rocket::async_test]
async fn support_reads_inquiries_and_marks_them_handled() {
    let app = setup().await;
    let support = app.as_staff(Role::UcStaff).await;
    let (status, _, sent) = app
        .post_json("/api/v1/inquiry", &json!({"email": "fan@example.com", "message": "入場方法を教えてください", "inquiry_category_id": 1, "agreement": true}))
        .await;
    assert_eq!(status, 201, "{sent:?}");
    let open = list_path(
        "/admin/api/inquiries",
        Some(r#"["created_at","DESC"]"#),
        Some("[0,9]"),
        Some(r#"{"handling":"open","q":"入場"}"#),
    );
    let listed = call(&app, &support, Method::Get, &open, None).await;
    assert_eq!(listed.content_range.as_deref(), Some("inquiries 0-0/1"));
    let inquiry = &listed.body[0];
    assert_eq!((inquiry["email"].as_str(), inquiry["handling"].as_str()), (Some("fan@example.com"), Some("open")));
    let id = inquiry["id"].as_i64().unwrap();

    // Only the handling status changes, whatever else the form sends.
    let done = put(
        &app,
        &support,
        "inquiries",
        id,
        json!({"handling": "resolved", "message": "rewritten", "email": "x@example.com"}),
    )
    .await;
    assert_eq!(done.status, 200, "{:?}", done.body);
    assert_eq!(
        (done.body["handling"].as_str(), done.body["message"].as_str()),
        (Some("resolved"), Some("入場方法を教えてください"))
    );
    assert_eq!(call(&app, &support, Method::Get, &open, None).await.content_range.as_deref(), Some("inquiries */0"));
    let wrong = put(&app, &support, "inquiries", id, json!({"handling": "forgotten"})).await;
    assert_eq!((wrong.status, wrong.attributes()), (422, vec!["handling".to_string()]));
    for (method, path) in
        [(Method::Post, "/admin/api/inquiries".to_string()), (Method::Delete, format!("/admin/api/inquiries/{id}"))]
    {
        assert_eq!(call(&app, &support, method, &path, Some(&json!({}))).await.status, 405);
    }
}

#[rocket::async_test]
async fn inquiry_categories_feed_the_contact_form() {
    let app = setup().await;
    let support = app.as_staff(Role::UcStaff).await;
    let created = post(
        &app,
        &support,
        "inquiry_categories",
        json!({"name_ja": "ワールド制作", "name_en": "World making", "slack_webhook_url": "https://hooks.slack.example/T1", "jira_project_code": "VKSUP", "is_public": true, "display_order": 0}),
    )
    .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let (_, public) = app.get_json("/api/v1/inquiry_categories?lang=en").await;
    assert_eq!(public["inquiry_categories"][0]["name"], "World making", "display order 0 comes first");
    assert!(public.to_string().find("hooks.slack").is_none(), "the targets stay with staff");

    let bad = post(&app, &support, "inquiry_categories", json!({"name_ja": "x", "name_en": "x", "slack_webhook_url": "javascript:alert(1)", "jira_project_code": "VK SUP"})).await;
    assert_eq!(
        (bad.status, bad.attributes()),
        (422, vec!["jira_project_code".to_string(), "slack_webhook_url".to_string()])
    );

    app.post_json(
        "/api/v1/inquiry",
        &json!({"email": "a@example.com", "message": "hi", "inquiry_category_id": 1, "agreement": true}),
    )
    .await;
    let refused = delete(&app, &support, "inquiry_categories", 1).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("in_use")), "its inquiries stay");
    assert_eq!(delete(&app, &support, "inquiry_categories", created.body["id"].as_i64().unwrap()).await.status, 200);
}

#[rocket::async_test]
async fn redirects_staff_write_are_followed() {
    let app = setup().await;
    let support = app.as_staff(Role::UcStaff).await;
    let rule = post(
        &app,
        &support,
        "redirect_rules",
        json!({"slug": "Snow", "target": "/2026Winter/worlds", "is_active": true}),
    )
    .await;
    assert_eq!((rule.status, rule.body["slug"].as_str()), (201, Some("snow")));
    let res = app.client.get("/snow").dispatch().await;
    assert_eq!((res.status().code, res.headers().get_one("Location")), (302, Some("/2026Winter/worlds")));
    let taken =
        post(&app, &support, "redirect_rules", json!({"slug": "winter", "target": "/x", "is_active": true})).await;
    assert_eq!((taken.status, taken.attributes()), (422, vec!["slug".to_string()]));
    let bad =
        post(&app, &support, "redirect_rules", json!({"slug": "evil", "target": "//evil.example", "is_active": true}))
            .await;
    assert_eq!(bad.body["details"][0]["message"], "Use a site path starting with a single / or an http or https URL.");
    let off =
        put(&app, &support, "redirect_rules", rule.body["id"].as_i64().unwrap(), json!({"is_active": false})).await;
    assert_eq!(off.status, 200);
    assert_eq!(app.client.get("/snow").dispatch().await.status().code, 404);

    let vrc = post(&app, &support, "vrc_redirects", json!({"event_id": 13, "url_key": "ice-hall", "url": "https://vrchat.com/home/launch?worldId=wrld_ice", "description_ja": "氷の間"})).await;
    assert_eq!(vrc.status, 201, "{:?}", vrc.body);
    let (status, public) = app.get_json("/api/v1/2026Winter/vrc_redirects/ice-hall").await;
    assert_eq!((status, public["url"].as_str()), (200, Some("https://vrchat.com/home/launch?worldId=wrld_ice")));
    let again = post(
        &app,
        &support,
        "vrc_redirects",
        json!({"event_id": 13, "url_key": "ice-hall", "url": "https://example.com"}),
    )
    .await;
    assert_eq!((again.status, again.attributes()), (422, vec!["url_key".to_string()]));
    let elsewhere = post(
        &app,
        &support,
        "vrc_redirects",
        json!({"event_id": 12, "url_key": "ice-hall", "url": "https://example.com"}),
    )
    .await;
    assert_eq!(elsewhere.status, 201, "keys are unique per event");
}

#[rocket::async_test]
async fn only_admins_change_roles_and_never_their_own() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let support = app.as_staff(Role::UcStaff).await;
    let newcomer = app.user("newcomer").await;
    assert_eq!(newcomer.get_json("/admin/api/session").await.0, 403);

    let by_support = put(&app, &support, "users", newcomer.user.id.into(), json!({"role": "director"})).await;
    assert_eq!(by_support.status, 403);
    let granted = put(&app, &admin, "users", newcomer.user.id.into(), json!({"role": "director"})).await;
    assert_eq!((granted.status, granted.body["role"].as_str()), (200, Some("director")));
    let (status, session) = newcomer.get_json("/admin/api/session").await;
    assert_eq!((status, session["role"].as_str()), (200, Some("director")), "the new role counts at once");

    let own = put(&app, &admin, "users", admin.user.id.into(), json!({"role": "none"})).await;
    assert_eq!(
        (own.status, own.body["details"][0]["message"].as_str()),
        (422, Some("You cannot change your own role; ask another admin."))
    );
    let wrong = put(&app, &admin, "users", newcomer.user.id.into(), json!({"role": "emperor"})).await;
    assert_eq!((wrong.status, wrong.attributes()), (422, vec!["role".to_string()]));

    let staff_only =
        list_path("/admin/api/users", Some(r#"["vmarket_id","ASC"]"#), None, Some(r#"{"role":["admin","director"]}"#));
    let listed = call(&app, &support, Method::Get, &staff_only, None).await;
    let mut handles: Vec<_> =
        listed.body.as_array().unwrap().iter().map(|u| u["vmarket_id"].as_str().unwrap()).collect();
    handles.retain(|h| !h.starts_with("demo_"));
    assert_eq!(handles, ["newcomer", "staff_admin"], "the demo staff aside");
}

#[rocket::async_test]
async fn hub_moderation_and_exhibitor_notifications() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let user_events = list_path(
        "/admin/api/hub_notifications",
        None,
        None,
        Some(r#"{"category":"user_event","event_id":13,"is_public":true}"#),
    );
    let listed = call(&app, &director, Method::Get, &user_events, None).await;
    let id = listed.ids()[0];
    let (status, _) = app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{id}")).await;
    assert_eq!(status, 200);
    // react-admin's bulk actions send only the field that changes.
    let hidden = put(&app, &director, "hub_notifications", id, json!({"is_public": false})).await;
    assert_eq!((hidden.status, hidden.body["is_public"].as_bool()), (200, Some(false)));
    assert_eq!(hidden.body["title"], listed.body[0]["title"], "the rest stays");
    assert_eq!(hidden.body["hub_tag_ids"], listed.body[0]["hub_tag_ids"]);
    assert_eq!(app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{id}")).await.0, 404);

    let base = json!({"event_id": 13, "title": "雪まつり配信", "content": "公式配信です", "publish_at": "2026-11-01T00:00", "start_at": "2026-12-20T20:00", "locale": "jp", "category": "official_stream", "is_public": true, "is_official": true, "hub_tag_ids": []});
    let created = post(&app, &director, "hub_notifications", base.clone()).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["start_at"], "2026-12-20T11:00:00Z");
    let mut bad = base.clone();
    bad["end_at"] = json!("2026-12-20T19:00");
    bad["hub_tag_ids"] = json!([424242]);
    let answer = post(&app, &director, "hub_notifications", bad).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["end_at".to_string(), "hub_tag_ids".to_string()]));
    assert_eq!(answer.body["details"][1]["message"], "There is no tag 424242.");

    let news = post(&app, &director, "exhibitor_notifications", json!({"event_id": 13, "title_ja": "入稿締切のお知らせ", "title_en": "Submission deadline", "label_ja": "重要", "label_en": "Important", "description_ja": "締切は11/30です。", "description_en": "The deadline is 11/30.", "published_at": "2026-11-20T12:00", "is_public": true})).await;
    assert_eq!(news.status, 201, "{:?}", news.body);
    let exhibitor = app.user("exhibitor_reader").await;
    let (status, mine) = exhibitor.get_json("/api/v1/user/exhibitor_notifications?lang=en").await;
    assert_eq!(status, 200);
    assert_eq!(mine["data"][0]["title"], "Submission deadline", "newest first on the mypage");
    let missing = post(&app, &director, "exhibitor_notifications", json!({"event_id": 999, "title_ja": "x", "title_en": "x", "description_ja": "x", "description_en": "x", "published_at": "2026-11-20"})).await;
    assert_eq!((missing.status, missing.attributes()), (422, vec!["event_id".to_string()]));
}
