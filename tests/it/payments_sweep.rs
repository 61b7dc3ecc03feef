//! The payment sweep (`PaymentSweep`, once a minute, by the site's clock with time travel): a
//! payer who paid at the provider and closed the tab — no return, no webhook — is settled a few
//! minutes later; looks at an attempt are spaced; an attempt left unpaid until its window closed
//! is cancelled at Stripe and expired; a payment Stripe confirms after the window is stored with
//! `is_late`. Against the fake PayPal and localstripe, on SQLite and PostgreSQL.

use chrono::Duration;
use serde_json::json;
use vmarket::db::entities::payment_history;
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::OrderState;
use vmarket::model::phase::PhaseType;
use vmarket::payments::Reconciled;
use vmarket::payments::jobs::PaymentSweep;
use vmarket::queue::JobContext;

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::fakes::{Fake, Kind, app_with};
use crate::support::localstripe::{LocalStripe, PUBLISHABLE_KEY, SECRET_KEY};

fn context(app: &TestApp) -> JobContext {
    JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).expect("job context")
}

async fn sweep(app: &TestApp) -> Vec<(i32, Reconciled)> {
    PaymentSweep::tick(&context(app)).await.expect("the sweep runs")
}

/// The order id in an approval link (`…/checkoutnow?token=ID`).
fn token_of(url: &str) -> String {
    url::Url::parse(url).unwrap().query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned()).unwrap()
}

#[rocket::async_test]
async fn a_paypal_approval_with_no_return_and_no_webhook_is_captured_by_the_sweep() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("sweep_paypal").await;
    let won = app.won_application(&owner, "SweepPayPal").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "paypal"});
    let (status, to) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(status, 200, "{to}");
    let uuid = to["transaction_uuid"].as_str().unwrap();
    let order_id = token_of(to["redirect_url"].as_str().unwrap());
    let id = app.attempt(uuid).await.id;
    let captures = || async { paypal.get(&format!("/_fake/orders/{order_id}")).await["captures"].as_i64().unwrap() };

    // The payer is at PayPal: too soon to ask.
    assert_eq!(sweep(&app).await, []);
    // Six minutes later (time travel): asked once; not approved yet, so nothing to do.
    app.clock.set_travel(Duration::minutes(6));
    assert_eq!(sweep(&app).await, [(id, Reconciled::Waiting)]);
    assert_eq!(app.attempt(uuid).await.reconcile_attempts, 1);
    // The payer approves and closes the tab. The next look is ten minutes after the last one.
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    app.clock.set_travel(Duration::minutes(15));
    assert_eq!(sweep(&app).await, [], "looked at five minutes ago");
    assert_eq!(captures().await, 0);
    app.clock.set_travel(Duration::minutes(17));
    assert_eq!(sweep(&app).await, [(id, Reconciled::Done("settled"))]);
    assert_eq!(captures().await, 1);
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);
    assert_eq!(app.attempt(uuid).await.state, OrderState::Captured);
    // Nothing pending: the sweeps after it ask nothing.
    app.clock.set_travel(Duration::hours(3));
    assert_eq!(sweep(&app).await, []);
    assert_eq!(captures().await, 1);
}

/// Opens `owner`'s card attempt; its PaymentIntent id and transaction.
async fn pre_order(owner: &Actor<'_>, application_id: i32) -> (String, String) {
    let ask = json!({"application_id": application_id, "payment_type": "stripe"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 200, "{opened}");
    (opened["order_id"].as_str().unwrap().to_string(), opened["transaction_uuid"].as_str().unwrap().to_string())
}

/// What the payer's browser does with Stripe.js: attaches `card` to `pi` and confirms it at
/// Stripe; the answer's status.
async fn confirm_in_browser(stripe: &LocalStripe, pi: &str, card: &str) -> u16 {
    let http = reqwest::Client::new();
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(SECRET_KEY)
        .form(&[("payment_method", card)])
        .send()
        .await
        .unwrap();
    let res = http.post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base)).bearer_auth(SECRET_KEY).send();
    res.await.unwrap().status().as_u16()
}

async fn the_payment(app: &TestApp, application_id: i32) -> payment_history::Model {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let found = payment_history::Entity::find().filter(payment_history::Column::ApplicationId.eq(application_id));
    found.one(&app.db).await.unwrap().expect("a settled payment")
}

#[rocket::async_test]
async fn card_attempts_are_settled_cancelled_at_stripe_and_expired_or_settled_late_by_the_sweep() {
    let Some(stripe) = LocalStripe::start() else { return };
    let base = stripe.base.clone();
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            c.stripe_js_url = format!("{base}/js.stripe.com/v3/");
            c.stripe_api_base = base;
            c.stripe_secret_key = SECRET_KEY.into();
            c.stripe_publishable_key = PUBLISHABLE_KEY.into();
        })
        .build()
        .await;
    let mut owner = app.with_user("sweep_card").await;

    // 3-D Secure passed in the browser, the tab closed before our capture call: settled.
    let won = app.won_application(&owner, "SweepCard").await;
    owner.renew().await;
    let (pi, uuid) = pre_order(&owner, won.application_id).await;
    assert_eq!(confirm_in_browser(&stripe, &pi, &stripe.card("4242424242424242").await).await, 200);
    assert_eq!(sweep(&app).await, []);
    app.clock.set_travel(Duration::minutes(6));
    let id = app.attempt(&uuid).await.id;
    assert_eq!(sweep(&app).await, [(id, Reconciled::Done("settled"))]);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);
    assert!(!the_payment(&app, won.application_id).await.is_late);

    // Opened, never paid, and the window closes: cancelled at Stripe, then expired.
    app.clock.set_travel(Duration::zero());
    owner.renew().await;
    let unpaid = app.won_application(&owner, "SweepUnpaid").await;
    owner.renew().await;
    let (pi, uuid) = pre_order(&owner, unpaid.application_id).await;
    let id = app.attempt(&uuid).await.id;
    let closed = unpaid.event.at(PhaseType::FirstPaymentEnd) + Duration::hours(1);
    app.clock.set_travel(closed - app.clock.now());
    assert_eq!(sweep(&app).await, [(id, Reconciled::Done("expired"))]);
    let attempt = app.attempt(&uuid).await;
    assert_eq!((attempt.state, attempt.failure.as_deref()), (OrderState::Expired, Some("window_closed")));
    assert_eq!(stripe.intent(&pi).await["status"], "canceled", "the intent cannot be confirmed any more");
    let late_try = confirm_in_browser(&stripe, &pi, &stripe.card("4242424242424242").await).await;
    assert!(late_try >= 400, "a confirm with the payer's client secret is refused: {late_try}");
    assert_eq!(stripe.intent(&pi).await["status"], "canceled");
    assert_eq!(app.settled_payments(unpaid.application_id).await, 0);

    // Paid at Stripe in time, but we only hear of it after the window closed: kept, is_late.
    app.clock.set_travel(Duration::zero());
    owner.renew().await;
    let late = app.won_application(&owner, "SweepLate").await;
    owner.renew().await;
    let (pi, uuid) = pre_order(&owner, late.application_id).await;
    assert_eq!(confirm_in_browser(&stripe, &pi, &stripe.card("4242424242424242").await).await, 200);
    let id = app.attempt(&uuid).await.id;
    let closed = late.event.at(PhaseType::FirstPaymentEnd) + Duration::hours(1);
    app.clock.set_travel(closed - app.clock.now());
    assert_eq!(sweep(&app).await, [(id, Reconciled::Done("settled"))]);
    assert_eq!(stripe.intent(&pi).await["status"], "succeeded");
    assert!(the_payment(&app, late.application_id).await.is_late, "flagged for staff");
    assert_eq!(app.attempt(&uuid).await.state, OrderState::Captured);
    assert_eq!(sweep(&app).await, []);
}

#[rocket::async_test]
async fn the_workers_run_the_sweep_once_a_minute() {
    let app = TestApp::builder().live().build().await;
    let workers = app.start_workers().await;
    use sea_orm::{ConnectionTrait, Statement};
    let table = match app.db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => "apalis.jobs",
        _ => "Jobs",
    };
    let query = format!("SELECT COUNT(*) AS n FROM {table} WHERE job_type = 'payment_sweep'");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let row = app.db.query_one_raw(Statement::from_string(app.db.get_database_backend(), query.clone())).await;
        let n: i64 = row.unwrap().unwrap().try_get("", "n").unwrap();
        // The tick of this minute (run on start) and the one it scheduled for the next.
        if n >= 2 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the sweep was started and scheduled its next tick ({n})");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    workers.stop().await;
}
