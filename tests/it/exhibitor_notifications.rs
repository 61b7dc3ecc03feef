//! Exhibitor news: `/api/v1/user/exhibitor_notifications` and the mypage news pages, for
//! signed-in users. Only public notifications whose publish time has passed (by the
//! movable clock) are shown; opening one marks it read for that user only.

use serde_json::Value;

use crate::support::actors::Actor;
use crate::support::html::Doc;
use crate::support::{TestApp, at};

/// Public demo notifications published by the default "now" (2026-11-21 12:00 JST).
const PUBLISHED: u64 = 20;

fn titles(body: &Value) -> Vec<String> {
    body["data"].as_array().expect("data").iter().map(|n| n["title"].as_str().unwrap_or_default().to_string()).collect()
}

/// The ids of the draft and of the news scheduled after the default "now", from the database.
async fn hidden_ids(app: &TestApp) -> Vec<i32> {
    use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter};
    use vmarket::db::entities::exhibitor_notification as n;
    let rows = n::Entity::find()
        .filter(Condition::any().add(n::Column::IsPublic.eq(false)).add(n::Column::PublishedAt.gt(app.clock.now())))
        .all(&app.db)
        .await
        .unwrap();
    rows.iter().map(|r| r.id).collect()
}

/// The id of the notification listed right after `id` on the first list page `reader` sees.
async fn first_id_after(reader: &Actor<'_>, id: &str) -> String {
    let doc = Doc::parse(&reader.page("/mypage/news").await.1);
    let hrefs = doc.attrs("[data-testid=news-item] a", "href");
    let at = hrefs.iter().position(|h| h.ends_with(&format!("/{id}"))).expect("listed");
    hrefs[at + 1].rsplit('/').next().unwrap().to_string()
}

#[rocket::async_test]
async fn the_api_lists_published_news_with_read_flags_per_user() {
    let app = TestApp::builder().live().build().await;
    let (status, body) = app.get_json("/api/v1/user/exhibitor_notifications").await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));

    let mut mio = app.with_user("mio_k").await;

    // Newest first, in the requested language; drafts and scheduled news are not there.
    let (status, body) = mio.get_json("/api/v1/user/exhibitor_notifications").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["pagination"]["count"], PUBLISHED);
    assert_eq!(body["unread_count"], PUBLISHED);
    assert_eq!(titles(&body)[..2], ["出展者向け告知素材を公開しました", "ブース容量の上限についてのお願い"]);
    let first = &body["data"][0];
    assert_eq!((first["label"].as_str(), first["is_read"].as_bool()), (Some("キャンペーン"), Some(false)));
    assert_eq!(first["event"]["permalink"], "2026Winter");
    assert_eq!(first["event"]["name"], "バーチャルマーケット2026 Winter");
    assert!(!titles(&body).iter().any(|t| t.contains("下書き")));
    let (_, en) = mio.get_json("/api/v1/user/exhibitor_notifications?lang=en&limit=5&page=4").await;
    assert_eq!(titles(&en).last().map(String::as_str), Some("Exhibitor applications for Virtual Market 2026 Summer"));
    let p = &en["pagination"];
    assert_eq!(
        (p["from"].as_u64(), p["to"].as_u64(), p["next"].as_u64(), p["last"].as_u64()),
        (Some(16), Some(20), None, Some(4))
    );

    // Opening one marks it read for this user; the English copy travels with it.
    let id = first["id"].as_i64().unwrap();
    let (status, one) = mio.get_json(&format!("/api/v1/user/exhibitor_notifications/{id}?lang=en")).await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(
        (one["title"].as_str(), one["label"].as_str()),
        (Some("Promotion kit for exhibitors"), Some("Campaign"))
    );
    assert!(one["description"].as_str().unwrap().starts_with("Banners and logos"));
    assert_eq!(one["is_read"], true);
    // A second opening changes nothing.
    mio.get_json(&format!("/api/v1/user/exhibitor_notifications/{id}")).await;
    let (_, body) = mio.get_json("/api/v1/user/exhibitor_notifications").await;
    assert_eq!(
        (body["unread_count"].as_u64(), body["data"][0]["is_read"].as_bool()),
        (Some(PUBLISHED - 1), Some(true))
    );
    assert_eq!(body["data"][1]["is_read"], false);

    // Hidden ones are 404 like unknown ids; bad input gets clear errors.
    let hidden = hidden_ids(&app).await;
    assert_eq!(hidden.len(), 3, "one draft and two scheduled");
    for id in hidden.iter().map(|i| i.to_string()).chain(["99999".into()]) {
        let (status, body) = mio.get_json(&format!("/api/v1/user/exhibitor_notifications/{id}")).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{id}");
    }
    for bad in ["abc", "0", "-3"] {
        let (status, _) = mio.get_json(&format!("/api/v1/user/exhibitor_notifications/{bad}")).await;
        assert_eq!(status, 404, "{bad}");
    }
    let (status, body) = mio.get_json("/api/v1/user/exhibitor_notifications?page=0").await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("page")));

    // Time moves on: the deadline reminder is published.
    // (Tokens live a day: a fresh one, as a silent sign-in would give.)
    app.clock.set(at("2026-11-28T00:00:00Z"));
    assert_eq!(mio.get_json("/api/v1/user/exhibitor_notifications").await.0, 401, "the old token has expired");
    mio.renew().await;
    let (_, body) = mio.get_json("/api/v1/user/exhibitor_notifications").await;
    assert_eq!(body["pagination"]["count"], PUBLISHED + 1);
    assert_eq!(titles(&body)[0], "入稿締め切りは11月30日（月）23:59です");
    assert_eq!(body["unread_count"], PUBLISHED);

    // Another user has read nothing.
    let ren = app.with_user("ren_a").await;
    let (_, body) = ren.get_json("/api/v1/user/exhibitor_notifications").await;
    assert_eq!(body["unread_count"], PUBLISHED + 1);
    assert!(body["data"].as_array().unwrap().iter().all(|n| n["is_read"] == false));
}

#[rocket::async_test]
async fn mypage_news_in_both_languages() {
    let app = TestApp::builder().live().build().await;
    let res = app.get("/mypage/news").await;
    assert_eq!(res.headers().get_one("Location"), Some("/auth/login?next=%2Fmypage%2Fnews&auto=1"));

    let mio = app.with_user("mio_k").await;

    // The dashboard shows the three newest and the unread count.
    let doc = Doc::parse(&mio.page("/mypage").await.1);
    assert_eq!(
        doc.texts("[data-testid=dashboard-news] [data-testid=news-title]"),
        ["出展者向け告知素材を公開しました", "ブース容量の上限についてのお願い", "自動ビルドを開始しました"]
    );
    assert_eq!(doc.text("[data-testid=dashboard-news] h2"), "お知らせ 未読 20件");
    assert!(doc.texts(".mypage-nav a").contains(&"お知らせ".to_string()));

    // The list: ten a page, each unread, with page links.
    let (status, html) = mio.page("/mypage/news").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("title"), "お知らせ | バーチャルマーケット");
    assert_eq!(doc.text("[data-testid=news-summary]"), "未読 20件");
    assert_eq!(doc.count("[data-testid=news-item]"), 10);
    assert_eq!(doc.count("[data-testid=unread]"), 10);
    assert_eq!(doc.text(".mypage-nav a[aria-current=page]"), "お知らせ");
    assert_eq!(doc.attr("[data-testid=pager] a[rel=next]", "href"), "/mypage/news?page=2");
    let first = doc.attr("[data-testid=news-item] a", "href");
    let doc = Doc::parse(&mio.page("/mypage/news?page=2").await.1);
    assert_eq!(
        doc.texts("[data-testid=news-title]").last().unwrap(),
        "バーチャルマーケット2026 Summer 出展募集のご案内"
    );
    let doc = Doc::parse(&mio.page("/en/mypage/news?page=3").await.1);
    assert!(doc.text("[data-testid=news-empty]").starts_with("There are no results on this page (20 in all)"));
    for bad in ["/mypage/news?page=0", "/en/mypage/news?page=x", "/mypage/news/abc", "/en/mypage/news/0"] {
        let (status, html) = mio.page(bad).await;
        assert_eq!(status, 404, "{bad}");
        let detail = Doc::parse(&html).text("[data-testid=error-detail]");
        let expected = if bad.starts_with("/en") { "Page Not Found: " } else { "ページが見つかりません: " };
        assert!(detail.starts_with(expected), "{bad}: {detail}");
    }

    // A notification page in both languages; opening it marks it read.
    let id = first.rsplit('/').next().unwrap().to_string();
    for (name, path) in [("news_detail", first.clone()), ("news_detail_en", format!("/en/mypage/news/{id}"))] {
        let (status, html) = mio.page(&path).await;
        assert_eq!(status, 200, "{path}");
        let doc = Doc::parse(&html);
        insta::assert_json_snapshot!(
            name,
            (
                doc.text("title"),
                doc.text("[data-testid=news-label]"),
                doc.text("[data-testid=news-event]"),
                doc.texts("[data-testid=news-detail] h1, [data-testid=news-body] p"),
            )
        );
    }
    let doc = Doc::parse(&mio.page(&first).await.1);
    assert_eq!(doc.attr("[data-testid=news-event]", "href"), "/2026Winter/worlds");
    // Blank lines separate paragraphs; single line breaks stay inside one.
    let (_, html) = mio.page(&format!("/mypage/news/{}", first_id_after(&mio, &id).await)).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=news-detail] h1"), "ブース容量の上限についてのお願い");
    assert_eq!(doc.count("[data-testid=news-body] p"), 2);
    assert_eq!(doc.count("[data-testid=news-body] p:first-child br"), 1);
    // The two opened are no longer marked; the rest still are.
    let doc = Doc::parse(&mio.page("/en/mypage/news").await.1);
    assert_eq!(doc.text("[data-testid=news-summary]"), "18 unread");
    assert_eq!(doc.text("[data-testid=news-item] [data-testid=news-title]"), "Promotion kit for exhibitors");
    assert_eq!(doc.count("[data-testid=news-item]:nth-child(-n+2) [data-testid=unread]"), 0);
    assert_eq!(doc.count("[data-testid=news-item]:nth-child(n+3) [data-testid=unread]"), 8);

    // Hidden notifications are 404 pages.
    for id in hidden_ids(&app).await {
        assert_eq!(mio.page(&format!("/mypage/news/{id}")).await.0, 404);
    }
}
