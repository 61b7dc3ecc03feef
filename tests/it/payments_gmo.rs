//! GMO Payment Gateway end to end against the fake GMO (`scripts/fakes/gmo.py`, link type Plus,
//! `SearchTrade` and the result notification over real HTTP): the payer's trip through GMO's page
//! and the cross-site POST back to `/checkout`, a declined card then a good one, the notification
//! suite (another shop, a forged status, an unknown order, a replay, a stale one after the
//! payment, GMO unable to answer, a valid one processed once), GMO down at the link, a link whose
//! answer was lost, and a payment only the reconcile learns about.

use rocket::http::ContentType;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use vmarket::db::entities::order;
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::OrderState;
use vmarket::payments::{self, Providers, Reconciled};

use crate::support::TestApp;
use crate::support::fakes::{Fake, GMO_SHOP_ID, Kind, app_with, path_of};
use crate::support::html::Doc;

/// The GMO order id in the attempt.
async fn gmo_order(app: &TestApp, uuid: &str) -> String {
    app.attempt(uuid).await.provider_order_id.expect("the GMO order id")
}

/// Opens the GMO payment of `application_id` as `owner`: (payment page URL, transaction).
async fn open(owner: &crate::support::actors::Actor<'_>, application_id: i32) -> (String, String) {
    let (status, to) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": application_id, "payment_type": "smbc_gmo"}),
        )
        .await;
    assert_eq!(status, 200, "{to}");
    (to["redirect_url"].as_str().unwrap().to_string(), to["transaction_uuid"].as_str().unwrap().to_string())
}

/// The payer on GMO's page presses `choice`; the `result` form GMO shows to go back, as
/// (RetUrl, result).
async fn pay_in_browser(fake: &Fake, page_url: &str, choice: &str) -> (String, String) {
    let page = fake.http().get(page_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("8,000 円"), "GMO's page shows the amount: {html}");
    let res =
        fake.http().post(page_url).form(&[("choice", choice), ("card", "4111111111111111")]).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    let doc = Doc::parse(&html);
    (doc.attr("form", "action"), doc.attr("form input[name=result]", "value"))
}

/// GMO's browser POST back to `/checkout` with `result`; where the app sends the browser next.
async fn post_back(app: &TestApp, ret_url: &str, result: &str) -> String {
    let body = url::form_urlencoded::Serializer::new(String::new()).append_pair("result", result).finish();
    let res = app.client.post(path_of(ret_url)).header(ContentType::Form).body(body).dispatch().await;
    assert_eq!(res.status().code, 303, "the POST back moves on to a GET");
    res.headers().get_one("Location").unwrap().to_string()
}

async fn outcome(app: &TestApp, path: &str) -> String {
    let (status, html) = app.page(path).await;
    assert_eq!(status, 200, "{path}");
    Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome")
}

#[rocket::async_test]
async fn a_gmo_payment_through_its_page_and_the_post_back_settles_once() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 5_000).await;
    let mut owner = app.with_user("gmo_owner").await;
    let mut stranger = app.with_user("gmo_stranger").await;
    let won = app.won_application(&owner, "GmoFair").await;
    gmo.follow(&app).await;
    owner.renew().await;
    stranger.renew().await;

    let (page_url, uuid) = open(&owner, won.application_id).await;
    assert!(page_url.starts_with(&format!("{}/v1/plus/{GMO_SHOP_ID}/checkout/", gmo.base)), "{page_url}");
    let order_id = gmo_order(&app, &uuid).await;
    assert_eq!(order_id.len(), 26, "within GMO's 27 characters");
    assert_eq!(open(&owner, won.application_id).await, (page_url.clone(), uuid.clone()), "a reload reuses the page");
    let trade = gmo.get(&format!("/_fake/trades/{order_id}")).await;
    assert_eq!((trade["Amount"].as_i64(), trade["JobCd"].as_str()), (Some(8000), Some("CAPTURE")));
    assert_eq!(trade["RetUrl"].as_str(), Some(format!("{}/checkout?transaction={uuid}", app.origin).as_str()));
    let (status, _) = stranger
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "smbc_gmo"}),
        )
        .await;
    assert_eq!(status, 404);

    gmo.config(json!({"notify_url": ""})).await; // the notification is tested on its own below
    let (ret_url, result) = pay_in_browser(&gmo, &page_url, "pay").await;
    assert_eq!(ret_url, format!("{}/checkout?transaction={uuid}", app.origin));
    let next = post_back(&app, &ret_url, &result).await;
    assert_eq!(next, format!("/checkout?transaction={uuid}"));
    assert_eq!(outcome(&app, &next).await, "paid");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);

    // Twice more, and the POST back without our query string (GMO's `result` alone, its hash
    // checked with the shop password) reaches the same attempt; a tampered one does not.
    assert_eq!(post_back(&app, &ret_url, &result).await, next);
    assert_eq!(outcome(&app, &next).await, "paid");
    assert_eq!(post_back(&app, &format!("{}/checkout", app.origin), &result).await, next);
    // One character changed (not set to a fixed one: the result may already end in it).
    let last = if result.ends_with('0') { '1' } else { '0' };
    let tampered = format!("{}{last}", &result[..result.len() - 1]);
    let body = url::form_urlencoded::Serializer::new(String::new()).append_pair("result", &tampered).finish();
    let res = app.client.post("/checkout").header(ContentType::Form).body(body).dispatch().await;
    assert_eq!(res.status().code, 404);
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    let (status, list) = owner.get_json("/api/v1/user/payment_histories").await;
    assert_eq!(status, 200);
    assert_eq!(list["data"][0]["payment_type"], "smbc_gmo");
    assert_eq!(list["data"][0]["order_reference"].as_str(), Some(order_id.as_str()));
}

#[rocket::async_test]
async fn a_declined_card_then_a_good_one_on_the_same_page() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 5_000).await;
    let mut owner = app.with_user("gmo_declined").await;
    let won = app.won_application(&owner, "GmoDecline").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let (page_url, uuid) = open(&owner, won.application_id).await;
    let (ret_url, result) = pay_in_browser(&gmo, &page_url, "declined").await;
    let next = post_back(&app, &ret_url, &result).await;
    assert_eq!(next, format!("/checkout?transaction={uuid}&declined=1"));
    assert_eq!(outcome(&app, &next).await, "declined");
    let (_, html) = owner.page(&next).await;
    assert_eq!(
        Doc::parse(&html).attr("[data-testid=checkout-retry]", "href"),
        format!("/payment?application_id={}", won.application_id),
        "the payer is offered the way back"
    );
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    // A forged `declined=1` on a paid attempt changes nothing: GMO's trade decides.
    let (ret_url, result) = pay_in_browser(&gmo, &page_url, "pay").await;
    post_back(&app, &ret_url, &result).await;
    assert_eq!(outcome(&app, &format!("/checkout?transaction={uuid}&declined=1")).await, "paid");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
}

/// Posts a notification body to the app; status and body text.
async fn notify(app: &TestApp, body: &str) -> (u16, String) {
    let res = app.client.post("/api/v1/payment/gmo/notification").header(ContentType::Form).body(body).dispatch().await;
    (res.status().code, res.into_string().await.unwrap_or_default())
}

fn form(fields: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish()
}

#[rocket::async_test]
async fn notifications_are_checked_with_search_trade_and_processed_once() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 5_000).await;
    gmo.config(json!({"notify_url": ""})).await;
    let mut owner = app.with_user("gmo_hook").await;
    let won = app.won_application(&owner, "GmoHook").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let (_, uuid) = open(&owner, won.application_id).await;
    let order_id = gmo_order(&app, &uuid).await;
    let claim = |shop: &'static str, status: &'static str| {
        form(&[
            ("ShopID", shop),
            ("ShopPass", "**********"),
            ("OrderID", order_id.as_str()),
            ("Status", status),
            ("JobCd", "CAPTURE"),
            ("Amount", "8000"),
            ("Tax", "0"),
            ("TranID", "2611250000forged"),
            ("PayType", "0"),
        ])
    };

    // Not for our shop, or not a notification at all: refused.
    assert_eq!(notify(&app, &claim("tshop00000666", "CAPTURE")).await.0, 400);
    assert_eq!(notify(&app, &form(&[("ShopID", GMO_SHOP_ID)])).await.0, 400);
    assert_eq!(notify(&app, "%%%").await.0, 400);
    // A forged "paid" (anyone can post this form): GMO's trade says otherwise, nothing settles.
    let (status, body) = notify(&app, &claim(GMO_SHOP_ID, "CAPTURE")).await;
    assert_eq!((status, body.as_str()), (200, "0"), "handled, so GMO would not resend it");
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    // An order we do not know: handled and ignored.
    let unknown = form(&[("ShopID", GMO_SHOP_ID), ("OrderID", "someoneelsesorder"), ("Status", "CAPTURE")]);
    assert_eq!(notify(&app, &unknown).await, (200, "0".to_string()));
    // Another payment method's notification (PayType 3, convenience store): not ours to handle.
    let cvs =
        form(&[("ShopID", GMO_SHOP_ID), ("OrderID", order_id.as_str()), ("Status", "REQSUCCESS"), ("PayType", "3")]);
    assert_eq!(notify(&app, &cvs).await, (200, "0".to_string()));

    // The payer pays; GMO's own notification arrives (sent by the fake to the app).
    gmo.post(&format!("/_fake/trades/{order_id}/pay"), json!({})).await;
    gmo.config(json!({"notify_url": format!("{}/api/v1/payment/gmo/notification", app.origin)})).await;
    gmo.fault("POST", "SearchTrade", "503", 1).await;
    let sent = gmo.post("/_fake/notify", json!({"order_id": order_id})).await;
    assert_eq!(sent["status"], 502, "GMO cannot be asked: not `0`, so GMO sends it again: {sent}");
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    let sent = gmo.post("/_fake/notify", json!({"order_id": order_id})).await;
    assert_eq!((sent["status"].as_i64(), sent["answer"].as_str()), (Some(200), Some("0")), "{sent}");
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.application_status(won.application_id).await, LotteryStatus::Paid);
    // GMO sends it again (a retry, a replay): processed once.
    let again = gmo.post("/_fake/notify", json!({"order_id": order_id})).await;
    assert_eq!(again["answer"].as_str(), Some("0"));
    let replayed = sent["body"].as_str().unwrap().to_string();
    assert_eq!(notify(&app, &replayed).await, (200, "0".to_string()));
    // A stale one (the trade before payment) arriving late changes nothing.
    let stale = claim(GMO_SHOP_ID, "UNPROCESSED");
    assert_eq!(notify(&app, &stale).await, (200, "0".to_string()));
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(app.attempt(&uuid).await.state, OrderState::Captured);
}

/// A forged notification remembered as processed would keep GMO's genuine one (the same order,
/// status and transaction) out later, and a payer who closed the tab would never be settled.
#[rocket::async_test]
async fn a_notification_that_changed_nothing_does_not_shadow_the_genuine_one() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 5_000).await;
    gmo.config(json!({"notify_url": ""})).await;
    let mut owner = app.with_user("gmo_shadow").await;
    let won = app.won_application(&owner, "GmoShadow").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let (_, uuid) = open(&owner, won.application_id).await;
    let order_id = gmo_order(&app, &uuid).await;
    // Paid at GMO, but its search does not show it yet when the notification arrives.
    let paid = gmo.post(&format!("/_fake/trades/{order_id}/pay"), json!({"hidden": true})).await;
    assert_eq!(paid["result"], "PAYSUCCESS");
    gmo.config(json!({"notify_url": format!("{}/api/v1/payment/gmo/notification", app.origin)})).await;
    let sent = gmo.post("/_fake/notify", json!({"order_id": order_id})).await;
    assert_eq!(sent["answer"].as_str(), Some("0"));
    assert_eq!(app.settled_payments(won.application_id).await, 0, "not believed");
    // The very same notification again once GMO shows the trade: processed, not a "replay".
    gmo.post(&format!("/_fake/trades/{order_id}/reveal"), json!({})).await;
    assert_eq!(notify(&app, sent["body"].as_str().unwrap()).await, (200, "0".to_string()));
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    assert_eq!(notify(&app, sent["body"].as_str().unwrap()).await, (200, "0".to_string()));
    assert_eq!(app.settled_payments(won.application_id).await, 1);
}

#[rocket::async_test]
async fn gmo_down_at_the_link_and_a_link_whose_answer_was_lost() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 800).await;
    let mut owner = app.with_user("gmo_down").await;
    let won = app.won_application(&owner, "GmoDown").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "smbc_gmo"});

    gmo.fault("POST", "GetLinkplusUrlPayment", "503", 1).await;
    let (status, body) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("provider_unavailable")));
    // GMO issued the page but its answer was lost; GMO issues a page once per order id.
    gmo.fault("POST", "GetLinkplusUrlPayment", "500_after", 1).await;
    let (status, _) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(status, 502);
    let (status, to) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
    assert_eq!(status, 200, "a fresh attempt with a fresh order id: {to}");
    let lost = order::Entity::find().filter(order::Column::Failure.eq("link_lost")).all(&app.db).await.unwrap();
    assert_eq!(lost.len(), 1, "the attempt nobody can pay is closed");
    assert_ne!(lost[0].transaction_uuid, to["transaction_uuid"].as_str().unwrap());
}

#[rocket::async_test]
async fn a_payment_only_the_reconcile_hears_of_is_settled_and_the_capture_call_answers_it() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app_with(None, Some(&gmo), 5_000).await;
    gmo.config(json!({"notify_url": ""})).await;
    let mut owner = app.with_user("gmo_reconcile").await;
    let won = app.won_application(&owner, "GmoReconcile").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let (_, uuid) = open(&owner, won.application_id).await;
    let capture = json!({"transaction_uuid": uuid});
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &capture).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("payment_not_completed")));

    let providers = Providers::from_config(&app.config);
    let id = app.attempt(&uuid).await.id;
    assert_eq!(
        payments::reconcile(&app.db, app.senders().outbox(), &providers, id, app.clock.now()).await.unwrap(),
        Reconciled::Waiting
    );
    // Paid at GMO; the payer closed the tab and the notification never came.
    let order_id = gmo_order(&app, &uuid).await;
    gmo.post(&format!("/_fake/trades/{order_id}/pay"), json!({})).await;
    gmo.fault("POST", "SearchTrade", "hang", 1).await;
    assert_eq!(
        payments::reconcile(&app.db, app.senders().outbox(), &providers, id, app.clock.now()).await.unwrap(),
        Reconciled::Retry
    );
    assert_eq!(
        payments::reconcile(&app.db, app.senders().outbox(), &providers, id, app.clock.now()).await.unwrap(),
        Reconciled::Done("settled")
    );
    assert_eq!(app.settled_payments(won.application_id).await, 1);
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &capture).await;
    assert_eq!((status, body["payment_type"].as_str()), (200, Some("smbc_gmo")));
}
