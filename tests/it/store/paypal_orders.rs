//! Paying for a priced store item through PayPal (issue 31) against the PayPal fake over real
//! HTTP: the buyer opens an order at the price in force and is sent to PayPal to approve it (the
//! item page's button, or the API's `approve_url`); back on the order's page the approved payment
//! is taken — once, however often the order is looked at — and the item is theirs. A payment
//! PayPal declines charges nothing and the payer approves again on the same order and price.
//! Staff's refund gives the money back at PayPal and revokes the downloads. Strangers get 404.

use serde_json::{Value, json};
use vmarket::model::user::Role;

use crate::store::items::on_sale;
use crate::support::actors::Actor;
use crate::support::fakes::{Fake, Kind, app_configured};
use crate::support::html::Doc;
use crate::support::{TestApp, at};

/// A live app whose PayPal is `paypal` (no Stripe).
async fn app(paypal: &Fake) -> TestApp {
    app_configured(Some(paypal), None, 5_000, |c| c.job_poll_interval_ms = 50).await
}

/// `buyer` opens (or reopens) their PayPal order for `item` through the API.
async fn open(buyer: &Actor<'_>, item: &str) -> (u16, Value) {
    buyer.post_json(&format!("/api/v1/store/items/{item}/orders"), &json!({"payment_type": "paypal"})).await
}

/// `buyer` asks the API to take the payment of `order`.
async fn capture(buyer: &Actor<'_>, order: &str) -> (u16, Value) {
    buyer.post_json(&format!("/api/v1/store/orders/{order}/capture"), &json!({})).await
}

/// The PayPal order id in an approval link.
fn paypal_id(url: &str) -> String {
    url.split("token=").nth(1).unwrap_or_else(|| panic!("an approval link: {url}")).to_string()
}

fn code(v: &Value) -> Option<&str> {
    v["code"].as_str()
}

#[rocket::async_test]
async fn the_item_pages_paypal_button_pays_once_and_a_refund_gives_the_money_back() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app(&paypal).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-10T12:00:00+09:00"));
    let seller = app.user("pp_seller").await;
    let buyer = app.user("pp_buyer").await;
    let stranger = app.user("pp_stranger").await;
    let staff = app.as_staff(Role::Admin).await;
    let item = on_sale(
        &seller,
        json!({"price": 2000, "discount_rate": 20, "discount_start_at": "2026-12-10T00:00:00+09:00",
               "discount_end_at": "2026-12-31T00:00:00+09:00"}),
    )
    .await;
    let uuid = item["uuid"].as_str().unwrap();

    // The item page offers PayPal (no card: Stripe has no keys here); its button goes to PayPal.
    let (status, html) = buyer.page(&format!("/store/items/{uuid}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!((doc.count("[data-testid=store-paypal]"), doc.count("[data-testid=store-checkout]")), (1, 0));
    assert!(doc.text("[data-testid=store-paypal]").contains("1,600"), "{}", doc.text("[data-testid=store-paypal]"));
    let form = buyer.form(&format!("/store/items/{uuid}"), "form[action$=\"/paypal\"]").await;
    let (status, to, _) = buyer.submit(&form, &[], None).await;
    let approve = to.unwrap_or_default();
    assert_eq!(status, 303);
    assert!(approve.starts_with(&format!("{}/checkoutnow?token=", paypal.base)), "{approve}");
    let id = paypal_id(&approve);
    let remote = paypal.get(&format!("/_fake/orders/{id}")).await;
    assert_eq!(remote["purchase_units"][0]["amount"]["value"], "1600", "PayPal is asked the price in force: {remote}");

    // A second click (another tab) answers the same order; the API shows it too.
    let (status, again) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(paypal_id(again["approve_url"].as_str().unwrap()), id, "one PayPal order: {again}");
    assert_eq!((again["order"]["amount"].as_i64(), again["client_secret"].as_str()), (Some(1600), None));
    let order = again["order"]["uuid"].as_str().unwrap().to_string();
    let (status, err) = capture(&buyer, &order).await;
    assert_eq!((status, code(&err)), (409, Some("payment_not_completed")), "not approved yet: {err}");
    assert_eq!(capture(&stranger, &order).await.0, 404, "a stranger's order is not found");
    assert_eq!(stranger.page(&format!("/store/orders/{order}")).await.0, 404);

    // The payer approves at PayPal and comes back to the order's page: it is paid.
    let back = paypal.post(&format!("/_fake/orders/{id}/approve"), json!({})).await;
    let back = back["return_url"].as_str().unwrap();
    assert!(back.contains(&format!("/store/orders/{order}")), "{back}");
    let (status, html) = buyer.page(&format!("/store/orders/{order}")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=store-order-paid]"), 1, "{html}");
    // Every later look — the page again, the API — answers the purchase; PayPal captured once.
    assert_eq!(buyer.page(&format!("/store/orders/{order}")).await.0, 200);
    let (status, bought) = capture(&buyer, &order).await;
    assert_eq!(status, 200, "{bought}");
    assert_eq!((bought["price"].as_i64(), bought["item_uuid"].as_str()), (Some(1600), Some(uuid)), "{bought}");
    assert_eq!(paypal.get(&format!("/_fake/orders/{id}")).await["captures"].as_i64(), Some(1));
    let (status, err) = open(&buyer, uuid).await;
    assert_eq!((status, code(&err)), (409, Some("already_purchased")), "{err}");
    let purchase = bought["uuid"].as_str().unwrap();
    let (status, link) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!(status, 200, "{link}");

    // Staff refund it: the money goes back at PayPal, the download is revoked.
    let (_, rows) = staff.get_json("/admin/api/store_purchases").await;
    let row = rows[0]["id"].as_i64().unwrap();
    let (status, refunded) =
        staff.post_json(&format!("/admin/api/store_purchases/{row}/refund"), &json!({"reason": "購入者の依頼"})).await;
    assert_eq!(status, 200, "{refunded}");
    let state = paypal.get("/_fake/state").await;
    let refunds = state["refunds"].as_object().unwrap();
    assert_eq!(refunds.len(), 1, "{state}");
    assert_eq!(refunds.values().next().unwrap()["amount"]["value"], "1600");
    let (status, err) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!((status, code(&err)), (409, Some("purchase_refunded")), "{err}");
    let (status, err) =
        staff.post_json(&format!("/admin/api/store_purchases/{row}/refund"), &json!({"reason": "二度目"})).await;
    assert_eq!((status, code(&err)), (409, Some("purchase_refunded")), "{err}");
    assert_eq!(paypal.get("/_fake/state").await["refunds"].as_object().unwrap().len(), 1, "refunded once");
}

#[rocket::async_test]
async fn a_declined_payment_charges_nothing_and_the_payer_approves_again_at_the_same_price() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app(&paypal).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-10T12:00:00+09:00"));
    let seller = app.user("pp_seller2").await;
    let buyer = app.user("pp_buyer2").await;
    let item = on_sale(
        &seller,
        json!({"price": 1000, "discount_rate": 50, "discount_start_at": "2026-12-10T00:00:00+09:00",
               "discount_end_at": "2026-12-10T12:10:00+09:00"}),
    )
    .await;
    let uuid = item["uuid"].as_str().unwrap();
    let (status, opened) = open(&buyer, uuid).await;
    assert_eq!((status, opened["order"]["amount"].as_i64()), (200, Some(500)), "{opened}");
    let order = opened["order"]["uuid"].as_str().unwrap().to_string();
    let id = paypal_id(opened["approve_url"].as_str().unwrap());

    // Declined: nothing taken, the page says so and offers PayPal again.
    paypal.post(&format!("/_fake/orders/{id}/approve"), json!({"funding": "declined"})).await;
    let (status, html) = buyer.page(&format!("/store/orders/{order}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=store-order-note]").contains("PayPal"), "{html}");
    assert_eq!(doc.count("[data-testid=store-order-paypal]"), 1, "{html}");
    assert_eq!(paypal.get(&format!("/_fake/orders/{id}")).await["captures"].as_i64(), Some(0));

    // The discount ends meanwhile; the payer approves again on the same order: charged 500.
    app.clock.set(at("2026-12-10T12:15:00+09:00"));
    let (status, again) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!((again["order"]["uuid"].as_str(), again["order"]["amount"].as_i64()), (Some(order.as_str()), Some(500)));
    assert_eq!(paypal_id(again["approve_url"].as_str().unwrap()), id);
    paypal.post(&format!("/_fake/orders/{id}/approve"), json!({})).await;
    let (status, bought) = capture(&buyer, &order).await;
    assert_eq!((status, bought["price"].as_i64()), (200, Some(500)), "{bought}");
    assert_eq!(paypal.get(&format!("/_fake/orders/{id}")).await["captures"].as_i64(), Some(1));
}

#[rocket::async_test]
async fn an_unknown_payment_type_or_an_unconfigured_provider_is_a_clear_error() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("pp_seller3").await;
    let buyer = app.user("pp_buyer3").await;
    let item = on_sale(&seller, json!({})).await;
    let uuid = item["uuid"].as_str().unwrap();
    for body in [json!({"payment_type": "paypal"}), json!({"payment_type": "bitcoin"}), json!({})] {
        let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/orders"), &body).await;
        assert!(status == 422 || status == 400, "{body}: {status} {err}");
        assert!(err["code"].is_string(), "{err}");
    }
    let (status, html) = buyer.page(&format!("/store/items/{uuid}")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=store-paypal]"), 0, "no PayPal without its keys");
}
