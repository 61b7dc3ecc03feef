//! Emotes and pallets: staff publish emotes in the console; a player sees each as owned or not,
//! blacklisted or not, and playable by their client's version or not; a pallet takes only owned,
//! playable, not blacklisted emotes, one per slot, and is replaced whole; a deleted emote leaves
//! every pallet.

use rocket::http::{ContentType, Header, Method};
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::{get_with, signed_in_game};
use crate::admin::call;
use crate::support::TestApp;
use crate::support::actors::json_of;

async fn put_pallet(app: &TestApp, token: &str, version: i32, body: Value) -> (u16, Value) {
    let req = app
        .client
        .put(format!("/ingame/user/pallets?version={version}"))
        .header(Header::new("Authorization", format!("Bearer {token}")))
        .header(ContentType::JSON)
        .body(body.to_string());
    json_of(req.dispatch().await).await
}

#[rocket::async_test]
async fn a_pallet_takes_owned_playable_emotes_that_are_not_blacklisted() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let mut ids = Vec::new();
    for (name, version, free, blacklisted) in
        [("手を振る", 1, true, false), ("ダンス", 3, true, false), ("有料", 1, false, false), ("禁止", 1, true, true)]
    {
        let body = json!({"name": name, "name_en": format!("{name} (en)"), "icon_url": "https://example.com/i.png",
                          "json_url": "https://example.com/m.json", "version": version, "is_free": free,
                          "is_blacklist": blacklisted, "emote_order": ids.len()});
        let made = call(&app, &admin, Method::Post, "/admin/api/ingame_emotes", Some(&body)).await;
        assert_eq!(made.status, 201, "{:?}", made.body);
        ids.push(made.body["id"].as_i64().unwrap());
    }
    let (wave, dance, paid, banned) = (ids[0], ids[1], ids[2], ids[3]);
    let player = app.with_user("emote_player").await;
    let token = signed_in_game(&app, &player, "emote-client").await;

    let (status, list) = get_with(&app, "/ingame/emotes?version=2&lang=en", &token).await;
    assert_eq!((status, &list["total"]), (200, &4.into()), "{list}");
    let flags: Vec<(Value, Value, Value)> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["is_owned"].clone(), e["is_blacklist"].clone(), e["is_unavailable_version"].clone()))
        .collect();
    let f = |a: bool, b: bool, c: bool| (Value::from(a), Value::from(b), Value::from(c));
    assert_eq!(flags, [f(true, false, false), f(true, false, true), f(false, false, false), f(true, true, false)]);
    assert_eq!(list["data"][0]["name"], "手を振る (en)");

    // Only the first can go on a pallet for a client of version 2.
    for (emote, field) in [(dance, "too new"), (paid, "not owned"), (banned, "blacklisted"), (999_999, "unknown")] {
        let (status, body) =
            put_pallet(&app, &token, 2, json!({"pallets": [{"pallet_num": 1, "emote_id": emote}]})).await;
        assert_eq!((status, &body["details"][0]["attribute"]), (422, &"pallets.0.emote_id".into()), "{field}: {body}");
    }
    let (status, body) = put_pallet(&app, &token, 2, json!({"pallets": [{"pallet_num": 11, "emote_id": wave}]})).await;
    assert_eq!((status, &body["details"][0]["attribute"]), (422, &"pallets.0.pallet_num".into()));
    let twice = json!({"pallets": [{"pallet_num": 1, "emote_id": wave}, {"pallet_num": 1, "emote_id": wave}]});
    assert_eq!(put_pallet(&app, &token, 2, twice).await.0, 422);
    assert_eq!(put_pallet(&app, &token, 0, json!({"pallets": []})).await.0, 422, "version at least 1");
    assert_eq!(put_pallet(&app, &token, 2, json!({"pallet": []})).await.0, 400);

    let (status, pallet) = put_pallet(
        &app,
        &token,
        3,
        json!({"pallets": [{"pallet_num": 2, "emote_id": wave}, {"pallet_num": 5, "emote_id": dance}]}),
    )
    .await;
    assert_eq!(status, 200, "{pallet}");
    assert_eq!((pallet[0]["pallet_num"].as_i64(), pallet[1]["emote_id"].as_i64()), (Some(2), Some(dance)));
    let (_, read) = get_with(&app, "/ingame/user/pallets?version=2", &token).await;
    assert_eq!(read[1]["emote"]["is_unavailable_version"], true, "an older client sees the slot's emote as too new");

    // A refused change changes nothing; staff deleting an emote empties its slots.
    put_pallet(&app, &token, 3, json!({"pallets": [{"pallet_num": 1, "emote_id": paid}]})).await;
    assert_eq!(get_with(&app, "/ingame/user/pallets?version=3", &token).await.1.as_array().unwrap().len(), 2);
    let deleted = call(&app, &admin, Method::Delete, &format!("/admin/api/ingame_emotes/{dance}"), None).await;
    assert_eq!(deleted.status, 200, "{:?}", deleted.body);
    let (_, read) = get_with(&app, "/ingame/user/pallets?version=3", &token).await;
    assert_eq!(read.as_array().unwrap().len(), 1, "{read}");
    assert_eq!(get_with(&app, "/ingame/emotes", &token).await.0, 422, "the client's version is needed");
}
