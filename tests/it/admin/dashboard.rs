//! The dashboard: what needs attention — inquiries nobody has resolved, inquiries a forwarding
//! target gave up on or is late with, draws awaiting publication, payments stuck pending, money
//! taken to refund — each card with its count, the oldest few, and a filter that lists the same
//! records; each role sees the cards of the areas it may read (`tests/it/admin/payments.rs`
//! fills the card of payments to refund).

use chrono::Duration;
use rocket::http::Method;
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde_json::{Value, json};
use vmarket::db::entities::inquiry;
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryRound;
use vmarket::model::inquiry::ForwardStatus;
use vmarket::model::lottery;
use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

/// The cards' keys and counts.
fn counts(board: &Value) -> Vec<(String, u64)> {
    board["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap().to_string(), c["count"].as_u64().unwrap()))
        .collect()
}

/// Each card's filter lists exactly its records, as `who`.
async fn filters_list_the_same(app: &TestApp, who: &Actor<'_>, board: &Value) {
    for card in board["cards"].as_array().unwrap() {
        let resource = card["resource"].as_str().unwrap();
        let path = list_path(&format!("/admin/api/{resource}"), None, None, Some(&card["filter"].to_string()));
        let listed = call(app, who, Method::Get, &path, None).await;
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        assert_eq!(listed.body.as_array().unwrap().len() as u64, card["count"].as_u64().unwrap(), "{}", card["key"]);
    }
}

#[rocket::async_test]
async fn pending_and_failed_inquiries_need_attention() {
    let app = TestApp::builder().live().build().await;
    let mut support = app.as_staff(Role::UcStaff).await;
    let (_, empty) = support.get_json("/admin/api/dashboard?lang=en").await;
    let zero = |key: &str| (key.to_string(), 0);
    assert_eq!(
        counts(&empty),
        [zero("pending_inquiries"), zero("unforwarded"), zero("stuck_payments"), zero("payments_to_refund")]
    );

    let mut ids = Vec::new();
    for who in ["first@example.com", "second@example.com", "third@example.com", "fourth@example.com"] {
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
    // Slack still waits for the fourth, sent just now: not late yet.
    let fourth = inquiry::Entity::find_by_id(ids[3] as i32).one(&app.db).await.unwrap().unwrap();
    let mut waiting: inquiry::ActiveModel = fourth.into();
    waiting.slack_status = Set(ForwardStatus::Pending);
    waiting.handling = Set(vmarket::model::inquiry::Handling::Resolved);
    waiting.update(&app.db).await.unwrap();
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
    assert_eq!(failing["items"][0]["title"], format!("#{} second@example.com (Slack: Failed)", ids[1]));
    assert_eq!(failing["items"][0]["detail"], "slack: 404 no_service");
    filters_list_the_same(&app, &support, &board).await;

    // A quarter of an hour later, the fourth's Slack target is late too.
    app.clock.set(app.clock.now() + Duration::minutes(16));
    support.renew().await;
    let (_, later) = support.get_json("/admin/api/dashboard?lang=en").await;
    let late = &later["cards"][1];
    assert_eq!(late["count"], 2);
    assert_eq!(late["items"][1]["title"], format!("#{} fourth@example.com (Slack: Pending)", ids[3]));
    filters_list_the_same(&app, &support, &later).await;
    assert_eq!(app.get_json("/admin/api/dashboard").await.0, 401);
}

#[rocket::async_test]
async fn draws_awaiting_publication_and_stuck_payments_need_attention() {
    let app = TestApp::builder().live().build().await;
    // A draw previewed, not published.
    let owner = app.with_user("board_owner").await;
    let ev = app.entry_event("BoardDraw").await;
    let circle = app.create_circle(&owner, "掲示の工房").await["id"].as_i64().unwrap() as i32;
    let change = EntryChange {
        is_multiple_win: false,
        wishes: vec![Wish { choice: 1, plan_id: ev.plans[0], options: AmpOptions::default() }],
        agreed_terms: None,
    };
    vmarket::db::entities::event_entry::Model::apply(&app.db, ev.id, circle, owner.user.id, change, app.clock.now())
        .await
        .unwrap();
    let draw_at = ev.at(vmarket::model::phase::PhaseType::FirstLotteryStart) + Duration::hours(1);
    let run = lottery::commit(&app.db, ev.id, LotteryRound::First, None, draw_at).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    // A payment attempt opened, the payer's browser then silent.
    let payer = app.with_user("board_payer").await;
    let won = app.won_application(&payer, "BoardPay").await;
    let payable = Payable::load(&app.db, won.application_id, payer.user.id, app.clock.now()).await.unwrap();
    let stuck = open_order(&app.db, &payable, payer.user.id, PaymentType::Stripe, app.clock.now()).await.unwrap();

    let mut admin = app.as_staff(Role::Admin).await;
    let (_, now) = admin.get_json("/admin/api/dashboard?lang=en").await;
    let keys: Vec<_> = counts(&now).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        ["pending_inquiries", "unforwarded", "draws_awaiting_publication", "stuck_payments", "payments_to_refund"]
    );
    assert_eq!(now["cards"][2]["count"], 1);
    // (The demo's own draw, 2027Spring's first round, is published: it needs no attention.)
    assert_eq!(now["cards"][2]["items"][0]["title"].as_str().unwrap(), format!("#{} BoardDraw First draw", run.id));
    assert_eq!(now["cards"][3]["count"], 0, "a payer may be paying right now");

    app.clock.set(app.clock.now() + Duration::minutes(11));
    admin.renew().await;
    let (_, later) = admin.get_json("/admin/api/dashboard?lang=ja").await;
    let payments = &later["cards"][3];
    assert_eq!(payments["count"], 1);
    assert_eq!(payments["items"][0]["id"], stuck.id);
    assert_eq!(payments["items"][0]["title"], format!("#{} BoardPayの工房 ¥8,000 (Stripe)", stuck.id));
    assert_eq!(payments["items"][0]["detail"], "決済サービスへの確認 0 回");
    filters_list_the_same(&app, &admin, &later).await;

    // Each role sees the cards of its areas only.
    let qa = app.as_staff(Role::QaTester).await;
    let (_, board) = qa.get_json("/admin/api/dashboard").await;
    let keys: Vec<_> = counts(&board).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["pending_inquiries", "unforwarded", "draws_awaiting_publication"]);
    let director = app.as_staff(Role::Director).await;
    let (_, board) = director.get_json("/admin/api/dashboard").await;
    assert_eq!(counts(&board).len(), 5);
}
