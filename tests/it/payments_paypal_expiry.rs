//! A PayPal order PayPal no longer knows (left unapproved for about three hours, or voided:
//! `404 RESOURCE_NOT_FOUND`): the attempt is closed as `expired` — by the reconcile, by the
//! payer's return, or when the payer asks to pay again, which opens a fresh attempt and order —
//! and the payer can still pay by PayPal. The fake PayPal forgets orders the same way (its
//! `order_ttl` on its clock, which follows the app's, or `/_fake/orders/{id}/expire`).

use chrono::Duration;
use serde_json::json;
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::OrderState;
use vmarket::payments::{self, Providers, Reconciled};

use crate::support::fakes::{Fake, Kind, app_with, path_of};
use crate::support::html::Doc;

/// The order id in an approval link (`…/checkoutnow?token=ID`).
fn token_of(url: &str) -> String {
    url::Url::parse(url).unwrap().query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned()).unwrap()
}

#[rocket::async_test]
async fn an_order_paypal_forgot_is_expired_and_the_payer_pays_with_a_fresh_one() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("pp_expiry").await;
    let won = app.won_application(&owner, "PayPalExpiry").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "paypal"});
    let providers = Providers::from_config(&app.config);

    // The payer goes to PayPal and leaves without approving. Four hours later PayPal has
    // forgotten the order (it keeps an unapproved one for about three).
    let (status, first) = owner.post_json("/api/v1/user/payment/redirect?lang=en", &ask).await;
    assert_eq!(status, 200, "{first}");
    let first_uuid = first["transaction_uuid"].as_str().unwrap().to_string();
    let first_order = token_of(first["redirect_url"].as_str().unwrap());
    app.clock.set(app.clock.now() + Duration::hours(4));
    paypal.follow(&app).await;
    owner.renew().await;
    let gone = paypal.http().get(format!("{}/checkoutnow?token={first_order}", paypal.base)).send().await.unwrap();
    assert_eq!(gone.status(), 404, "the fake forgot the order as PayPal does");

    // The reconcile (the job, the sweep, the console) closes the attempt instead of asking forever.
    let attempt = app.attempt(&first_uuid).await;
    let outcome =
        payments::reconcile(&app.db, app.senders().outbox(), &providers, attempt.id, app.clock.now()).await.unwrap();
    assert_eq!(outcome, Reconciled::Done("closed"));
    let attempt = app.attempt(&first_uuid).await;
    assert_eq!((attempt.state, attempt.failure.as_deref()), (OrderState::Expired, Some("provider_expired")));
    // The payer's late return says the attempt is over and offers to pay again.
    let (status, html) = owner.page(&format!("/en/checkout?transaction={first_uuid}&token={first_order}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=checkout]", "data-outcome"), "closed", "{html}");
    assert_eq!(
        doc.attr("[data-testid=checkout-retry]", "href"),
        format!("/en/payment?application_id={}", won.application_id)
    );

    // Paying again opens a fresh attempt and order. That order is voided too (PayPal forgets it
    // at once): the next click finds the pending attempt's order gone, closes it and opens
    // another — it used to answer 502 provider_refused for good.
    let (status, second) = owner.post_json("/api/v1/user/payment/redirect?lang=en", &ask).await;
    assert_eq!(status, 200, "{second}");
    let second_uuid = second["transaction_uuid"].as_str().unwrap().to_string();
    assert_ne!(second_uuid, first_uuid);
    let second_order = token_of(second["redirect_url"].as_str().unwrap());
    assert_ne!(second_order, first_order);
    let expired = paypal.post(&format!("/_fake/orders/{second_order}/expire"), json!({})).await;
    assert_eq!(expired["expired"], true);
    let (status, third) = owner.post_json("/api/v1/user/payment/redirect?lang=en", &ask).await;
    assert_eq!(status, 200, "the payer can pay by PayPal again: {third}");
    let third_uuid = third["transaction_uuid"].as_str().unwrap().to_string();
    let url = third["redirect_url"].as_str().unwrap().to_string();
    assert!(![first_uuid.as_str(), second_uuid.as_str()].contains(&third_uuid.as_str()));
    let second_attempt = app.attempt(&second_uuid).await;
    assert_eq!(
        (second_attempt.state, second_attempt.failure.as_deref()),
        (OrderState::Expired, Some("provider_expired"))
    );

    // The fresh order pays, once.
    let approved = paypal.post(&format!("/_fake/orders/{}/approve", token_of(&url)), json!({})).await;
    let back = approved["return_url"].as_str().unwrap().to_string();
    assert!(back.starts_with(&format!("{}/en/checkout?transaction={third_uuid}", app.origin)), "{back}");
    let (status, html) = app.page(&path_of(&back)).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "paid", "{html}");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);
    assert_eq!(app.attempt(&third_uuid).await.state, OrderState::Captured);
}
