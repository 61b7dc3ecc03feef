//! Paying for a priced store item on GMO Payment Gateway's page (issue 31) against the GMO fake
//! over real HTTP: the item page's GMO button opens an order at the price in force and sends the
//! buyer to GMO's payment page (one link per order: another tab gets the same); GMO's POST back
//! moves on to the order's page, whose look at GMO's trade search settles it once. A payer who
//! never comes back is settled by GMO's notification, which is believed only through the trade
//! search. Staff's refund gives the charge back at GMO (`AlterTran`: a VOID the day of the charge,
//! a RETURN later) and revokes the downloads.

use rocket::http::ContentType;
use serde_json::{Value, json};
use vmarket::model::user::Role;
use vmarket::payments::gmo::order_id;

use crate::store::items::on_sale;
use crate::support::actors::Actor;
use crate::support::fakes::{Fake, GMO_SHOP_ID, Kind, app_configured};
use crate::support::html::Doc;
use crate::support::{TestApp, at};

/// A live app whose GMO is `gmo` (no card, no PayPal).
async fn app(gmo: &Fake) -> TestApp {
    app_configured(None, Some(gmo), 5_000, |c| c.job_poll_interval_ms = 50).await
}

/// `buyer` opens (or reopens) their GMO order for `item` through the API.
async fn open(buyer: &Actor<'_>, item: &str) -> (u16, Value) {
    buyer.post_json(&format!("/api/v1/store/items/{item}/orders"), &json!({"payment_type": "smbc_gmo"})).await
}

/// Pays on GMO's page at `page_url` as a browser does; GMO's return form (where, `result`).
async fn pay_on_page(gmo: &Fake, page_url: &str, amount: &str) -> (String, String) {
    let page = gmo.http().get(page_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(amount), "GMO's page shows {amount}: {html}");
    let res = gmo.http().post(page_url).form(&[("choice", "pay"), ("card", "4111111111111111")]).send().await.unwrap();
    let doc = Doc::parse(&res.text().await.unwrap());
    (doc.attr("form", "action"), doc.attr("form input[name=result]", "value"))
}

fn code(v: &Value) -> Option<&str> {
    v["code"].as_str()
}

#[rocket::async_test]
async fn the_item_pages_gmo_button_pays_once_and_a_refund_gives_the_charge_back() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app(&gmo).await;
    let _workers = app.start_workers().await;
    // On the real clock: GMO's day of the charge is the real one, as is the refund's.
    let seller = app.user("gmo_seller").await;
    let buyer = app.user("gmo_buyer").await;
    let stranger = app.user("gmo_stranger").await;
    let staff = app.as_staff(Role::Admin).await;
    let item = on_sale(&seller, json!({"price": 1200})).await;
    let uuid = item["uuid"].as_str().unwrap();

    // The item page offers GMO alone here; its button goes to GMO's payment page.
    let (status, html) = buyer.page(&format!("/store/items/{uuid}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!((doc.count("[data-testid=store-gmo]"), doc.count("[data-testid=store-paypal]")), (1, 0));
    let form = buyer.form(&format!("/store/items/{uuid}"), "form[action$=\"/gmo\"]").await;
    let (status, to, _) = buyer.submit(&form, &[], None).await;
    let page_url = to.unwrap_or_default();
    assert_eq!(status, 303);
    assert!(page_url.starts_with(&format!("{}/v1/plus/{GMO_SHOP_ID}/checkout/", gmo.base)), "{page_url}");

    // Another tab gets the same link (GMO issues one per order id); nothing is paid yet.
    let (status, again) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["approve_url"].as_str(), Some(page_url.as_str()));
    assert_eq!(again["order"]["amount"].as_i64(), Some(1200));
    let order = again["order"]["uuid"].as_str().unwrap().to_string();
    let capture = format!("/api/v1/store/orders/{order}/capture");
    let (status, err) = buyer.post_json(&capture, &json!({})).await;
    assert_eq!((status, code(&err)), (409, Some("payment_not_completed")), "{err}");
    assert_eq!(stranger.post_json(&capture, &json!({})).await.0, 404);
    // Back from GMO's "cancel": the order's page says nothing was paid and offers GMO's page again.
    let (status, html) = buyer.page(&format!("/en/store/orders/{order}?cancelled=1")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=store-order-gmo]").trim(), "Pay ¥1,200 on GMO's payment page", "{html}");
    assert!(doc.text("[data-testid=store-order-note]").contains("not completed"), "{html}");

    // Paid on GMO's page; GMO's POST back goes on to the order's page, which shows it paid.
    let (ret_url, result) = pay_on_page(&gmo, &page_url, "1,200").await;
    assert!(ret_url.ends_with(&format!("/store/orders/{order}")), "{ret_url}");
    let body = url::form_urlencoded::Serializer::new(String::new()).append_pair("result", &result).finish();
    let path = format!("/store/orders/{order}");
    let res = app.client.post(path.clone()).header(ContentType::Form).body(body).dispatch().await;
    assert_eq!((res.status().code, res.headers().get_one("Location")), (303, Some(path.as_str())));
    let (status, html) = buyer.page(&path).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=store-order-paid]"), 1, "{html}");
    let (status, bought) = buyer.post_json(&capture, &json!({})).await;
    assert_eq!((status, bought["price"].as_i64()), (200, Some(1200)), "{bought}");
    let trade = gmo.get(&format!("/_fake/trades/{}", order_id(&order))).await;
    assert_eq!((trade["paid"].as_i64(), trade["Status"].as_str()), (Some(1), Some("CAPTURE")), "{trade}");

    // Staff refund it: GMO gives the charge back (the same day: VOID); the download is revoked.
    let (_, rows) = staff.get_json("/admin/api/store_purchases").await;
    let row = rows[0]["id"].as_i64().unwrap();
    let (status, refunded) =
        staff.post_json(&format!("/admin/api/store_purchases/{row}/refund"), &json!({"reason": "購入者の依頼"})).await;
    assert_eq!(status, 200, "{refunded}");
    let trade = gmo.get(&format!("/_fake/trades/{}", order_id(&order))).await;
    assert_eq!((trade["Status"].as_str(), trade["returned"].as_i64()), (Some("VOID"), Some(1)), "{trade}");
    let purchase = bought["uuid"].as_str().unwrap();
    let (status, err) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!((status, code(&err)), (409, Some("purchase_refunded")), "{err}");
}

#[rocket::async_test]
async fn gmos_notification_settles_an_order_whose_buyer_never_came_back_and_is_believed_only_through_the_trade() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app(&gmo).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-10T12:00:00+09:00"));
    gmo.follow(&app).await;
    let seller = app.user("gmo_seller2").await;
    let buyer = app.user("gmo_buyer2").await;
    let item = on_sale(&seller, json!({"price": 800})).await;
    let uuid = item["uuid"].as_str().unwrap();
    let (status, opened) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{opened}");
    let order = opened["order"]["uuid"].as_str().unwrap().to_string();
    let id = order_id(&order);
    let notify = async |status: &str| {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([("ShopID", GMO_SHOP_ID), ("OrderID", id.as_str()), ("Status", status), ("PayType", "0")])
            .finish();
        let res =
            app.client.post("/api/v1/payment/gmo/notification").header(ContentType::Form).body(body).dispatch().await;
        (res.status().code, res.into_string().await.unwrap_or_default())
    };

    // A forged notification before any payment: answered, believed not.
    assert_eq!(notify("CAPTURE").await, (200, "0".to_string()));
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/orders/{order}")).await;
    assert!(seen["purchase"].is_null(), "nothing bought on a claim: {seen}");

    // Paid on GMO's page, the browser closed: GMO's notification settles it.
    pay_on_page(&gmo, opened["approve_url"].as_str().unwrap(), "800").await;
    assert_eq!(notify("CAPTURE").await, (200, "0".to_string()));
    let (_, list) = buyer.get_json("/api/v1/store/purchases").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(notify("CAPTURE").await, (200, "0".to_string()), "a repeat is answered too");
    assert_eq!(buyer.get_json("/api/v1/store/purchases").await.1.as_array().map(Vec::len), Some(1));

    // Refunded two days later: past the day of the charge GMO takes a RETURN, not a VOID.
    app.clock.set(at("2026-12-12T12:00:00+09:00"));
    gmo.follow(&app).await;
    let staff = app.as_staff(Role::Admin).await;
    let (_, rows) = staff.get_json("/admin/api/store_purchases").await;
    let row = rows[0]["id"].as_i64().unwrap();
    let (status, refunded) =
        staff.post_json(&format!("/admin/api/store_purchases/{row}/refund"), &json!({"reason": "返品"})).await;
    assert_eq!(status, 200, "{refunded}");
    let trade = gmo.get(&format!("/_fake/trades/{id}")).await;
    assert_eq!((trade["Status"].as_str(), trade["returned"].as_i64()), (Some("RETURN"), Some(1)), "{trade}");
}
