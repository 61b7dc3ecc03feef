//! The catalogue and hub lists held in memory (`model::catalog_memory`, `model::hub_memory`)
//! answer exactly as the database search does: for a corpus of awkward text (full-width letters,
//! accents, ß/ẞ, noncharacters, dotted and dotless i, final sigma, titlecase digraphs, ligatures, Kelvin and
//! Ångström signs, half-width kana, LIKE wildcards, combining marks, Deseret) and keywords of one,
//! two and three or more characters in every case, each page read from memory has the ids, order,
//! count and total of the page the SQL search (`catalog_item::Model::page`,
//! `hub_notification::Model::page`) reads — on SQLite (FTS5 trigram, LIKE) and PostgreSQL (ILIKE,
//! pg_trgm) alike. Plus SQLite's FTS5 fold, ported to `model::fold`, checked against FTS5 itself.

use chrono::Duration;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, Set, Statement,
};
use vmarket::db::data_version;
use vmarket::db::entities::{catalog_item, company, event, exhibitor, hub_notification, hub_notification_tag, hub_tag};
use vmarket::model::catalog::{CatalogItemView, ItemFilter, OwnerType};
use vmarket::model::hub_notification::{HubCategory, HubFilter, HubLocale, HubNotificationView};
use vmarket::model::pagination::PageRequest;
use vmarket::model::tree::{Tree, Trees};
use vmarket::types::Lang;

use crate::support::{TestApp, at};

/// Awkward text: name_ja, name_en, description_ja, description_en.
const CORPUS: &[[&str; 4]] = &[
    ["ＦＵＬＬ幅の看板", "Full-Width SIGN", "全角ＡＢＣと半角abc", "Mixed ｆｕｌｌ width"],
    ["éclair のお菓子", "ÉCLAIR Box", "Crème brûlée", "CRÈME BRÛLÉE"],
    ["ドイツの通り", "STRASSE Straße", "ẞ big sharp s", "ss"],
    ["イスタンブール", "İstanbul ISTANBUL", "ıi", "Iİ"],
    ["ギリシャ", "ΣΊΣΥΦΟΣ", "σίσυφος", "ΟΔΟΣ οδος"],
    ["合字", "ǅemal Ǆ", "ﬃ office", "Kelvin \u{212a} Ångström \u{212b}"],
    ["半角カナ", "ｶﾀｶﾅ ﾃｽﾄ", "カタカナ テスト", "katakana"],
    ["果汁100%", "Juice 100%", "a_b c\\d", "50% off_"],
    ["猫耳カチューシャ", "Cat-Ear Headband", "ねこみみ", "NEKO mimi"],
    ["結合文字", "Cafe\u{301}", "e\u{301}", "Ａｂｃ"],
    ["Ⅻ Ⅰ", "ⅻ ⅰ", "Ⓐ ⓐ", "𐐀𐐨"],
    ["τελικό σίγμα", "ΤΕΛΙΚΟ", "ᾈ ᾀ", "\u{2126} ω"],
    ["非文字\u{FFFE}", "non\u{FFFF}char", "", ""],
    ["エプロン", "Apron ｴﾌﾟﾛﾝ", "らーめん柄", "ＲＡＭＥＮ ラーメン"],
    ["がっこうの机", "School Desk", "ｶﾞｯｺｳ ゞ", "ヴァイオリン ゔぁ"],
];

/// Keywords: one, two and three or more characters, each in several cases and widths.
const KEYWORDS: &[&str] = &[
    "",
    " ",
    "f",
    "F",
    "ｆ",
    "Ｆ",
    "fu",
    "FU",
    "ｆｕ",
    "ＦＵ",
    "ful",
    "FUL",
    "ｆｕｌ",
    "ＦＵＬ",
    "ＦＵＬＬ　幅",
    "full sign",
    "abc ABC",
    "Ａｂ",
    "ａｂｃ",
    "é",
    "É",
    "éc",
    "ÉC",
    "Éc",
    "ÉCL",
    "écl",
    "crè",
    "CRÈ",
    "brûlée",
    "ß",
    "ẞ",
    "ss",
    "SS",
    "ssE",
    "str",
    "STR",
    "straße",
    "STRASSE",
    "i",
    "I",
    "İ",
    "ı",
    "is",
    "İs",
    "İST",
    "ist",
    "ıi",
    "σ",
    "Σ",
    "ς",
    "σί",
    "σίσ",
    "ΣΊΣ",
    "οσ",
    "ΟΣ",
    "οδος",
    "ǅ",
    "ǆ",
    "Ǆ",
    "ǅem",
    "ǆem",
    "ﬃ",
    "ffi",
    "k",
    "K",
    "\u{212a}",
    "kel",
    "KEL",
    "å",
    "Å",
    "\u{212b}",
    "ångström",
    "ｶﾀ",
    "ｶﾀｶ",
    "カタ",
    "カタカ",
    "%",
    "%%",
    "100%",
    "_",
    "a_b",
    "\\",
    "c\\d",
    "猫",
    "猫耳",
    "猫耳カ",
    "ねこ",
    "neko",
    "NEKO",
    "e\u{301}",
    "cafe\u{301}",
    "CAFE\u{301}",
    "ⅰ",
    "Ⅰ",
    "ⅻ",
    "Ⅻ",
    "ⓐ",
    "Ⓐ",
    "𐐀",
    "𐐨",
    "𐐀𐐨𐐀",
    "ω",
    "Ω",
    "\u{2126}",
    "ᾀ",
    "ᾈ",
    "ᾈ ᾀ",
    "τελ",
    "ΤΕΛ",
    "σίγμα",
    "ΣΊΓΜΑ",
    "ΣΊΓΜΑ τελικό",
    "hEaDbAnD",
    "Mk",
    "head band",
    "カチューシャ",
    "\u{FFFF}",
    "n\u{FFFE}",
    "on\u{FFFE}c",
    // Hiragana and katakana, full and half width alike; the long-vowel mark as typed.
    "えぷろん",
    "エプロン",
    "ｴﾌﾟﾛﾝ",
    "ｴﾌﾟ",
    "えぷ",
    "かたかな",
    "ｶﾞｯｺｳ",
    "ガッコウ",
    "がっ",
    "ネコミミ",
    "ﾈｺ",
    "らーめん",
    "ラーメン",
    "ﾗｰﾒﾝ",
    "らめん",
    "ramen",
    "ＡＢＣ",
    "ａｐｒｏｎ",
    "ゔぁ",
    "ヴァイ",
    "ヾ",
];

async fn event_id(app: &TestApp, permalink: &str) -> i32 {
    event::Entity::find().filter(event::Column::Permalink.eq(permalink)).one(&app.db).await.unwrap().unwrap().id
}

/// The tree at the current data version, from a fresh holder (lists loaded on first use).
async fn tree(app: &TestApp) -> std::sync::Arc<Tree> {
    let version = data_version::read(&app.db).await.unwrap();
    Trees::new(64).get(&app.db, version).await.unwrap()
}

async fn add_items(app: &TestApp, event_id: i32) {
    let ex = exhibitor::Entity::find().filter(exhibitor::Column::EventId.eq(event_id)).one(&app.db).await.unwrap();
    let co = company::Entity::find()
        .filter(company::Column::EventId.eq(event_id))
        .filter(company::Column::IsPublic.eq(true))
        .one(&app.db)
        .await
        .unwrap();
    for (i, [name_ja, name_en, description_ja, description_en]) in CORPUS.iter().enumerate() {
        let i = i as i32;
        // Exhibitors' items, and the same text again as companies' items.
        for (exhibitor_id, company_id) in [(ex.as_ref().map(|e| e.id), None), (None, co.as_ref().map(|c| c.id))] {
            catalog_item::ActiveModel {
                event_id: Set(event_id),
                exhibitor_id: Set(exhibitor_id),
                company_id: Set(company_id),
                category_id: Set(1 + i % 3),
                name_ja: Set((*name_ja).into()),
                name_en: Set((*name_en).into()),
                description_ja: Set((*description_ja).into()),
                description_en: Set((*description_en).into()),
                thumbnail: Set((i % 2 == 0).then(|| format!("https://img.test/{i}.png"))),
                url: Set(None),
                is_distributable: Set(i % 2 == 0),
                price: Set((i % 3 != 0).then_some(500 + i)),
                // Ties with the demo's items too: the id breaks them.
                display_index: Set(i % 4),
                ..Default::default()
            }
            .insert(&app.db)
            .await
            .unwrap();
        }
    }
}

#[rocket::async_test]
async fn catalogue_search_in_memory_answers_as_the_database() {
    let app = TestApp::new().await;
    let event = event_id(&app, "2025Summer").await;
    add_items(&app, event).await;
    let tree = tree(&app).await;
    assert!(tree.catalogue(&app.db, event).await.unwrap().is_none(), "loading starts on first use, in the background");
    tree.settled().await;
    assert!(tree.catalogue(&app.db, event).await.unwrap().is_some(), "the catalogue fits in memory");
    let world = exhibitor::Entity::find()
        .filter(exhibitor::Column::EventId.eq(event))
        .one(&app.db)
        .await
        .unwrap()
        .and_then(|e| e.world_id);
    let mut compared = 0;
    let mut found_some = 0;
    for owner in [OwnerType::Exhibitor, OwnerType::Company] {
        for keyword in KEYWORDS {
            let filters = [
                ItemFilter { keyword: Some((*keyword).into()), ..ItemFilter::of(owner) },
                ItemFilter {
                    keyword: Some((*keyword).into()),
                    category_id: Some(2),
                    is_distributable: Some(false),
                    ..ItemFilter::of(owner)
                },
            ];
            for filter in filters {
                for page in [PageRequest { page: 1, limit: 100 }, PageRequest { page: 2, limit: 3 }] {
                    let sql = catalog_item::Model::page(&app.db, event, &filter, page).await.unwrap();
                    let memory = CatalogItemView::page(&app.db, &tree, event, &filter, page, Lang::En).await.unwrap();
                    let sql_ids: Vec<i32> = sql.items.iter().map(|i| i.id).collect();
                    let memory_ids: Vec<i32> = memory.data.iter().map(|v| v.id).collect();
                    assert_eq!(
                        (memory_ids, memory.count, memory.all),
                        (sql_ids, sql.count, sql.all),
                        "{owner:?} keyword {keyword:?} ({}) page {page:?} filter {filter:?}",
                        keyword.escape_unicode()
                    );
                    compared += 1;
                    found_some += usize::from(sql.count > 0 && !keyword.trim().is_empty());
                }
            }
        }
        // By world, with and without a keyword.
        for keyword in [None, Some("a"), Some("ｶﾀ")] {
            let filter = ItemFilter { keyword: keyword.map(str::to_string), world_id: world, ..ItemFilter::of(owner) };
            let page = PageRequest { page: 1, limit: 100 };
            let sql = catalog_item::Model::page(&app.db, event, &filter, page).await.unwrap();
            let memory = CatalogItemView::page(&app.db, &tree, event, &filter, page, Lang::Ja).await.unwrap();
            let ids: Vec<i32> = memory.data.iter().map(|v| v.id).collect();
            assert_eq!((ids, memory.count), (sql.items.iter().map(|i| i.id).collect::<Vec<_>>(), sql.count));
        }
    }
    assert!(found_some > compared / 3, "the keywords find something: {found_some} of {compared}");
    // The views are those of the database path, field for field.
    let filter = ItemFilter { keyword: Some("ＦＵＬ".into()), ..ItemFilter::of(OwnerType::Exhibitor) };
    let page = PageRequest { page: 1, limit: 100 };
    let sql = catalog_item::Model::page(&app.db, event, &filter, page).await.unwrap();
    for lang in [Lang::Ja, Lang::En] {
        let from_db = CatalogItemView::load_with_tree(&app.db, &tree, sql.items.clone(), lang).await.unwrap();
        let memory = CatalogItemView::page(&app.db, &tree, event, &filter, page, lang).await.unwrap();
        assert_eq!(serde_json::to_value(&memory.data).unwrap(), serde_json::to_value(&from_db).unwrap());
    }
}

#[rocket::async_test]
async fn hub_search_in_memory_answers_as_the_database() {
    let app = TestApp::new().await;
    let event = event_id(&app, "2026Winter").await;
    let now = app.clock.now();
    let world = tree(&app).await.worlds_of(event).first().map(|w| w.id);
    let user: Option<i32> = hub_notification::Entity::find()
        .filter(hub_notification::Column::EventId.eq(event))
        .filter(hub_notification::Column::UserId.is_not_null())
        .one(&app.db)
        .await
        .unwrap()
        .and_then(|n| n.user_id);
    let tag = hub_tag::Entity::find().one(&app.db).await.unwrap().map(|t| t.id);
    let categories =
        [HubCategory::OfficialStream, HubCategory::EventInMetaverse, HubCategory::Campaign, HubCategory::UserEvent];
    for (i, [title, title_en, content, content_en]) in CORPUS.iter().enumerate() {
        let i = i as i64;
        for (k, (title, content)) in [(title, content), (title_en, content_en)].into_iter().enumerate() {
            let n = hub_notification::ActiveModel {
                event_id: Set(event),
                title: Set((*title).into()),
                content: Set((*content).into()),
                link_url: Set(None),
                thumbnail: Set(None),
                // Some published later, some ended, some running, one hidden.
                publish_at: Set(now + Duration::hours(i % 5 - 3)),
                start_at: Set(now + Duration::hours(i % 4 - 2)),
                end_at: Set((i % 3 != 0).then(|| now + Duration::hours(i % 6 - 1))),
                display_date: Set(None),
                locale: Set(if k == 0 { HubLocale::Jp } else { HubLocale::Global }),
                category: Set(categories[(i as usize + k) % 4]),
                is_official: Set(i % 2 == 0),
                by_ambassador: Set(i % 3 == 0),
                is_certificated_stream: Set(false),
                is_public: Set(i != 5),
                is_strong_recommended: Set(i % 5 == 0),
                world_id: Set(if i % 2 == 0 { world } else { None }),
                user_id: Set(if i % 3 == 1 { user } else { None }),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(&app.db)
            .await
            .unwrap();
            if let Some(tag) = tag.filter(|_| i % 2 == 1) {
                hub_notification_tag::ActiveModel {
                    hub_notification_id: Set(n.id),
                    hub_tag_id: Set(tag),
                    ..Default::default()
                }
                .insert(&app.db)
                .await
                .unwrap();
            }
        }
    }
    let tree = tree(&app).await;
    assert!(tree.hub(&app.db, event).await.unwrap().is_none(), "loading starts on first use, in the background");
    tree.settled().await;
    assert!(tree.hub(&app.db, event).await.unwrap().is_some(), "the notifications fit in memory");
    let mut filters: Vec<HubFilter> =
        KEYWORDS.iter().map(|k| HubFilter { keyword: Some((*k).into()), ..Default::default() }).collect();
    filters.extend([
        HubFilter::default(),
        HubFilter { categories: vec![HubCategory::Campaign, HubCategory::UserEvent], ..Default::default() },
        HubFilter { locale: Some(HubLocale::Global), keyword: Some("s".into()), ..Default::default() },
        HubFilter { hub_tag_id: tag, ..Default::default() },
        HubFilter { world_id: world, ..Default::default() },
        HubFilter { user_id: user, ..Default::default() },
        HubFilter { is_official: Some(true), by_ambassador: Some(false), ..Default::default() },
        HubFilter {
            start_from: Some(now - Duration::hours(1)),
            start_to: Some(now + Duration::hours(1)),
            ..Default::default()
        },
        HubFilter { end_from: Some(now), end_to: Some(now + Duration::hours(3)), ..Default::default() },
        HubFilter { live_at: Some(now), ..Default::default() },
        HubFilter { live_at: Some(now), keyword: Some("σ".into()), ..Default::default() },
    ]);
    let mut found_some = 0;
    for at_time in [now - Duration::days(400), now, now + Duration::hours(2), at("2027-06-01T00:00:00Z")] {
        for filter in &filters {
            for page in [PageRequest { page: 1, limit: 100 }, PageRequest { page: 2, limit: 2 }] {
                let sql = hub_notification::Model::page(&app.db, event, at_time, filter, page).await.unwrap();
                let memory =
                    HubNotificationView::page(&app.db, &tree, event, at_time, filter, page, Lang::Ja).await.unwrap();
                let sql_ids: Vec<i32> = sql.items.iter().map(|n| n.id).collect();
                let memory_ids: Vec<i32> = memory.data.iter().map(|v| v.id).collect();
                assert_eq!(
                    (memory_ids, memory.count, memory.all),
                    (sql_ids, sql.count, sql.all),
                    "at {at_time} filter {filter:?} page {page:?}"
                );
                found_some += usize::from(sql.count > 0);
            }
        }
    }
    assert!(found_some > filters.len(), "the filters find something: {found_some}");
    // The views are those of the database path, field for field.
    let page = PageRequest { page: 1, limit: 100 };
    let sql = hub_notification::Model::page(&app.db, event, now, &HubFilter::default(), page).await.unwrap();
    for lang in [Lang::Ja, Lang::En] {
        let from_db = HubNotificationView::load(&app.db, sql.items.clone(), lang, now).await.unwrap();
        let memory =
            HubNotificationView::page(&app.db, &tree, event, now, &HubFilter::default(), page, lang).await.unwrap();
        assert_eq!(serde_json::to_value(&memory.data).unwrap(), serde_json::to_value(&from_db).unwrap());
    }
}

/// `model::fold::fts5_fold` is the fold of the FTS5 trigram index: every character of the Basic
/// Multilingual Plane and Deseret, indexed by FTS5 three times over, comes out as the port says.
#[rocket::async_test]
async fn the_fts5_fold_is_sqlites() {
    let app = TestApp::builder().empty().build().await;
    if app.db.get_database_backend() != DatabaseBackend::Sqlite {
        return;
    }
    let run = |sql: &str| Statement::from_string(DatabaseBackend::Sqlite, sql.to_string());
    app.db.execute_raw(run("CREATE VIRTUAL TABLE fold_probe USING fts5(t, tokenize='trigram')")).await.unwrap();
    app.db.execute_raw(run("CREATE VIRTUAL TABLE fold_terms USING fts5vocab(fold_probe, 'instance')")).await.unwrap();
    app.db
        .execute_raw(run("WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 66600) \
             INSERT INTO fold_probe(rowid, t) SELECT i, char(i, i, i) FROM g \
             WHERE (i < 55296 OR i > 57343) AND (i < 65536 OR i >= 66560)"))
        .await
        .unwrap();
    let rows = app.db.query_all_raw(run("SELECT doc, term FROM fold_terms")).await.unwrap();
    let mut checked = 0;
    let mut differ = Vec::new();
    for row in rows {
        let code: i64 = row.try_get_by_index(0).unwrap();
        let term: String = row.try_get_by_index(1).unwrap();
        let c = char::from_u32(code as u32).unwrap();
        let folded = term.chars().next().unwrap();
        if vmarket::model::fold::fts5_fold(c) != folded {
            differ.push(format!("U+{code:04X} {c} → FTS5 {folded} (U+{:04X})", folded as u32));
        }
        checked += 1;
    }
    assert!(checked > 60_000, "{checked} characters indexed");
    assert!(differ.is_empty(), "{} differ: {:?}", differ.len(), &differ[..differ.len().min(20)]);
}
