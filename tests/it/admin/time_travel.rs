//! Time travel (`/api/v1/admin/time_travel`): staff move the whole site to another day — the
//! public phases and gating follow, every page shows a banner — and back; the offset is kept in
//! the database and another node's clock follows within a second; bad input is a 422; it is
//! refused in production and to uc_staff; nobody is signed out by it.

use std::time::Duration;

use rocket::http::Method;
use serde_json::json;
use vmarket::clock::Clock;
use vmarket::config::Environment;
use vmarket::db::entities::audit_log;
use vmarket::model::user::Role;

use super::call;
use crate::support::html::Doc;
use crate::support::{TestApp, at};

const PATH: &str = "/api/v1/admin/time_travel";

#[rocket::async_test]
async fn a_qa_tester_travels_to_the_event_and_back() {
    let app = TestApp::builder().live().build().await;
    let qa = app.as_staff(Role::QaTester).await;
    let support = app.as_staff(Role::UcStaff).await;
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["Booth submission is open until 2026/11/30 23:59"]);
    assert_eq!(doc.count("[data-testid=time-travel-banner]"), 0);
    let (status, before) = qa.get_json(PATH).await;
    assert_eq!(status, 200);
    assert_eq!(before, json!({"timestamp": null, "offset_seconds": 0, "now": "2026-11-21T03:00:00Z"}));

    // A bare date-time is Japan time: 12:00 JST is 03:00 UTC, 22 days ahead.
    let travelled = call(&app, &qa, Method::Put, PATH, Some(&json!({"timestamp": "2026-12-13T12:00"}))).await;
    assert_eq!(travelled.status, 200, "{:?}", travelled.body);
    assert_eq!(
        travelled.body,
        json!({"timestamp": "2026-12-13T03:00:00Z", "offset_seconds": 22 * 86_400, "now": "2026-11-21T03:00:00Z"})
    );
    assert_eq!(qa.get_json(PATH).await.1, travelled.body);

    // The public site is on the chosen day: the event is open, the catalogue's gate lifted.
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["The event is open now until 2026/12/27 23:59"]);
    assert_eq!(
        doc.text("[data-testid=time-travel-banner]"),
        "Time travel: the site is shown as it will be on 2026/12/13 12:00 (Japan time)."
    );
    let doc = Doc::parse(&app.page("/").await.1);
    assert_eq!(
        doc.text("[data-testid=time-travel-banner]"),
        "タイムトラベル中：サイトは 2026/12/13 12:00（日本時間）の状態で表示されています。"
    );
    let (_, event) = app.get_json("/api/v1/events/13").await;
    let open =
        event["event_phases"].as_array().unwrap().iter().find(|p| p["phase_type"] == "event_open").unwrap().clone();
    assert_eq!(open["phase_status"], "present");
    let venues = Doc::parse(&app.page("/en/access/2026Winter/venues").await.1);
    assert_eq!(venues.count("[data-testid=launch]"), 16, "the launch links are out");
    let (status, _) = app.page("/no/such/page").await;
    assert_eq!(status, 404);
    assert_eq!(
        Doc::parse(&app.page("/no/such/page").await.1).count("[data-testid=time-travel-banner]"),
        1,
        "error pages too"
    );

    // Still signed in (tokens run on real time); any staff member reads the clock.
    let (status, clock) = support.get_json("/admin/api/clock").await;
    assert_eq!((status, clock["timestamp"].as_str()), (200, Some("2026-12-13T03:00:00Z")));

    let back = call(&app, &qa, Method::Delete, PATH, None).await;
    assert_eq!((back.status, back.body["timestamp"].clone()), (200, serde_json::Value::Null));
    let doc = Doc::parse(&app.page("/en").await.1);
    assert_eq!(doc.texts("[data-testid=open-here] li"), ["Booth submission is open until 2026/11/30 23:59"]);
    assert_eq!(doc.count("[data-testid=time-travel-banner]"), 0);

    use sea_orm::EntityTrait;
    let log = audit_log::Entity::find().all(&app.db).await.unwrap();
    let actions: Vec<_> = log.iter().map(|e| (e.resource.as_str(), e.action.as_str(), e.actor_id)).collect();
    assert_eq!(actions, [("time_travel", "edit", qa.user.id), ("time_travel", "delete", qa.user.id)]);
    assert!(log[0].after.as_deref().unwrap().contains("2026-12-13T03:00:00Z"));
}

#[rocket::async_test]
async fn other_nodes_follow_within_a_second() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    // Another node (or a worker) on the same database, with its own clock.
    let other = Clock::manual(at("2026-11-21T03:00:00Z"));
    let follower = vmarket::model::time_travel::follow(other.clone(), app.db.clone(), &app.config).expect("follows");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer =
        call(&app, &director, Method::Put, PATH, Some(&json!({"timestamp": "2027-01-01T00:00:00+09:00"}))).await;
    assert_eq!(answer.status, 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(other.now(), at("2026-12-31T15:00:00Z"));
    assert_eq!(call(&app, &director, Method::Delete, PATH, None).await.status, 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(other.now(), at("2026-11-21T03:00:00Z"));
    follower.abort();
}

#[rocket::async_test]
async fn bad_timestamps_are_a_422_and_change_nothing() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    for body in [
        json!({}),
        json!({"timestamp": "next friday"}),
        json!({"timestamp": 20261212}),
        json!({"timestamp": "2026-13-01T00:00"}),
    ] {
        let answer = call(&app, &admin, Method::Put, &format!("{PATH}?lang=en"), Some(&body)).await;
        assert_eq!(answer.status, 422, "{body}");
        assert_eq!(answer.attributes(), ["timestamp"]);
        assert!(answer.body["details"][0]["message"].as_str().unwrap().starts_with("Use an RFC 3339 date-time"));
    }
    let not_json = app.request_as(&admin, crate::support::actors::Via::Bearer, Method::Put, PATH, None).await;
    assert_eq!(not_json.status().code, 400);
    assert_eq!(admin.get_json(PATH).await.1["timestamp"], serde_json::Value::Null);
}

#[rocket::async_test]
async fn refused_in_production_and_to_uc_staff_and_visitors() {
    let app = TestApp::builder().live().config(|c| c.environment = Environment::Production).build().await;
    let admin = app.as_staff(Role::Admin).await;
    let answer =
        call(&app, &admin, Method::Put, &format!("{PATH}?lang=en"), Some(&json!({"timestamp": "2026-12-13T12:00"})))
            .await;
    assert_eq!(answer.status, 422);
    assert_eq!(answer.body["code"], "time_travel_disabled");
    assert_eq!(answer.body["message"], "Time travel is not available in production.");
    assert_eq!(admin.get_json(PATH).await.1["timestamp"], serde_json::Value::Null);
    assert_eq!(Doc::parse(&app.page("/en").await.1).count("[data-testid=time-travel-banner]"), 0);
    assert!(
        vmarket::model::time_travel::follow(Clock::system(), app.db.clone(), &app.config).is_none(),
        "production never follows"
    );

    let app = TestApp::builder().live().build().await;
    let support = app.as_staff(Role::UcStaff).await;
    let visitor = app.user("traveller").await;
    for who in [&support, &visitor] {
        for method in [Method::Get, Method::Put, Method::Delete] {
            let answer = call(&app, who, method, PATH, Some(&json!({"timestamp": "2026-12-13T12:00"}))).await;
            assert_eq!((answer.status, answer.body["code"].as_str()), (403, Some("forbidden")), "{method}");
        }
    }
    let anonymous = app.client.get(PATH).dispatch().await;
    assert_eq!(anonymous.status().code, 401);
    assert_eq!(app.clock.now(), at("2026-11-21T03:00:00Z"));
}

#[rocket::async_test]
async fn travelling_waits_for_another_writer_instead_of_failing() {
    use sea_orm::{ConnectionTrait, Statement};
    let app = TestApp::builder().live().build().await;
    let qa = app.as_staff(Role::QaTester).await;
    // A worker (another connection) is in the middle of a write when the request comes, and
    // commits while the request runs: on SQLite a transaction that read before it writes would
    // then fail at once ("database is locked").
    let worker = vmarket::db::begin_write(&app.db).await.unwrap();
    let backend = app.db.get_database_backend();
    let touch = "UPDATE events SET updated_at = updated_at WHERE id = 13";
    worker.execute_raw(Statement::from_string(backend, touch)).await.unwrap();
    let body = json!({"timestamp": "2026-12-13T12:00"});
    let (answer, _) = tokio::join!(call(&app, &qa, Method::Put, PATH, Some(&body)), async {
        tokio::time::sleep(Duration::from_millis(400)).await;
        worker.commit().await.unwrap();
    });
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_eq!(answer.body["timestamp"], "2026-12-13T03:00:00Z");
    assert_eq!(qa.get_json(PATH).await.1["timestamp"], "2026-12-13T03:00:00Z");
}

#[rocket::async_test]
async fn job_deadlines_and_gating_follow_time_travel() {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    use vmarket::db::entities::event_entry_application;
    use vmarket::db::entities::event_entry_application::LotteryStatus;
    use vmarket::jobs::LotteryClock;
    use vmarket::queue::JobContext;

    let app = TestApp::builder().live().build().await;
    let qa = app.as_staff(Role::QaTester).await;
    // A worker node: its own clock, following the stored offset as `vmarket worker` does.
    let worker_clock = Clock::manual(app.clock.real_now());
    let follower = vmarket::model::time_travel::follow(worker_clock.clone(), app.db.clone(), &app.config).unwrap();
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), worker_clock.clone()).unwrap();
    // 2027Spring is in its first payment window: two wins wait to be paid.
    let events = call(
        &app,
        &qa,
        Method::Get,
        &super::list_path("/admin/api/events", None, None, Some(r#"{"permalink":"2027Spring"}"#)),
        None,
    )
    .await;
    let spring = &events.body[0];
    let first_payment_end = spring["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase_type"] == "first_payment_end")
        .map(|p| p["phase_timestamp"].as_str().unwrap().to_string())
        .expect("a first payment window");
    let wins = || async {
        event_entry_application::Entity::find()
            .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::FirstWin))
            .all(&app.db)
            .await
            .unwrap()
            .len()
    };
    let won = wins().await;
    assert!(won >= 2, "{won} first wins");
    LotteryClock::tick(&ctx).await.unwrap();
    assert_eq!(wins().await, won, "the window is open: nothing to sweep");

    // A pending invitation (14 days) and the catalogue's gate (locked until event_open).
    let owner = app.user("tt_owner").await;
    let friend = app.user("tt_friend").await;
    let circle = app.create_circle(&owner, "時の工房").await["id"].as_i64().unwrap();
    let (status, invitation) = app.invite(&owner, circle, &friend).await;
    assert_eq!(status, 201, "{invitation}");
    let (_, items) = app.get_json("/api/v1/2026Winter/catalog_items").await;
    assert_eq!(items["data"].as_array().map(Vec::len), Some(0), "locked before the event opens");

    // An hour after 2026Winter opens, past spring's payment window: the worker's sweep moves the
    // unpaid wins on.
    let after_end = at("2026-12-12T04:00:00Z");
    assert!(vmarket::forms::checks::parse_instant(&first_payment_end).unwrap() < after_end);
    let travelled = call(&app, &qa, Method::Put, PATH, Some(&json!({"timestamp": "2026-12-12T13:00"}))).await;
    assert_eq!(travelled.status, 200, "{:?}", travelled.body);
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert!((worker_clock.now() - after_end).num_seconds().abs() < 5, "the worker follows");
    LotteryClock::tick(&ctx).await.unwrap();
    // Every first win of the demo is spring's (the only event in a first payment window).
    assert_eq!(wins().await, 0, "spring's {won} unpaid wins are swept");
    let unpaid = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::FirstWinUnpaid))
        .all(&app.db)
        .await
        .unwrap();
    assert!(unpaid.len() >= won, "first_win_unpaid: {}", unpaid.len());

    // That day is weeks on: the invitation has expired, and 2026Winter is open (its catalogue too).
    let (status, body) = app
        .call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{}/approval", invitation["id"]), None)
        .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("invitation_expired")), "{body}");
    let (_, items) = app.get_json("/api/v1/2026Winter/catalog_items").await;
    assert!(items["data"].as_array().is_some_and(|i| !i.is_empty()), "the catalogue unlocked");
    follower.abort();
}

#[rocket::async_test]
async fn the_session_says_whether_time_travel_is_there() {
    for (environment, available) in
        [(Environment::Development, true), (Environment::Staging, true), (Environment::Production, false)]
    {
        let app = TestApp::builder().live().config(move |c| c.environment = environment).build().await;
        let admin = app.as_staff(Role::Admin).await;
        let (status, session) = admin.get_json("/admin/api/session").await;
        assert_eq!(status, 200, "{session}");
        assert_eq!(session["time_travel"], available, "{environment:?}");
        assert_eq!(session["permissions"].get("time_travel").is_some(), available, "{environment:?}: {session}");
        assert_eq!(session["access"].get("time_travel").is_some(), available, "{environment:?}");
        assert!(session["permissions"]["events"].is_array(), "the rest is there");
    }
}

/// Pages of every layout, for a visitor and a signed-in staff member, and the error page.
const PAGES: &[&str] = &[
    "/",
    "/en",
    "/worlds",
    "/en/event_history",
    "/hub/2026Winter/notification",
    "/en/catalog",
    "/contact",
    "/no/such/page",
];

/// What `path` answers `who` (a visitor when `None`).
async fn status_of(app: &TestApp, who: Option<&crate::support::actors::Actor<'_>>, path: &str) -> u16 {
    match who {
        Some(actor) => actor.page(path).await.0,
        None => app.page(path).await.0,
    }
}

#[rocket::async_test]
async fn travel_reaches_ten_years_either_way_and_every_page_renders_there() {
    // Before the range (checked against e1df045): year 10000 was accepted and every HTML page,
    // the error page included, answered 500 until the clock was cleared.
    let app = TestApp::builder().live().build().await;
    let qa = app.as_staff(Role::QaTester).await;
    for far in ["9999-12-31T23:59:59-23:59", "2036-11-22T12:00", "2016-11-19T12:00", "0001-01-01T00:00"] {
        let answer = call(&app, &qa, Method::Put, &format!("{PATH}?lang=en"), Some(&json!({"timestamp": far}))).await;
        assert_eq!(answer.status, 422, "{far}");
        assert_eq!(answer.attributes(), ["timestamp"]);
        let message = answer.body["details"][0]["message"].as_str().unwrap();
        assert!(message.starts_with("Time travel reaches ten years either way from now"), "{message}");
        assert!(message.contains("to 2036/11/21 12:00"), "{message}");
        assert_eq!(qa.get_json(PATH).await.1["timestamp"], serde_json::Value::Null, "nothing changed");
    }
    let ja = call(&app, &qa, Method::Put, PATH, Some(&json!({"timestamp": "9999-12-31T23:59:59-23:59"}))).await;
    assert!(ja.body["details"][0]["message"].as_str().unwrap().starts_with("時間移動できるのは現在から前後10年以内"));

    for end in ["2036-11-21T12:00", "2016-11-21T12:00"] {
        let answer = call(&app, &qa, Method::Put, PATH, Some(&json!({"timestamp": end}))).await;
        assert_eq!(answer.status, 200, "{end}: {:?}", answer.body);
        for path in PAGES {
            for who in [None, Some(&qa)] {
                let status = status_of(&app, who, path).await;
                let expected = if path.starts_with("/no/") { 404 } else { 200 };
                assert_eq!(status, expected, "{path} at {end}, signed in: {}", who.is_some());
            }
        }
        let doc = Doc::parse(&app.page("/en").await.1);
        assert!(doc.text("[data-testid=time-travel-banner]").contains(&end.replace('-', "/").replace('T', " ")));
    }
}

#[rocket::async_test]
async fn an_offset_stored_out_of_range_is_ignored_and_nothing_breaks() {
    use sea_orm::{ActiveModelTrait, Set};
    use vmarket::db::entities::time_travel;
    let app = TestApp::builder().live().build().await;
    let qa = app.as_staff(Role::QaTester).await;
    // Written before the range existed (or by hand): year 10000, as the probe set it.
    let year_10000 = chrono::NaiveDate::from_ymd_opt(10000, 1, 1).unwrap().and_hms_opt(23, 58, 59).unwrap().and_utc();
    time_travel::ActiveModel {
        id: Set(1),
        offset_ms: Set((year_10000 - app.clock.real_now()).num_milliseconds()),
        set_by: Set(qa.user.id),
        set_at: Set(app.clock.real_now()),
    }
    .insert(&app.db)
    .await
    .unwrap();
    let other = Clock::manual(at("2026-11-21T03:00:00Z"));
    let follower = vmarket::model::time_travel::follow(other.clone(), app.db.clone(), &app.config).expect("follows");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(other.now(), at("2026-11-21T03:00:00Z"), "a node does not follow it");
    follower.abort();
    assert_eq!(qa.get_json(PATH).await.1["timestamp"], serde_json::Value::Null);
    for path in PAGES {
        let expected = if path.starts_with("/no/") { 404 } else { 200 };
        assert_eq!(status_of(&app, Some(&qa), path).await, expected, "{path}");
    }
}
