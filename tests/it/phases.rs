//! Phase status over time (spec §4): past, present or future against the application clock,
//! and what the top page says is open.

use crate::support::html::Doc;
use crate::support::{TestApp, at};

/// Statuses of the 2026Winter phases of `types` at `now`, from the API.
async fn statuses(app: &TestApp, types: &[&str]) -> Vec<String> {
    let (status, body) = app.get_json("/api/v1/events/13").await;
    assert_eq!(status, 200);
    let phases = body["event_phases"].as_array().expect("phases");
    types
        .iter()
        .map(|t| {
            phases.iter().find(|p| p["phase_type"] == *t).unwrap_or_else(|| panic!("phase {t}"))["phase_status"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[rocket::async_test]
async fn statuses_move_with_the_clock() {
    let app = TestApp::builder().at(at("2026-07-01T00:00:00Z")).build().await;
    let types = ["entry_start", "entry_end", "submission_start", "submission_end", "event_open", "event_close"];
    assert_eq!(statuses(&app, &types).await, ["future"; 6]);

    app.clock.set(at("2026-08-01T03:00:00Z"));
    assert_eq!(statuses(&app, &types).await, ["present", "future", "future", "future", "future", "future"]);

    app.clock.set(at("2026-11-21T03:00:00Z"));
    assert_eq!(statuses(&app, &types).await, ["past", "past", "present", "future", "future", "future"]);

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let now_open = statuses(&app, &types).await;
    assert_eq!(now_open[4], "present", "event_open is reached exactly at its timestamp");
    assert_eq!(now_open[3], "past");

    app.clock.set(at("2027-01-01T00:00:00Z"));
    assert_eq!(statuses(&app, &types).await, ["past", "past", "past", "past", "past", "present"]);
}

#[rocket::async_test]
async fn private_phases_are_hidden_and_do_not_shadow_public_ones() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/events/13").await;
    let phases = body["event_phases"].as_array().expect("phases");
    assert!(phases.iter().all(|p| p["is_private"] == false));
    assert!(!phases.iter().any(|p| p["phase_type"] == "auto_build_start"));
    // auto_build_start (private, 11/10) is later than submission_start (10/25): the public
    // timeline still shows submission as the present phase.
    assert_eq!(statuses(&app, &["submission_start", "display_submission_start"]).await, ["present", "present"]);
    let codes: Vec<i64> = phases.iter().filter_map(|p| p["phase_code"].as_i64()).collect();
    assert!(codes.contains(&1000) && codes.contains(&5002) && codes.contains(&10006));
}

#[rocket::async_test]
async fn the_top_page_says_what_is_open_now() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["ブース入稿受付中 2026/11/30 23:59まで"]);
    assert_eq!(doc.text(".countdown__fallback"), "次は「入稿締切」（2026/11/30 23:59）");

    app.clock.set(at("2026-08-10T00:00:00Z"));
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["Exhibitor entry is open until 2026/08/31 23:59 Apply"]);

    app.clock.set(at("2026-12-20T00:00:00Z"));
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["The event is open now until 2026/12/27 23:59"]);

    app.clock.set(at("2026-09-01T00:00:00Z"));
    let doc = Doc::parse(&app.page("/").await.1);
    assert_eq!(doc.texts("[data-testid=open-now] p"), ["現在受付中の手続きはありません。"]);
}

#[rocket::async_test]
async fn the_timeline_shows_display_labels_with_statuses() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/").await.1);
    let rows = doc.texts("[data-testid=phase-timeline] li");
    assert_eq!(
        rows,
        [
            "エントリー 2026/08/01 12:00 終了",
            "抽選 一次抽選 2026/09/05 12:00 終了",
            "お支払い 一次お支払い 2026/09/10 12:00 終了",
            "抽選 二次抽選 2026/09/28 12:00 終了",
            "お支払い 二次お支払い 2026/10/02 12:00 終了",
            "入稿 入稿開始 2026/10/25 12:00 進行中",
            "入稿 入稿締切 2026/11/30 23:59 予定",
        ]
    );
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(
        doc.texts("[data-testid=phase-timeline] .timeline__label")[..4],
        ["Entry", "Lottery", "Payment", "Lottery"]
    );
}

#[rocket::async_test]
async fn the_countdown_island_gets_upcoming_phases_on_the_server_clock() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/en").await.1);
    let props: serde_json::Value =
        serde_json::from_str(&doc.attr("[data-island=phase-countdown]", "data-props")).expect("props are JSON");
    assert_eq!(props["lang"], "en");
    assert_eq!(props["now"], "2026-11-21T03:00:00Z");
    let phases = props["phases"].as_array().expect("phases");
    assert_eq!(phases[0]["type"], "submission_end");
    assert_eq!(phases[0]["label"], "Submission deadline");
    assert_eq!(phases[0]["at"], "2026-11-30T14:59:00Z");
    assert!(phases.iter().all(|p| p["type"] != "vmarket_tools_submission_end"), "private phases are not counted down");
}
