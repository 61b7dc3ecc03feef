//! The hub API: notification lists with filters and time windows, live-now by the movable
//! clock, visibility (not public, published later), details, ambassadors, streamers and tags.

use serde_json::Value;

use crate::support::{TestApp, at};

fn q(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn titles(body: &Value) -> Vec<String> {
    body["data"].as_array().unwrap().iter().map(|n| n["title"].as_str().unwrap().to_string()).collect()
}

#[rocket::async_test]
async fn lists_show_public_published_notifications_with_pagination() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/2026Winter/hub_notifications?locale=jp&limit=5").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["pagination"]["count"], 23);
    assert_eq!(body["pagination"]["all"], 46, "both audiences");
    assert_eq!((body["pagination"]["last"].as_u64(), body["pagination"]["next"].as_u64()), (Some(5), Some(2)));
    // Pinned first.
    let data = body["data"].as_array().unwrap();
    assert!(data[..3].iter().all(|n| n["is_strong_recommended"] == true), "{body}");
    assert!(data[3..].iter().all(|n| n["is_strong_recommended"] == false), "{body}");
    // Past the end: an empty page, not an error.
    let (status, beyond) = app.get_json("/api/v1/2026Winter/hub_notifications?locale=jp&limit=5&page=9").await;
    assert_eq!((status, beyond["data"].as_array().unwrap().len()), (200, 0));
    assert_eq!(beyond["pagination"]["prev"], 5);
    // Hidden ones never appear: the draft (not public) and the reveal (published 12-05).
    let (_, all) = app.get_json("/api/v1/2026Winter/hub_notifications?limit=100").await;
    let all = titles(&all);
    assert!(!all.iter().any(|t| t.contains("福袋") || t.contains("Lucky bag")));
    assert!(!all.iter().any(|t| t.contains("シークレットゲスト") || t.contains("secret guest")));
    // Other events have no hub yet.
    let (_, summer) = app.get_json("/api/v1/2025Summer/hub_notifications").await;
    assert_eq!(summer["pagination"]["count"], 0);
}

#[rocket::async_test]
async fn the_api_shape() {
    let app = TestApp::new().await;
    let (_, body) = app
        .get_json(&format!("/api/v1/2026Winter/hub_notifications?locale=jp&keyword={}", q("開幕ワールドツアー")))
        .await;
    assert_eq!(body["pagination"]["count"], 1, "{body}");
    let mut item = body["data"][0].clone();
    assert!(item["id"].as_i64().unwrap() > 0);
    item["id"] = Value::from(0);
    item["user"]["id"] = Value::from(0);
    for t in item["hub_tags"].as_array_mut().unwrap() {
        t["id"] = Value::from(0);
    }
    insta::assert_json_snapshot!("hub_notification_shape", item);
    let id = body["data"][0]["id"].as_i64().unwrap();
    let (status, one) = app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{id}?lang=en")).await;
    assert_eq!(status, 200);
    assert_eq!(one["title"], "公式配信：開幕ワールドツアー");
    assert_eq!(one["world"]["name"], "The Great Coral Reading Room", "{one}");
    assert_eq!(one["user"]["name"], "Luka Hoshino");
}

#[rocket::async_test]
async fn filters_and_time_windows() {
    let app = TestApp::new().await;
    let base = "/api/v1/2026Winter/hub_notifications?limit=100&locale=global";
    let (_, streams) = app.get_json(&format!("{base}&category=official_stream")).await;
    assert_eq!(streams["pagination"]["count"], 7);
    assert!(streams["data"].as_array().unwrap().iter().all(|n| n["category"] == "official_stream"));
    let (_, tags) = app.get_json("/api/v1/hub_tags?lang=en").await;
    let music = tags.as_array().unwrap().iter().find(|t| t["name"] == "Live music").unwrap()["id"].as_i64().unwrap();
    let (_, tagged) = app.get_json(&format!("{base}&hub_tag_id={music}")).await;
    assert_eq!(
        titles(&tagged),
        [
            "Official stream: starlight live from the Deep Sea Observatory",
            "Acoustic live on the Jellyfish-Lit Spiral Stair"
        ]
    );
    let (_, world) = app.get_json(&format!("{base}&world_id=130005")).await;
    assert_eq!(world["pagination"]["count"], 2);
    let (_, official) = app.get_json(&format!("{base}&is_official=false")).await;
    assert!(official["data"].as_array().unwrap().iter().all(|n| n["is_official"] == false));
    assert_eq!(official["pagination"]["count"], 9);
    // Keyword, case-insensitive and partial, in English.
    let (_, kw) = app.get_json(&format!("{base}&keyword=STAMP")).await;
    assert_eq!(titles(&kw), ["Stamp rally: Ticket of the Stars"]);
    // Starting on the last day (a date is midnight in Japan).
    let (_, last_day) = app.get_json(&format!("{base}&start_from=2026-12-27")).await;
    assert_eq!(titles(&last_day), ["Closing ceremony and the last night train", "Official stream: last-day picks"]);
    // Starting in November, ending before 2026-11-22 00:00 JST.
    let (_, nov) = app
        .get_json(&format!(
            "{base}&start_from=2026-11-01&start_to=2026-12-01&end_to={}",
            q("2026-11-22T00:00:00+09:00")
        ))
        .await;
    assert_eq!(
        titles(&nov),
        [
            "Submission wrap-up party",
            "Official stream: submission deadline special",
            "Submission tool help desk (online)",
            "Official stream: making a snowy night"
        ]
    );
    let (_, ends) = app.get_json(&format!("{base}&end_from=2026-12-27T14:00:00Z")).await;
    assert_eq!(ends["pagination"]["count"], 3, "{ends}");
}

#[rocket::async_test]
async fn bad_parameters_are_clear_422s() {
    let app = TestApp::new().await;
    let base = "/api/v1/2026Winter/hub_notifications";
    for (query, attribute) in [
        ("category=stream", "category"),
        ("locale=fr", "locale"),
        ("hub_tag_id=0", "hub_tag_id"),
        ("world_id=abc", "world_id"),
        ("is_official=yes", "is_official"),
        ("start_from=tomorrow", "start_from"),
        ("end_to=2026-13-01", "end_to"),
        ("start_from=2026-12-12&start_to=2026-12-01", "start_to"),
        ("page=0", "page"),
        ("limit=101", "limit"),
    ] {
        let (status, body) = app.get_json(&format!("{base}?{query}")).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(body["details"][0]["attribute"], attribute, "{query}: {body}");
    }
    let (_, body) = app.get_json(&format!("{base}?start_from=x&lang=en")).await;
    assert!(body["details"][0]["message"].as_str().unwrap().starts_with("Use an RFC 3339 date-time"), "{body}");
    let (status, body) = app.get_json("/api/v1/nowhere/hub_notifications").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));
    let (status, _) = app.get_json("/api/v1/ambassadors?team_type=moon_team").await;
    assert_eq!(status, 422);
}

#[rocket::async_test]
async fn top_live_follows_the_clock() {
    let app = TestApp::new().await;
    let live = async |locale: &str| {
        let (status, body) =
            app.get_json(&format!("/api/v1/2026Winter/hub_notifications/top_live?locale={locale}")).await;
        assert_eq!(status, 200, "{body}");
        assert!(body["data"].as_array().unwrap().iter().all(|n| n["is_live"] == true));
        titles(&body)
    };
    // 2026-11-21 12:00 JST.
    assert_eq!(
        live("jp").await,
        [
            "公式配信：入稿締め切り直前スペシャル",
            "入稿ツール相談会（オンライン）",
            "冬の入稿応援キャンペーン",
            "早期入稿でサンプルブースを特別公開"
        ]
    );
    // 20:30 JST: the stream and help desk are over, the wrap-up party is on.
    app.clock.set(at("2026-11-21T11:30:00Z"));
    assert_eq!(
        live("jp").await,
        ["入稿おつかれさま会（前夜祭）", "冬の入稿応援キャンペーン", "早期入稿でサンプルブースを特別公開"]
    );
    // Opening: the ceremony, and campaigns of the event period.
    app.clock.set(at("2026-12-12T03:30:00Z"));
    assert_eq!(
        live("global").await,
        [
            "Opening ceremony: the winter market begins",
            "#WinterVirtualMarket photo contest",
            "Stamp rally: Ticket of the Stars"
        ]
    );
    // After the event nothing is live.
    app.clock.set(at("2027-01-05T00:00:00Z"));
    assert!(live("jp").await.is_empty());
}

#[rocket::async_test]
async fn hidden_notifications_are_404_until_published() {
    let app = TestApp::new().await;
    let ids = |body: &Value| -> Vec<i64> {
        body["data"].as_array().unwrap().iter().map(|n| n["id"].as_i64().unwrap()).collect()
    };
    let (_, before) = app.get_json("/api/v1/2026Winter/hub_notifications?limit=100").await;
    // The reveal stream is published 2026-12-05 12:00 JST; find it by moving time forward.
    app.clock.set(at("2026-12-05T03:00:00Z"));
    let (_, after) = app.get_json("/api/v1/2026Winter/hub_notifications?limit=100").await;
    let new: Vec<i64> = ids(&after).into_iter().filter(|id| !ids(&before).contains(id)).collect();
    assert_eq!(new.len(), 2, "both audiences");
    let (status, shown) = app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{}", new[0])).await;
    assert_eq!(status, 200);
    assert!(
        shown["title"].as_str().unwrap().contains("シークレットゲスト")
            || shown["title"].as_str().unwrap().contains("secret guest")
    );
    app.clock.set(at("2026-12-05T02:59:59Z"));
    let (status, body) = app.get_json(&format!("/api/v1/2026Winter/hub_notifications/{}", new[0])).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    // Under another event it is unknown too.
    app.clock.set(at("2026-12-05T03:00:00Z"));
    let (status, _) = app.get_json(&format!("/api/v1/2025Summer/hub_notifications/{}", new[0])).await;
    assert_eq!(status, 404);
    let (status, _) = app.get_json("/api/v1/2026Winter/hub_notifications/999999").await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn vmarket_info_is_the_official_announcements() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/2026Winter/hub_notifications/vmarket_info?locale=jp&limit=100").await;
    assert_eq!(body["pagination"]["count"], 14);
    assert!(body["data"].as_array().unwrap().iter().all(|n| n["is_official"] == true));
}

#[rocket::async_test]
async fn ambassadors_streamers_and_tags() {
    let app = TestApp::new().await;
    let (_, all) = app.get_json("/api/v1/ambassadors?lang=en").await;
    assert_eq!(all["pagination"]["count"], 8);
    let names: Vec<_> = all["data"].as_array().unwrap().iter().map(|a| a["user"]["name"].as_str().unwrap()).collect();
    assert_eq!(names[..4], ["Mira Vale", "Theo Lark", "Juno Ashford", "Pip Calloway"], "team, then generation");
    let mut first = all["data"][0].clone();
    first["id"] = Value::from(0);
    first["user"]["id"] = Value::from(0);
    insta::assert_json_snapshot!("hub_ambassador_shape", first);
    let (_, japan) = app.get_json("/api/v1/ambassadors?team_type=japan_team&gen=2&is_inactive=false").await;
    assert_eq!(japan["data"].as_array().unwrap().len(), 1);
    assert_eq!(japan["data"][0]["user"]["name"], "雪代ユキ");

    let (_, streamers) = app.get_json("/api/v1/2026Winter/streamers").await;
    assert_eq!(streamers["pagination"]["count"], 5);
    let first = &streamers["data"][0];
    assert_eq!(
        (first["name"].as_str(), first["attribute"].as_str()),
        (Some("白鷺ミナト"), Some("certificated_streamer"))
    );
    assert_eq!(first["stream_count"], 4, "two streams in two languages");
    let (_, jp) = app.get_json("/api/v1/2026Winter/streamers?locale=jp").await;
    assert_eq!(jp["data"][0]["stream_count"], 2);
    let (status, _) = app.get_json("/api/v1/2026Winter/streamers?locale=xx").await;
    assert_eq!(status, 422);

    let (_, tags) = app.get_json("/api/v1/hub_tags").await;
    assert_eq!(tags.as_array().unwrap().len(), 8);
    let id = tags[0]["id"].as_i64().unwrap();
    let (status, tag) = app.get_json(&format!("/api/v1/hub_tags/{id}?lang=en")).await;
    assert_eq!((status, tag["name"].as_str(), tag["name_ja"].as_str()), (200, Some("Live music"), Some("音楽ライブ")));
    let (status, _) = app.get_json("/api/v1/hub_tags/9999").await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn the_demo_hub_is_seeded_once() {
    use sea_orm::{EntityTrait, PaginatorTrait};
    use vmarket::db::entities::{ambassador, hub_notification, hub_notification_tag, hub_tag, user};

    let app = TestApp::new().await;
    let counts = async || {
        (
            hub_notification::Entity::find().count(&app.db).await.unwrap(),
            hub_tag::Entity::find().count(&app.db).await.unwrap(),
            hub_notification_tag::Entity::find().count(&app.db).await.unwrap(),
            ambassador::Entity::find().count(&app.db).await.unwrap(),
            user::Entity::find().count(&app.db).await.unwrap(),
        )
    };
    let before = counts().await;
    assert_eq!((before.0, before.1, before.3), (50, 8, 8), "25 notifications in two languages");
    vmarket::seed::demo(&app.db, crate::support::default_now()).await.expect("second seed");
    assert_eq!(counts().await, before);
}
