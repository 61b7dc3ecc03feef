//! User events: a signed-in user posts, lists, changes and deletes their own hub notifications
//! (`/api/v1/user/{event}/hub_notifications`); they reach the public hub at their publish time,
//! bad forms store nothing, and nobody else can read or touch them.

use rocket::http::{ContentType, Cookie, Header, Method};
use serde_json::Value;

use crate::support::TestApp;
use crate::support::actors::{Via, json_of};
use crate::support::auth::{multipart_with, png};

const OWN: &str = "/api/v1/user/2026Winter/hub_notifications";

/// Form fields, in order (a name may repeat).
type Form<'a> = Vec<(&'a str, &'a str)>;

/// How many thumbnails the local object store holds.
fn stored_thumbnails(app: &TestApp) -> usize {
    let dir = std::path::Path::new(&app.config.data_dir).join("objects/hub/users");
    std::fs::read_dir(&dir)
        .map(|users| users.flatten().map(|u| std::fs::read_dir(u.path()).map(|f| f.count()).unwrap_or(0)).sum())
        .unwrap_or(0)
}

fn attributes(body: &Value) -> Vec<String> {
    let mut list: Vec<String> = body["details"]
        .as_array()
        .map(|d| d.iter().map(|e| e["attribute"].as_str().unwrap_or_default().to_string()).collect())
        .unwrap_or_default();
    list.sort();
    list.dedup();
    list
}

async fn first_id(app: &TestApp, path: &str) -> String {
    let (_, body) = app.get_json(path).await;
    let list = if body.is_array() { &body } else { &body["data"] };
    list[0]["id"].as_i64().unwrap_or_else(|| panic!("{path}: {body}")).to_string()
}

#[rocket::async_test]
async fn a_user_posts_edits_and_deletes_their_own_events() {
    let app = TestApp::builder().live().build().await;
    let world = first_id(&app, "/api/v1/2026Winter/worlds").await;
    let other_world = first_id(&app, "/api/v1/2025Summer/worlds").await;
    let tag = first_id(&app, "/api/v1/hub_tags").await;
    let event = [
        ("title", "ランタン作りワークショップ"),
        ("content", "ともしびの駅で、みんなでランタンを作りましょう。"),
        ("start_at", "2026-12-13T20:00:00+09:00"),
        ("end_at", "2026-12-13T22:00:00+09:00"),
        ("locale", "jp"),
        ("category", "user_event"),
        ("link_url", "https://lantern.example/workshop"),
        ("world_id", &world),
        ("hub_tags[]", &tag),
    ];
    let (ct, body) = multipart_with(&event, None);
    let res = app
        .client
        .post(OWN)
        .header(Header::new("Authorization", "Bearer not-a-token"))
        .header(ct)
        .body(body)
        .dispatch()
        .await;
    let (status, body) = json_of(res).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));

    let kaede = app.with_user("kaede_t").await;

    // Posted with a thumbnail: 201 with the stored view; the image is scaled into 1280×720.
    let thumb = png(2000, 1000);
    let (status, posted) = kaede.multipart(Method::Post, OWN, &event, Some(("thumbnail", "t.png", &thumb))).await;
    assert_eq!(status, 201, "{posted}");
    assert_eq!(posted["title"], "ランタン作りワークショップ");
    assert_eq!((posted["category"].as_str(), posted["locale"].as_str()), (Some("user_event"), Some("jp")));
    assert_eq!((posted["is_official"].as_bool(), posted["is_public"].as_bool()), (Some(false), Some(true)));
    assert_eq!(posted["user"]["vmarket_id"], "kaede_t");
    assert_eq!(posted["world"]["id"].as_i64().unwrap().to_string(), world);
    assert_eq!(posted["hub_tags"].as_array().unwrap().len(), 1);
    assert_eq!(posted["start_at"], "2026-12-13T11:00:00Z");
    let thumbnail = posted["thumbnail"].as_str().expect("thumbnail").to_string();
    assert!(thumbnail.starts_with("/media/hub/users/"), "{thumbnail}");
    let res = app.get(&thumbnail).await;
    assert_eq!(res.content_type(), Some(ContentType::PNG));
    let img = image::load_from_memory(&res.into_bytes().await.unwrap()).unwrap();
    assert_eq!((img.width(), img.height()), (1280, 640));
    let id = posted["id"].as_i64().unwrap();

    // Published at once: the public hub shows it under virtual events.
    let (_, public) =
        app.get_json("/api/v1/2026Winter/hub_notifications?category=user_event&locale=jp&limit=100").await;
    assert!(public["data"].as_array().unwrap().iter().any(|n| n["id"] == id));
    let (status, html) = app.page(&format!("/hub/2026Winter/virtual_events/{id}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("ともしびの駅で、みんなでランタンを作りましょう。"));

    // A scheduled one waits for its publish time, but its author sees it.
    let mut later = event.to_vec();
    later.push(("publish_at", "2026-12-01"));
    later[0] = ("title", "年越しカウントダウン");
    let (status, scheduled) = kaede.multipart(Method::Post, OWN, &later, None).await;
    assert_eq!(status, 201, "{scheduled}");
    assert_eq!(scheduled["publish_at"], "2026-11-30T15:00:00Z");
    let (status, _) = app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{}", scheduled["id"])).await;
    assert_eq!(status, 404);
    let (_, own) = kaede.get_json(OWN).await;
    assert_eq!(own["pagination"]["count"], 2);

    // Bad forms get every problem at once and store nothing (no thumbnail either).
    let cases: Vec<(Form, Vec<&str>)> = vec![
        (vec![], vec!["title", "content", "start_at", "locale"]),
        (
            vec![("title", " "), ("content", "x"), ("start_at", "soon"), ("locale", "fr")],
            vec!["title", "start_at", "locale"],
        ),
        (
            vec![
                ("category", "campaign"),
                ("end_at", "2026-12-13T19:00:00+09:00"),
                ("link_url", "javascript:alert(1)"),
            ],
            vec!["end_at", "category", "link_url"],
        ),
        (vec![("world_id", &other_world), ("hub_tags[]", "99999"), ("hub_tags[]", "x")], vec!["world_id", "hub_tags"]),
    ];
    let long = "あ".repeat(257);
    let mut cases = cases;
    cases.push((vec![("title", &long)], vec!["title"]));
    cases.push((
        vec![("content", "ランタン\u{0}作り"), ("link_url", "https://a.example/\u{0}")],
        vec!["content", "link_url"],
    ));
    for (changes, expected) in cases {
        let mut form: Vec<(&str, &str)> =
            event.iter().filter(|(k, _)| !changes.iter().any(|(c, _)| c == k)).copied().collect();
        form.extend(changes.iter().filter(|(_, v)| !v.is_empty()).copied());
        if changes.is_empty() {
            form.clear();
        }
        let (status, body) = kaede.multipart(Method::Post, OWN, &form, Some(("thumbnail", "t.png", &thumb))).await;
        assert_eq!(status, 422, "{form:?}: {body}");
        let mut got = attributes(&body);
        got.sort();
        let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(got, want, "{form:?}: {body}");
    }
    let (status, body) =
        kaede.multipart(Method::Post, OWN, &event, Some(("thumbnail", "t.png", b"not an image"))).await;
    assert_eq!((status, attributes(&body)), (422, vec!["thumbnail".to_string()]));
    let (status, body) = kaede.multipart(Method::Post, &format!("{OWN}?lang=en"), &[], None).await;
    assert_eq!((status, body["details"][0]["message"].as_str()), (422, Some("This field is required.")));
    let (_, own) = kaede.get_json(OWN).await;
    assert_eq!(own["pagination"]["count"], 2, "nothing stored by bad forms");
    assert_eq!(stored_thumbnails(&app), 1, "only the first post's thumbnail is stored");

    // Edited: the new text and tags, the thumbnail kept.
    let mut edited = event.to_vec();
    edited[0] = ("title", "ランタン作りワークショップ（満員御礼）");
    edited.retain(|(k, _)| *k != "hub_tags[]");
    let (status, body) = kaede.multipart(Method::Put, &format!("{OWN}/{id}"), &edited, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["title"], "ランタン作りワークショップ（満員御礼）");
    assert_eq!(
        (body["thumbnail"].as_str(), body["hub_tags"].as_array().map(Vec::len)),
        (Some(thumbnail.as_str()), Some(0))
    );

    // Cookie sessions need the CSRF header for changes.
    let mine = format!("{OWN}/{id}");
    let res =
        app.client.delete(mine.clone()).cookie(Cookie::new("vmarket_token", kaede.token.clone())).dispatch().await;
    let (status, body) = json_of(res).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("csrf_failed")));

    // The author deletes it (from the page, with the header): gone from their list and from the
    // public hub.
    let (status, one) = kaede.get_json(&mine).await;
    assert_eq!((status, one["title"].as_str()), (200, Some("ランタン作りワークショップ（満員御礼）")));
    assert_eq!(kaede.via(Via::Cookie).delete(&mine).await.0, 204);
    assert_eq!(kaede.get_json(&mine).await.0, 404);
    assert_eq!(app.page(&format!("/hub/2026Winter/virtual_events/{id}")).await.0, 404);
    let (_, own) = kaede.get_json(OWN).await;
    assert_eq!(own["pagination"]["count"], 1);
    let (status, body) = kaede.get_json("/api/v1/user/noSuchEvent/hub_notifications").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));

    // Someone else can neither see nor touch the one left.
    let mallory = app.with_user("mallory_x").await;
    let left = format!("{OWN}/{}", scheduled["id"]);
    assert_eq!(mallory.get_json(&left).await.0, 404);
    assert_eq!(mallory.multipart(Method::Put, &left, &edited, None).await.0, 404);
    assert_eq!(mallory.delete(&left).await.0, 404);
    let (_, theirs) = mallory.get_json(OWN).await;
    assert_eq!(theirs["pagination"]["count"], 0);
    let (_, public) = app.get_json("/api/v1/2026Winter/hub_notifications?category=user_event&limit=100").await;
    assert!(public["data"].as_array().unwrap().iter().all(|n| n["id"] != scheduled["id"]));
}
