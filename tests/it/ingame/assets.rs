//! The user's assets in game: `/ingame/user/assets` lists what the game can load (with download
//! links), `/ingame/user/uploaded_assets` everything uploaded; lists take 1–30 and a category;
//! nobody sees anyone else's.

use serde_json::Value;
use vmarket::assets::analyse::samples::png;

use super::{get_with, signed_in_game};
use crate::support::TestApp;
use crate::uploader::{one_shot, path_of};

#[rocket::async_test]
async fn the_game_lists_the_users_loadable_assets_with_links() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("ingame_assets_owner").await;
    let other = app.with_user("ingame_assets_other").await;
    let picture = png(32, 32);
    let (asset, _) = one_shot(&owner, "scene_asset", "sign.png", &picture).await;
    one_shot(&other, "scene_asset", "not-yours.png", &png(16, 16)).await;
    let token = signed_in_game(&app, &owner, "assets-client").await;

    let (status, list) = get_with(&app, "/ingame/user/assets?limit=30&offset=0", &token).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!((list["total"].as_u64(), list["data"].as_array().map(Vec::len)), (Some(1), Some(1)), "{list}");
    assert_eq!(list["data"][0]["id"], asset["id"]);
    let url = list["data"][0]["latest_version"]["download_url"]["url"].as_str().expect("a link");
    let res = app.client.get(path_of(url)).dispatch().await;
    assert_eq!((res.status().code, res.into_bytes().await.unwrap()), (200, picture), "the game fetches the file");

    let (_, furniture) = get_with(&app, "/ingame/user/uploaded_assets?category=furniture", &token).await;
    assert_eq!(furniture["total"], 0, "{furniture}");
    let (_, uploaded) = get_with(&app, "/ingame/user/uploaded_assets?filterUploaded=true&limit=1", &token).await;
    assert_eq!((uploaded["total"].as_u64(), uploaded["limit"].as_u64()), (Some(1), Some(1)), "{uploaded}");
    let (_, beyond) = get_with(&app, "/ingame/user/assets?offset=1", &token).await;
    assert_eq!(beyond["data"], Value::Array(Vec::new()));

    for (query, field) in [
        ("limit=0", "limit"),
        ("limit=31", "limit"),
        ("offset=-1", "offset"),
        ("category=chair", "category"),
        ("filterUploaded=maybe", "filter_uploaded"),
    ] {
        let (status, body) = get_with(&app, &format!("/ingame/user/assets?{query}"), &token).await;
        assert_eq!((status, &body["details"][0]["attribute"]), (422, &Value::from(field)), "{query}: {body}");
    }
    assert_eq!(get_with(&app, "/ingame/user/assets", &owner.token).await.0, 401, "the site's token is refused");
}
