//! Catalogue pages in both languages: the catalogue top, a world's catalogue, search with
//! filters and pagination, exhibitor and company pages, the summary page, the event-open gate
//! and the parameter rules.

use crate::support::html::Doc;
use crate::support::{TestApp, at};

fn q(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[rocket::async_test]
async fn main_headings_in_both_languages() {
    let app = TestApp::new().await;
    let (_, body) = app.get_json("/api/v1/2025Summer/exhibitors?limit=1").await;
    let exhibitor = body["data"][0]["id"].as_i64().unwrap();
    let (_, body) = app.get_json("/api/v1/2025Summer/companies?limit=1").await;
    let company = body["data"][0]["id"].as_i64().unwrap();
    let pages = [
        ("catalog", "/2025Summer/catalog".to_string()),
        ("catalog_en", "/en/2025Summer/catalog".to_string()),
        ("world", "/2025Summer/catalog/101?world_id=10001".to_string()),
        ("world_en", "/en/2025Summer/catalog/101?world_id=10001".to_string()),
        ("exhibitor", format!("/2025Summer/exhibitor/{exhibitor}")),
        ("exhibitor_en", format!("/en/2025Summer/exhibitor/{exhibitor}")),
        ("company", format!("/2025Summer/company/{company}")),
        ("company_en", format!("/en/2025Summer/company/{company}")),
        ("confirmation", "/2025Summer/confirmation".to_string()),
        ("confirmation_en", "/en/2025Summer/confirmation".to_string()),
    ];
    for (name, path) in pages {
        let (status, html) = app.page(&path).await;
        assert_eq!(status, 200, "{path}");
        let doc = Doc::parse(&html);
        insta::assert_json_snapshot!(
            format!("catalog_headings_{name}"),
            doc.texts("main h1, main h2, main p.catalog-locked")
        );
    }
}

#[rocket::async_test]
async fn the_catalogue_top_links_worlds_and_searches() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/2025Summer/catalog").await.1);
    assert_eq!(doc.text("h1"), "カタログ");
    assert_eq!(doc.count("[data-testid=catalog-search]"), 1);
    assert_eq!(doc.attr("[data-testid=catalog-search]", "action"), "/2025Summer/catalog/search");
    assert_eq!(doc.count("[data-testid=catalog-concept]"), 4);
    assert_eq!(doc.attrs("[data-testid=catalog-world] a", "href")[0], "/2025Summer/catalog/101?world_id=10001");
    assert!(doc.texts("[data-testid=catalog-world] p")[0].ends_with("サークルが出展"));

    let doc = Doc::parse(&app.page("/en/2025Summer/catalog").await.1);
    assert_eq!(doc.text("title"), "Catalogue | Virtual Market");
    assert_eq!(doc.attr("[data-testid=catalog-search]", "action"), "/en/2025Summer/catalog/search");
    assert_eq!(doc.attrs("[data-testid=catalog-world] a", "href")[0], "/en/2025Summer/catalog/101?world_id=10001");
}

#[rocket::async_test]
async fn before_the_event_opens_the_catalogue_is_locked() {
    let app = TestApp::new().await;
    // The current event (2026Winter) opens on 2026-12-12 12:00 JST.
    let doc = Doc::parse(&app.page("/catalog").await.1);
    assert_eq!(doc.count("[data-testid=catalog-search]"), 0, "no search header");
    assert_eq!(doc.text("[data-testid=catalog-locked]"), "カタログは会期開始（2026/12/12 12:00）に公開されます");
    assert_eq!(doc.count("[data-testid=catalog-world] a"), 0, "no catalogue over world");
    assert_eq!(doc.count("[data-testid=catalog-world]"), 16, "worlds are still shown as entry points");
    let doc = Doc::parse(&app.page("/catalog/1301?world_id=130001").await.1);
    assert_eq!(doc.count("[data-testid=launch] a"), 0, "no launch button");
    assert_eq!(doc.count("[data-testid=exhibitor-card]"), 0);
    assert_eq!(doc.count("[data-testid=catalog-locked]"), 1);
    let doc = Doc::parse(&app.page(&format!("/en/catalog/search?keyword={}", q("猫耳"))).await.1);
    assert_eq!(doc.count("[data-testid=catalog-search]"), 0);
    assert_eq!(doc.count("[data-testid=item-card]"), 0);
    assert_eq!(
        doc.text("[data-testid=catalog-locked]"),
        "The catalogue opens when the event starts (2026/12/12 12:00)"
    );

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let (_, body) = app.get_json("/api/v1/2026Winter/exhibitors?limit=1").await;
    let exhibitor = body["data"][0]["id"].as_i64().unwrap();
    let (_, body) = app.get_json("/api/v1/2026Winter/companies?limit=1").await;
    let company = body["data"][0]["id"].as_i64().unwrap();
    app.clock.set(at("2026-12-12T02:59:00Z"));
    for path in [format!("/2026Winter/exhibitor/{exhibitor}"), format!("/en/2026Winter/company/{company}")] {
        let (status, html) = app.page(&path).await;
        assert_eq!(status, 404, "{path}");
        assert!(Doc::parse(&html).text("h1").contains("404"), "{path}");
    }

    app.clock.set(at("2026-12-12T03:00:00Z"));
    let doc = Doc::parse(&app.page("/catalog").await.1);
    assert_eq!(doc.count("[data-testid=catalog-search]"), 1);
    assert_eq!(doc.count("[data-testid=catalog-locked]"), 0);
    let doc = Doc::parse(&app.page("/catalog/1301?world_id=130001").await.1);
    assert!(doc.count("[data-testid=exhibitor-card]") >= 4);
    assert!(doc.attr("[data-testid=launch] a", "href").starts_with("https://vrchat.com/"));
    let (status, html) = app.page(&format!("/2026Winter/exhibitor/{exhibitor}")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=placement]"), 1);
    let (status, _) = app.page(&format!("/en/2026Winter/company/{company}")).await;
    assert_eq!(status, 200);
}

#[rocket::async_test]
async fn search_finds_japanese_partial_words_and_opens_an_exhibitor() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page(&format!("/2025Summer/catalog/search?keyword={}", q("猫耳"))).await.1);
    let names = doc.texts("[data-testid=item-card] h3");
    assert!(names.contains(&"猫耳カチューシャ".to_string()), "{names:?}");
    assert!(doc.text("[data-testid=result-count]").contains("件中"));
    let owner = doc.attrs("[data-testid=item-card] .item-card__owner a", "href")[0].clone();
    assert!(owner.starts_with("/2025Summer/exhibitor/"), "{owner}");
    let doc = Doc::parse(&app.page(&owner).await.1);
    assert!(doc.texts("[data-testid=item-card] h3").iter().any(|n| n.contains("猫耳")));
    assert!(doc.text("[data-testid=placement]").contains("番"));

    let doc = Doc::parse(&app.page("/en/2025Summer/catalog/search?keyword=headband").await.1);
    assert!(doc.texts("[data-testid=item-card] h3").contains(&"Cat-Ear Headband".to_string()));
    let doc = Doc::parse(&app.page(&format!("/en/2025Summer/catalog/search?keyword={}", q("猫耳"))).await.1);
    assert!(doc.texts("[data-testid=item-card] h3").contains(&"Cat-Ear Headband".to_string()), "ja word, en page");

    // Circles and companies.
    let doc =
        Doc::parse(&app.page(&format!("/2025Summer/catalog/search?viewType=circle&keyword={}", q("星屑"))).await.1);
    assert!(doc.texts("[data-testid=exhibitor-card] h3").iter().all(|n| n.contains("星屑")));
    assert!(doc.count("[data-testid=exhibitor-card]") > 0);
    let doc = Doc::parse(&app.page("/en/2025Summer/catalog/search?viewType=circle&type=company&keyword=cider").await.1);
    assert_eq!(doc.texts("[data-testid=company-card] h3"), ["Minazuki Beverages"]);
}

#[rocket::async_test]
async fn search_treats_hiragana_katakana_and_widths_alike() {
    let app = TestApp::new().await;
    let names = |keyword: &'static str| {
        let app = &app;
        async move {
            let doc = Doc::parse(&app.page(&format!("/2025Summer/catalog/search?keyword={}", q(keyword))).await.1);
            doc.texts("[data-testid=item-card] h3")
        }
    };
    for keyword in ["かちゅーしゃ", "ｶﾁｭｰｼｬ", "カチューシャ", "かちゅ　しゃ"] {
        assert!(names(keyword).await.contains(&"猫耳カチューシャ".to_string()), "{keyword}");
    }
    // The long-vowel mark as typed: without it, another word.
    assert!(!names("かちゅしゃ").await.contains(&"猫耳カチューシャ".to_string()));
    let doc =
        Doc::parse(&app.page("/en/2025Summer/catalog/search?keyword=%EF%BC%A8%EF%BD%85%EF%BD%81%EF%BD%84").await.1);
    assert!(doc.texts("[data-testid=item-card] h3").contains(&"Cat-Ear Headband".to_string()), "Ｈｅａｄ");
}

#[rocket::async_test]
async fn search_pages_filters_and_empty_states() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/en/2025Summer/catalog/search").await.1);
    assert_eq!(doc.count("[data-testid=item-card]"), 20);
    let count = doc.text("[data-testid=result-count]");
    assert!(count.starts_with("Showing 1–20 of "), "{count}");
    assert_eq!(
        doc.attr("[data-testid=pager] a[rel=next]", "href"),
        "/en/2025Summer/catalog/search?viewType=item&type=exhibitor&page=2"
    );
    assert_eq!(doc.count("[data-testid=pager] a[rel=prev]"), 0);
    // Filters stay in the page links.
    let doc =
        Doc::parse(&app.page("/2025Summer/catalog/search?category_id=2&is_distributable=true&world_id=10002").await.1);
    assert!(doc.texts("[data-testid=item-card] .item-card__category").iter().all(|c| c == "衣装"));
    assert!(doc.texts("[data-testid=item-card] .item-card__price").iter().all(|p| p == "無料配布"));
    assert_eq!(doc.attr("select[name=category_id] option[selected]", "value"), "2");
    // Beyond the last page, and nothing found.
    let doc = Doc::parse(&app.page("/en/2025Summer/catalog/search?page=999").await.1);
    assert!(doc.text("[data-testid=catalog-empty]").starts_with("There are no results on this page"));
    let doc = Doc::parse(&app.page(&format!("/2025Summer/catalog/search?keyword={}", q("存在しない商品名"))).await.1);
    assert_eq!(doc.text("[data-testid=catalog-empty]"), "「存在しない商品名」に一致する結果は見つかりませんでした。");
    assert_eq!(doc.count("[data-testid=pager]"), 0);
}

#[rocket::async_test]
async fn page_parameters_are_checked() {
    let app = TestApp::new().await;
    for path in [
        "/2025Summer/catalog/101",
        "/2025Summer/catalog/101?world_id=abc",
        "/2025Summer/catalog/101?world_id=10005",
        "/2025Summer/catalog/0?world_id=10001",
        "/en/2025Summer/catalog/search?viewType=table",
        "/2025Summer/catalog/search?type=shop",
        "/2025Summer/catalog/search?page=0",
        "/2025Summer/exhibitor/abc",
        "/2025Summer/exhibitor/999999",
        "/NoSuchEvent/catalog",
        "/bad.permalink/confirmation",
    ] {
        let (status, html) = app.page(path).await;
        assert_eq!(status, 404, "{path}");
        assert!(Doc::parse(&html).text("main").contains("404"), "{path}");
    }
    let (_, html) = app.page("/en/2025Summer/catalog/101").await;
    assert!(Doc::parse(&html).text("main").contains("Page Not Found: /en/2025Summer/catalog/101"));
}

#[rocket::async_test]
async fn the_summary_page_follows_the_clock() {
    let app = TestApp::new().await;
    let doc = Doc::parse(&app.page("/2026Winter/confirmation").await.1);
    assert_eq!(doc.text("[data-testid=catalog-status]"), "カタログは2026/12/12 12:00に公開されます。");
    app.clock.set(at("2026-12-20T00:00:00Z"));
    let doc = Doc::parse(&app.page("/en/2026Winter/confirmation").await.1);
    assert_eq!(doc.text("[data-testid=catalog-status]"), "The catalogue is open until 2026/12/27 23:59.");
    let totals = doc.texts(".confirmation__totals dd");
    assert!(totals[1].parse::<u32>().unwrap() >= 200, "hundreds of items: {totals:?}");
    assert_eq!(totals[2], "3");
}

#[rocket::async_test]
async fn control_characters_in_a_keyword_separate_terms() {
    // A NUL byte cannot reach SQLite's FTS5 parser or PostgreSQL: it splits the keyword like a
    // space, on the pages and in the API alike.
    let app = TestApp::new().await;
    let plain = Doc::parse(&app.page(&format!("/2025Summer/catalog/search?keyword={}", q("猫耳"))).await.1);
    let (status, html) = app.page("/2025Summer/catalog/search?keyword=%00%E7%8C%AB%E8%80%B3%00").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).text("[data-testid=result-count]"), plain.text("[data-testid=result-count]"));
    for path in [
        "/api/v1/2025Summer/catalog_items?keyword=ab%00cd",
        "/api/v1/2025Summer/exhibitors?keyword=x%00%00",
        "/api/v1/2025Summer/companies?keyword=%00",
        "/api/v1/2026Winter/hub_notifications?keyword=%E5%85%AC%00%E5%BC%8F",
    ] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert!(body["pagination"]["count"].is_u64(), "{path}: {body}");
    }
    let (status, _) = app.page("/hub/search?keyword=ab%00cd").await;
    assert_eq!(status, 200);
}
