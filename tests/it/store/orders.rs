//! Paying for a priced store item by card (issue 31) against localstripe: the order's amount is
//! the price shown when it opened and holds while the discount window ends during checkout; a
//! declined card charges nothing; the purchase records the order's price
//! and fee; a second tab or twenty requests at once open one order (with a control run without
//! its unique key, which opens several); twenty captures at once make one purchase and one
//! charge; an order past its lifetime is cancelled at Stripe and a new one opens at the price
//! then in force; strangers get 404 and bad input clear codes. The checkout page holds the
//! amount, lets Stripe.js load and tells how the order ended. A payment confirmed in the
//! browser whose buyer never came back is settled by Stripe's signed webhook.

use std::sync::Arc;

use chrono::Duration;
use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{Value, json};
use vmarket::db::entities::{store_item, store_order, store_purchase};

use crate::store::items::on_sale;
use crate::support::actors::Actor;
use crate::support::html::Doc;
use crate::support::localstripe::LocalStripe;
use crate::support::{TestApp, at};

/// The webhook endpoint's secret.
const WEBHOOK_SECRET: &str = "whsec_store";

/// A live app with workers whose Stripe is `stripe`.
async fn app_with(stripe: &LocalStripe) -> TestApp {
    let mut with_stripe = vmarket::config::Config::default();
    stripe.configure(&mut with_stripe);
    TestApp::builder()
        .live()
        .config(move |c| {
            c.job_poll_interval_ms = 50;
            c.stripe_secret_key = with_stripe.stripe_secret_key;
            c.stripe_publishable_key = with_stripe.stripe_publishable_key;
            c.stripe_js_url = with_stripe.stripe_js_url;
            c.stripe_api_base = with_stripe.stripe_api_base;
            c.payment_timeout_ms = 2_000;
            c.stripe_webhook_secrets = vec![WEBHOOK_SECRET.into()];
        })
        .build()
        .await
}

/// `buyer` opens (or reopens) their card order for `item`.
async fn open(buyer: &Actor<'_>, item: &str) -> (u16, Value) {
    buyer.post_json(&format!("/api/v1/store/items/{item}/orders"), &json!({"payment_type": "stripe"})).await
}

/// `buyer` pays order `order` with `card` (a PaymentMethod id), or without one.
async fn capture(buyer: &Actor<'_>, order: &str, card: Option<&str>) -> (u16, Value) {
    let body = card.map_or(json!({}), |pm| json!({"payment_method": pm}));
    buyer.post_json(&format!("/api/v1/store/orders/{order}/capture"), &body).await
}

fn code(v: &Value) -> Option<&str> {
    v["code"].as_str()
}

#[rocket::async_test]
async fn the_order_holds_the_price_shown_through_the_discounts_end_and_pays_once() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-10T12:00:00+09:00"));
    let seller = app.user("card_seller").await;
    let mut buyer = app.user("card_buyer").await;
    let stranger = app.user("card_stranger").await;
    let item = on_sale(
        &seller,
        json!({"price": 2000, "discount_rate": 20, "discount_start_at": "2026-12-10T00:00:00+09:00",
               "discount_end_at": "2026-12-10T12:30:00+09:00"}),
    )
    .await;
    let uuid = item["uuid"].as_str().unwrap();
    assert_eq!(item["price"]["amount"], 1600, "{item}");

    let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, code(&err)), (409, Some("payment_required")), "a priced item is paid for through an order");
    let (status, err) = open(&seller, uuid).await;
    assert_eq!((status, code(&err)), (409, Some("own_item")));
    let (status, opened) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{opened}");
    let order = opened["order"]["uuid"].as_str().unwrap().to_string();
    assert_eq!((opened["order"]["amount"].as_i64(), opened["order"]["state"].as_str()), (Some(1600), Some("pending")));
    assert!(opened["client_secret"].as_str().is_some_and(|s| !s.is_empty()), "{opened}");
    let (_, again) = open(&buyer, uuid).await;
    assert_eq!(again["order"]["uuid"], order.as_str(), "a second tab pays the same order");

    // The discount ends (and the seller raises the price) while the buyer types their card.
    app.clock.set(at("2026-12-10T12:40:00+09:00"));
    buyer.renew().await;
    let raised = json!({"name": "木の椅子", "price": 3000, "accessible_status": "published"});
    assert_eq!(seller.put_json(&format!("/api/v1/store/my/items/{uuid}"), &raised).await.0, 200);
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!(seen["price"]["amount"], 3000);

    assert_eq!(capture(&stranger, &order, Some(&stripe.card("4242424242424242").await)).await.0, 404);
    let (status, err) = capture(&buyer, &order, Some("pm_<script>")).await;
    assert_eq!(status, 422, "{err}");
    let (status, paid) = capture(&buyer, &order, Some(&stripe.card("4242424242424242").await)).await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(
        (paid["price"].as_i64(), paid["fee_amount"].as_i64()),
        (Some(1600), Some(160)),
        "the order's price held"
    );
    let row = store_order::Entity::find().one(&app.db).await.unwrap().unwrap();
    let charged = stripe.intent(row.provider_order_id.as_deref().unwrap()).await;
    assert_eq!((charged["status"].as_str(), charged["amount"].as_i64()), (Some("succeeded"), Some(1600)));

    let (status, repeat) = capture(&buyer, &order, None).await;
    assert_eq!((status, &repeat["uuid"]), (200, &paid["uuid"]), "capturing again answers the purchase");
    let (status, err) = open(&buyer, uuid).await;
    assert_eq!((status, code(&err)), (409, Some("already_purchased")));
    let (_, shown) = buyer.get_json(&format!("/api/v1/store/orders/{order}")).await;
    assert_eq!((shown["state"].as_str(), &shown["purchase_uuid"]), (Some("captured"), &paid["uuid"]), "{shown}");
    assert_eq!(stranger.get_json(&format!("/api/v1/store/orders/{order}")).await.0, 404);
    let (_, sales) = seller.get_json("/api/v1/store/my/sales").await;
    assert_eq!((sales[0]["price"].as_i64(), sales[0]["proceeds"].as_i64()), (Some(1600), Some(1440)), "{sales}");
    let purchase = paid["uuid"].as_str().unwrap();
    let (status, _) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!(status, 200, "the buyer downloads what they paid for");

    // An admin refunds it in the console with a reason: the money goes back at Stripe, the
    // download is revoked, the audit log keeps the reason; a director may not refund.
    let bought = store_purchase::Entity::find().one(&app.db).await.unwrap().unwrap();
    let refund_path = format!("/admin/api/store_purchases/{}/refund", bought.id);
    let director = app.as_staff(vmarket::model::user::Role::Director).await;
    assert_eq!(director.post_json(&refund_path, &json!({"reason": "返金依頼"})).await.0, 403);
    let admin = app.as_staff(vmarket::model::user::Role::Admin).await;
    let (status, err) = admin.post_json(&refund_path, &json!({"reason": "  "})).await;
    assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some("reason")), "{err}");
    let (status, done) = admin.post_json(&refund_path, &json!({"reason": "購入者からの返金依頼"})).await;
    assert_eq!(
        (status, done["outcome"].as_str(), done["status"].as_str()),
        (200, Some("refunded"), Some("refunded")),
        "{done}"
    );
    let (status, err) = admin.post_json(&refund_path, &json!({"reason": "もう一度"})).await;
    assert_eq!((status, code(&err)), (409, Some("purchase_refunded")), "refunded once");
    let (_, audit) = admin.get_json("/admin/api/audit_log?filter=%7B%22resource%22%3A%22store_purchases%22%7D").await;
    assert_eq!(audit.as_array().map(Vec::len), Some(1), "{audit}");
    assert_eq!(audit[0]["after"]["reason"], "購入者からの返金依頼", "{audit}");
    let refunds = stripe.refunds(row.provider_order_id.as_deref().unwrap()).await;
    assert_eq!(refunds, vec![1600], "one refund of the whole amount");
    let (status, err) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!((status, code(&err)), (409, Some("purchase_refunded")));
}

#[rocket::async_test]
async fn an_order_past_its_lifetime_is_cancelled_and_a_new_one_takes_the_price_then() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-10T12:00:00+09:00"));
    let seller = app.user("late_seller").await;
    let mut buyer = app.user("late_buyer").await;
    let item = on_sale(
        &seller,
        json!({"price": 2000, "discount_rate": 50, "discount_start_at": "2026-12-10T00:00:00+09:00",
               "discount_end_at": "2026-12-10T12:30:00+09:00"}),
    )
    .await;
    let uuid = item["uuid"].as_str().unwrap();
    let (_, opened) = open(&buyer, uuid).await;
    let order = opened["order"]["uuid"].as_str().unwrap().to_string();
    assert_eq!(opened["order"]["amount"], 1000);
    let (status, err) = capture(&buyer, &order, Some(&stripe.card("4000000000000341").await)).await;
    assert_eq!((status, code(&err)), (422, Some("payment_declined")), "a declined card: {err}");
    assert!(store_purchase::Entity::find().all(&app.db).await.unwrap().is_empty(), "nothing bought");
    // (Another card on the same order is Stripe's business; localstripe cannot confirm a
    // PaymentIntent again after a declined charge: see `payments_stripe.rs`.)

    let lifetime = Duration::minutes(vmarket::store::model::order::LIFETIME_MINUTES);
    app.clock.set(app.clock.now() + lifetime + Duration::seconds(1));
    buyer.renew().await;
    let (status, err) = capture(&buyer, &order, Some(&stripe.card("4242424242424242").await)).await;
    assert_eq!((status, code(&err)), (409, Some("order_expired")), "{err}");
    let row = store_order::Entity::find().one(&app.db).await.unwrap().unwrap();
    assert_eq!(stripe.intent(row.provider_order_id.as_deref().unwrap()).await["status"], "canceled");
    let (status, reopened) = open(&buyer, uuid).await;
    assert_eq!(status, 200, "{reopened}");
    assert_ne!(reopened["order"]["uuid"], order.as_str());
    assert_eq!(reopened["order"]["amount"], 2000, "the discount had ended");
    let (status, paid) =
        capture(&buyer, reopened["order"]["uuid"].as_str().unwrap(), Some(&stripe.card("4242424242424242").await))
            .await;
    assert_eq!((status, paid["price"].as_i64()), (200, Some(2000)), "{paid}");
}

/// Opens `buyer_id`'s order for `uuid` from `tasks` tasks at once; the orders stored.
async fn open_concurrently(app: &TestApp, buyer_id: i32, uuid: &str, tasks: usize) -> Vec<store_order::Model> {
    let db = Arc::new(app.db.clone());
    let providers = Arc::new(vmarket::payments::Providers::from_config(&app.config));
    let now = app.clock.now();
    let mut handles = Vec::new();
    for _ in 0..tasks {
        let (db, providers, uuid) = (db.clone(), providers.clone(), uuid.to_string());
        handles.push(rocket::tokio::spawn(async move {
            vmarket::store::checkout::open_card(db.as_ref(), providers.as_ref(), buyer_id, &uuid, now).await
        }));
    }
    for h in handles {
        // A call may lose to a lock (the control); what counts is what was stored.
        let _ = h.await.unwrap();
    }
    let all = store_order::Entity::find().all(&app.db).await.unwrap();
    all.into_iter().filter(|o| o.buyer_id == buyer_id).collect()
}

#[rocket::async_test]
async fn twenty_opens_make_one_order_and_twenty_captures_one_purchase_and_one_charge() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    let seller = app.user("race_card_seller").await;
    let buyer = app.user("race_card_buyer").await;
    let item = on_sale(&seller, json!({"price": 500})).await;
    let uuid = item["uuid"].as_str().unwrap();
    let orders = open_concurrently(&app, buyer.user.id, uuid, 20).await;
    assert_eq!(orders.len(), 1, "one order");
    let order = orders[0].clone();

    let card = stripe.card("4242424242424242").await;
    let db = Arc::new(app.db.clone());
    let providers = Arc::new(vmarket::payments::Providers::from_config(&app.config));
    let now = app.clock.now();
    let mut handles = Vec::new();
    for _ in 0..20 {
        let (db, providers, order, card) = (db.clone(), providers.clone(), order.uuid.clone(), card.clone());
        handles.push(rocket::tokio::spawn(async move {
            vmarket::store::card::capture(db.as_ref(), providers.as_ref(), buyer.user.id, &order, Some(&card), now)
                .await
        }));
    }
    let mut paid = std::collections::BTreeSet::new();
    for h in handles {
        if let Ok(p) = h.await.unwrap() {
            paid.insert(p.uuid);
        }
    }
    assert_eq!(paid.len(), 1, "every capture that answered answered the one purchase");
    let purchases = store_purchase::Entity::find().all(&app.db).await.unwrap();
    let count = store_item::Entity::find().one(&app.db).await.unwrap().unwrap().purchase_count;
    assert_eq!((purchases.len(), count), (1, 1), "one purchase, counted once");
    let intent = stripe.intent(order.provider_order_id.as_deref().unwrap()).await;
    assert_eq!((intent["status"].as_str(), intent["amount"].as_i64()), (Some("succeeded"), Some(500)));
    assert!(stripe.refunds(order.provider_order_id.as_deref().unwrap()).await.is_empty(), "nothing refunded");
}

/// The control: without the unique key on the open order the same twenty opens store several
/// orders (each with its own PaymentIntent), so the test above can fail.
#[rocket::async_test]
async fn control_without_the_open_key_twenty_opens_make_several_orders() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    app.db.execute_unprepared("DROP INDEX idx_store_orders_open_key").await.expect("the control drops the key");
    let seller = app.user("control_card_seller").await;
    let item = on_sale(&seller, json!({"price": 500})).await;
    // The race needs two opens to interleave between their look and their insert; on a loaded
    // host a round may happen to run them one after another (a CI run on 2026-12-06, with a build
    // beside it, saw five such rounds in a row), so up to fifteen buyers try; a round that races
    // ends the loop at once.
    let mut most = 0;
    for round in 0..15 {
        let buyer = app.user(&format!("control_card_buyer{round}")).await;
        most = most.max(open_concurrently(&app, buyer.user.id, item["uuid"].as_str().unwrap(), 20).await.len());
        if most > 1 {
            break;
        }
    }
    assert!(most > 1, "without the key the opens are not guarded (at most {most} order per buyer)");
}

#[rocket::async_test]
async fn the_checkout_page_holds_the_amount_runs_stripe_js_and_tells_how_the_order_ended() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    let seller = app.user("page_card_seller").await;
    let buyer = app.user("page_card_buyer").await;
    let stranger = app.user("page_card_stranger").await;
    let item = on_sale(&seller, json!({"price": 1200})).await;
    let path = format!("/store/items/{}", item["uuid"].as_str().unwrap());

    let (_, page) = app.page(&path).await;
    assert_eq!(Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"), "sign_in");
    let (_, page) = buyer.page(&path).await;
    assert_eq!(Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"), "paid");
    let form = buyer.form(&path, "[data-testid=store-buy] form").await;
    let (status, location, _) = buyer.submit(&form, &[], None).await;
    let order_path = location.unwrap_or_default();
    assert_eq!(status, 303);
    assert!(order_path.starts_with("/store/orders/"), "{order_path}");
    let (status, again, _) = buyer.submit(&form, &[], None).await;
    assert_eq!((status, again.as_deref()), (303, Some(order_path.as_str())), "a second click finds the same order");

    let res = buyer.request(rocket::http::Method::Get, &order_path).dispatch().await;
    assert_eq!(res.status().code, 200);
    let csp = res.headers().get_one("Content-Security-Policy").unwrap_or_default().to_string();
    assert!(csp.contains(&stripe.base), "the page lets Stripe.js load: {csp}");
    let doc = Doc::parse(&res.into_string().await.unwrap());
    assert_eq!(doc.attr("[data-testid=store-order]", "data-state"), "open");
    assert_eq!(doc.text("[data-testid=store-order-amount]"), "1,200円");
    let props: Value = serde_json::from_str(&doc.attr("[data-testid=card-island]", "data-props")).unwrap();
    let order = order_path.trim_start_matches("/store/orders/");
    assert_eq!(
        (props["storeOrder"].as_str(), props["amountLabel"].as_str()),
        (Some(order), Some("1,200円")),
        "{props}"
    );
    assert_eq!(stranger.page(&order_path).await.0, 404, "an order is its buyer's");
    assert_eq!(app.get(&order_path).await.status().code, 303, "signed out: to the sign-in");
    let (_, page) = buyer.page("/mypage/purchases").await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.attr("[data-testid=open-order] a", "href"), order_path, "the checkout left open is listed");

    let (status, paid) = capture(&buyer, order, Some(&stripe.card("4242424242424242").await)).await;
    assert_eq!(status, 200, "{paid}");
    let (_, page) = buyer.page(&format!("/en{order_path}")).await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.attr("[data-testid=store-order]", "data-state"), "paid");
    assert!(doc.text("[data-testid=store-order-paid]").contains("Payment complete"), "{page}");
    assert_eq!(doc.count("[data-testid=card-island]"), 0, "nothing left to pay");
    let (_, page) = buyer.page(&path).await;
    assert_eq!(Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"), "purchased");
    let (_, page) = buyer.page("/mypage/purchases").await;
    let doc = Doc::parse(&page);
    assert_eq!((doc.count("[data-testid=open-order]"), doc.count("[data-testid=purchase]")), (0, 1));
}

#[rocket::async_test]
async fn stripes_webhook_settles_an_order_whose_buyer_never_came_back() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe).await;
    let _workers = app.start_workers().await;
    stripe.register_webhook(&format!("{}/api/v1/payment/stripe/webhook", app.origin), WEBHOOK_SECRET).await;
    // localstripe signs with the wall clock's time, which the app checks without time travel.
    app.clock.set(chrono::Utc::now());
    let seller = app.user("hook_seller").await;
    let buyer = app.user("hook_buyer").await;
    let item = on_sale(&seller, json!({"price": 700})).await;
    let (_, opened) = open(&buyer, item["uuid"].as_str().unwrap()).await;
    let row = store_order::Entity::find().one(&app.db).await.unwrap().unwrap();
    let pi = row.provider_order_id.clone().unwrap();
    assert_eq!(opened["order"]["uuid"], row.uuid.as_str());

    // The browser confirms at Stripe itself (as after 3-D Secure), then closes.
    let card = stripe.card("4242424242424242").await;
    let http = reqwest::Client::new();
    let key = crate::support::localstripe::SECRET_KEY;
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(key)
        .form(&[("payment_method", card.as_str())])
        .send()
        .await
        .unwrap();
    http.post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base)).bearer_auth(key).send().await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let purchase = loop {
        if let Some(p) = store_purchase::Entity::find().one(&app.db).await.unwrap() {
            break p;
        }
        assert!(std::time::Instant::now() < deadline, "the webhook settled the order");
        rocket::tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!((purchase.price, purchase.buyer_id), (700, buyer.user.id));
    let (_, shown) = buyer.get_json(&format!("/api/v1/store/orders/{}", row.uuid)).await;
    assert_eq!(shown["state"], "captured", "{shown}");
}
