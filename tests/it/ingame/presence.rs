//! Presence in game: a player's heartbeat says where they are; those they follow see whether they
//! can invite or join them, on which channel and world, and the link; strangers and those they
//! do not follow see them offline; the portal lists at most six players to join, the latest
//! heartbeat first; a player who leaves or goes quiet for three minutes drops out.

use chrono::Duration;
use rocket::http::Method::{Delete, Post, Put};
use sea_orm::EntityTrait;
use serde_json::{Value, json};
use vmarket::db::entities::world;

use super::{get_with, send, signed_in_game};
use crate::support::TestApp;

#[rocket::async_test]
async fn followers_see_where_a_player_is_and_the_portal_lists_whom_to_join() {
    let app = TestApp::builder().live().build().await;
    let world = world::Entity::find().one(&app.db).await.unwrap().expect("a demo world");
    let alice = app.with_named_user("presence_alice", "アリス", "Alice").await;
    let bob = app.with_user("presence_bob").await;
    let carol = app.with_user("presence_carol").await;
    let (a, b, c) = (
        signed_in_game(&app, &alice, "a").await,
        signed_in_game(&app, &bob, "b").await,
        signed_in_game(&app, &carol, "c").await,
    );
    let follow = |token: String, id: i32| {
        let app = &app;
        async move { assert_eq!(send(app, Post, &format!("/ingame/users/{id}/follow"), &token, None).await.0, 204) }
    };
    // Alice and Bob follow each other; Carol follows Alice, who does not follow her back.
    follow(a.clone(), bob.user.id).await;
    follow(b.clone(), alice.user.id).await;
    follow(c.clone(), alice.user.id).await;

    let here = json!({"channel_session_code": "hall:1", "world_id": world.id,
                      "join_url": "https://vrchat.com/home/launch?worldId=wrld_1&instanceId=1",
                      "invitable": true, "joinable": true});
    assert_eq!(send(&app, Put, "/ingame/user/presence", &a, Some(here.clone())).await.0, 204);
    assert_eq!(
        send(&app, Put, "/ingame/user/presence", &b, Some(json!({"channel_session_code": "hall:1"}))).await.0,
        204
    );

    let path = format!("/ingame/users/{}?lang=en", alice.user.id);
    let (_, seen) = get_with(&app, &path, &b).await;
    assert_eq!(
        (&seen["invitable"], &seen["joinable"], &seen["same_position_channel"], &seen["join_url"]),
        (&true.into(), &true.into(), &true.into(), &here["join_url"]),
        "{seen}"
    );
    assert_eq!(
        (&seen["world_portal"]["world_id"], &seen["world_portal"]["name"]),
        (&world.id.into(), &world.name_en.clone().into())
    );
    let (_, by_carol) = get_with(&app, &path, &c).await;
    assert_eq!(
        (&by_carol["invitable"], &by_carol["joinable"], &by_carol["world_portal"], &by_carol["join_url"]),
        (&false.into(), &false.into(), &Value::Null, &Value::Null),
        "Alice does not follow Carol: offline to her: {by_carol}"
    );
    let (status, portal) = get_with(&app, "/ingame/user/portal", &b).await;
    assert_eq!(status, 200, "{portal}");
    assert_eq!(portal["data"].as_array().unwrap().len(), 1, "{portal}");
    assert_eq!(portal["data"][0]["join_url"], here["join_url"]);
    assert_eq!(get_with(&app, "/ingame/user/portal", &c).await.1["data"], json!([]), "not for Carol");

    // Quiet for three minutes: offline. Back, then gone: offline at once.
    app.clock.set(app.clock.real_now() + Duration::seconds(181));
    assert_eq!(get_with(&app, "/ingame/user/portal", &b).await.1["data"], json!([]));
    assert_eq!(get_with(&app, &path, &b).await.1["joinable"], false);
    send(&app, Put, "/ingame/user/presence", &a, Some(here.clone())).await;
    assert_eq!(get_with(&app, "/ingame/user/portal", &b).await.1["data"].as_array().unwrap().len(), 1);
    assert_eq!(send(&app, Delete, "/ingame/user/presence", &a, None).await.0, 204);
    assert_eq!(get_with(&app, "/ingame/user/portal", &b).await.1["data"], json!([]));
}

#[rocket::async_test]
async fn the_portal_holds_at_most_six_the_latest_first() {
    let app = TestApp::builder().live().config(|c| c.ingame_codes_per_minute = 100).build().await;
    let viewer = app.with_user("portal_viewer").await;
    let v = signed_in_game(&app, &viewer, "v").await;
    let mut ids = Vec::new();
    for i in 0..8 {
        let friend = app.with_user(&format!("portal_friend{i}")).await;
        let f = signed_in_game(&app, &friend, "f").await;
        send(&app, Post, &format!("/ingame/users/{}/follow", friend.user.id), &v, None).await;
        send(&app, Post, &format!("/ingame/users/{}/follow", viewer.user.id), &f, None).await;
        app.clock.set(app.clock.real_now() + Duration::seconds(1));
        let beat = json!({"joinable": true, "join_url": format!("https://example.com/join/{i}")});
        assert_eq!(send(&app, Put, "/ingame/user/presence", &f, Some(beat)).await.0, 204);
        ids.push(friend.user.id);
    }
    let (_, portal) = get_with(&app, "/ingame/user/portal", &v).await;
    let listed: Vec<i64> = portal["data"].as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect();
    let want: Vec<i64> = ids.iter().rev().take(6).map(|id| i64::from(*id)).collect();
    assert_eq!(listed, want, "six, the latest heartbeat first");
}

#[rocket::async_test]
async fn a_heartbeat_refuses_what_it_cannot_keep() {
    let app = TestApp::builder().live().build().await;
    let player = app.with_user("presence_bad").await;
    let t = signed_in_game(&app, &player, "bad").await;
    let cases = [
        (json!({"world_id": 999_999}), "world_id"),
        (json!({"joinable": true}), "join_url"),
        (json!({"join_url": "javascript:alert(1)"}), "join_url"),
        (json!({"channel_session_code": "has space"}), "channel_session_code"),
    ];
    for (body, field) in cases {
        let (status, answer) = send(&app, Put, "/ingame/user/presence", &t, Some(body.clone())).await;
        assert_eq!((status, &answer["details"][0]["attribute"]), (422, &Value::from(field)), "{body}: {answer}");
    }
    assert_eq!(send(&app, Put, "/ingame/user/presence", &t, Some(json!({"joinable": "yes"}))).await.0, 400);
    assert_eq!(send(&app, Put, "/ingame/user/presence", &player.token, Some(json!({}))).await.0, 401);
}
