//! Pictures uploaded from the console (`POST /admin/api/uploads?resource=…&field=…`): stored
//! through the image pipeline and the object store, scaled into the field's box, served from
//! `/media/…`, saved in the record with the normal audited write and shown on the public site;
//! wrong files are refused with the reason on the field, and only roles that may write the
//! resource upload.

use rocket::http::{Cookie, Header, Method};
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::auth::{multipart_with, png};
use crate::support::images::png_declaring;

/// Uploads `bytes` for `field` of `resource` as `who`; status and JSON body.
async fn upload(who: &Actor<'_>, resource: &str, field: &str, bytes: Option<&[u8]>) -> (u16, Value) {
    who.multipart(
        Method::Post,
        &format!("/admin/api/uploads?resource={resource}&field={field}&lang=en"),
        &[],
        bytes.map(|b| ("file", "picture.png", b)),
    )
    .await
}

/// The size of the PNG served at `url`.
async fn served_size(app: &TestApp, url: &str) -> (u32, u32) {
    let res = app.client.get(url.to_string()).dispatch().await;
    assert_eq!(res.status().code, 200, "{url} is served");
    assert_eq!(res.content_type().map(|c| c.to_string()), Some("image/png".into()));
    let bytes = res.into_bytes().await.unwrap();
    let img = image::load_from_memory(&bytes).expect("a PNG");
    (img.width(), img.height())
}

#[rocket::async_test]
async fn a_world_picture_uploaded_in_the_console_shows_on_the_public_site() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let (status, stored) = upload(&director, "worlds", "image", Some(&png(800, 600))).await;
    assert_eq!(status, 201, "{stored}");
    let url = stored["url"].as_str().unwrap().to_string();
    assert!(url.starts_with("/media/admin/worlds/image/") && url.ends_with(".png"), "{url}");
    assert_eq!(served_size(&app, &url).await, (800, 600), "a small picture is not enlarged");

    // A wide logo is scaled to fit 1024 px; a key visual into 1920 × 1080.
    let (_, logo) = upload(&director, "worlds", "logo", Some(&png(3000, 1000))).await;
    assert_eq!(served_size(&app, logo["url"].as_str().unwrap()).await, (1024, 341));
    assert_eq!((logo["width"].as_u64(), logo["height"].as_u64()), (Some(1024), Some(341)));

    // Saved with the world (the normal audited write), then on the world's public page.
    let first = list_path("/admin/api/worlds", None, Some("[0,0]"), Some(r#"{"event_id":13}"#));
    let listed = call(&app, &director, Method::Get, &first, None).await;
    let mut world = listed.body[0].clone();
    let id = world["id"].as_i64().unwrap();
    world["image"] = json!(url);
    world["logo"] = logo["url"].clone();
    let saved = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), Some(&world)).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!((saved.body["image"].as_str(), saved.body["logo"].as_str()), (Some(url.as_str()), logo["url"].as_str()));
    let (status, html) = app.page(&format!("/en/2026Winter/world/{id}")).await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("src=\"{url}\"")), "the world page shows the uploaded picture");

    // Cleared, the field is empty again (a cleared field sends "").
    world["image"] = json!("");
    let cleared = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), Some(&world)).await;
    assert_eq!((cleared.status, cleared.body["image"].clone()), (200, Value::Null));
    // An address that is not a picture's is refused on its field.
    world["image"] = json!("javascript:alert(1)");
    let bad = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), Some(&world)).await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["image".to_string()]));
}

#[rocket::async_test]
async fn every_picture_field_takes_an_upload() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let fields = [
        ("events", "image"),
        ("events", "logo"),
        ("events", "icon"),
        ("events", "first_view_image"),
        ("concepts", "image"),
        ("concepts", "logo"),
        ("concepts", "launch_link_image"),
        ("concepts", "map_image_ja"),
        ("concepts", "map_image_en"),
        ("worlds", "image"),
        ("worlds", "logo"),
        ("posters", "image"),
        ("companies", "thumbnail"),
        ("company_highlights", "image"),
        ("hub_notifications", "thumbnail"),
        ("catalog_items", "thumbnail"),
    ];
    let picture = png(40, 30);
    for (resource, field) in fields {
        let (status, stored) = upload(&admin, resource, field, Some(&picture)).await;
        assert_eq!(status, 201, "{resource}.{field}: {stored}");
        let url = stored["url"].as_str().unwrap();
        assert!(url.starts_with(&format!("/media/admin/{resource}/{field}/")), "{url}");
        // The record takes and shows the address.
        let first = list_path(&format!("/admin/api/{resource}"), None, Some("[0,0]"), None);
        let mut record = call(&app, &admin, Method::Get, &first, None).await.body[0].clone();
        let id = record["id"].as_i64().unwrap();
        record[field] = json!(url);
        let saved = call(&app, &admin, Method::Put, &format!("/admin/api/{resource}/{id}"), Some(&record)).await;
        assert_eq!(saved.status, 200, "{resource}.{field}: {:?}", saved.body);
        assert_eq!(saved.body[field], url, "{resource}.{field} round trip");
    }
}

#[rocket::async_test]
async fn wrong_files_and_wrong_people_are_refused_and_nothing_is_stored() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let field_error = |body: &Value| (body["code"].clone(), body["details"][0]["attribute"].clone());

    let (status, body) = upload(&admin, "events", "image", Some(b"just some text, not a picture")).await;
    assert_eq!((status, field_error(&body)), (422, (json!("validation_failed"), json!("image"))));
    assert!(body["details"][0]["message"].as_str().unwrap().contains("PNG, JPEG, WebP or GIF"), "{body}");
    let (status, body) = upload(&admin, "events", "image", Some(&png_declaring(5000, 10, 8, 6))).await;
    assert_eq!((status, field_error(&body)), (422, (json!("validation_failed"), json!("image"))));
    assert!(body["details"][0]["message"].as_str().unwrap().contains("4096"), "{body}");
    let mut big = png(10, 10);
    big.resize(5 * 1024 * 1024 + 1, 0);
    let (status, body) = upload(&admin, "events", "logo", Some(&big)).await;
    assert_eq!((status, field_error(&body)), (422, (json!("validation_failed"), json!("logo"))));
    assert!(body["details"][0]["message"].as_str().unwrap().contains("5 MiB"), "{body}");
    let (status, body) = upload(&admin, "events", "image", None).await;
    assert_eq!((status, field_error(&body)), (422, (json!("validation_failed"), json!("image"))));
    // Only declared picture fields, of real resources.
    let (status, body) = upload(&admin, "events", "permalink", Some(&png(4, 4))).await;
    assert_eq!((status, field_error(&body)), (422, (json!("validation_failed"), json!("field"))));
    let (status, _) = upload(&admin, "nothing", "image", Some(&png(4, 4))).await;
    assert_eq!(status, 404);
    let objects = std::path::Path::new(&app.config.data_dir).join("objects/admin");
    assert!(!objects.exists(), "nothing was stored for a refused upload");

    // Who: roles that may only read the resource, users, visitors; a browser without the CSRF token.
    let support = app.as_staff(Role::UcStaff).await;
    let qa = app.as_staff(Role::QaTester).await;
    for reader in [&support, &qa] {
        let (status, body) = upload(reader, "events", "image", Some(&png(4, 4))).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")), "{:?}", reader.user.role);
    }
    let (status, _) = upload(&support, "inquiry_categories", "image", Some(&png(4, 4))).await;
    assert_eq!(status, 422, "support staff write inquiry categories, which have no pictures");
    let visitor = app.with_user("just_a_visitor").await;
    assert_eq!(upload(&visitor, "events", "image", Some(&png(4, 4))).await.0, 403);
    let (ct, body) = multipart_with(&[], Some(("file", "p.png", &png(4, 4))));
    let path = "/admin/api/uploads?resource=events&field=image";
    let anonymous = app.client.post(path).header(ct.clone()).body(body.clone()).dispatch().await;
    assert_eq!(anonymous.status().code, 401);
    let forged = app
        .client
        .post(path)
        .cookie(Cookie::new("vmarket_token", admin.token.clone()))
        .header(Header::new("Origin", "https://evil.example"))
        .header(ct)
        .body(body)
        .dispatch()
        .await;
    assert_eq!(forged.status().code, 403, "a cookie upload without the CSRF token");
    assert!(!objects.exists(), "still nothing stored");
}

#[rocket::async_test]
async fn a_world_areas_picture_is_uploaded_saved_and_cleared_like_the_others() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let (status, stored) = upload(&director, "worlds", "areas.image", Some(&png(2400, 1200))).await;
    assert_eq!(status, 201, "{stored}");
    let url = stored["url"].as_str().unwrap().to_string();
    assert!(url.starts_with("/media/admin/worlds/areas.image/"), "{url}");
    assert_eq!(served_size(&app, &url).await, (1920, 960), "scaled into the key visual's box");
    let (status, refused) = upload(&director, "worlds", "areas.logo", Some(&png(10, 10))).await;
    assert_eq!((status, refused["details"][0]["attribute"].as_str()), (422, Some("field")));

    let concepts = list_path("/admin/api/concepts", None, Some("[0,0]"), Some(r#"{"event_id":13}"#));
    let concept = call(&app, &director, Method::Get, &concepts, None).await.body[0]["id"].clone();
    let world = json!({
        "concept_id": concept, "name_ja": "絵のある広場", "name_en": "Pictured plaza", "exhibition_platform": "pc",
        "venue": "vrc", "areas": [{"number": 1, "name": "エントランス", "image": url}, {"number": 2, "name": "広場"}],
    });
    let saved = call(&app, &director, Method::Post, "/admin/api/worlds", Some(&world)).await;
    assert_eq!(saved.status, 201, "{:?}", saved.body);
    let id = saved.body["id"].as_i64().unwrap();
    let areas = saved.body["areas"].as_array().unwrap().clone();
    assert_eq!((areas[0]["image"].as_str(), areas[1]["image"].clone()), (Some(url.as_str()), Value::Null));

    // The edit form sends the areas back with their ids and pictures: kept; a cleared one goes.
    let mut again = saved.body.clone();
    again["areas"][1]["image"] = json!(url);
    again["areas"][0]["image"] = json!("");
    let saved = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}"), Some(&again)).await;
    let now = saved.body["areas"].as_array().unwrap();
    assert_eq!((now[0]["id"].clone(), now[0]["image"].clone()), (areas[0]["id"].clone(), Value::Null));
    assert_eq!(now[1]["image"].as_str(), Some(url.as_str()));

    let mut bad = saved.body.clone();
    bad["areas"][0]["image"] = json!("javascript:alert(1)");
    let answer = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{id}?lang=en"), Some(&bad)).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["areas.0.image".to_string()]), "{:?}", answer.body);
}
