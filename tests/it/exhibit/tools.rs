//! The desktop submission tool's endpoints (issue 28 item 4): the submission term of an event
//! (`is_submit` only inside the window, by the application clock) and the caller's circles with
//! their slots there — a circle without a slot listed empty, another user's circle not at all.

use chrono::Duration;
use rocket::http::Method;
use serde_json::json;
use vmarket::model::phase::PhaseType;
use vmarket::model::user::Role;

use crate::admin::call;

use super::slots::drawn;
use crate::support::TestApp;

#[rocket::async_test]
async fn the_tool_reads_the_term_and_the_callers_circles_with_their_slots() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("tool_owner").await;
    let other = app.user("tool_other").await;
    let (ev, circles) = drawn(&app, &[&owner, &other], "2031Tools", 2).await;
    let spare = app.create_circle(&owner, "予備の工房").await["id"].as_i64().unwrap();

    // Before the window, inside it, after it.
    let term = "/api/v1/vmarket_tools/term?event=2031Tools";
    let (status, body) = app.call_as(&owner, Method::Get, term, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["is_submit"], false, "{body}");
    assert_eq!(
        body["submission_start_at"].as_str().map(|t| t.parse::<chrono::DateTime<chrono::Utc>>().unwrap()),
        Some(ev.at(PhaseType::SubmissionStart))
    );
    assert_eq!(body["submission_end_at"], body["submission_end_at_display"]);
    app.clock.set(ev.at(PhaseType::SubmissionStart) + Duration::hours(1));
    let mut owner = owner;
    app.refresh(&mut owner).await;
    let (_, body) = app.call_as(&owner, Method::Get, term, None).await;
    assert_eq!(body["is_submit"], true, "{body}");
    app.clock.set(ev.at(PhaseType::SubmissionEnd));
    app.refresh(&mut owner).await;
    let (_, body) = app.call_as(&owner, Method::Get, term, None).await;
    assert_eq!(body["is_submit"], false, "the end itself is closed: {body}");

    // The caller's two circles: the one that won with its slot, the spare one with none.
    let (status, body) =
        app.call_as(&owner, Method::Get, "/api/v1/vmarket_tools/circles?event=2031Tools&lang=en", None).await;
    assert_eq!(status, 200, "{body}");
    let listed: Vec<(i64, usize, bool)> = body["circles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (c["id"].as_i64().unwrap(), c["event_slots"].as_array().unwrap().len(), c["is_owner"].as_bool().unwrap())
        })
        .collect();
    assert_eq!(listed, vec![(circles[0] as i64, 1, true), (spare, 0, true)], "{body}");
    assert_eq!(body["term"]["event_permalink"], "2031Tools");

    assert_eq!(app.call_anonymously(Method::Get, term).await.0, 401);
    assert_eq!(app.call_as(&owner, Method::Get, "/api/v1/vmarket_tools/term?event=nonesuch", None).await.0, 404);
}

#[rocket::async_test]
async fn the_tool_asks_for_its_newest_published_release() {
    let app = TestApp::builder().live().build().await;
    let (director, qa) = (app.as_staff(Role::Director).await, app.as_staff(Role::QaTester).await);
    let (status, body) = app.call_anonymously(Method::Get, "/api/get/version").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("no_tool_release")), "{body}");

    let release = |version: &str, published: bool| {
        json!({"version": version, "package_name": format!("VmarketTools-{version}.unitypackage"),
               "download_url": format!("https://downloads.example.com/tools/{version}.zip"), "is_published": published})
    };
    assert_eq!(
        call(&app, &qa, Method::Post, "/admin/api/tool_releases", Some(&release("2.4.0", true))).await.status,
        403
    );
    let first = call(&app, &director, Method::Post, "/admin/api/tool_releases", Some(&release("2.4.0", true))).await;
    assert_eq!(first.status, 201, "{:?}", first.body);
    let draft =
        call(&app, &director, Method::Post, "/admin/api/tool_releases", Some(&release("2.5.0-rc1", false))).await;
    assert_eq!(draft.status, 201, "{:?}", draft.body);
    let (status, body) = app.call_anonymously(Method::Get, "/api/get/version").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"version": "2.4.0", "package_name": "VmarketTools-2.4.0.unitypackage",
               "download_url": "https://downloads.example.com/tools/2.4.0.zip", "type": "vmarket_tools"})
    );
    let bad = json!({"version": "3", "package_name": "x", "download_url": "javascript:alert(1)"});
    let refused = call(&app, &director, Method::Post, "/admin/api/tool_releases", Some(&bad)).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["download_url".to_string()]));
}
