//! Players in game: a profile others see (introduction, top-page avatar from one's own uploaded
//! avatars), following once and never oneself, the follower and following lists with each
//! side's status, and their windows of 1–30.

use rocket::futures::future::join_all;
use serde_json::{Value, json};

use super::{get_with, send, signed_in_game};
use crate::support::TestApp;

#[rocket::async_test]
async fn players_follow_each_other_once_and_see_both_sides() {
    use rocket::http::Method::{Delete, Post, Put};
    let app = TestApp::builder().live().build().await;
    let alice = app.with_named_user("ingame_alice", "アリス", "Alice").await;
    let bob = app.with_named_user("ingame_bob", "ボブ", "Bob").await;
    let carol = app.with_named_user("ingame_carol", "キャロル", "Carol").await;
    let (a, b, c) = (
        signed_in_game(&app, &alice, "a").await,
        signed_in_game(&app, &bob, "b").await,
        signed_in_game(&app, &carol, "c").await,
    );
    let (bob_id, alice_id) = (bob.user.id, alice.user.id);

    // Twenty follows at once make one.
    let follow_bob = format!("/ingame/users/{bob_id}/follow");
    let follows = (0..20).map(|_| send(&app, Post, &follow_bob, &a, None));
    assert!(join_all(follows).await.iter().all(|(s, _)| *s == 204));
    assert_eq!(send(&app, Post, &format!("/ingame/users/{alice_id}/follow"), &b, None).await.0, 204);
    assert_eq!(send(&app, Post, &format!("/ingame/users/{bob_id}/follow"), &c, None).await.0, 204);

    let (status, seen) = get_with(&app, &format!("/ingame/users/{bob_id}?lang=en"), &a).await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!((&seen["name"], &seen["follower_count"], &seen["follow_count"]), (&"Bob".into(), &2.into(), &1.into()));
    assert_eq!((&seen["follow_status"], &seen["follower_status"]), (&true.into(), &true.into()), "mutual: {seen}");
    let (_, by_carol) = get_with(&app, &format!("/ingame/users/{alice_id}"), &c).await;
    assert_eq!(
        (&by_carol["name"], &by_carol["follow_status"], &by_carol["follower_status"]),
        (&"アリス".into(), &false.into(), &false.into())
    );

    let (_, followers) = get_with(&app, "/ingame/user/followers?limit=1", &b).await;
    assert_eq!((&followers["total"], followers["data"].as_array().unwrap().len()), (&2.into(), 1), "{followers}");
    assert_eq!(followers["data"][0]["id"], carol.user.id, "the newest follower first");
    let (_, following) = get_with(&app, "/ingame/user/following", &a).await;
    assert_eq!(following["data"][0]["id"], bob_id);

    assert_eq!(send(&app, Delete, &format!("/ingame/users/{bob_id}/follow"), &a, None).await.0, 204);
    let (_, me) = get_with(&app, "/ingame/user", &b).await;
    assert_eq!((&me["follower_count"], &me["client_name"]), (&1.into(), &"b".into()), "{me}");

    // Refusals.
    let (status, body) = send(&app, Post, &format!("/ingame/users/{alice_id}/follow"), &a, None).await;
    assert_eq!((status, &body["code"]), (422, &"cannot_follow_self".into()));
    let (status, body) = send(&app, Post, "/ingame/users/999999/follow", &a, None).await;
    assert_eq!((status, &body["code"]), (404, &"unknown_user".into()));
    for query in ["limit=0", "limit=31", "offset=x"] {
        assert_eq!(get_with(&app, &format!("/ingame/user/followers?{query}"), &a).await.0, 422, "{query}");
    }
    let (status, _) = send(&app, Put, "/ingame/user", &a, Some(json!({"introduction": "x".repeat(501)}))).await;
    assert_eq!(status, 422);
    let (status, body) = send(&app, Put, "/ingame/user", &a, Some(json!({"top_page_avatar_id": 424242}))).await;
    assert_eq!((status, &body["details"][0]["attribute"]), (422, &"top_page_avatar_id".into()), "{body}");
    assert_eq!(send(&app, Put, "/ingame/user", &a, Some(json!("not an object"))).await.0, 400);
    let (status, me) = send(&app, Put, "/ingame/user", &a, Some(json!({"introduction": "  よろしく！ "}))).await;
    assert_eq!(
        (status, &me["introduction"], &me["top_page_avatar_id"]),
        (200, &"よろしく！".into(), &Value::Null),
        "{me}"
    );
    assert_eq!(get_with(&app, &format!("/ingame/users/{alice_id}"), &b).await.1["introduction"], "よろしく！");
    assert_eq!(
        send(&app, Post, &format!("/ingame/users/{bob_id}/follow"), &alice.token, None).await.0,
        401,
        "site token"
    );
}

#[rocket::async_test]
async fn the_top_page_avatar_is_one_of_ones_own_uploaded_avatars() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("ingame_avatar_owner").await;
    let other = app.with_user("ingame_avatar_other").await;
    let vrm = crate::uploader::avatar(2_000);
    let (avatar, _) = crate::uploader::one_shot(&owner, "avatar", "me.vrm", &vrm).await;
    let (picture, _) =
        crate::uploader::one_shot(&owner, "scene_asset", "p.png", &vmarket::assets::analyse::samples::png(8, 8)).await;
    let (theirs, _) = crate::uploader::one_shot(&other, "avatar", "them.vrm", &vrm).await;
    let token = signed_in_game(&app, &owner, "avatar-client").await;
    for (id, ok) in [(&theirs["id"], false), (&picture["id"], false), (&avatar["id"], true)] {
        let (status, body) =
            send(&app, rocket::http::Method::Put, "/ingame/user", &token, Some(json!({"top_page_avatar_id": id})))
                .await;
        assert_eq!(status, if ok { 200 } else { 422 }, "{id}: {body}");
    }
    assert_eq!(get_with(&app, "/ingame/user", &token).await.1["top_page_avatar_id"], avatar["id"]);
    let (status, me) =
        send(&app, rocket::http::Method::Put, "/ingame/user", &token, Some(json!({"top_page_avatar_id": null}))).await;
    assert_eq!((status, &me["top_page_avatar_id"]), (200, &Value::Null));
}
