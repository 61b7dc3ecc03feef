//! Stripe end to end against `localstripe` (a stateful fake Stripe over real HTTP): pre-order,
//! capture with a card, double clicks and concurrent captures charging once, a declined card,
//! the provider down or silent (no settle, no second charge, reconciled later), access, and the
//! webhook suite (tampered body, wrong secret, stale timestamp, replay, rotated secret, unknown
//! event type, a valid event processed once).

use chrono::Duration;
use rocket::futures::future::join_all;
use rocket::http::{ContentType, Header};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};
use vmarket::db::entities::{event_entry_application, order, payment_history, payment_webhook_event};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::OrderState;
use vmarket::payments::stripe::sign;
use vmarket::payments::{self, Providers, Reconciled};
use vmarket::queue::JobContext;

use crate::support::TestApp;
use crate::support::localstripe::{Gate, GateMode, LocalStripe, PUBLISHABLE_KEY, SECRET_KEY};

const WEBHOOK_SECRET: &str = "whsec_current";
const OLD_SECRET: &str = "whsec_previous";

/// A live app whose Stripe is `base` (localstripe, or a gate in front of it).
async fn app_with_stripe(base: &str, timeout_ms: u64) -> TestApp {
    let base = base.to_string();
    TestApp::builder()
        .live()
        .config(move |c| {
            c.stripe_js_url = format!("{base}/js.stripe.com/v3/");
            c.stripe_api_base = base;
            c.stripe_secret_key = SECRET_KEY.into();
            c.stripe_publishable_key = PUBLISHABLE_KEY.into();
            c.stripe_webhook_secrets = vec![WEBHOOK_SECRET.into(), OLD_SECRET.into()];
            c.payment_timeout_ms = timeout_ms;
        })
        .build()
        .await
}

async fn payments_of(app: &TestApp, application_id: i32) -> u64 {
    payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(application_id))
        .count(&app.db)
        .await
        .unwrap()
}

async fn status_of(app: &TestApp, application_id: i32) -> LotteryStatus {
    event_entry_application::Entity::find_by_id(application_id).one(&app.db).await.unwrap().unwrap().lottery_status
}

#[rocket::async_test]
async fn a_card_payment_settles_once_however_often_it_is_sent() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with_stripe(&stripe.base, 5_000).await;
    let mut owner = app.with_user("stripe_owner").await;
    let mut stranger = app.with_user("stripe_stranger").await;
    let won = app.won_application(&owner, "StripeFair").await;
    owner.renew().await;
    stranger.renew().await;

    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let (pi, uuid) = (opened["order_id"].as_str().unwrap(), opened["transaction_uuid"].as_str().unwrap());
    assert!(pi.starts_with("pi_"), "{opened}");
    assert_eq!((opened["amount"].as_i64(), opened["currency"].as_str()), (Some(8000), Some("JPY")));
    let (_, again) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!((again["order_id"].as_str(), again["transaction_uuid"].as_str()), (Some(pi), Some(uuid)), "reused");
    let intent = stripe.intent(pi).await;
    assert_eq!((intent["amount"].as_i64(), intent["currency"].as_str()), (Some(8000), Some("jpy")));
    assert_eq!(intent["metadata"]["transaction_uuid"].as_str(), Some(uuid));

    // Strangers see none of it.
    let (status, _) = stranger.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 404);
    let card = stripe.card("4242424242424242").await;
    let capture = json!({"transaction_uuid": uuid, "payment_method": card});
    let (status, _) = stranger.post_json("/api/v1/user/payment/capture", &capture).await;
    assert_eq!(status, 404);

    // Twenty captures at once (a double click, a reload, a second tab): one charge, one payment.
    let answers = join_all((0..20).map(|_| owner.post_json("/api/v1/user/payment/capture", &capture))).await;
    let ids: Vec<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            body["id"].as_i64().unwrap()
        })
        .collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    let paid = &answers[0].1;
    assert_eq!(paid["payment_type"], "stripe");
    assert_eq!((paid["amount"].as_i64(), paid["order_reference"].as_str()), (Some(8000), Some(pi)));
    assert_eq!(paid["transaction_uuid"].as_str(), Some(uuid));
    assert_eq!(payments_of(&app, won.application_id).await, 1);
    assert_eq!(status_of(&app, won.application_id).await, LotteryStatus::Paid);
    let intent = stripe.intent(pi).await;
    assert_eq!(intent["status"], "succeeded");

    // Paid: no new attempt; the history lists it, for its owner only.
    let (status, body) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("already_paid")));
    let (status, list) = owner.get_json("/api/v1/user/payment_histories").await;
    assert_eq!(status, 200);
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    assert_eq!(list["data"][0]["event_name"], "テスト展 StripeFair");
    let (status, _) = owner.get_json(&format!("/api/v1/user/payment_histories/{}", ids[0])).await;
    assert_eq!(status, 200);
    let (status, _) = stranger.get_json(&format!("/api/v1/user/payment_histories/{}", ids[0])).await;
    assert_eq!(status, 404);
    let (_, theirs) = stranger.get_json("/api/v1/user/payment_histories").await;
    assert_eq!(theirs["data"].as_array().unwrap().len(), 0);
}

#[rocket::async_test]
#[ignore = "localstripe 1.15.10 cannot confirm an intent again after a failed charge, real Stripe can: \
            the failed charge stays its latest_charge, so after POST /v1/payment_intents/{id} with the \
            new card it stays requires_payment_method and /confirm answers 400 (it wants \
            requires_confirmation; confirm with payment_method is 500 'Not implemented') - the \
            second card gets 422 payment_declined. Needs a fake that follows Stripe here"]
async fn a_declined_card_leaves_the_attempt_open_for_another_card() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with_stripe(&stripe.base, 5_000).await;
    let mut owner = app.with_user("stripe_declined").await;
    let won = app.won_application(&owner, "StripeDecline").await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let uuid = opened["transaction_uuid"].as_str().unwrap();

    let declined = stripe.card("4000000000000341").await;
    let (status, body) = owner
        .post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid, "payment_method": declined}))
        .await;
    assert_eq!((status, body["code"].as_str()), (422, Some("payment_declined")), "{body}");
    assert_eq!(payments_of(&app, won.application_id).await, 0);
    assert_eq!(status_of(&app, won.application_id).await, LotteryStatus::FirstWin);

    let good = stripe.card("4242424242424242").await;
    let (status, body) = owner
        .post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid, "payment_method": good}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(payments_of(&app, won.application_id).await, 1);
}

#[rocket::async_test]
async fn provider_down_or_silent_on_capture_never_settles_blindly_and_is_reconciled() {
    let Some(stripe) = LocalStripe::start() else { return };
    let gate = Gate::start(stripe.base.trim_start_matches("http://")).await;
    let app = app_with_stripe(&gate.base, 500).await;
    let mut owner = app.with_user("stripe_down").await;
    let won = app.won_application(&owner, "StripeDown").await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let (pi, uuid) = (opened["order_id"].as_str().unwrap().to_string(), opened["transaction_uuid"].as_str().unwrap());

    // The payer's browser confirmed the intent with Stripe.js (straight at Stripe): money taken.
    let card = stripe.card("4242424242424242").await;
    let http = reqwest::Client::new();
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(SECRET_KEY)
        .form(&[("payment_method", card.as_str())])
        .send()
        .await
        .unwrap();
    let confirmed = http
        .post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base))
        .bearer_auth(SECRET_KEY)
        .send()
        .await
        .unwrap();
    assert!(confirmed.status().is_success());

    // Then our capture meets a 503, then a timeout: 502 payment_pending, nothing settled.
    let capture = json!({"transaction_uuid": uuid});
    for mode in [GateMode::Down, GateMode::Hang] {
        gate.set(mode);
        let started = std::time::Instant::now();
        let (status, body) = owner.post_json("/api/v1/user/payment/capture", &capture).await;
        assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")), "{mode:?}: {body}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{mode:?} answered within the timeout");
        assert_eq!(payments_of(&app, won.application_id).await, 0, "{mode:?}: never settled blindly");
        let o = order::Entity::find().filter(order::Column::TransactionUuid.eq(uuid)).one(&app.db).await.unwrap();
        assert_eq!(o.unwrap().state, OrderState::Pending);
    }

    // The reconcile asks Stripe: silent → later; answering → settled, once.
    let providers = Providers::from_config(&app.config);
    let id =
        order::Entity::find().filter(order::Column::TransactionUuid.eq(uuid)).one(&app.db).await.unwrap().unwrap().id;
    gate.set(GateMode::Down);
    let senders = app.senders();
    assert_eq!(
        payments::reconcile(&app.db, senders.outbox(), &providers, id, app.clock.now()).await.unwrap(),
        Reconciled::Retry
    );
    gate.set(GateMode::Up);
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    let workers = vmarket::workers::start(ctx).await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while payments_of(&app, won.application_id).await == 0 {
        assert!(std::time::Instant::now() < deadline, "the reconcile job settled the payment");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    workers.stop().await;
    assert_eq!(status_of(&app, won.application_id).await, LotteryStatus::Paid);
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &capture).await;
    assert_eq!(status, 200, "the capture now answers the settled payment: {body}");
    let charges = stripe.intent(&pi).await;
    assert_eq!(charges["status"], "succeeded");
    assert_eq!(payments_of(&app, won.application_id).await, 1);
}

/// Sends `body` to the webhook with `signature`.
async fn webhook(app: &TestApp, body: &str, signature: Option<String>) -> (u16, Value) {
    let mut req = app.client.post("/api/v1/payment/stripe/webhook").header(ContentType::JSON).body(body);
    if let Some(sig) = signature {
        req = req.header(Header::new("Stripe-Signature", sig));
    }
    let res = req.dispatch().await;
    let status = res.status().code;
    (status, res.into_json::<Value>().await.unwrap_or(Value::Null))
}

fn event(id: &str, kind: &str, pi: &str, amount: i64, status: &str) -> String {
    json!({
        "id": id, "object": "event", "type": kind,
        "data": {"object": {"id": pi, "object": "payment_intent", "status": status, "amount": amount, "currency": "jpy"}}
    })
    .to_string()
}

#[rocket::async_test]
async fn webhooks_are_verified_and_processed_once() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with_stripe(&stripe.base, 5_000).await;
    let mut owner = app.with_user("stripe_hook").await;
    let won = app.won_application(&owner, "StripeHook").await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let pi = opened["order_id"].as_str().unwrap().to_string();
    let now = app.clock.real_now().timestamp();
    let body = event("evt_paid", "payment_intent.succeeded", &pi, 8000, "succeeded");

    let refused = [
        ("no signature", body.clone(), None),
        ("tampered body", body.replace("8000", "1"), Some(sign(body.as_bytes(), WEBHOOK_SECRET, now))),
        ("wrong secret", body.clone(), Some(sign(body.as_bytes(), "whsec_wrong", now))),
        ("stale timestamp", body.clone(), Some(sign(body.as_bytes(), WEBHOOK_SECRET, now - 301))),
        ("from the future", body.clone(), Some(sign(body.as_bytes(), WEBHOOK_SECRET, now + 301))),
    ];
    for (what, payload, signature) in refused {
        let (status, answer) = webhook(&app, &payload, signature).await;
        assert_eq!((status, answer["code"].as_str()), (400, Some("invalid_signature")), "{what}");
    }
    assert_eq!(payments_of(&app, won.application_id).await, 0, "nothing refused was applied");

    // Unknown event types are verified, then ignored (and recorded once).
    let other = json!({"id": "evt_other", "type": "customer.created", "data": {"object": {"id": "cus_1"}}}).to_string();
    let (status, answer) = webhook(&app, &other, Some(sign(other.as_bytes(), WEBHOOK_SECRET, now))).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("ignored")));

    // A valid event signed with the previous secret (rotation) settles the payment, once.
    let (status, answer) = webhook(&app, &body, Some(sign(body.as_bytes(), OLD_SECRET, now))).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("processed")), "{answer}");
    assert_eq!(payments_of(&app, won.application_id).await, 1);
    assert_eq!(status_of(&app, won.application_id).await, LotteryStatus::Paid);
    // Replayed (same id, fresh signature): nothing happens again.
    let (status, answer) = webhook(&app, &body, Some(sign(body.as_bytes(), WEBHOOK_SECRET, now))).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("duplicate")));
    // Out of order: a cancel arriving after the success changes nothing.
    let cancel = event("evt_cancel", "payment_intent.canceled", &pi, 8000, "canceled");
    let (status, _) = webhook(&app, &cancel, Some(sign(cancel.as_bytes(), WEBHOOK_SECRET, now))).await;
    assert_eq!(status, 200);
    assert_eq!(payments_of(&app, won.application_id).await, 1);
    let o = order::Entity::find().filter(order::Column::ProviderOrderId.eq(pi.as_str())).one(&app.db).await.unwrap();
    assert_eq!(o.unwrap().state, OrderState::Captured);
    let seen = payment_webhook_event::Entity::find().count(&app.db).await.unwrap();
    assert_eq!(seen, 3, "other, paid, cancel: each recorded once");

    // The capture afterwards answers the settled payment.
    let uuid = opened["transaction_uuid"].as_str().unwrap();
    let (status, _) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!(status, 200);
    let _ = Duration::zero();
}

#[rocket::async_test]
async fn localstripe_s_own_signed_webhook_settles_a_browser_confirmed_payment() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with_stripe(&stripe.base, 5_000).await;
    stripe.register_webhook(&format!("{}/api/v1/payment/stripe/webhook", app.origin), WEBHOOK_SECRET).await;
    // localstripe signs with the wall clock's time (`t=` is the event's `created`), and the app
    // checks `t` against its clock without time travel, which `won_application` moves to the
    // payment window (13 days on): the event was refused as stale (400). So the event starts 13
    // days and an hour back, and the payment window opens at the wall clock's now.
    app.clock.set(chrono::Utc::now() - Duration::days(13) - Duration::hours(1));
    let mut owner = app.with_user("stripe_js").await;
    let won = app.won_application(&owner, "StripeJs").await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let pi = opened["order_id"].as_str().unwrap();
    let card = stripe.card("4242424242424242").await;
    let http = reqwest::Client::new();
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(SECRET_KEY)
        .form(&[("payment_method", card.as_str())])
        .send()
        .await
        .unwrap();
    http.post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base)).bearer_auth(SECRET_KEY).send().await.unwrap();
    // localstripe sends `payment_intent.succeeded` about a second later, signed as Stripe does.
    // The handler settles the payment and then records the event (a failed settlement leaves the
    // event unrecorded, so Stripe's retry applies it): wait for both, the record comes a moment
    // after the payment (CI once read the payment between the two, 2026-11-27).
    let delivered = || async {
        payment_webhook_event::Entity::find()
            .filter(payment_webhook_event::Column::EventType.eq("payment_intent.succeeded"))
            .count(&app.db)
            .await
            .unwrap()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while payments_of(&app, won.application_id).await == 0 || delivered().await == 0 {
        assert!(std::time::Instant::now() < deadline, "the webhook settled the payment and was recorded");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(status_of(&app, won.application_id).await, LotteryStatus::Paid);
    assert_eq!(payments_of(&app, won.application_id).await, 1, "one payment");
    assert_eq!(delivered().await, 1, "settled by localstripe's signed delivery, recorded once");
}

#[rocket::async_test]
async fn a_signature_timestamp_out_of_range_is_refused_with_the_error_body_not_a_crash() {
    let app = TestApp::builder().config(|c| c.stripe_webhook_secrets = vec![WEBHOOK_SECRET.into()]).build().await;
    let body = event("evt_overflow", "payment_intent.succeeded", "pi_overflow", 8000, "succeeded");
    // `now - t` overflows an i64 for these: the check used to panic (a 500) before any signature
    // was compared.
    for t in [i64::MIN, i64::MIN + 1, -(i64::MAX - 10), i64::MAX] {
        let signature = sign(body.as_bytes(), WEBHOOK_SECRET, t);
        let (status, answer) = webhook(&app, &body, Some(signature)).await;
        assert_eq!((status, answer["code"].as_str()), (400, Some("invalid_signature")), "t={t}: {answer}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "t={t}: {answer}");
        assert!(answer["details"].is_array(), "t={t}: {answer}");
    }
    // A timestamp that is not a number at all is as malformed as a missing one.
    let (status, answer) = webhook(&app, &body, Some("t=99999999999999999999999,v1=00".into())).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("invalid_signature")), "{answer}");
}
