//! Avatar parts (issue 31): staff make parts of uploaded `avatar_part_bundle` assets in the
//! console; the avatar maker's list offers a signed-in user the published, unlimited parts its
//! version reads, in order; a limited part is reached by its link only; a part for the buyers of a
//! store item is listed to others as unavailable, its bundle refused (409 `purchase_required`)
//! until they buy the item, handed over (302 to a link that serves the file) once they do, and
//! taken back by a refund. Bad input: clear errors, never a 500.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::assets::analyse::samples::{ZipSample, zip};
use vmarket::model::user::Role;

use crate::support::actors::Actor;
use crate::support::{TestApp, at};
use crate::uploader::{one_shot, path_of};

/// A small avatar-part bundle (ZIP) holding `name`'s prefab.
fn bundle(name: &str) -> Vec<u8> {
    zip(&[ZipSample::file(&format!("Parts/{name}.prefab"), b"%YAML 1.1\n--- !u!1 &1\nGameObject:\n")])
}

/// `owner` uploads a bundle named `name`; the asset's id.
async fn uploaded_bundle(owner: &Actor<'_>, name: &str) -> i64 {
    let (asset, _) = one_shot(owner, "avatar_part_bundle", &format!("{name}.zip"), &bundle(name)).await;
    assert_eq!(asset["latest_version"]["upload_status"], "uploaded", "{asset}");
    asset["id"].as_i64().unwrap()
}

/// Staff's new part: `fields` over a published hair part of maker version 1.
async fn new_part(staff: &Actor<'_>, asset_id: i64, fields: Value) -> Value {
    let mut body = json!({"name": "ショートボブ", "name_en": "Short bob", "part_type": "hair", "asset_id": asset_id,
                          "published": true, "avatar_maker_version": 1, "part_order": 0});
    for (k, v) in fields.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, part) = staff.post_json("/admin/api/avatar_parts", &body).await;
    assert_eq!(status, 201, "{part}");
    part
}

/// The console id of the store item `uuid`.
async fn item_id(staff: &Actor<'_>, uuid: &Value) -> i64 {
    let (_, items) = staff.get_json("/admin/api/store_items").await;
    let found = items.as_array().unwrap().iter().find(|i| i["uuid"] == *uuid);
    found.and_then(|i| i["id"].as_i64()).expect("the item in the console")
}

/// The names the maker of `version` lists for `viewer`, with whether each is available.
async fn listed(viewer: &Actor<'_>, version: i32) -> Vec<(String, bool)> {
    let (status, list) = viewer.get_json(&format!("/api/v1/store/avatar_parts?avatar_maker_version={version}")).await;
    assert_eq!(status, 200, "{list}");
    list.as_array().unwrap().iter().map(|p| (p["name"].as_str().unwrap().into(), p["available"] == true)).collect()
}

/// `viewer` fetches part `uuid`'s bundle: the status, and the file's bytes when redirected to it.
async fn fetch_bundle(viewer: &Actor<'_>, uuid: &str) -> (u16, Vec<u8>) {
    let res = viewer.request(Method::Get, &format!("/api/v1/store/avatar_parts/{uuid}/bundle")).dispatch().await;
    let status = res.status().code;
    if status != 302 {
        return (status, Vec::new());
    }
    let location = res.headers().get_one("Location").expect("a location").to_string();
    let (got, _, bytes) = viewer.download(&path_of(&location)).await;
    assert_eq!(got, 200, "the link serves the file");
    (status, bytes)
}

#[rocket::async_test]
async fn the_maker_offers_parts_by_version_order_link_and_purchase() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-01T00:00:00Z"));
    let creator = app.user("parts_creator").await;
    let buyer = app.user("parts_buyer").await;
    let staff = app.as_staff(Role::Admin).await;

    let hair = uploaded_bundle(&creator, "ShortBob").await;
    let ribbon = uploaded_bundle(&creator, "Ribbon").await;
    let (status, item) = creator
        .post_json(
            "/api/v1/store/my/items",
            &json!({"asset_id": ribbon, "name": "リボン", "price": 0, "accessible_status": "published"}),
        )
        .await;
    assert_eq!((status, item["product_category"].as_str()), (201, Some("avatar_part")), "{item}");

    let bob = new_part(&staff, hair, json!({"part_order": 2})).await;
    let bow = new_part(
        &staff,
        ribbon,
        json!({"name": "リボン", "name_en": "Ribbon", "part_type": "accessory", "part_order": 1, "is_purchase_required": true,
               "store_item_id": item_id(&staff, &item["uuid"]).await}),
    )
    .await;
    new_part(&staff, hair, json!({"name": "新しい前髪", "avatar_maker_version": 3})).await;
    let secret = new_part(&staff, hair, json!({"name": "限定ツインテール", "is_limited": true})).await;
    new_part(&staff, hair, json!({"name": "下書きの髪", "published": false})).await;

    assert_eq!(
        listed(&buyer, 2).await,
        vec![("リボン".into(), false), ("ショートボブ".into(), true)],
        "version 2 reads version 1 parts, in their order; limited, unpublished and newer ones are not listed"
    );
    assert_eq!(listed(&buyer, 3).await.len(), 3, "version 3 also reads the part made for it");
    let (_, seen) = buyer.get_json(&format!("/api/v1/store/avatar_parts/{}", bow["uuid"].as_str().unwrap())).await;
    assert_eq!(seen["available"], false);
    assert!(seen["bundle_url"].is_null(), "no bundle before buying: {seen}");
    assert_eq!(seen["store_item_uuid"], item["uuid"], "where to buy it");

    // The item's page names the part its buyers get, in the page's language.
    let (_, page) = buyer.page(&format!("/en/store/items/{}", item["uuid"].as_str().unwrap())).await;
    assert_eq!(crate::support::html::Doc::parse(&page).text("[data-testid=store-parts]"), "Ribbon (Accessory)");
    let (status, _) = fetch_bundle(&buyer, bow["uuid"].as_str().unwrap()).await;
    assert_eq!(status, 409, "not bought yet");
    let (status, err) =
        buyer.get_json(&format!("/api/v1/store/avatar_parts/{}/bundle", bow["uuid"].as_str().unwrap())).await;
    assert_eq!(err["code"], "purchase_required", "{status} {err}");
    let (status, file) = fetch_bundle(&buyer, bob["uuid"].as_str().unwrap()).await;
    assert_eq!((status, file), (302, bundle("ShortBob")), "a free part's bundle is the uploaded file");

    let (status, limited) =
        buyer.get_json(&format!("/api/v1/store/avatar_parts/{}", secret["uuid"].as_str().unwrap())).await;
    assert_eq!((status, limited["available"].as_bool()), (200, Some(true)), "a limited part by its link: {limited}");

    let (status, bought) =
        buyer.post_json(&format!("/api/v1/store/items/{}/purchase", item["uuid"].as_str().unwrap()), &json!({})).await;
    assert_eq!(status, 201, "{bought}");
    assert_eq!(listed(&buyer, 2).await[0], ("リボン".into(), true), "bought: available");
    let (status, file) = fetch_bundle(&buyer, bow["uuid"].as_str().unwrap()).await;
    assert_eq!((status, file), (302, bundle("Ribbon")));

    // A refund takes the part back.
    let (_, purchases) = staff.get_json("/admin/api/store_purchases").await;
    let id = purchases[0]["id"].as_i64().unwrap();
    let (status, refunded) = staff
        .post_json(&format!("/admin/api/store_purchases/{id}/refund"), &json!({"reason": "テストのため返金"}))
        .await;
    assert_eq!(status, 200, "{refunded}");
    assert_eq!(listed(&buyer, 2).await[0], ("リボン".into(), false), "refunded: unavailable again");
    assert_eq!(fetch_bundle(&buyer, bow["uuid"].as_str().unwrap()).await.0, 409);
}

#[rocket::async_test]
async fn strangers_unpublished_parts_and_bad_input_get_clear_answers() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let creator = app.user("parts_creator").await;
    let staff = app.as_staff(Role::Admin).await;
    let hair = uploaded_bundle(&creator, "ShortBob").await;
    let draft = new_part(&staff, hair, json!({"published": false})).await;
    let uuid = draft["uuid"].as_str().unwrap();

    // Signed out: 401; an unpublished part does not exist, nor does its bundle.
    let signed_out = app.client.get("/api/v1/store/avatar_parts?avatar_maker_version=1").dispatch().await;
    assert_eq!(signed_out.status().code, 401);
    assert_eq!(creator.get_json(&format!("/api/v1/store/avatar_parts/{uuid}")).await.0, 404);
    assert_eq!(fetch_bundle(&creator, uuid).await.0, 404);
    for (query, code) in [
        ("", "required"),
        ("?avatar_maker_version=0", "positive_integer"),
        ("?avatar_maker_version=x", "positive_integer"),
    ] {
        let (status, err) = creator.get_json(&format!("/api/v1/store/avatar_parts{query}")).await;
        assert_eq!(
            (status, err["details"][0]["attribute"].as_str()),
            (422, Some("avatar_maker_version")),
            "{query}: {err}"
        );
        assert!(err["details"][0]["message"].is_string(), "{code}: {err}");
    }

    // Staff: the bundle must be an uploaded avatar-part bundle; buyers-only needs a store item
    // of the avatar-parts category.
    let (chair, _) = one_shot(&creator, "furniture", "chair.glb", &super::items::chair_glb()).await;
    let base = json!({"name": "髪", "part_type": "hair", "avatar_maker_version": 1});
    let with = |extra: Value| {
        let mut body = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let (status, table) = creator
        .post_json(
            "/api/v1/store/my/items",
            &json!({"asset_id": chair["id"], "name": "椅子", "price": 0, "accessible_status": "published"}),
        )
        .await;
    assert_eq!(status, 201, "{table}");
    for (body, field) in [
        (with(json!({"asset_id": chair["id"]})), "asset_id"),
        (with(json!({"asset_id": 999_999})), "asset_id"),
        (with(json!({"asset_id": hair, "is_purchase_required": true})), "store_item_id"),
        (
            with(
                json!({"asset_id": hair, "is_purchase_required": true, "store_item_id": item_id(&staff, &table["uuid"]).await}),
            ),
            "store_item_id",
        ),
        (with(json!({"asset_id": hair, "part_type": "wings"})), "part_type"),
        (with(json!({"asset_id": hair, "avatar_maker_version": 0})), "avatar_maker_version"),
    ] {
        let (status, err) = staff.post_json("/admin/api/avatar_parts", &body).await;
        assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some(field)), "{body}: {err}");
    }
}
