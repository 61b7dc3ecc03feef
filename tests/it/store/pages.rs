//! The store's pages (issue 31), as visitors, buyers and sellers use them without scripts: the
//! public store lists published items on sale with the price in force (English names on
//! `/en`), answers visitors from the shared cache, hides private items; a signed-in buyer gets a
//! free item with the item page's button, finds it on `/mypage/purchases` and downloads it; a
//! seller puts an upload on sale with the mypage form — a wrong field comes back with its message
//! and the input kept — and sees the sale with its fee.

use serde_json::json;

use crate::store::items::{chair_glb, on_sale};
use crate::support::TestApp;
use crate::support::html::Doc;
use crate::uploader::one_shot;

#[rocket::async_test]
async fn visitors_browse_buyers_get_and_download_sellers_list_and_sell() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("page_seller").await;
    let buyer = app.user("page_buyer").await;
    let free = on_sale(&seller, json!({"price": 0})).await;
    let priced = on_sale(&seller, json!({"name": "高い椅子", "name_en": "Dear chair", "price": 12000})).await;
    let free_uuid = free["uuid"].as_str().unwrap();

    // Visitors.
    let res = app.get("/store").await;
    assert_eq!(res.status().code, 200);
    let control = res.headers().get_one("Cache-Control").unwrap_or_default().to_string();
    assert!(control.starts_with("public"), "a visitor's store page is shareable: {control}");
    let doc = Doc::parse(&res.into_string().await.unwrap());
    assert_eq!(doc.count("[data-testid=store-item]"), 2);
    assert!(
        doc.texts("[data-testid=store-item-price]").iter().any(|t| t.contains("12,000円")),
        "{:?}",
        doc.texts("[data-testid=store-item-price]")
    );
    let (_, en) = app.page("/en/store?category=housing_furniture").await;
    let en = Doc::parse(&en);
    assert!(en.text("[data-testid=store-items]").contains("Dear chair"), "English names on /en");
    assert!(en.texts("[data-testid=store-item-price]").iter().any(|t| t.contains("¥12,000")));
    assert_eq!(app.page("/store?category=chairs").await.0, 404, "a category that does not exist");
    let (status, page) = app.page(&format!("/store/items/{free_uuid}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"),
        "sign_in",
        "a visitor is asked to sign in"
    );
    let (_, page) = app.page(&format!("/store/items/{}", priced["uuid"].as_str().unwrap())).await;
    assert_eq!(Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"), "paid_unavailable");

    // A buyer gets the free item with the button.
    let path = format!("/store/items/{free_uuid}");
    let form = buyer.form(&path, "[data-testid=store-buy] form").await;
    let (status, location, _) = buyer.submit(&form, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{path}?done=bought").as_str())));
    let (_, page) = buyer.page(&format!("{path}?done=bought")).await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.attr("[data-testid=store-buy]", "data-state"), "purchased");
    assert_eq!(doc.count("[data-testid=store-notice]"), 1);
    let (_, page) = buyer.page("/mypage/purchases").await;
    assert_eq!(Doc::parse(&page).count("[data-testid=purchase]"), 1);
    let download = buyer.form("/mypage/purchases", "[data-testid=purchase] form").await;
    let (status, location, _) = buyer.submit(&download, &[], None).await;
    assert_eq!(status, 303);
    let (status, _, file) = buyer.download(&crate::uploader::path_of(&location.unwrap())).await;
    assert_eq!((status, file == chair_glb()), (200, true), "the button downloads the seller's file");
    let (status, _, _) = seller.submit(&download, &[], None).await;
    assert_ne!(status, 303, "another user cannot use the buyer's download");

    // The seller's pages: their items, the sale and its fee (0 for a free item).
    let (_, page) = seller.page("/mypage/store/items").await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.count("[data-testid=store-mine-item]"), 2);
    assert_eq!(doc.text("[data-testid=store-sales-proceeds]"), "0円");
    let (_, page) = seller.page(&path).await;
    assert_eq!(Doc::parse(&page).attr("[data-testid=store-buy]", "data-state"), "own");

    // The seller's form: a wrong price comes back with its message and the input kept.
    let (asset, _) = one_shot(&seller, "furniture", "stool.glb", &chair_glb()).await;
    let asset_id = asset["id"].to_string();
    let form = seller.form("/mypage/store/items/new", "[data-testid=store-form]").await;
    let fields = [
        ("asset_id", asset_id.as_str()),
        ("name", "丸いスツール"),
        ("price", "五百"),
        ("accessible_status", "published"),
        ("discount_rate", "10"),
    ];
    let (status, _, page) = seller.submit(&form, &fields, None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&page);
    let errors: Vec<String> = doc.attrs(".field__error", "data-field");
    assert_eq!(errors, ["price", "discount_start_at", "discount_end_at"], "{page}");
    assert_eq!(doc.attr("#name", "value"), "丸いスツール", "the input is kept");
    let fields = [
        ("asset_id", asset_id.as_str()),
        ("name", "丸いスツール"),
        ("price", "500"),
        ("accessible_status", "published"),
        ("discount_rate", "10"),
        ("discount_start_at", "2026-12-01T00:00"),
        ("discount_end_at", "2026-12-31T00:00"),
    ];
    let (status, location, _) = seller.submit(&form, &fields, None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/store/items?done=created")));
    let (_, list) = seller.get_json("/api/v1/store/my/items").await;
    let stool = list.as_array().unwrap().iter().find(|i| i["name"] == "丸いスツール").cloned().unwrap();
    assert_eq!((stool["price"]["regular"].as_i64(), stool["discount_rate"].as_i64()), (Some(500), Some(10)));
    let edit = format!("/mypage/store/items/{}/edit", stool["uuid"].as_str().unwrap());
    assert_eq!(buyer.page(&edit).await.0, 404, "someone else's item has no form");
    let (_, page) = seller.page(&edit).await;
    assert_eq!(Doc::parse(&page).attr("#discount_start_at", "value"), "2026-12-01T00:00", "Japan time, as typed");
}
