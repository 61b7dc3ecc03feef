//! Keywords, artist credits and areas of worlds and concepts from the console: written with the
//! world or concept, shown on its public page, checked (unknown keywords and artists, empty
//! names), and never taking other records along (a keyword in use, an area with exhibitors).

use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use vmarket::db::entities::{exhibitor_slot, world_area};
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

async fn send(app: &TestApp, who: &Actor<'_>, method: Method, path: &str, body: Value) -> Answer {
    let path = format!("{path}{}lang=en", if path.contains('?') { '&' } else { '?' });
    call(app, who, method, &path, Some(&body)).await
}

#[rocket::async_test]
async fn a_world_gets_keywords_artists_and_areas_and_shows_them() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let keyword =
        send(&app, &director, Method::Post, "/admin/api/keywords", json!({"name_ja": "灯り", "name_en": "Lanterns"}))
            .await;
    assert_eq!(keyword.status, 201, "{:?}", keyword.body);
    let artist = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/artists",
        json!({"name_ja": "星野アオ", "name_en": "Ao Hoshino"}),
    )
    .await;
    assert_eq!(artist.status, 201, "{:?}", artist.body);
    let (keyword, artist) = (keyword.body["id"].clone(), artist.body["id"].clone());

    let first = list_path("/admin/api/concepts", None, Some("[0,0]"), Some(r#"{"event_id":13}"#));
    let concept = call(&app, &director, Method::Get, &first, None).await.body[0]["id"].clone();
    let body = json!({"concept_id": concept, "name_ja": "灯の港", "name_en": "Lantern Harbour", "exhibition_platform": "pc", "venue": "vrc"});
    let created = send(&app, &director, Method::Post, "/admin/api/worlds", body).await;
    assert_eq!((created.status, created.body["areas"].clone()), (201, json!([])), "{:?}", created.body);
    let mut world = created.body.clone();
    let id = world["id"].as_i64().unwrap();
    world["keyword_ids"] = json!([keyword]);
    world["artists"] = json!([{"artist_id": artist, "category": "world_modeler"}]);
    world["areas"] = json!([{"name": "北の桟橋", "number": 1}, {"name": "South Plaza", "number": 2}]);
    let saved = send(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), world.clone()).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(saved.body["keyword_ids"], json!([keyword]));
    assert_eq!(saved.body["artists"], json!([{"artist_id": artist, "category": "world_modeler"}]));
    let areas = saved.body["areas"].as_array().unwrap();
    assert_eq!(areas.iter().map(|a| a["name"].as_str().unwrap()).collect::<Vec<_>>(), ["北の桟橋", "South Plaza"]);

    let (status, html) = app.page(&format!("/en/2026Winter/world/{id}")).await;
    assert_eq!(status, 200);
    for shown in ["Lanterns", "Ao Hoshino", "South Plaza"] {
        assert!(html.contains(shown), "the world page shows {shown}: {}", &html[html.find("<dl>").unwrap_or(0)..]);
    }

    // The areas a form sends are the world's areas: kept by id (renamed), the other removed.
    let mut world = saved.body.clone();
    let kept = areas[1]["id"].clone();
    world["areas"] = json!([{"id": kept, "name": "South Square", "number": 2}]);
    let renamed = send(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), world.clone()).await;
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    assert_eq!(renamed.body["areas"], json!([{"id": kept, "name": "South Square", "number": 2, "image": null}]));

    // Wrong references and empty names are reported on their fields; nothing changes.
    let mut bad = world.clone();
    bad["keyword_ids"] = json!([999_999]);
    bad["artists"] = json!([{"artist_id": 999_999, "category": "bgm_composer"}, {"artist_id": artist}]);
    bad["areas"] = json!([{"name": "", "number": 0}]);
    let refused = send(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), bad).await;
    assert_eq!(refused.status, 422, "{:?}", refused.body);
    assert_eq!(refused.attributes(), ["areas.0.name", "areas.0.number", "artists.1.category"]);
    bad = world.clone();
    bad["keyword_ids"] = json!([999_999]);
    bad["artists"] = json!([{"artist_id": 999_999, "category": "bgm_composer"}]);
    let refused = send(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), bad).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["keyword_ids".into(), "artists.0.artist_id".into()]));
    assert_eq!(refused.body["details"][0]["message"], "Choose one that exists.");
    let now = call(&app, &director, Method::Get, &format!("/admin/api/worlds/{id}"), None).await;
    assert_eq!(now.body["keyword_ids"], json!([keyword]), "the refused write changed nothing");

    // A keyword or artist in use stays; once unused, it goes.
    let in_use = call(&app, &director, Method::Delete, &format!("/admin/api/keywords/{keyword}"), None).await;
    assert_eq!((in_use.status, in_use.body["code"].as_str()), (409, Some("in_use")));
    let in_use = call(&app, &director, Method::Delete, &format!("/admin/api/artists/{artist}"), None).await;
    assert_eq!((in_use.status, in_use.body["code"].as_str()), (409, Some("in_use")));
    world["keyword_ids"] = json!([]);
    world["artists"] = json!([]);
    assert_eq!(send(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), world).await.status, 200);
    assert_eq!(
        call(&app, &director, Method::Delete, &format!("/admin/api/keywords/{keyword}"), None).await.status,
        200
    );
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/artists/{artist}"), None).await.status, 200);
}

#[rocket::async_test]
async fn an_area_with_exhibitors_is_never_removed() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let slot = exhibitor_slot::Entity::find()
        .filter(exhibitor_slot::Column::WorldAreaId.is_not_null())
        .one(&app.db)
        .await
        .unwrap()
        .expect("the demo has exhibitors in areas");
    let area = world_area::Entity::find_by_id(slot.world_area_id.unwrap()).one(&app.db).await.unwrap().unwrap();
    let path = format!("/admin/api/worlds/{}", area.world_id);
    let mut world = call(&app, &director, Method::Get, &path, None).await.body;
    let others: Vec<Value> =
        world["areas"].as_array().unwrap().iter().filter(|a| a["id"] != area.id).cloned().collect();
    world["areas"] = Value::Array(others);
    let refused = send(&app, &director, Method::Put, &path, world).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["areas".to_string()]));
    assert_eq!(
        refused.body["details"][0]["message"],
        "An area with exhibitors or booths placed in it cannot be removed."
    );
    assert!(world_area::Entity::find_by_id(area.id).one(&app.db).await.unwrap().is_some());
    assert!(exhibitor_slot::Entity::find_by_id(slot.id).one(&app.db).await.unwrap().is_some());
}

#[rocket::async_test]
async fn a_concept_gets_keywords_and_its_designers() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let keyword =
        send(&app, &director, Method::Post, "/admin/api/keywords", json!({"name_ja": "氷", "name_en": "Ice"})).await;
    let artist = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/artists",
        json!({"name_ja": "白石ユキ", "name_en": "Yuki Shiraishi"}),
    )
    .await;
    let (keyword, artist) = (keyword.body["id"].clone(), artist.body["id"].clone());
    let created = send(
        &app,
        &director,
        Method::Post,
        "/admin/api/concepts",
        json!({"event_id": 13, "name_ja": "氷の回廊", "name_en": "Ice Corridor", "platform": "pc", "venue": "vrc", "kind": "general",
               "keyword_ids": [keyword, keyword], "artists": [{"artist_id": artist, "category": "art_designer"}]}),
    )
    .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["keyword_ids"], json!([keyword]), "a keyword once");
    assert_eq!(created.body["artists"], json!([{"artist_id": artist, "category": "art_designer"}]));
    let id = created.body["id"].as_i64().unwrap();
    let (_, concept) = app.get_json(&format!("/api/v1/2026Winter/concepts/{id}?lang=en")).await;
    assert!(concept.to_string().contains("Ice") && concept.to_string().contains("Yuki Shiraishi"), "{concept}");
    let wrong = send(
        &app,
        &director,
        Method::Put,
        &format!("/admin/api/concepts/{id}"),
        json!({"artists": [{"artist_id": artist, "category": "world_modeler"}]}),
    )
    .await;
    assert_eq!((wrong.status, wrong.attributes()), (422, vec!["artists".to_string()]), "a concept's artists design it");
}
