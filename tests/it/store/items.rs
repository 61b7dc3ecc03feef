//! Store items and purchases (issue 31): a seller puts an uploaded chair on sale with a discount
//! window; the store shows the price in force by the application clock (time travel included),
//! lists only what is published and on sale, finds it by keyword, hides private, limited and
//! staff-hidden items as it should; a free item is bought exactly once however many requests race
//! (with a control run without the unique key, which must buy it more than once), downloaded,
//! counted in the seller's sales, and a refund revokes the download. Bad input: clear codes.

use std::sync::Arc;

use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{Value, json};
use vmarket::db::entities::{store_item, store_purchase};

use crate::support::actors::Actor;
use crate::support::{TestApp, at};
use crate::uploader::one_shot;
use vmarket::assets::analyse::samples::{ModelSpec, glb};

/// A small furniture GLB.
pub(crate) fn chair_glb() -> Vec<u8> {
    glb(&ModelSpec { triangles: 200, materials: 1, size: [0.5, 0.9, 0.5], ..ModelSpec::default() })
}

/// `seller` uploads a chair and puts it on sale with `fields` (merged over a published 1,999-yen
/// item); the item's view.
pub(crate) async fn on_sale(seller: &Actor<'_>, fields: Value) -> Value {
    let (asset, _) = one_shot(seller, "furniture", "chair.glb", &chair_glb()).await;
    assert_eq!(asset["latest_version"]["upload_status"], "uploaded", "{asset}");
    let mut body = json!({"asset_id": asset["id"], "name": "木の椅子", "name_en": "Wooden chair",
                          "description": "オークの椅子", "price": 1999, "accessible_status": "published"});
    for (k, v) in fields.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, item) = seller.post_json("/api/v1/store/my/items", &body).await;
    assert_eq!(status, 201, "{item}");
    item
}

/// The uuids the public listing shows for `query`.
async fn listed(viewer: &Actor<'_>, query: &str) -> Vec<String> {
    let (status, list) = viewer.get_json(&format!("/api/v1/store/items{query}")).await;
    assert_eq!(status, 200, "{list}");
    list["data"].as_array().unwrap().iter().map(|i| i["uuid"].as_str().unwrap().to_string()).collect()
}

#[rocket::async_test]
async fn the_price_in_force_follows_the_clock_and_only_the_public_is_listed() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-01T00:00:00Z"));
    let mut seller = app.user("store_seller").await;
    let mut buyer = app.user("store_buyer").await;

    let chair = on_sale(
        &seller,
        json!({"discount_rate": 15, "discount_start_at": "2026-12-10T00:00:00+09:00",
               "discount_end_at": "2026-12-12T00:00:00+09:00"}),
    )
    .await;
    let uuid = chair["uuid"].as_str().unwrap().to_string();
    assert_eq!(
        (chair["product_category"].as_str(), chair["sub_category"].as_str()),
        (Some("housing_furniture"), Some("floor"))
    );
    assert_eq!(chair["fee"], 10, "the platform's default share");
    let price = |v: &Value| (v["price"]["amount"].as_i64().unwrap(), v["price"]["discount_rate"].as_i64().unwrap());

    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!(price(&seen), (1999, 0), "before the discount window");
    assert_eq!(seen["purchased"], false, "signed in: not bought");
    app.clock.set(at("2026-12-10T00:00:00+09:00"));
    buyer.renew().await;
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!(price(&seen), (1699, 15), "1,999 yen less 15 %, rounded down");
    assert_eq!(seen["price"]["regular"], 1999);
    let (_, list) = buyer.get_json("/api/v1/store/items?category=housing_furniture").await;
    assert_eq!(price(&list["data"][0]), (1699, 15), "the listing shows the same price");
    app.clock.set(at("2026-12-12T00:00:00+09:00"));
    seller.renew().await;
    buyer.renew().await;
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!(price(&seen), (1999, 0), "the window's end is exclusive");

    // Search and categories.
    let q = |k: &str| format!("?q={}", percent_encoding::utf8_percent_encode(k, percent_encoding::NON_ALPHANUMERIC));
    assert_eq!(listed(&buyer, &q("椅子")).await, vec![uuid.clone()]);
    assert_eq!(listed(&buyer, "?q=wooden").await, vec![uuid.clone()], "English names are searched too");
    assert!(listed(&buyer, &q("テーブル")).await.is_empty());
    assert!(listed(&buyer, "?category=avatar").await.is_empty());
    assert_eq!(listed(&buyer, "?sub_category=floor").await, vec![uuid.clone()]);

    // Limited: by link only; private: the seller only; hidden by staff: the seller only.
    let mut body = json!({"name": "木の椅子", "price": 1999, "accessible_status": "limited"});
    let (status, changed) = seller.put_json(&format!("/api/v1/store/my/items/{uuid}"), &body).await;
    assert_eq!((status, changed["accessible_status"].as_str()), (200, Some("limited")), "{changed}");
    assert!(listed(&buyer, "").await.is_empty(), "a limited item is not listed");
    assert_eq!(buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await.0, 200, "but its link works");
    body["accessible_status"] = json!("private");
    seller.put_json(&format!("/api/v1/store/my/items/{uuid}"), &body).await;
    assert_eq!(buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await.0, 404, "private: no such item");
    assert_eq!(seller.get_json(&format!("/api/v1/store/items/{uuid}")).await.0, 200, "its seller still sees it");
    let (status, _) = buyer.put_json(&format!("/api/v1/store/my/items/{uuid}"), &body).await;
    assert_eq!(status, 404, "someone else's item cannot be changed");
    body["accessible_status"] = json!("published");
    seller.put_json(&format!("/api/v1/store/my/items/{uuid}"), &body).await;
    app.db
        .execute_unprepared(&format!("UPDATE store_items SET is_forced_private = TRUE WHERE uuid = '{uuid}'"))
        .await
        .unwrap();
    assert_eq!(buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await.0, 404, "hidden by staff");
    assert!(listed(&buyer, "").await.is_empty());

    // Outside the sale window it is neither listed nor sold.
    app.db.execute_unprepared("UPDATE store_items SET is_forced_private = FALSE").await.unwrap();
    let ends = json!({"name": "木の椅子", "price": 0, "accessible_status": "published",
                      "end_at": "2026-12-20T00:00:00+09:00"});
    seller.put_json(&format!("/api/v1/store/my/items/{uuid}"), &ends).await;
    app.clock.set(at("2026-12-20T00:00:00+09:00"));
    buyer.renew().await;
    assert!(listed(&buyer, "").await.is_empty(), "the sale ended");
    let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("not_on_sale")), "{err}");
}

#[rocket::async_test]
async fn a_free_item_is_bought_once_downloaded_counted_and_a_refund_revokes_it() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("free_seller").await;
    let buyer = app.user("free_buyer").await;
    let bytes = chair_glb();
    let item = on_sale(&seller, json!({"price": 0})).await;
    let uuid = item["uuid"].as_str().unwrap();

    let (status, err) = seller.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("own_item")), "{err}");
    let (status, bought) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, bought["price"].as_i64(), bought["status"].as_str()), (201, Some(0), Some("paid")), "{bought}");
    let (status, again) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, &again["uuid"]), (200, &bought["uuid"]), "buying again answers the purchase made");
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!((seen["purchased"].as_bool(), seen["purchase_count"].as_i64()), (Some(true), Some(1)));

    let purchase = bought["uuid"].as_str().unwrap();
    let (status, link) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!(status, 200, "{link}");
    let url = crate::uploader::path_of(link["url"].as_str().unwrap());
    let (status, _, file) = buyer.download(&url).await;
    assert_eq!((status, file == bytes), (200, true), "the buyer downloads the seller's file");
    let (status, _) = seller.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!(status, 404, "a purchase is its buyer's");
    let (_, sales) = seller.get_json("/api/v1/store/my/sales").await;
    assert_eq!((sales.as_array().unwrap().len(), sales[0]["fee_amount"].as_i64()), (1, Some(0)), "{sales}");
    let (_, mine) = buyer.get_json("/api/v1/store/purchases").await;
    assert_eq!(mine[0]["item_name"], "木の椅子");

    let row = store_purchase::Entity::find().one(&app.db).await.unwrap().unwrap();
    assert!(vmarket::store::model::purchase::refund(&app.db, &row, "test", app.clock.now()).await.unwrap());
    assert!(!vmarket::store::model::purchase::refund(&app.db, &row, "test", app.clock.now()).await.unwrap());
    let (status, err) = buyer.post_json(&format!("/api/v1/store/purchases/{purchase}/download"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("purchase_refunded")), "the download is revoked");
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!((seen["purchased"].as_bool(), seen["purchase_count"].as_i64()), (Some(false), Some(0)));
    let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("purchase_refunded")));

    // An item with a price is paid for through an order (`orders.rs`), never bought here.
    let priced = on_sale(&seller, json!({})).await;
    let (status, err) = buyer
        .post_json(&format!("/api/v1/store/items/{}/purchase", priced["uuid"].as_str().unwrap()), &json!({}))
        .await;
    assert_eq!((status, err["code"].as_str()), (409, Some("payment_required")), "{err}");
}

/// Buys item `uuid` for `buyer_id` from `tasks` tasks at once; how many purchases stand and the
/// item's count afterwards.
async fn buy_concurrently(app: &TestApp, buyer_id: i32, uuid: &str, tasks: usize) -> (usize, i32) {
    let db = Arc::new(app.db.clone());
    let now = app.clock.now();
    let mut handles = Vec::new();
    for _ in 0..tasks {
        let (db, uuid) = (db.clone(), uuid.to_string());
        handles.push(rocket::tokio::spawn(async move {
            vmarket::store::model::purchase::buy(db.as_ref(), buyer_id, &uuid, now).await
        }));
    }
    for h in handles {
        // A call may lose to a lock (the control); what counts is what was stored.
        let _ = h.await.unwrap();
    }
    let purchases = store_purchase::Entity::find().all(&app.db).await.unwrap().len();
    let count = store_item::Entity::find().one(&app.db).await.unwrap().unwrap().purchase_count;
    (purchases, count)
}

#[rocket::async_test]
async fn twenty_buys_at_once_make_one_purchase() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("race_seller").await;
    let buyer = app.user("race_buyer").await;
    let item = on_sale(&seller, json!({"price": 0})).await;
    let (purchases, count) = buy_concurrently(&app, buyer.user.id, item["uuid"].as_str().unwrap(), 20).await;
    assert_eq!((purchases, count), (1, 1), "one purchase, counted once");
}

/// The control: without the unique key on (item, buyer) the same run stores more than one
/// purchase, so the test above can fail.
#[rocket::async_test]
async fn control_without_the_unique_key_the_same_run_buys_twice() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    app.db
        .execute_unprepared("DROP INDEX idx_store_purchases_item_id_buyer_id")
        .await
        .expect("the control drops the key");
    let seller = app.user("control_seller").await;
    let buyer = app.user("control_buyer").await;
    let item = on_sale(&seller, json!({"price": 0})).await;
    let (purchases, _) = buy_concurrently(&app, buyer.user.id, item["uuid"].as_str().unwrap(), 20).await;
    assert!(purchases > 1, "without the unique key the buys are not guarded (got {purchases})");
}

#[rocket::async_test]
async fn bad_input_gets_clear_errors_and_changes_nothing() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("bad_seller").await;
    let stranger = app.user("bad_stranger").await;
    let (asset, _) = one_shot(&seller, "furniture", "chair.glb", &chair_glb()).await;
    let id = asset["id"].clone();
    let post = |body: Value| {
        let seller = &seller;
        async move { seller.post_json("/api/v1/store/my/items", &body).await }
    };
    let fields = |err: &Value| -> Vec<String> {
        err["details"]
            .as_array()
            .map(|e| e.iter().map(|x| x["attribute"].as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default()
    };

    let (status, err) = post(json!({"asset_id": id, "name": "", "price": -1, "discount_rate": 100})).await;
    assert_eq!(status, 422, "{err}");
    assert_eq!(fields(&err), ["name", "price", "discount_rate"], "{err}");
    let (status, err) = post(json!({"asset_id": id, "name": "椅子", "price": 100, "discount_rate": 10})).await;
    assert_eq!(
        (status, fields(&err)),
        (422, vec!["discount_start_at".to_string(), "discount_end_at".to_string()]),
        "{err}"
    );
    let (status, err) =
        post(json!({"asset_id": id, "name": "x".repeat(129), "price": 1e9, "description": "説".repeat(2001)})).await;
    assert_eq!(status, 400, "a float where a whole number goes cannot be read: {err}");
    let (status, err) =
        post(json!({"asset_id": id, "name": "x".repeat(129), "price": 1_000_001, "description": "説".repeat(2001)}))
            .await;
    assert_eq!(
        (status, fields(&err)),
        (422, vec!["name".to_string(), "description".to_string(), "price".to_string()]),
        "{err}"
    );
    let (status, err) = post(json!({"asset_id": id, "name": "椅子", "price": 1, "start_at": "tomorrow"})).await;
    assert_eq!((status, fields(&err)), (422, vec!["start_at".to_string()]), "{err}");
    let (status, err) =
        stranger.post_json("/api/v1/store/my/items", &json!({"asset_id": id, "name": "盗品", "price": 1})).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("not_found")), "someone else's asset: {err}");
    let (video, _) = one_shot(&seller, "scene_asset", "pic.png", &crate::support::auth::png(8, 8)).await;
    let (status, err) = post(json!({"asset_id": video["id"], "name": "絵", "price": 1})).await;
    assert_eq!((status, fields(&err)), (422, vec!["asset_id".to_string()]), "a kind the store does not sell: {err}");
    let res = seller
        .request(rocket::http::Method::Post, "/api/v1/store/my/items")
        .header(rocket::http::ContentType::JSON)
        .body("{not json")
        .dispatch()
        .await;
    assert_eq!(res.status().code, 400);
    assert!(store_item::Entity::find().all(&app.db).await.unwrap().is_empty(), "nothing was stored");

    for query in ["?category=chairs", "?sub_category=roof", "?page=0", "?limit=101"] {
        let (status, err) = stranger.get_json(&format!("/api/v1/store/items{query}")).await;
        assert_eq!(status, 422, "{query}: {err}");
    }
    assert_eq!(stranger.get_json("/api/v1/store/items/not-a-uuid").await.0, 404);
    assert_eq!(stranger.post_json("/api/v1/store/items/nope/purchase", &json!({})).await.0, 404);
    assert_eq!(stranger.post_json("/api/v1/store/purchases/nope/download", &json!({})).await.0, 404);
}

#[rocket::async_test]
async fn bought_furniture_is_placed_in_the_buyers_booth_until_a_refund() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("furniture_seller").await;
    let buyer = app.user("furniture_buyer").await;
    let item = on_sale(&seller, json!({"price": 0})).await;
    let uuid = item["uuid"].as_str().unwrap();
    let version = item["item_zip"]["id"].as_i64().unwrap();

    vmarket::booth::model::home::ensure_demo_homes(&app.db, app.clock.now()).await.unwrap();
    let (_, homes) = buyer.get_json("/api/v1/booth_maker/preset_homes").await;
    let home = homes[0]["id"].as_i64().unwrap();
    let (status, made) = buyer
        .post_json("/api/v1/booth_maker/scenes", &json!({"name": "買った椅子の屋台", "preset_home_id": home}))
        .await;
    assert_eq!(status, 201, "{made}");
    let path = format!("/api/v1/booth_maker/scenes/{}", made["id"]);
    let palette = |view: &Value| -> Vec<i64> {
        view["palette"].as_array().unwrap().iter().map(|p| p["asset_version_id"].as_i64().unwrap()).collect()
    };
    let placed = json!({"version": 1, "home": home, "items": [{"asset_version_id": version, "sub_type": "floor",
        "position": [0.0, 0.0, 0.0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}]});

    let (_, view) = buyer.get_json(&path).await;
    assert!(palette(&view).is_empty(), "not bought yet: {view}");
    let (status, err) = buyer.put_json(&format!("{path}/draft"), &json!({"revision": 0, "scene": placed})).await;
    assert_eq!(status, 422, "someone else's furniture cannot be placed: {err}");

    buyer.post_json(&format!("/api/v1/store/items/{uuid}/purchase"), &json!({})).await;
    let (_, view) = buyer.get_json(&path).await;
    assert_eq!(palette(&view), [version], "bought furniture is in the palette");
    let (status, saved) = buyer.put_json(&format!("{path}/draft"), &json!({"revision": 0, "scene": placed})).await;
    assert_eq!(status, 200, "and can be placed: {saved}");

    let row = store_purchase::Entity::find().one(&app.db).await.unwrap().unwrap();
    vmarket::store::model::purchase::refund(&app.db, &row, "test", app.clock.now()).await.unwrap();
    let (status, err) = buyer.put_json(&format!("{path}/draft"), &json!({"revision": 1, "scene": placed})).await;
    assert_eq!(status, 422, "a refund takes it away: {err}");
}
