//! Chat in game: players post texts and emote stamps to a channel and read it back, oldest first,
//! named and pictured as the spec lists; another node's stream gets what one node stores (each
//! message once, also when many are posted at once) and drops what staff hide; a reconnecting
//! stream replays what it missed; floods (429 with `Retry-After`), more streams than a player may
//! hold (429), barred players (403), bad input (422) and the wrong tokens (401) are refused.

use std::time::Duration;

use rocket::futures::future::join_all;
use rocket::http::{Header, Method};
use rocket::local::asynchronous::{Client, LocalResponse};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use vmarket::model::user::Role;

use super::{get_with, send, signed_in_game};
use crate::admin::call;
use crate::support::TestApp;

/// One server-sent event: its type, data and id.
#[derive(Debug, Clone, PartialEq)]
struct Sse {
    event: String,
    data: Value,
    id: Option<String>,
}

/// An open event stream.
struct Stream<'c> {
    res: LocalResponse<'c>,
    buf: String,
}

impl<'c> Stream<'c> {
    /// Opens `path` on `client` (another node, or the same) with `token` and optional headers.
    async fn open(client: &'c Client, path: &str, token: &str, last_event_id: Option<i32>) -> Stream<'c> {
        let mut req = client.get(path.to_string()).header(Header::new("Authorization", format!("Bearer {token}")));
        if let Some(id) = last_event_id {
            req = req.header(Header::new("Last-Event-ID", id.to_string()));
        }
        let res = req.dispatch().await;
        assert_eq!(res.status().code, 200);
        assert_eq!(res.content_type().map(|c| c.to_string()).as_deref(), Some("text/event-stream"));
        Stream { res, buf: String::new() }
    }

    /// The next `n` events (comments skipped), failing after `wait`.
    async fn next(&mut self, n: usize, wait: Duration) -> Vec<Sse> {
        let mut found = Vec::new();
        let read = async {
            loop {
                while let Some(end) = self.buf.find("\n\n") {
                    let block: String = self.buf.drain(..end + 2).collect();
                    let (mut event, mut data, mut id) = (String::from("message"), String::new(), None);
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("event:") {
                            event = v.trim().to_string();
                        } else if let Some(v) = line.strip_prefix("data:") {
                            data.push_str(v.trim_start());
                        } else if let Some(v) = line.strip_prefix("id:") {
                            id = Some(v.trim().to_string());
                        }
                    }
                    if !data.is_empty() {
                        found.push(Sse { event, data: serde_json::from_str(&data).expect("JSON data"), id });
                    }
                    if found.len() == n {
                        return;
                    }
                }
                let mut chunk = [0u8; 8192];
                let got = self.res.read(&mut chunk).await.expect("the stream reads");
                assert!(got > 0, "the stream ended");
                self.buf.push_str(std::str::from_utf8(&chunk[..got]).expect("UTF-8"));
            }
        };
        if tokio::time::timeout(wait, read).await.is_err() {
            panic!("{n} events did not arrive within {wait:?}; got {found:?}");
        }
        found
    }
}

async fn say(app: &TestApp, token: &str, channel: &str, body: Value) -> (u16, Value) {
    send(app, Method::Post, &format!("/ingame/chat/{channel}/messages"), token, Some(body)).await
}

#[rocket::async_test]
async fn players_chat_in_texts_and_stamps_and_read_the_channel_back() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let body = json!({"name": "拍手", "name_en": "Clap", "icon_url": "https://example.com/clap.png",
                      "json_url": "https://example.com/clap.json"});
    let clap = call(&app, &admin, Method::Post, "/admin/api/ingame_emotes", Some(&body)).await.body["id"].clone();
    let alice = app.with_named_user("chat_alice", "アリス", "Alice").await;
    let bob = app.with_named_user("chat_bob", "ボブ", "Bob").await;
    let (a, b) = (signed_in_game(&app, &alice, "a").await, signed_in_game(&app, &bob, "b").await);

    let (status, said) = say(
        &app,
        &a,
        "world-1:inst_7",
        json!({"message_type": "Text", "message": "  こんにちは！  ", "pos": {"x": 1.5, "y": 0, "z": -2}}),
    )
    .await;
    assert_eq!(status, 201, "{said}");
    assert_eq!(
        (&said["message"], &said["user_name_ja"], &said["user_name_en"], &said["channel_session_code"]),
        (&"こんにちは！".into(), &"アリス".into(), &"Alice".into(), &"world-1:inst_7".into()),
        "trimmed, named in both languages: {said}"
    );
    assert_eq!((&said["pos"], &said["emote_stamp"]), (&json!({"x": 1.5, "y": 0.0, "z": -2.0}), &Value::Null));
    assert!(said["user_icon"].is_object(), "{said}");
    let (status, stamp) =
        say(&app, &b, "world-1:inst_7", json!({"message_type": "Emote_stamp", "emote_id": clap, "message": "ignored"}))
            .await;
    assert_eq!(status, 201, "{stamp}");
    assert_eq!((&stamp["emote_stamp"]["name_en"], &stamp["message"]), (&"Clap".into(), &"".into()), "{stamp}");
    say(&app, &b, "another", json!({"message_type": "Text", "message": "elsewhere"})).await;

    let (status, read) = get_with(&app, "/ingame/chat/world-1:inst_7/messages", &b).await;
    assert_eq!(status, 200, "{read}");
    let ids: Vec<&Value> = read["data"].as_array().unwrap().iter().map(|m| &m["id"]).collect();
    assert_eq!(ids, [&said["id"], &stamp["id"]], "this channel only, oldest first");
    let since = said["id"].as_i64().unwrap();
    let (_, after) = get_with(&app, &format!("/ingame/chat/world-1:inst_7/messages?since={since}"), &b).await;
    assert_eq!(after["data"].as_array().unwrap().len(), 1, "{after}");
    let (_, latest) = get_with(&app, "/ingame/chat/world-1:inst_7/messages?limit=1", &b).await;
    assert_eq!(latest["data"][0]["id"], stamp["id"], "without since: the latest");
}

#[rocket::async_test]
async fn a_stream_on_another_node_gets_each_message_once_and_drops_hidden_ones() {
    let app = TestApp::builder()
        .live()
        .config(|c| {
            c.ingame_chat_poll_ms = 50;
            c.ingame_codes_per_minute = 100;
        })
        .build()
        .await;
    let support = app.as_staff(Role::UcStaff).await;
    let reader = app.with_user("chat_reader").await;
    let r = signed_in_game(&app, &reader, "reader").await;
    let mut writers = Vec::new();
    for i in 0..10 {
        let w = app.with_user(&format!("chat_writer{i}")).await;
        writers.push(signed_in_game(&app, &w, "writer").await);
    }
    let before = say(&app, &writers[0], "hall", json!({"message_type": "Text", "message": "before"})).await.1;

    let node_b = app.browser().await;
    let mut stream = Stream::open(&node_b, "/ingame/chat/hall/stream", &r, None).await;
    // Thirty messages at once from ten players on node A, and one on another channel.
    let app_ref = &app;
    let posts = writers.iter().flat_map(|w| {
        (0..3).map(move |n| say(app_ref, w, "hall", json!({"message_type": "Text", "message": format!("m{n}")})))
    });
    let stored: Vec<(u16, Value)> = join_all(posts).await;
    assert!(stored.iter().all(|(s, _)| *s == 201), "{stored:?}");
    say(&app, &writers[0], "other-hall", json!({"message_type": "Text", "message": "not here"})).await;
    let got = stream.next(30, Duration::from_secs(10)).await;
    let mut ids: Vec<i64> = got.iter().map(|e| e.data["id"].as_i64().unwrap()).collect();
    ids.sort_unstable();
    let mut want: Vec<i64> = stored.iter().map(|(_, m)| m["id"].as_i64().unwrap()).collect();
    want.sort_unstable();
    assert_eq!(ids, want, "each message of the channel exactly once, none from before the stream");
    assert!(got.iter().all(|e| e.event == "message" && e.id == Some(e.data["id"].to_string())));

    // Staff hide one: the stream is told, and nobody reads it any more.
    let hidden = want[3];
    let answer = call(
        &app,
        &support,
        Method::Put,
        &format!("/admin/api/ingame_chat_messages/{hidden}"),
        Some(&json!({"hidden": true})),
    )
    .await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    let dropped = stream.next(1, Duration::from_secs(10)).await;
    assert_eq!((dropped[0].event.as_str(), &dropped[0].data), ("hidden", &json!({"id": hidden})));
    let (_, read) = get_with(&app, "/ingame/chat/hall/messages", &r).await;
    assert!(read["data"].as_array().unwrap().iter().all(|m| m["id"] != hidden), "{read}");

    // A client that reconnects with the last id it saw gets what came after, and no hidden one.
    let last_seen = before["id"].as_i64().unwrap() as i32;
    let mut again = Stream::open(&app.client, "/ingame/chat/hall/stream", &r, Some(last_seen)).await;
    let replayed = again.next(29, Duration::from_secs(10)).await;
    assert!(replayed.iter().all(|e| e.data["id"] != hidden && e.data["id"] != before["id"]));
}

#[rocket::async_test]
async fn chat_refuses_floods_barred_players_bad_input_and_other_tokens() {
    let app = TestApp::builder().live().config(|c| c.ingame_chat_per_minute = 12).build().await;
    let support = app.as_staff(Role::UcStaff).await;
    let player = app.with_user("chat_flood").await;
    let token = signed_in_game(&app, &player, "flood").await;
    let text = json!({"message_type": "Text", "message": "hi"});

    for query in ["limit=0", "limit=31", "since=-1", "since=x"] {
        let (status, body) = get_with(&app, &format!("/ingame/chat/c/messages?{query}"), &token).await;
        assert_eq!(status, 422, "{query}: {body}");
    }
    for bad in ["with space", "ü", &"x".repeat(65)] {
        let path = format!("/ingame/chat/{}/messages", urlencoding(bad));
        assert_eq!(get_with(&app, &path, &token).await.0, 422, "{bad}");
    }
    let bad_bodies = [
        (json!({"message_type": "Shout", "message": "hi"}), "message_type"),
        (json!({"message_type": "Text"}), "message"),
        (json!({"message_type": "Text", "message": "   "}), "message"),
        (json!({"message_type": "Text", "message": "x".repeat(201)}), "message"),
        (json!({"message_type": "Text", "message": "bell\u{7}"}), "message"),
        (json!({"message_type": "Emote_stamp"}), "emote_id"),
        (json!({"message_type": "Emote_stamp", "emote_id": 999_999}), "emote_id"),
        (json!({"message_type": "Text", "message": "hi", "pos": {"x": 1e9, "y": 0, "z": 0}}), "pos"),
    ];
    for (body, field) in &bad_bodies {
        let (status, answer) = say(&app, &token, "c", body.clone()).await;
        assert_eq!((status, &answer["details"][0]["attribute"]), (422, &Value::from(*field)), "{body}: {answer}");
    }
    let (status, _) = send(&app, Method::Post, "/ingame/chat/c/messages", &token, None).await;
    assert_eq!(status, 400, "no body");

    // Twelve a minute, bad ones included: three more pass, the next waits.
    for _ in 0..3 {
        assert_eq!(say(&app, &token, "c", text.clone()).await.0, 201);
    }
    let res = app
        .client
        .post("/ingame/chat/c/messages")
        .header(Header::new("Authorization", format!("Bearer {token}")))
        .header(rocket::http::ContentType::JSON)
        .body(text.to_string())
        .dispatch()
        .await;
    assert_eq!(res.status().code, 429);
    let wait: u64 = res.headers().get_one("Retry-After").expect("Retry-After").parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");

    // Barred by staff: reading goes on, posting is refused; lifted, posting works again.
    let barred = app.with_user("chat_barred").await;
    let tb = signed_in_game(&app, &barred, "barred").await;
    let made = call(
        &app,
        &support,
        Method::Post,
        "/admin/api/ingame_chat_blocks",
        Some(&json!({"user_id": barred.user.id, "reason": "spam"})),
    )
    .await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let again = call(
        &app,
        &support,
        Method::Post,
        "/admin/api/ingame_chat_blocks",
        Some(&json!({"user_id": barred.user.id, "reason": "twice"})),
    )
    .await;
    assert_eq!((again.status, &again.body["code"]), (409, &"already_blocked".into()));
    let (status, body) = say(&app, &tb, "c", text.clone()).await;
    assert_eq!((status, &body["code"]), (403, &"chat_blocked".into()), "{body}");
    assert_eq!(get_with(&app, "/ingame/chat/c/messages", &tb).await.0, 200);
    let block = made.body["id"].as_i64().unwrap();
    assert_eq!(
        call(&app, &support, Method::Delete, &format!("/admin/api/ingame_chat_blocks/{block}"), None).await.status,
        200
    );
    assert_eq!(say(&app, &tb, "c", text.clone()).await.0, 201);

    // The site's own token, none, or a revoked one: 401, on the list and on the stream.
    let site_token = player.token.clone();
    for token in [site_token.as_str(), "", "vmig_0000"] {
        assert_eq!(get_with(&app, "/ingame/chat/c/messages", token).await.0, 401, "{token}");
        assert_eq!(get_with(&app, "/ingame/chat/c/stream", token).await.0, 401, "{token}");
        assert_eq!(say(&app, token, "c", text.clone()).await.0, 401, "{token}");
    }
}

/// `s` percent-encoded for a path segment.
fn urlencoding(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>().replace('+', "%20")
}

#[rocket::async_test]
async fn one_player_holds_only_so_many_streams_open() {
    let app = TestApp::builder().live().config(|c| c.ingame_chat_streams_per_player = 2).build().await;
    let player = app.with_user("chat_streams").await;
    let other = app.with_user("chat_streams_other").await;
    let (t, o) = (signed_in_game(&app, &player, "s").await, signed_in_game(&app, &other, "o").await);
    let first = Stream::open(&app.client, "/ingame/chat/a/stream", &t, None).await;
    let _second = Stream::open(&app.client, "/ingame/chat/b/stream", &t, None).await;
    let res = app
        .client
        .get("/ingame/chat/c/stream")
        .header(Header::new("Authorization", format!("Bearer {t}")))
        .dispatch()
        .await;
    assert_eq!(res.status().code, 429);
    assert!(res.headers().get_one("Retry-After").is_some());
    drop(res);
    let _others = Stream::open(&app.client, "/ingame/chat/c/stream", &o, None).await;
    drop(first);
    let _again = Stream::open(&app.client, "/ingame/chat/c/stream", &t, None).await;
}
