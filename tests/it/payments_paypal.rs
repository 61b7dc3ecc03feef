//! PayPal end to end against the fake PayPal (`scripts/fakes/paypal.py`, Orders v2 over real
//! HTTP): the redirect flow through the approval page and back to `/checkout`, the JavaScript
//! buttons' `create_order_id` / `capture` calls, a hundred concurrent captures charging once, a
//! declined card approved again, PayPal down or silent at capture (no second charge, reconciled),
//! an expired access token, and the webhook suite (missing headers, tampered body, another
//! webhook's signature, stale transmission, replay, unknown event type, PayPal unable to verify,
//! a valid event processed once).

use rocket::futures::future::join_all;
use rocket::http::{ContentType, Header};
use serde_json::{Value, json};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::OrderState;
use vmarket::payments::{self, Providers, Reconciled};

use crate::support::TestApp;
use crate::support::fakes::{Fake, Kind, PAYPAL_WEBHOOK_ID, app_with, path_of};
use crate::support::html::Doc;

/// The order id in an approval link (`…/checkoutnow?token=ID`).
fn token_of(url: &str) -> String {
    url::Url::parse(url).unwrap().query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned()).unwrap()
}

/// The payer at the fake's approval page: opens it, presses `choice`; where PayPal sends them.
async fn approve_in_browser(fake: &Fake, approval_url: &str, choice: &str) -> String {
    let page = fake.http().get(approval_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("8000 JPY"), "the approval page shows the amount: {html}");
    assert!(html.contains("デモ") && html.contains("demo"), "the fake says it is a demo");
    let res = fake
        .http()
        .post(format!("{}/checkoutnow", fake.base))
        .form(&[("token", token_of(approval_url).as_str()), ("choice", choice)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    res.headers()["location"].to_str().unwrap().to_string()
}

async fn captures_at_paypal(fake: &Fake, order_id: &str) -> i64 {
    fake.get(&format!("/_fake/orders/{order_id}")).await["captures"].as_i64().unwrap()
}

#[rocket::async_test]
async fn a_paypal_payment_through_the_redirect_and_checkout_settles_once() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    let mut owner = app.with_user("pp_owner").await;
    let mut stranger = app.with_user("pp_stranger").await;
    let won = app.won_application(&owner, "PayPalFair").await;
    paypal.follow(&app).await;
    owner.renew().await;
    stranger.renew().await;

    let ask = json!({"application_id": won.application_id, "payment_type": "paypal"});
    let (status, to) = owner.post_json("/api/v1/user/payment/redirect?lang=en", &ask).await;
    assert_eq!(status, 200, "{to}");
    let (url, uuid) = (to["redirect_url"].as_str().unwrap().to_string(), to["transaction_uuid"].as_str().unwrap());
    assert!(url.starts_with(&format!("{}/checkoutnow?token=", paypal.base)), "{url}");
    let order_id = token_of(&url);
    let (_, again) = owner.post_json("/api/v1/user/payment/redirect?lang=en", &ask).await;
    assert_eq!((again["redirect_url"].as_str(), again["transaction_uuid"].as_str()), (Some(url.as_str()), Some(uuid)));
    let (status, _) = stranger.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(status, 404, "a stranger cannot pay someone else's application");
    let at_paypal = paypal.get(&format!("/_fake/orders/{order_id}")).await;
    assert_eq!(at_paypal["purchase_units"][0]["amount"], json!({"currency_code": "JPY", "value": "8000"}));
    assert_eq!(at_paypal["purchase_units"][0]["custom_id"].as_str(), Some(uuid));

    // Back before paying (the payer pressed back): nothing is paid, nothing captured.
    let (status, html) = app.page(&format!("/en/checkout?transaction={uuid}")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "not_paid");
    assert_eq!(app.settled_payments(won.application_id).await, 0);

    // The payer approves at PayPal and comes back (not signed in: a fresh browser).
    let back = approve_in_browser(&paypal, &url, "pay").await;
    assert!(back.starts_with(&format!("{}/en/checkout?transaction={uuid}&token={order_id}&PayerID=", app.origin)));
    let (status, html) = app.page(&path_of(&back)).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=checkout]", "data-outcome"), "paid", "{html}");
    assert_eq!(doc.attr("[data-testid=checkout-complete]", "href"), format!("/en/payment/complete?transaction={uuid}"));
    assert_eq!(doc.count("[data-testid=checkout-amount]"), 0, "a visitor who is not the payer sees only the outcome");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);

    // Reloads, a second return, a cross-site POST back, the payer's own view: one capture.
    for _ in 0..3 {
        let (_, html) = app.page(&path_of(&back)).await;
        assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "paid");
    }
    let posted = app.client.post(format!("/checkout?transaction={uuid}")).header(ContentType::Form).body("x=1");
    let res = posted.dispatch().await;
    assert_eq!(res.status().code, 303);
    assert_eq!(res.headers().get_one("Location"), Some(format!("/checkout?transaction={uuid}").as_str()));
    let (_, mine) = owner.page(&format!("/checkout?transaction={uuid}")).await;
    let doc = Doc::parse(&mine);
    assert_eq!(doc.text("[data-testid=checkout-amount]"), "8,000円", "the payer sees what they paid");
    assert_eq!(doc.count("[data-testid=demo-provider]"), 0, "not the demo's providers");
    let (_, theirs) = stranger.page(&format!("/checkout?transaction={uuid}")).await;
    assert_eq!(Doc::parse(&theirs).count("[data-testid=checkout-amount]"), 0);
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1, "captured exactly once");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    let (status, list) = owner.get_json("/api/v1/user/payment_histories").await;
    assert_eq!(status, 200);
    assert_eq!(list["data"][0]["payment_type"], "paypal");
    assert_eq!(list["data"][0]["order_reference"].as_str(), Some(order_id.as_str()));

    // Paid: nothing opens again.
    let (status, body) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("already_paid")));
    // Anything but a UUID we know is the 404 page.
    for bad in ["nope", "00000000-0000-4000-8000-000000000000", ""] {
        let (status, _) = app.page(&format!("/checkout?transaction={bad}")).await;
        assert_eq!(status, 404, "{bad:?}");
    }
}

#[rocket::async_test]
async fn the_paypal_buttons_create_and_a_hundred_concurrent_captures_charge_once() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 10_000).await;
    let mut owner = app.with_user("pp_buttons").await;
    let mut stranger = app.with_user("pp_buttons_x").await;
    let won = app.won_application(&owner, "PayPalButtons").await;
    paypal.follow(&app).await;
    owner.renew().await;
    stranger.renew().await;

    let (status, created) = owner
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    assert_eq!(status, 200, "{created}");
    let order_id = created["order_id"].as_str().unwrap().to_string();
    assert_eq!((created["amount"].as_i64(), created["currency"].as_str()), (Some(8000), Some("JPY")));
    let (_, again) = owner
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    assert_eq!(again["order_id"].as_str(), Some(order_id.as_str()), "a double click opens one order");

    let capture = json!({"order_id": order_id});
    let (status, body) = owner.post_json("/api/v1/user/payment/paypal/capture", &capture).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("payment_not_completed")), "not approved yet");
    for bad in
        [json!({"order_id": order_id}), json!({"order_id": "../../v1/oauth2/token"}), json!({"order_id": "NOPE1"})]
    {
        let (status, _) = stranger.post_json("/api/v1/user/payment/paypal/capture", &bad).await;
        assert_eq!(status, 404, "{bad}");
    }
    let (status, _) = owner.post_json("/api/v1/user/payment/paypal/capture", &json!({})).await;
    assert_eq!(status, 422);

    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({"funding": "ok"})).await;
    let answers = join_all((0..100).map(|_| owner.post_json("/api/v1/user/payment/paypal/capture", &capture))).await;
    let ids: Vec<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            body["id"].as_i64().unwrap()
        })
        .collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one payment: {ids:?}");
    assert_eq!(answers[0].1["payment_type"], "paypal");
    assert_eq!(answers[0].1["amount"].as_i64(), Some(8000));
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1, "PayPal captured once");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    // The generic capture answers the same payment for a PayPal attempt.
    let uuid = created["transaction_uuid"].as_str().unwrap();
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!((status, body["id"].as_i64()), (200, Some(ids[0])));
    let (status, _) = stranger.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!(status, 404);
}

/// The control of the test above: the same hundred captures over HTTP on a schema without the
/// unique keys of `payment_histories` settle the application more than once, so that test can fail.
#[rocket::async_test]
async fn control_without_the_unique_keys_a_hundred_captures_pay_more_than_once() {
    use sea_orm::ConnectionTrait;
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 10_000).await;
    for index in ["application_id", "order_id", "transaction_uuid"] {
        app.db.execute_unprepared(&format!("DROP INDEX idx_payment_histories_{index}")).await.expect("dropped");
    }
    let mut owner = app.with_user("pp_control").await;
    let won = app.won_application(&owner, "PayPalControl").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, created) = owner
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    let order_id = created["order_id"].as_str().unwrap().to_string();
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    let capture = json!({"order_id": order_id});
    join_all((0..100).map(|_| owner.post_json("/api/v1/user/payment/paypal/capture", &capture))).await;
    let count = app.settled_payments(won.application_id).await;
    assert!(count > 1, "without the unique keys the captures are not guarded (got {count})");
}

#[rocket::async_test]
async fn a_declined_card_is_approved_again_and_captured_under_a_new_key() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    let mut owner = app.with_user("pp_declined").await;
    let won = app.won_application(&owner, "PayPalDecline").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, to) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "paypal"}),
        )
        .await;
    let (url, uuid) = (to["redirect_url"].as_str().unwrap().to_string(), to["transaction_uuid"].as_str().unwrap());

    let back = approve_in_browser(&paypal, &url, "declined").await;
    let (_, html) = app.page(&path_of(&back)).await;
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "declined");
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    let attempt = app.attempt(uuid).await;
    assert_eq!((attempt.state, attempt.provider_attempt), (OrderState::Pending, 1));

    // The payer tries again: the same attempt, the same approval page, another card.
    let (_, again) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "paypal"}),
        )
        .await;
    assert_eq!(again["redirect_url"].as_str(), Some(url.as_str()));
    let back = approve_in_browser(&paypal, &url, "pay").await;
    let (_, html) = app.page(&path_of(&back)).await;
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "paid", "{html}");
    assert_eq!(captures_at_paypal(&paypal, &token_of(&url)).await, 1);
    assert_eq!(app.settled_payments(won.application_id).await, 1);
}

#[rocket::async_test]
async fn paypal_down_or_silent_at_capture_never_charges_twice_and_is_reconciled() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 800).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("pp_down").await;
    let won = app.won_application(&owner, "PayPalDown").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, created) = owner
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    let (order_id, uuid) =
        (created["order_id"].as_str().unwrap().to_string(), created["transaction_uuid"].as_str().unwrap());
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    let capture = json!({"order_id": order_id});

    // A 503 before PayPal acted, then a capture PayPal made but whose answer was lost (a 500
    // after the fact, then an answer slower than our timeout): 502 payment_pending, nothing settled.
    paypal.fault("POST", "/capture$", "503", 1).await;
    let (status, body) = owner.post_json("/api/v1/user/payment/paypal/capture", &capture).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")), "{body}");
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 0);
    paypal.fault("POST", "/capture$", "500_after", 1).await;
    let (status, body) = owner.post_json("/api/v1/user/payment/paypal/capture", &capture).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")), "{body}");
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1, "PayPal took the money");
    assert_eq!(app.settled_payments(won.application_id).await, 0, "but we never settle blindly");
    assert_eq!(app.attempt(uuid).await.state, OrderState::Pending);

    // PayPal silent: the reconcile waits; PayPal back: settled once, not captured again.
    let providers = Providers::from_config(&app.config);
    let id = app.attempt(uuid).await.id;
    paypal.fault("GET", "/v2/checkout/orders/", "hang", 1).await;
    assert_eq!(
        payments::reconcile(&app.db, app.senders().outbox(), &providers, id, app.clock.now()).await.unwrap(),
        Reconciled::Retry
    );
    paypal.heal().await;
    let workers = app.start_workers().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while app.settled_payments(won.application_id).await == 0 {
        assert!(std::time::Instant::now() < deadline, "the reconcile job settled the payment");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    workers.stop().await;
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1, "one charge in all");
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);
    let (status, _) = owner.post_json("/api/v1/user/payment/paypal/capture", &capture).await;
    assert_eq!(status, 200, "the capture now answers the settled payment");
}

#[rocket::async_test]
async fn an_expired_access_token_is_renewed_once_and_a_missed_approval_is_captured_by_the_reconcile() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("pp_token").await;
    let won = app.won_application(&owner, "PayPalToken").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "paypal"});
    let (_, to) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(paypal.get("/_fake/state").await["tokens_issued"], 1);
    paypal.config(json!({"expire_tokens": true})).await;
    let (status, again) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(paypal.get("/_fake/state").await["tokens_issued"], 2, "a 401 fetched one new token");
    let (_, _) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(paypal.get("/_fake/state").await["tokens_issued"], 2, "and it is kept for the next calls");

    // The payer approved and closed the tab: no return, no webhook. The reconcile captures.
    let order_id = token_of(to["redirect_url"].as_str().unwrap());
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    let found = app.attempt(to["transaction_uuid"].as_str().unwrap()).await;
    let providers = Providers::from_config(&app.config);
    let outcome =
        payments::reconcile(&app.db, app.senders().outbox(), &providers, found.id, app.clock.now()).await.unwrap();
    assert_eq!(outcome, Reconciled::Done("settled"));
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1);
    assert_eq!(app.settled_payments(won.application_id).await, 1);
}

/// Sends a webhook with `headers` and `body` to the app; status and JSON answer.
async fn webhook(app: &TestApp, headers: &Value, body: &str) -> (u16, Value) {
    let mut req = app.client.post("/api/v1/payment/paypal/webhook").header(ContentType::JSON).body(body);
    if let Some(map) = headers.as_object() {
        for (name, value) in map {
            req = req.header(Header::new(name.clone(), value.as_str().unwrap().to_string()));
        }
    }
    let res = req.dispatch().await;
    let status = res.status().code;
    (status, res.into_json::<Value>().await.unwrap_or(Value::Null))
}

/// A webhook of `event_type` about `order_id` signed by the fake (for `webhook_id`, at `time`).
async fn signed(
    fake: &Fake,
    event_type: &str,
    order_id: &str,
    webhook_id: &str,
    time: Option<String>,
) -> (Value, String) {
    let resource = if event_type.starts_with("PAYMENT.CAPTURE") {
        json!({"id": "CAP1", "status": "COMPLETED", "amount": {"currency_code": "JPY", "value": "1"},
               "supplementary_data": {"related_ids": {"order_id": order_id}}})
    } else {
        json!({"id": order_id, "status": "APPROVED"})
    };
    let mut ask = json!({"event_type": event_type, "resource": resource, "webhook_id": webhook_id});
    if let Some(t) = time {
        ask["transmission_time"] = json!(t);
    }
    let signed = fake.post("/_fake/webhooks/sign", ask).await;
    (signed["headers"].clone(), signed["body"].as_str().unwrap().to_string())
}

#[rocket::async_test]
async fn webhooks_are_verified_with_paypal_and_processed_once() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("pp_hook").await;
    let won = app.won_application(&owner, "PayPalHook").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, created) = owner
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    let order_id = created["order_id"].as_str().unwrap().to_string();
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;

    let (headers, body) = signed(&paypal, "CHECKOUT.ORDER.APPROVED", &order_id, PAYPAL_WEBHOOK_ID, None).await;
    let stale = (app.clock.real_now() - chrono::Duration::seconds(400)).format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let (stale_headers, stale_body) =
        signed(&paypal, "CHECKOUT.ORDER.APPROVED", &order_id, PAYPAL_WEBHOOK_ID, Some(stale)).await;
    let (other_headers, other_body) =
        signed(&paypal, "CHECKOUT.ORDER.APPROVED", &order_id, "WH-SOMEONE-ELSE", None).await;
    let mut missing = headers.clone();
    missing.as_object_mut().unwrap().remove("PAYPAL-TRANSMISSION-SIG");
    let refused = [
        ("no headers", json!({}), body.clone(), 400, "invalid_signature"),
        ("a header missing", missing, body.clone(), 400, "invalid_signature"),
        ("tampered body", headers.clone(), body.replace("APPROVED", "COMPLETED"), 400, "invalid_signature"),
        ("re-serialized (a space added)", headers.clone(), body.replacen(',', ", ", 1), 400, "invalid_signature"),
        ("another webhook's signature", other_headers, other_body, 400, "invalid_signature"),
        ("stale transmission", stale_headers, stale_body, 400, "invalid_signature"),
        ("not an event", headers.clone(), "[]".to_string(), 400, "bad_request"),
    ];
    for (what, headers, body, status, code) in refused {
        let (got, answer) = webhook(&app, &headers, &body).await;
        assert_eq!((got, answer["code"].as_str()), (status, Some(code)), "{what}: {answer}");
    }
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 0, "nothing refused was acted on");
    assert_eq!(app.settled_payments(won.application_id).await, 0);

    // PayPal cannot verify right now: 502, so PayPal delivers it again; nothing recorded.
    paypal.fault("POST", "verify-webhook-signature", "503", 1).await;
    let (status, _) = webhook(&app, &headers, &body).await;
    assert_eq!(status, 502);

    // Verified, of a type we do not handle: ignored.
    let (h, b) = signed(&paypal, "BILLING.SUBSCRIPTION.CREATED", &order_id, PAYPAL_WEBHOOK_ID, None).await;
    let (status, answer) = webhook(&app, &h, &b).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("ignored")));

    // The valid approval: the order is captured (asked of PayPal, not read from the event) once.
    let (status, answer) = webhook(&app, &headers, &body).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("processed")), "{answer}");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1);
    let (status, answer) = webhook(&app, &headers, &body).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("duplicate")), "a replay");
    // A capture event whose body claims another amount changes nothing: PayPal is asked.
    let (h, b) = signed(&paypal, "PAYMENT.CAPTURE.COMPLETED", &order_id, PAYPAL_WEBHOOK_ID, None).await;
    let (status, answer) = webhook(&app, &h, &b).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("processed")));
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1);
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    let attempt = app.attempt(created["transaction_uuid"].as_str().unwrap()).await;
    assert_eq!(attempt.state, OrderState::Captured);
}

#[rocket::async_test]
async fn paypal_s_own_webhook_delivery_settles_a_payer_who_never_came_back() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    let mut owner = app.with_user("pp_delivered").await;
    let won = app.won_application(&owner, "PayPalDelivered").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, to) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "paypal"}),
        )
        .await;
    let order_id = token_of(to["redirect_url"].as_str().unwrap());
    // Approved at PayPal; the browser never returns. PayPal's CHECKOUT.ORDER.APPROVED arrives.
    paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while app.settled_payments(won.application_id).await == 0 {
        assert!(std::time::Instant::now() < deadline, "the webhook settled the payment");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The fake records a delivery once our answer reached it, which may be just after the
    // payment settled: wait for it too.
    loop {
        let deliveries = paypal.get("/_fake/webhooks").await;
        if deliveries.as_array().unwrap().iter().any(|d| d["status"] == 200) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "a delivery answered 200: {deliveries}");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(captures_at_paypal(&paypal, &order_id).await, 1);
}

#[rocket::async_test]
async fn without_a_webhook_id_the_endpoint_is_absent() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let base = paypal.base.clone();
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            c.paypal_api_base = base.clone();
            c.paypal_web_base = base;
            c.paypal_client_id = "id".into();
            c.paypal_client_secret = "secret".into();
        })
        .build()
        .await;
    let (status, _) = webhook(&app, &json!({}), "{}").await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn a_return_whose_token_is_another_order_captures_nothing() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut first = app.with_user("pp_bound_a").await;
    let mut second = app.with_user("pp_bound_b").await;
    let won_first = app.won_application(&first, "PayPalBoundA").await;
    paypal.follow(&app).await;
    first.renew().await;
    let ask = |id: i32| json!({"application_id": id, "payment_type": "paypal"});
    let (_, a) = first.post_json("/api/v1/user/payment/redirect", &ask(won_first.application_id)).await;
    let (uuid_a, order_a) = (a["transaction_uuid"].as_str().unwrap(), token_of(a["redirect_url"].as_str().unwrap()));
    // The first payer approves at once (PayPal forgets an order left unapproved for 3 hours, and
    // the second event is days later).
    paypal.post(&format!("/_fake/orders/{order_a}/approve"), json!({})).await;
    second.renew().await;
    let won_second = app.won_application(&second, "PayPalBoundB").await;
    paypal.follow(&app).await;
    second.renew().await;
    let (_, b) = second.post_json("/api/v1/user/payment/redirect", &ask(won_second.application_id)).await;
    let (uuid_b, order_b) = (b["transaction_uuid"].as_str().unwrap(), token_of(b["redirect_url"].as_str().unwrap()));
    // Both payers approved at PayPal; neither has come back yet.
    paypal.post(&format!("/_fake/orders/{order_b}/approve"), json!({})).await;
    assert_eq!(paypal.get(&format!("/_fake/orders/{order_a}")).await["status"], "APPROVED");

    // A return for one attempt that names the other's order (a link tampered with, or mixed up)
    // is not PayPal's return for it: the 404 page, and nothing is captured — neither order.
    for (uuid, token) in [(uuid_b, order_a.as_str()), (uuid_a, order_b.as_str()), (uuid_b, "NOTANORDER1"), (uuid_b, "")]
    {
        let path = format!("/checkout?transaction={uuid}&token={token}&PayerID=FAKEPAYER");
        let (status, html) = app.page(&path).await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("ページが見つかりません"), "{path}: the 404 page");
    }
    assert_eq!(captures_at_paypal(&paypal, &order_a).await, 0);
    assert_eq!(captures_at_paypal(&paypal, &order_b).await, 0);
    assert_eq!(app.attempt(uuid_b).await.state, OrderState::Pending);

    // The genuine return settles its own attempt only.
    let (status, html) = app.page(&format!("/checkout?transaction={uuid_b}&token={order_b}&PayerID=FAKEPAYER")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "paid", "{html}");
    assert_eq!(captures_at_paypal(&paypal, &order_b).await, 1);
    assert_eq!(captures_at_paypal(&paypal, &order_a).await, 0);
    assert_eq!(app.settled_payments(won_first.application_id).await, 0);
}
