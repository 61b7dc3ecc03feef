//! Hub content and posters in the console: `hub_tags`, `ambassadors`, `streamers` (a user
//! attribute) and `posters`. What staff write shows in the public API; references are checked;
//! a tag still in use is not deleted; read-only roles cannot write.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

async fn send(app: &TestApp, who: &Actor<'_>, method: Method, path: &str, body: Value) -> Answer {
    call(app, who, method, &format!("{path}?lang=en"), Some(&body)).await
}

#[rocket::async_test]
async fn hub_tags_are_written_shown_and_kept_while_in_use() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let made = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/hub_tags",
        json!({"name_ja": "夜景", "name_en": "Night view", "display_index": 7}),
    )
    .await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let id = made.body["id"].as_i64().unwrap();
    assert_eq!(made.body["notification_count"], 0);
    let (status, tag) = app.get_json(&format!("/api/v1/hub_tags/{id}?lang=en")).await;
    assert_eq!((status, tag["name"].as_str()), (200, Some("Night view")), "{tag}");

    let bad =
        send(&app, &director, Method::Post, "/admin/api/hub_tags", json!({"name_ja": " ", "name_en": "x".repeat(65)}))
            .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["name_en".to_string(), "name_ja".to_string()]));
    assert_eq!(bad.body["details"][0]["message"], "Must be at most 64 characters.");

    // A tag on a notification stays.
    let used =
        call(&app, &director, Method::Get, &list_path("/admin/api/hub_tags", None, Some("[0,999]"), None), None).await;
    let in_use = used.body.as_array().unwrap().iter().find(|t| t["notification_count"].as_u64() > Some(0));
    if let Some(in_use) = in_use {
        let refused =
            call(&app, &director, Method::Delete, &format!("/admin/api/hub_tags/{}", in_use["id"]), None).await;
        assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("in_use")));
    }
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/hub_tags/{id}"), None).await.status, 200);
    assert_eq!(app.get_json(&format!("/api/v1/hub_tags/{id}")).await.0, 404);

    let qa = app.as_staff(Role::QaTester).await;
    let refused = send(&app, &qa, Method::Post, "/admin/api/hub_tags", json!({"name_ja": "a", "name_en": "a"})).await;
    assert_eq!(refused.status, 403);
}

#[rocket::async_test]
async fn ambassadors_and_streamers_follow_what_staff_set() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let mio = app.with_user("mio_ambassador").await;

    let made = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/ambassadors",
        json!({"user_id": mio.user.id, "generation": 9, "team_type": "global_team"}),
    )
    .await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    assert_eq!(made.body["vmarket_id"], "mio_ambassador");
    let id = made.body["id"].as_i64().unwrap();
    let (_, listed) = app.get_json("/api/v1/ambassadors?gen=9&lang=en").await;
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(1), "{listed}");
    let inactive =
        send(&app, &director, Method::Put, &format!("/admin/api/ambassadors/{id}"), json!({"is_inactive": true})).await;
    assert_eq!((inactive.status, &inactive.body["is_inactive"]), (200, &json!(true)));
    let (_, listed) = app.get_json("/api/v1/ambassadors?gen=9&is_inactive=false").await;
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(0), "{listed}");
    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/ambassadors",
        json!({"user_id": 999_999, "generation": 0, "team_type": "moon_team"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["team_type".to_string()]), "a wrong value first");
    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/ambassadors",
        json!({"user_id": 999_999, "generation": 0, "team_type": "japan_team"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["generation".to_string()]));
    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/ambassadors",
        json!({"user_id": 999_999, "generation": 1, "team_type": "japan_team"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["user_id".to_string()]));

    // Streamers: the attribute only; the record has no email.
    let path = format!("/admin/api/streamers/{}", mio.user.id);
    let shown = call(&app, &director, Method::Get, &path, None).await;
    assert_eq!((shown.status, &shown.body["attribute"]), (200, &json!("none")));
    assert!(shown.body.get("email").is_none() && shown.body.get("role").is_none(), "{:?}", shown.body);
    let certified =
        send(&app, &director, Method::Put, &path, json!({"attribute": "certificated_streamer", "role": "admin"})).await;
    assert_eq!((certified.status, &certified.body["attribute"]), (200, &json!("certificated_streamer")));
    let (_, session) = mio.get_json("/admin/api/session").await;
    assert_ne!(session["role"], "admin", "the role is not the streamers resource's");
    let streamers = call(
        &app,
        &director,
        Method::Get,
        &list_path(
            "/admin/api/streamers",
            None,
            None,
            Some(r#"{"attribute":"certificated_streamer","q":"mio_ambassador"}"#),
        ),
        None,
    )
    .await;
    assert_eq!(streamers.ids(), vec![i64::from(mio.user.id)]);
    assert_eq!(call(&app, &director, Method::Delete, &path, None).await.status, 405);

    let support = app.as_staff(Role::UcStaff).await;
    assert_eq!(call(&app, &support, Method::Get, &path, None).await.status, 200);
    assert_eq!(send(&app, &support, Method::Put, &path, json!({"attribute": "none"})).await.status, 403);
}

#[rocket::async_test]
async fn posters_hang_in_a_world_and_show_on_its_page() {
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
    let count = |body: &Value| body.as_array().map(Vec::len).unwrap_or(0);
    let before = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/posters", None, Some("[0,999]"), Some(&format!(r#"{{"world_id":{world}}}"#))),
        None,
    )
    .await;

    let made = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/posters",
        json!({"world_id": world, "number": 41, "name": "星の回廊"}),
    )
    .await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let after = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/posters", None, Some("[0,999]"), Some(&format!(r#"{{"world_id":{world}}}"#))),
        None,
    )
    .await;
    assert_eq!(count(&after.body), count(&before.body) + 1);
    let (status, html) = app.page(&format!("/en/2026Winter/world/{world}")).await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("{} poster spaces", count(&after.body))), "the world page counts it");

    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/posters",
        json!({"world_id": 999_999, "number": 0, "name": ""}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["name".to_string(), "number".to_string()]));
    let bad = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/posters",
        json!({"world_id": 999_999, "number": 1, "name": "x"}),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["world_id".to_string()]));
    let id = made.body["id"].as_i64().unwrap();
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/posters/{id}"), None).await.status, 200);
}

#[rocket::async_test]
async fn staff_recommend_and_stop_recommending_in_bulk() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let pinned_path =
        list_path("/admin/api/hub_notifications", None, None, Some(r#"{"event_id":13,"is_strong_recommended":true}"#));
    let pinned = call(&app, &director, Method::Get, &pinned_path, None).await.ids();
    assert!(pinned.len() >= 2, "{pinned:?}");
    let public_pinned = || async {
        let (_, body) = app.get_json("/api/v1/2026Winter/hub_notifications?limit=100").await;
        body["data"].as_array().unwrap().iter().filter(|n| n["is_strong_recommended"] == true).count()
    };
    assert!(public_pinned().await > 0);
    // The console's bulk "stop strongly recommending": one partial PUT per selected record.
    for id in &pinned {
        let path = format!("/admin/api/hub_notifications/{id}");
        let changed = send(&app, &director, Method::Put, &path, json!({"is_strong_recommended": false})).await;
        assert_eq!((changed.status, &changed.body["is_strong_recommended"]), (200, &json!(false)), "{id}");
    }
    assert_eq!(call(&app, &director, Method::Get, &pinned_path, None).await.ids(), Vec::<i64>::new());
    assert_eq!(public_pinned().await, 0, "nothing is pinned on the hub any more");
    let path = format!("/admin/api/hub_notifications/{}", pinned[0]);
    let again = send(&app, &director, Method::Put, &path, json!({"is_strong_recommended": true})).await;
    assert_eq!(again.status, 200);
    assert_eq!(call(&app, &director, Method::Get, &pinned_path, None).await.ids(), [pinned[0]]);
}
