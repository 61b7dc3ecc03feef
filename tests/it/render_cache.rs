//! The render cache (DOMAIN.md "Caching public pages"): anonymous reads of public pages and lists
//! come from memory with `ETag`/`304`, gzip and br and the right `Vary`; a write shows on the
//! very next request of the node that served it and within a second on every other node; a
//! signed-in page never reaches another visitor; the clock (phases, time travel) changes the key.

use std::io::Read;
use std::time::{Duration, Instant};

use rocket::http::{ContentType, Header, Method};
use rocket::local::asynchronous::Client;
use sea_orm::ConnectionTrait;
use serde_json::json;

use crate::support::actors::{Via, json_of};
use crate::support::auth::multipart_with;
use crate::support::html::Doc;
use crate::support::{TestApp, at};

const WORLDS: &str = "/api/v1/2026Summer/worlds?limit=50";
const USER_EVENTS: &str = "/api/v1/2026Winter/hub_notifications?category=user_event&locale=jp&limit=100";

async fn fetch(client: &Client, path: &str, headers: &[(&str, &str)]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut req = client.get(path.to_string());
    for (name, value) in headers {
        req = req.header(Header::new(name.to_string(), value.to_string()));
    }
    let res = req.dispatch().await;
    let status = res.status().code;
    let headers = res.headers().iter().map(|h| (h.name().to_string(), h.value().to_string())).collect();
    (status, headers, res.into_bytes().await.unwrap_or_default())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

#[rocket::async_test]
async fn anonymous_reads_come_from_memory_with_etag_compression_and_vary() {
    let app = TestApp::new().await;
    for path in [WORLDS, "/en/worlds", "/catalog", "/hub/2026Winter/notification"] {
        let (status, first_headers, first) = fetch(&app.client, path, &[]).await;
        assert_eq!(status, 200, "{path}");
        let etag = header(&first_headers, "ETag").unwrap_or_else(|| panic!("{path} has an ETag")).to_string();
        assert_eq!(header(&first_headers, "Vary"), Some("Accept-Encoding"));

        app.lists_held().await; // the lists that render started loading in the background
        app.sql.take();
        let (_, headers, again) = fetch(&app.client, path, &[]).await;
        assert_eq!(again, first, "{path}: the same bytes again");
        assert_eq!(header(&headers, "ETag"), Some(etag.as_str()));
        assert_eq!(app.sql.take().len(), 1, "{path}: a hit runs only the version read (tests read it per request)");

        let (status, headers, body) = fetch(&app.client, path, &[("If-None-Match", &etag)]).await;
        assert_eq!((status, body.len()), (304, 0), "{path}: the client has it");
        assert_eq!(header(&headers, "ETag"), Some(etag.as_str()));

        let (_, headers, gz) = fetch(&app.client, path, &[("Accept-Encoding", "gzip, deflate")]).await;
        assert_eq!(header(&headers, "Content-Encoding"), Some("gzip"), "{path}");
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut plain).unwrap();
        assert_eq!(plain, first, "{path}: gzip holds the same bytes");
        assert!(gz.len() < first.len() / 2, "{path}: and fewer of them");

        let (_, headers, br) = fetch(&app.client, path, &[("Accept-Encoding", "gzip, br")]).await;
        assert_eq!(header(&headers, "Content-Encoding"), Some("br"), "{path}");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&br[..], 4096).read_to_end(&mut plain).unwrap();
        assert_eq!(plain, first, "{path}: br holds the same bytes");
        assert_ne!(header(&headers, "ETag"), Some(etag.as_str()), "each coding has its own tag");
    }
}

#[rocket::async_test]
async fn the_cache_off_renders_every_time_and_answers_the_same() {
    let on = TestApp::new().await;
    let off = TestApp::builder().config(|c| c.render_cache = false).build().await;
    for path in [WORLDS, "/en/worlds", "/", "/catalog/search?keyword=%E3%83%AF"] {
        let (_, on_headers, cached) = fetch(&on.client, path, &[]).await;
        let (_, off_headers, rendered) = fetch(&off.client, path, &[]).await;
        if path != "/" {
            // The top page embeds the server time: the same, as both clocks stand still.
            assert_eq!(String::from_utf8_lossy(&cached), String::from_utf8_lossy(&rendered), "{path}");
        }
        assert!(header(&on_headers, "ETag").is_some());
        if path != "/" {
            // Off, the shared-cache policy tags the body: the same bytes, the same tag.
            assert_eq!(header(&off_headers, "ETag"), header(&on_headers, "ETag"), "{path}");
        }
        let (_, _, again) = fetch(&off.client, path, &[]).await;
        let held = off.client.rocket().state::<vmarket::http::render_cache::RenderCache>().unwrap().held_bytes();
        assert_eq!(held, 0, "{path}: rendered again, nothing stored");
        if path != "/" {
            assert_eq!(again, rendered);
        }
    }
}

/// A user event posted through `client` with `token`.
async fn post_user_event(app: &TestApp, client: &Client, token: &str, title: &str) {
    let (_, worlds) = app.get_json("/api/v1/2026Winter/worlds?limit=1").await;
    let world = worlds["data"][0]["id"].as_i64().unwrap().to_string();
    let fields = [
        ("title", title),
        ("content", "キャッシュの向こうから。"),
        ("start_at", "2026-12-13T20:00:00+09:00"),
        ("end_at", "2026-12-13T22:00:00+09:00"),
        ("locale", "jp"),
        ("category", "user_event"),
        ("world_id", world.as_str()),
    ];
    let (ct, body): (ContentType, Vec<u8>) = multipart_with(&fields, None);
    let res = client
        .post("/api/v1/user/2026Winter/hub_notifications")
        .header(Header::new("Authorization", format!("Bearer {token}")))
        .header(ct)
        .body(body)
        .dispatch()
        .await;
    let (status, body) = json_of(res).await;
    assert_eq!(status, 201, "{body}");
}

#[rocket::async_test]
async fn a_write_shows_on_the_very_next_request_of_the_node_that_served_it() {
    // The version is polled once a minute here: only the write itself can make it show.
    let app = TestApp::builder().live().config(|c| c.data_version_poll_ms = 60_000).build().await;
    let kaede = app.with_user("kaede_c").await;
    let before = String::from_utf8(fetch(&app.client, USER_EVENTS, &[]).await.2).unwrap();
    assert!(!before.contains("キャッシュ越しの灯り"));
    assert_eq!(fetch(&app.client, USER_EVENTS, &[]).await.2, before.as_bytes(), "stored");
    post_user_event(&app, &app.client, &kaede.token, "キャッシュ越しの灯り").await;
    let after = String::from_utf8(fetch(&app.client, USER_EVENTS, &[]).await.2).unwrap();
    assert!(after.contains("キャッシュ越しの灯り"), "the next request shows the write");
}

#[rocket::async_test]
async fn two_nodes_see_each_others_writes_within_a_second() {
    let app = TestApp::builder().live().config(|c| c.data_version_poll_ms = 200).build().await;
    let other = app.browser().await;
    let kaede = app.with_user("kaede_n").await;
    // Both nodes have the list stored.
    for client in [&app.client, &other] {
        fetch(client, USER_EVENTS, &[]).await;
    }
    // A write through the first node…
    post_user_event(&app, &app.client, &kaede.token, "二つ目のノードへ").await;
    // …and one by another process, straight into the database.
    let sql = "UPDATE hub_notifications SET title = '別のプロセスから' WHERE id = (SELECT MIN(id) FROM hub_notifications WHERE category = 'user_event' AND locale = 'jp' AND is_public)";
    app.db.execute_unprepared(sql).await.unwrap();
    let written = Instant::now();
    for (name, client) in [("the second node", &other), ("the first node", &app.client)] {
        loop {
            let body = String::from_utf8(fetch(client, USER_EVENTS, &[]).await.2).unwrap();
            if body.contains("二つ目のノードへ") && body.contains("別のプロセスから") {
                break;
            }
            assert!(written.elapsed() < Duration::from_secs(1), "{name} shows both writes within a second");
            rocket::tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

#[rocket::async_test]
async fn a_signed_in_page_never_reaches_anyone_else() {
    let app = TestApp::builder().live().config(|c| c.data_version_poll_ms = 60_000).build().await;
    let kaede = app.with_named_user("kaede_s", "楓テスト", "Kaede Test").await.via(Via::Cookie);
    let noa = app.with_named_user("noa_s", "ノアテスト", "Noa Test").await.via(Via::Cookie);
    for path in ["/", "/en/worlds", "/catalog"] {
        let (_, anonymous) = app.page(path).await;
        assert!(!anonymous.contains("楓テスト"));
        let (status, mine) = kaede.page(path).await;
        assert_eq!(status, 200);
        assert!(mine.contains("楓テスト") || mine.contains("Kaede Test"), "{path}: Kaede sees her own header");
        let (_, anonymous) = app.page(path).await;
        assert!(!anonymous.contains("楓テスト") && !anonymous.contains("Kaede Test"), "{path}: not to the public");
        let (_, theirs) = noa.page(path).await;
        assert!(theirs.contains("ノアテスト") || theirs.contains("Noa Test"), "{path}: Noa sees hers");
        assert!(!theirs.contains("楓テスト") && !theirs.contains("Kaede Test"), "{path}: never Kaede's");
    }
    // A bearer client gets the list rendered for it, never stored: no ETag.
    let res =
        app.client.get(WORLDS).header(Header::new("Authorization", format!("Bearer {}", kaede.token))).dispatch().await;
    assert!(res.headers().get_one("ETag").is_none());
    assert_eq!(res.headers().get_one("Cache-Control"), Some("private, no-store"));
}

#[rocket::async_test]
async fn the_clock_changes_the_key() {
    let app = TestApp::builder().live().config(|c| c.data_version_poll_ms = 60_000).build().await;
    // At the event-open phase the event shows it reached, with no write at all.
    let (_, event) = app.get_json("/api/v1/events/13").await;
    let open_at = event["event_phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase_type"] == "event_open")
        .unwrap()["phase_timestamp"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(app.get_json("/api/v1/events/13").await.1["event_phases"], event["event_phases"]);
    app.clock.set(at(&open_at));
    let (_, now_open) = app.get_json("/api/v1/events/13").await;
    let status = |e: &serde_json::Value| {
        e["event_phases"].as_array().unwrap().iter().find(|p| p["phase_type"] == "event_open").unwrap()["phase_status"]
            .clone()
    };
    assert_eq!(status(&event), json!("future"));
    assert_eq!(status(&now_open), json!("present"), "the phase moved on the next request");
    app.clock.set(crate::support::default_now());

    // Time travel (stored in an excluded table: the version does not move) shows the next phase
    // and the banner at once.
    let qa = app.as_staff(vmarket::model::user::Role::QaTester).await;
    let before = Doc::parse(&app.page("/en").await.1);
    assert_eq!(before.texts("[data-testid=open-here] li"), ["Booth submission is open until 2026/11/30 23:59"]);
    let res = qa
        .request(Method::Put, "/api/v1/admin/time_travel")
        .header(ContentType::JSON)
        .body(json!({"timestamp": "2026-12-13T12:00"}).to_string())
        .dispatch()
        .await;
    assert_eq!(res.status().code, 200);
    let after = Doc::parse(&app.page("/en").await.1);
    assert_eq!(after.texts("[data-testid=open-here] li"), ["The event is open now until 2026/12/27 23:59"]);
    assert_eq!(after.count("[data-testid=time-travel-banner]"), 1);
}
