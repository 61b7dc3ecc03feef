//! Sets of store items (issue 31, spec §3 `parentItems`): a seller sells two chairs together as a
//! set; whoever buys the set holds both — their files download through the set's purchase, they
//! are in the buyer's booth-maker palette, buying one of them again is refused — until a refund
//! takes it all back. The rules of a set's contents (the seller's own items, not itself, at most
//! twenty, one level, a bought set only grows) answer with clear codes and change nothing; the
//! item form does the same without scripts, and the item and purchases pages show the set.

use sea_orm::EntityTrait;
use serde_json::{Value, json};
use vmarket::db::entities::store_purchase;
use vmarket::model::user::Role;

use crate::store::items::{chair_glb, on_sale};
use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::html::Doc;

/// `seller` makes item `set` hold the items `uuids`; status and body.
async fn put_contents(seller: &Actor<'_>, set: &str, uuids: &[&str]) -> (u16, Value) {
    seller.put_json(&format!("/api/v1/store/my/items/{set}/contents"), &json!({ "items": uuids })).await
}

/// The uuids of `list` (an array of item references).
fn uuids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|i| i["uuid"].as_str().unwrap().to_string()).collect()
}

/// The uuid of item view `item`.
fn id(item: &Value) -> String {
    item["uuid"].as_str().unwrap().to_string()
}

/// Item `uuid` as `viewer` sees it through the API.
async fn item(viewer: &Actor<'_>, uuid: &str) -> Value {
    let (status, item) = viewer.get_json(&format!("/api/v1/store/items/{uuid}")).await;
    assert_eq!(status, 200, "{item}");
    item
}

/// The asset versions in the palette of a new booth-maker scene of `user`.
async fn palette(user: &Actor<'_>, home: i64) -> Vec<i64> {
    let (status, made) =
        user.post_json("/api/v1/booth_maker/scenes", &json!({"name": "セットの屋台", "preset_home_id": home})).await;
    assert_eq!(status, 201, "{made}");
    let (_, view) = user.get_json(&format!("/api/v1/booth_maker/scenes/{}", made["id"])).await;
    view["palette"].as_array().unwrap().iter().map(|p| p["asset_version_id"].as_i64().unwrap()).collect()
}

#[rocket::async_test]
async fn a_bought_set_holds_its_items_until_a_refund() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("set_seller").await;
    let buyer = app.user("set_buyer").await;
    let stranger = app.user("set_stranger").await;
    let chair = on_sale(&seller, json!({"name": "椅子", "name_en": "Chair", "price": 1200})).await;
    let stool = on_sale(&seller, json!({"name": "丸椅子", "name_en": "Stool", "price": 800})).await;
    let set = on_sale(&seller, json!({"name": "椅子セット", "name_en": "Chair set", "price": 0})).await;
    let other = on_sale(&seller, json!({"name": "別の椅子", "price": 0})).await;
    let (chair_id, stool_id, set_id) = (id(&chair), id(&stool), id(&set));

    let (status, made) = put_contents(&seller, &set_id, &[&chair_id, &stool_id, &chair_id]).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(
        uuids(&made["included_items"]),
        [chair_id.clone(), stool_id.clone()],
        "in the seller's order, once each"
    );
    assert_eq!(uuids(&item(&stranger, &chair_id).await["parent_items"]), [set_id.as_str()], "the chair names its set");
    assert_eq!(item(&stranger, &set_id).await["included_items"][1]["name_en"], "Stool");
    // Staff see the same links in the console: the set's items, the chair's set (by id).
    let staff = app.as_staff(Role::Admin).await;
    let (_, rows) = staff.get_json("/admin/api/store_items").await;
    let row = |uuid: &str| rows.as_array().unwrap().iter().find(|r| r["uuid"] == uuid).cloned().unwrap();
    let ids = |v: &Value| v.as_array().unwrap().iter().map(|i| i.as_i64().unwrap()).collect::<Vec<_>>();
    let (chair_row, stool_row, set_row) = (row(&chair_id), row(&stool_id), row(&set_id));
    assert_eq!(
        ids(&set_row["included_item_ids"]),
        [chair_row["id"].as_i64().unwrap(), stool_row["id"].as_i64().unwrap()]
    );
    assert_eq!(ids(&chair_row["parent_item_ids"]), [set_row["id"].as_i64().unwrap()]);
    assert!(ids(&chair_row["included_item_ids"]).is_empty());

    // Buying the set: both chairs are the buyer's; buying one of them again is refused.
    let (status, bought) = buyer.post_json(&format!("/api/v1/store/items/{set_id}/purchase"), &json!({})).await;
    assert_eq!(status, 201, "{bought}");
    assert_eq!(uuids(&bought["included"]), [chair_id.clone(), stool_id.clone()]);
    assert_eq!(item(&buyer, &chair_id).await["purchased"], true, "held through the set");
    assert_eq!(item(&buyer, &id(&other)).await["purchased"], false);
    let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{chair_id}/purchase"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("held_through_set")), "{err}");
    assert_eq!(item(&stranger, &chair_id).await["purchase_count"], 0, "the set's sale is the set's");

    // The chairs' files download through the set's purchase; nothing else does.
    let purchase = bought["uuid"].as_str().unwrap();
    let download = |inner: &str| format!("/api/v1/store/purchases/{purchase}/download?item={inner}");
    let (status, link) = buyer.post_json(&download(&stool_id), &json!({})).await;
    assert_eq!(status, 200, "{link}");
    let (status, _, file) = buyer.download(&crate::uploader::path_of(link["url"].as_str().unwrap())).await;
    assert_eq!((status, file == chair_glb()), (200, true), "the stool's file");
    assert_eq!(buyer.post_json(&download(&id(&other)), &json!({})).await.0, 404, "not in the set");
    assert_eq!(stranger.post_json(&download(&stool_id), &json!({})).await.0, 404, "not their purchase");

    // Furniture in a bought set is in the booth maker's palette.
    vmarket::booth::model::home::ensure_demo_homes(&app.db, app.clock.now()).await.unwrap();
    let (_, homes) = buyer.get_json("/api/v1/booth_maker/preset_homes").await;
    let home = homes[0]["id"].as_i64().unwrap();
    let mut shown = palette(&buyer, home).await;
    shown.sort_unstable();
    let mut wanted: Vec<i64> = [&chair, &stool, &set].iter().map(|i| i["item_zip"]["id"].as_i64().unwrap()).collect();
    wanted.sort_unstable();
    assert_eq!(shown, wanted, "the set and both chairs");

    // A refund of the set takes everything in it back.
    let row = store_purchase::Entity::find().one(&app.db).await.unwrap().unwrap();
    assert!(vmarket::store::model::purchase::refund(&app.db, &row, "test", app.clock.now()).await.unwrap());
    assert_eq!(item(&buyer, &chair_id).await["purchased"], false);
    let (status, err) = buyer.post_json(&download(&stool_id), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("purchase_refunded")), "{err}");
    assert!(palette(&buyer, home).await.is_empty());
    let (status, err) = buyer.post_json(&format!("/api/v1/store/items/{chair_id}/purchase"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("payment_required")), "an ordinary priced item again");
}

#[rocket::async_test]
async fn a_sets_contents_keep_their_rules() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("set_rules_seller").await;
    let buyer = app.user("set_rules_buyer").await;
    let stranger = app.user("set_rules_stranger").await;
    let (a, b, c) = (
        id(&on_sale(&seller, json!({"name": "A"})).await),
        id(&on_sale(&seller, json!({"name": "B"})).await),
        id(&on_sale(&seller, json!({"name": "C", "price": 0})).await),
    );
    let theirs = id(&on_sale(&stranger, json!({"name": "他人の椅子"})).await);
    let refused = |answer: (u16, Value)| {
        let (status, body) = answer;
        let at = body["details"][0]["attribute"].as_str().map(str::to_string);
        let code = body["code"].as_str().map(str::to_string);
        (status, at, code, body)
    };

    let (status, at, _, body) = refused(put_contents(&seller, &c, &[&a, &theirs]).await);
    assert_eq!((status, at.as_deref()), (422, Some("items")), "someone else's item: {body}");
    let (status, at, _, body) = refused(put_contents(&seller, &c, &[&c]).await);
    assert_eq!((status, at.as_deref()), (422, Some("items")), "itself: {body}");
    let many: Vec<String> = (0..21).map(|n| format!("00000000-0000-4000-8000-{n:012}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let (status, _, _, body) = refused(put_contents(&seller, &c, &many).await);
    assert_eq!(status, 422, "21 items: {body}");
    assert!(body["details"][0]["message"].as_str().unwrap().contains("20"), "{body}");
    assert_eq!(put_contents(&stranger, &c, &[&a]).await.0, 404, "someone else's set");
    let res = seller
        .request(rocket::http::Method::Put, &format!("/api/v1/store/my/items/{c}/contents"))
        .header(rocket::http::ContentType::JSON)
        .body(r#"{"items": "not a list"}"#)
        .dispatch()
        .await;
    assert_eq!(res.status().code, 400);
    assert_eq!(item(&seller, &c).await["included_items"], json!([]), "nothing was stored");

    // One level: a set goes in no set, an item in a set holds nothing.
    assert_eq!(put_contents(&seller, &c, &[&a]).await.0, 200);
    let (_, _, code, body) = refused(put_contents(&seller, &b, &[&c]).await);
    assert_eq!(code.as_deref(), Some("set_in_set"), "{body}");
    let (_, _, code, body) = refused(put_contents(&seller, &a, &[&b]).await);
    assert_eq!(code.as_deref(), Some("set_in_set"), "{body}");

    // Bought: the set only grows, and the buyer holds what was added.
    assert_eq!(buyer.post_json(&format!("/api/v1/store/items/{c}/purchase"), &json!({})).await.0, 201);
    let (status, _, code, body) = refused(put_contents(&seller, &c, &[&b]).await);
    assert_eq!((status, code.as_deref()), (409, Some("set_sold")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("外す"), "says what cannot be done: {body}");
    let (status, grown) = put_contents(&seller, &c, &[&a, &b]).await;
    assert_eq!((status, uuids(&grown["included_items"])), (200, vec![a.clone(), b.clone()]));
    assert_eq!(item(&buyer, &b).await["purchased"], true, "added after the sale, held all the same");
}

#[rocket::async_test]
async fn the_item_form_makes_a_set_and_the_pages_show_it() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let seller = app.user("set_page_seller").await;
    let buyer = app.user("set_page_buyer").await;
    let lamp = id(&on_sale(&seller, json!({"name": "ランプ", "name_en": "Lamp"})).await);
    let desk = id(&on_sale(&seller, json!({"name": "机", "name_en": "Desk", "accessible_status": "private"})).await);
    let set = id(&on_sale(&seller, json!({"name": "書斎セット", "name_en": "Study set", "price": 0})).await);
    let edit = format!("/mypage/store/items/{set}/edit");

    let (_, html) = seller.page(&edit).await;
    let doc = Doc::parse(&html);
    let mut offered = doc.attrs("[data-testid=store-set-choice]", "value");
    offered.sort();
    let mut mine = vec![lamp.clone(), desk.clone()];
    mine.sort();
    assert_eq!(offered, mine, "the seller's other items");
    let form = seller.form(&edit, "[data-testid=store-set-form]").await;
    let (status, location, _) = seller.submit(&form, &[("items", &lamp), ("items", &desk)], None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{edit}?set=saved#set").as_str())));
    let (_, html) = seller.page(&format!("{edit}?set=saved")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=store-set-note]"), "セット内容を保存しました。");
    assert_eq!(doc.count("[data-testid=store-set-choice][checked]"), 2);
    // The lamp is in a set now: its own form says so instead of offering a set.
    let (_, html) = seller.page(&format!("/en/mypage/store/items/{lamp}/edit")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=store-set-form]"), 0);
    let said = doc.text("[data-testid=store-set-in-sets]");
    assert!(said.contains("“Study set”"), "{said}");
    // A refused change says why, beside the section.
    let (status, location, _) = seller.submit(&form, &[("items", &set)], None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{edit}?set_error=set_itself#set").as_str())));
    let (_, html) = seller.page(&format!("/en{edit}?set_error=set_itself")).await;
    assert_eq!(Doc::parse(&html).text("[data-testid=store-set-note]"), "An item cannot be in its own set.");
    let (status, _, _) = seller.submit(&form, &[("csrf_token", "forged"), ("items", &lamp)], None).await;
    assert_eq!(status, 403, "a forged form changes nothing");

    // The set's page lists what it holds: the lamp linked, the private desk named only.
    let (_, html) = buyer.page(&format!("/en/store/items/{set}")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=store-set-items] li"), ["Lamp", "Desk"]);
    assert_eq!(doc.attrs("[data-testid=store-set-items] a", "href"), [format!("/en/store/items/{lamp}")]);
    let (_, html) = buyer.page(&format!("/store/items/{lamp}")).await;
    assert!(Doc::parse(&html).text("[data-testid=store-item-sets]").contains("書斎セット"));

    // Bought: the purchases page downloads each item of the set.
    let get = buyer.form(&format!("/store/items/{set}"), "[data-testid=store-buy] form").await;
    assert_eq!(buyer.submit(&get, &[], None).await.0, 303);
    let (_, html) = buyer.page("/mypage/purchases").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=purchase-set-item]"), 2);
    let desk_download = buyer.form("/mypage/purchases", "[data-testid=purchase-set-item]:nth-child(2) form").await;
    assert!(desk_download.action.ends_with(&format!("?item={desk}")), "{}", desk_download.action);
    let (status, location, _) = buyer.submit(&desk_download, &[], None).await;
    assert_eq!(status, 303);
    let (status, _, file) = buyer.download(&crate::uploader::path_of(&location.unwrap())).await;
    assert_eq!((status, file == chair_glb()), (200, true), "the private desk's file, bought with the set");
}
