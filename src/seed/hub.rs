//! The demo hub of the current event (2026Winter, id 13): hub tags, official streamers and
//! ambassadors (demo users written straight into `users`, with no account), and notifications in
//! all four categories — each one written twice, in Japanese for the `jp` audience and in
//! English for the `global` one. A few run around the demo "now" (2026-11-21) and during the
//! event (12-12 to 12-27); one is not public and one is published later, to show they stay
//! hidden. Skipped when the event already has hub notifications.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};

use crate::db::entities::{ambassador, event, hub_notification, hub_notification_tag, hub_tag, user};
use crate::error::{Error, Result};
use crate::model::hub::{HubCategory, HubLocale, TeamType};
use crate::model::user::{Role, UserAttribute};

/// The event the demo hub belongs to.
const EVENT_ID: i32 = 13;

/// (key, Japanese name, English name).
const TAGS: [(&str, &str, &str); 8] = [
    ("music", "音楽ライブ", "Live music"),
    ("avatar", "アバター", "Avatars"),
    ("tour", "ワールド探訪", "World tours"),
    ("beginner", "初心者歓迎", "Beginners welcome"),
    ("photo", "写真", "Photography"),
    ("talk", "トーク", "Talk"),
    ("gift", "プレゼント", "Giveaways"),
    ("creator", "クリエイター向け", "For creators"),
];

/// (key, handle, Japanese name, English name).
const STREAMERS: [(&str, &str, &str, &str); 5] = [
    ("minato", "shirasagi_minato", "白鷺ミナト", "Minato Shirasagi"),
    ("luka", "hoshino_luka", "星野ルカ", "Luka Hoshino"),
    ("komugi", "komugi_ch", "こむぎ", "Komugi"),
    ("sora", "yonagi_sora", "夜凪ソラ", "Sora Yonagi"),
    ("haru", "akari_haru", "灯里ハル", "Haru Akari"),
];

/// (key, handle, Japanese name, English name, generation, team, inactive).
const AMBASSADORS: [(&str, &str, &str, &str, i32, TeamType, bool); 8] = [
    ("noa", "tsukishiro_noa", "月白ノア", "Noa Tsukishiro", 1, TeamType::JapanTeam, false),
    ("kohaku", "kaede_kohaku", "楓こはく", "Kohaku Kaede", 1, TeamType::JapanTeam, false),
    ("yuki", "yukishiro_yuki", "雪代ユキ", "Yuki Yukishiro", 2, TeamType::JapanTeam, false),
    ("kai", "kirishima_kai", "霧島カイ", "Kai Kirishima", 2, TeamType::JapanTeam, true),
    ("mira", "mira_vale", "ミラ・ヴェイル", "Mira Vale", 1, TeamType::GlobalTeam, false),
    ("theo", "theo_lark", "テオ・ラーク", "Theo Lark", 1, TeamType::GlobalTeam, false),
    ("juno", "juno_ashford", "ジュノ・アシュフォード", "Juno Ashford", 2, TeamType::GlobalTeam, false),
    ("pip", "pip_calloway", "ピップ・キャロウェイ", "Pip Calloway", 2, TeamType::GlobalTeam, false),
];

/// One demo notification, written in both languages.
struct Seed {
    category: HubCategory,
    ja: (&'static str, &'static str),
    en: (&'static str, &'static str),
    /// Start, UTC.
    start: &'static str,
    /// Length in hours, if it has an end.
    hours: Option<i64>,
    official: bool,
    /// The streamer or ambassador behind it (a key of [`STREAMERS`] or [`AMBASSADORS`]).
    by: Option<&'static str>,
    world: Option<i32>,
    tags: &'static [&'static str],
    pinned: bool,
    thumbnail: &'static str,
    /// Publish time, UTC (default 2026-11-01 12:00 JST).
    publish: Option<&'static str>,
    public: bool,
}

const KV: &str = "/static/demo/events/2026winter/kv.svg";
const FIRST_VIEW: &str = "/static/demo/events/2026winter/first-view.svg";

fn seeds() -> Vec<Seed> {
    use HubCategory::*;
    let s = |category, ja, en, start, hours, thumbnail| Seed {
        category,
        ja,
        en,
        start,
        hours,
        official: false,
        by: None,
        world: None,
        tags: &[],
        pinned: false,
        thumbnail,
        publish: None,
        public: true,
    };
    vec![
        // Official announcements and campaigns.
        Seed {
            official: true,
            pinned: true,
            tags: &["creator"],
            ..s(
                Campaign,
                (
                    "冬の入稿応援キャンペーン",
                    "入稿締め切りまでラストスパート！期間中にブースを入稿したサークルには、会場で使える限定ポスター枠をプレゼントします。",
                ),
                (
                    "Winter submission boost campaign",
                    "Into the final stretch! Circles that submit their booth during the campaign get a limited poster slot in the venue.",
                ),
                "2026-11-15T03:00:00Z",
                Some(15 * 24 + 12),
                KV,
            )
        },
        Seed {
            official: true,
            tags: &["gift", "photo"],
            ..s(
                Campaign,
                (
                    "#冬のバーチャルマーケット 写真投稿キャンペーン",
                    "会場で撮ったお気に入りの一枚をハッシュタグ付きで投稿すると、抽選で限定アバターアクセサリーが当たります。",
                ),
                (
                    "#WinterVirtualMarket photo contest",
                    "Post your favourite shot from the venue with the hashtag for a chance to win a limited avatar accessory.",
                ),
                "2026-12-12T03:00:00Z",
                Some(15 * 24 + 12),
                "/static/demo/worlds/snowglobe-0.svg",
            )
        },
        Seed {
            official: true,
            world: Some(130005),
            tags: &["gift", "beginner", "tour"],
            ..s(
                Campaign,
                (
                    "スタンプラリー「星めぐりの切符」",
                    "始発駅ステラから終着駅の雪原まで、各ワールドのスタンプを集めて記念バッジを手に入れよう。",
                ),
                (
                    "Stamp rally: Ticket of the Stars",
                    "Collect a stamp in every world from Stella Terminal to the Snowfield at the Last Stop and earn a commemorative badge.",
                ),
                "2026-12-12T03:00:00Z",
                Some(15 * 24 + 12),
                "/static/demo/worlds/terminal-0.svg",
            )
        },
        Seed {
            official: true,
            ..s(
                Campaign,
                (
                    "早期入稿でサンプルブースを特別公開",
                    "11月中に入稿を終えたサークルのブースを、開催前のプレビュー配信で紹介します。",
                ),
                (
                    "Early submitters featured in the preview",
                    "Circles that finish submitting in November will be featured in the pre-event preview stream.",
                ),
                "2026-11-01T03:00:00Z",
                Some(29 * 24 + 12),
                FIRST_VIEW,
            )
        },
        Seed {
            official: true,
            pinned: true,
            world: Some(130001),
            tags: &["beginner"],
            ..s(
                EventInMetaverse,
                (
                    "開会式 ― 冬のバーチャルマーケット、はじまります",
                    "珊瑚の大閲覧室で開会式を行います。スタッフと一緒にカウントダウンしましょう。",
                ),
                (
                    "Opening ceremony: the winter market begins",
                    "Join the opening ceremony in the Great Coral Reading Room and count down with the staff.",
                ),
                "2026-12-12T03:00:00Z",
                Some(1),
                KV,
            )
        },
        Seed {
            official: true,
            world: Some(130007),
            ..s(
                EventInMetaverse,
                (
                    "閉会式と夜行列車の最終便",
                    "終着駅の雪原で閉会式を行います。最後はみんなで夜行列車を見送りましょう。",
                ),
                (
                    "Closing ceremony and the last night train",
                    "The closing ceremony takes place in the Snowfield at the Last Stop. Let's see the last night train off together.",
                ),
                "2026-12-27T12:00:00Z",
                Some(2),
                "/static/demo/worlds/nighttrain-1.svg",
            )
        },
        Seed {
            official: true,
            tags: &["creator", "talk"],
            ..s(
                EventInMetaverse,
                (
                    "入稿ツール相談会（オンライン）",
                    "入稿ツールの使い方やエラーの直し方を、スタッフがその場で一緒に確認します。初めての出展でも安心です。",
                ),
                (
                    "Submission tool help desk (online)",
                    "Staff walk through the submission tool and fix errors with you on the spot. Perfect for first-time exhibitors.",
                ),
                "2026-11-21T01:00:00Z",
                Some(6),
                FIRST_VIEW,
            )
        },
        // Official streams.
        Seed {
            official: true,
            by: Some("minato"),
            tags: &["talk", "creator"],
            ..s(
                OfficialStream,
                (
                    "公式配信：入稿締め切り直前スペシャル",
                    "締め切りまであと少し。人気サークルの入稿テクニックと、よくあるつまずきポイントを紹介します。",
                ),
                (
                    "Official stream: submission deadline special",
                    "The deadline is close. Popular circles share their submission tips and the most common pitfalls.",
                ),
                "2026-11-21T02:00:00Z",
                Some(2),
                KV,
            )
        },
        Seed {
            official: true,
            by: Some("luka"),
            world: Some(130001),
            tags: &["tour"],
            pinned: true,
            ..s(
                OfficialStream,
                (
                    "公式配信：開幕ワールドツアー",
                    "開幕直後の会場を、星野ルカが案内します。海底図書館アトランティカから始まる冬の旅へ出発！",
                ),
                (
                    "Official stream: opening world tour",
                    "Luka Hoshino guides you through the venue right after opening. The winter journey starts at Atlantica, the Library Beneath the Sea!",
                ),
                "2026-12-12T04:00:00Z",
                Some(2),
                "/static/demo/worlds/library-0.svg",
            )
        },
        Seed {
            official: true,
            by: Some("komugi"),
            world: Some(130016),
            tags: &["gift"],
            ..s(
                OfficialStream,
                (
                    "公式配信：こむぎの企業ブースめぐり",
                    "パン工房やオーロラタワーなど、企業ブースの見どころを食レポ風にお届けします。",
                ),
                (
                    "Official stream: Komugi's company booth crawl",
                    "From the bakery to the aurora tower, Komugi tours the company booths food-review style.",
                ),
                "2026-12-13T10:00:00Z",
                Some(2),
                "/static/demo/worlds/bakery-0.svg",
            )
        },
        Seed {
            official: true,
            by: Some("sora"),
            world: Some(130004),
            tags: &["music"],
            ..s(
                OfficialStream,
                (
                    "公式配信：深海天文台から星空ライブ",
                    "夜凪ソラが深海天文台から歌をお届けします。ドームいっぱいの星空と一緒にお楽しみください。",
                ),
                (
                    "Official stream: starlight live from the Deep Sea Observatory",
                    "Sora Yonagi sings from the Deep Sea Observatory under a dome full of stars.",
                ),
                "2026-12-19T11:00:00Z",
                Some(2),
                "/static/demo/worlds/observatory-0.svg",
            )
        },
        Seed {
            official: true,
            by: Some("haru"),
            world: Some(130008),
            tags: &["photo", "beginner"],
            ..s(
                OfficialStream,
                (
                    "公式配信：はじめての会場歩き",
                    "VR初心者の灯里ハルが、会場の歩き方や写真の撮り方を一つずつ試していきます。",
                ),
                (
                    "Official stream: first steps in the venue",
                    "VR newcomer Haru Akari tries out walking the venue and taking photos, one step at a time.",
                ),
                "2026-12-14T09:00:00Z",
                Some(2),
                "/static/demo/worlds/snowforest-1-path.svg",
            )
        },
        Seed {
            official: true,
            by: Some("minato"),
            world: Some(130013),
            tags: &["tour"],
            ..s(
                OfficialStream,
                (
                    "公式配信：最終日スペシャル 駆け込みおすすめ巡り",
                    "最終日に見ておきたいブースを、白鷺ミナトが駆け足で紹介します。",
                ),
                (
                    "Official stream: last-day picks",
                    "On the final day, Minato Shirasagi races through the booths you shouldn't miss.",
                ),
                "2026-12-27T06:00:00Z",
                Some(3),
                "/static/demo/worlds/fairground-0.svg",
            )
        },
        Seed {
            official: true,
            by: Some("luka"),
            tags: &["talk"],
            ..s(
                OfficialStream,
                (
                    "公式配信：出展者インタビュー「雪の夜の作りかた」",
                    "雪景色ワールドを手がけたクリエイターに、制作の裏話を聞きました。",
                ),
                (
                    "Official stream: making a snowy night",
                    "We talk with the creators behind the snowy worlds about how they were made.",
                ),
                "2026-11-14T11:00:00Z",
                Some(2),
                "/static/demo/worlds/snowforest-0-village.svg",
            )
        },
        // Metaverse events (ambassadors and official guides).
        Seed {
            by: Some("noa"),
            world: Some(130002),
            tags: &["tour", "beginner"],
            ..s(
                EventInMetaverse,
                (
                    "アンバサダーと行く 沈没船の書庫ツアー",
                    "月白ノアがおすすめブースを案内します。途中参加・途中退出も大歓迎です。",
                ),
                (
                    "Shipwreck Archive tour with an ambassador",
                    "Noa Tsukishiro shows you their favourite booths. Join or leave whenever you like.",
                ),
                "2026-12-12T11:00:00Z",
                Some(1),
                "/static/demo/worlds/shipwreck-0.svg",
            )
        },
        Seed {
            by: Some("kohaku"),
            world: Some(130012),
            tags: &["avatar", "photo"],
            ..s(
                EventInMetaverse,
                (
                    "ぬいぐるみの森 アバター撮影会",
                    "ふわふわの森で、お気に入りのアバターを撮り合いましょう。撮影のコツもお伝えします。",
                ),
                (
                    "Avatar photo meet-up in the Plushie Woods",
                    "Take pictures of each other's avatars in the fluffy forest, with a few photography tips.",
                ),
                "2026-12-13T12:00:00Z",
                Some(2),
                "/static/demo/worlds/plush-0.svg",
            )
        },
        Seed {
            by: Some("yuki"),
            world: Some(130010),
            tags: &["talk"],
            ..s(
                EventInMetaverse,
                ("雪どけ湖のほとりで 冬の読書会", "好きな本を一冊持ち寄って、湖のほとりでのんびり語り合います。"),
                ("Winter book club by the Snowmelt Lake", "Bring a favourite book and chat about it by the lakeside."),
                "2026-12-20T11:00:00Z",
                Some(2),
                "/static/demo/worlds/snowforest-0-lake.svg",
            )
        },
        Seed {
            by: Some("mira"),
            world: Some(130005),
            tags: &["tour", "beginner"],
            ..s(
                EventInMetaverse,
                (
                    "グローバルチームの英語ガイドツアー",
                    "英語で会場を案内するツアーです。海外からの来場者も日本語話者も歓迎します。",
                ),
                (
                    "Global team guided tour in English",
                    "A guided tour of the venue in English. Visitors from abroad and Japanese speakers alike are welcome.",
                ),
                "2026-12-14T13:00:00Z",
                Some(1),
                "/static/demo/worlds/terminal-0.svg",
            )
        },
        Seed {
            by: Some("theo"),
            world: Some(130006),
            tags: &["talk"],
            ..s(
                EventInMetaverse,
                ("食堂車マーケットで国際交流ナイト", "食堂車に集まって、世界各地の参加者とおしゃべりしましょう。"),
                (
                    "International meet-up in the Dining Car Market",
                    "Gather in the dining car and chat with visitors from around the world.",
                ),
                "2026-12-19T13:00:00Z",
                Some(2),
                "/static/demo/worlds/diningcar-0.svg",
            )
        },
        // User events.
        Seed {
            world: Some(130003),
            tags: &["music"],
            ..s(
                UserEvent,
                (
                    "くらげ灯りの螺旋階段でアコースティックライブ",
                    "有志のミュージシャンによる小さなライブです。階段に座ってゆっくり聴いてください。",
                ),
                (
                    "Acoustic live on the Jellyfish-Lit Spiral Stair",
                    "A small live set by volunteer musicians. Take a seat on the stairs and enjoy.",
                ),
                "2026-12-15T12:00:00Z",
                Some(1),
                "/static/demo/worlds/jellyfish-0.svg",
            )
        },
        Seed {
            world: Some(130011),
            tags: &["creator", "beginner"],
            ..s(
                UserEvent,
                (
                    "積み木の街 ワールド制作もくもく会",
                    "ワールドを作っている人、作ってみたい人が集まる作業会です。質問も気軽にどうぞ。",
                ),
                (
                    "World-building co-working in Building Block Town",
                    "A quiet work session for anyone building worlds or wanting to start. Questions welcome.",
                ),
                "2026-12-16T11:00:00Z",
                Some(3),
                "/static/demo/worlds/toyblocks-0.svg",
            )
        },
        Seed {
            world: Some(130009),
            tags: &["avatar"],
            ..s(
                UserEvent,
                ("どんぐり工房村 手編みアクセサリー交換会", "自作のアクセサリーを持ち寄って見せ合う交換会です。"),
                (
                    "Handmade accessory swap in Acorn Workshop Village",
                    "Bring accessories you've made and show them off to each other.",
                ),
                "2026-12-21T05:00:00Z",
                Some(2),
                "/static/demo/worlds/snowforest-0-village.svg",
            )
        },
        Seed {
            tags: &["photo"],
            ..s(
                UserEvent,
                ("入稿おつかれさま会（前夜祭）", "入稿を終えた出展者同士で、ねぎらい合うゆるい集まりです。"),
                ("Submission wrap-up party", "A relaxed get-together for exhibitors who have finished submitting."),
                "2026-11-21T11:00:00Z",
                Some(2),
                FIRST_VIEW,
            )
        },
        // Hidden: not public yet, and published later.
        Seed {
            official: true,
            public: false,
            ..s(
                Campaign,
                ("【準備中】福袋キャンペーン", "内容は調整中です。"),
                ("[Draft] Lucky bag campaign", "Details are being finalised."),
                "2026-12-20T03:00:00Z",
                Some(24),
                KV,
            )
        },
        Seed {
            official: true,
            publish: Some("2026-12-05T03:00:00Z"),
            by: Some("sora"),
            ..s(
                OfficialStream,
                ("公式配信：シークレットゲスト発表", "開催期間中の特別配信にお招きするゲストを発表します。"),
                (
                    "Official stream: secret guest reveal",
                    "We announce the special guests of the streams during the event.",
                ),
                "2026-12-06T11:00:00Z",
                Some(1),
                KV,
            )
        },
    ]
}

fn at(text: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text).map(|t| t.to_utc()).map_err(|e| Error::Internal(format!("hub seed: {e}")))
}

/// Writes the demo hub unless the event has hub notifications already.
pub async fn seed(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<()> {
    if event::Entity::find_by_id(EVENT_ID).one(db).await?.is_none()
        || hub_notification::Entity::find().filter(hub_notification::Column::EventId.eq(EVENT_ID)).count(db).await? > 0
    {
        return Ok(());
    }
    let mut tags = Vec::new();
    for (i, (key, ja, en)) in TAGS.iter().enumerate() {
        let t = match hub_tag::Entity::find().filter(hub_tag::Column::NameJa.eq(*ja)).one(db).await? {
            Some(t) => t,
            None => {
                hub_tag::ActiveModel {
                    name_ja: Set((*ja).into()),
                    name_en: Set((*en).into()),
                    display_index: Set(i as i32 + 1),
                    ..Default::default()
                }
                .insert(db)
                .await?
            }
        };
        tags.push((*key, t.id));
    }
    let mut users = Vec::new();
    for (key, handle, ja, en) in STREAMERS {
        users.push((key, demo_user(db, handle, ja, en, UserAttribute::CertificatedStreamer, now).await?));
    }
    for (key, handle, ja, en, generation, team, inactive) in AMBASSADORS {
        let u = demo_user(db, handle, ja, en, UserAttribute::None, now).await?;
        if ambassador::Entity::find().filter(ambassador::Column::UserId.eq(u)).one(db).await?.is_none() {
            ambassador::ActiveModel {
                user_id: Set(u),
                generation: Set(generation),
                team_type: Set(team),
                is_inactive: Set(inactive),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
        users.push((key, u));
    }
    let default_publish = at("2026-11-01T03:00:00Z")?;
    for s in seeds() {
        let start = at(s.start)?;
        let publish = match s.publish {
            Some(p) => at(p)?,
            None => default_publish.min(start),
        };
        let user_id = s.by.and_then(|k| users.iter().find(|(key, _)| *key == k)).map(|(_, id)| *id);
        let is_ambassador = s.by.is_some_and(|k| AMBASSADORS.iter().any(|a| a.0 == k));
        for (locale, (title, content)) in [(HubLocale::Jp, s.ja), (HubLocale::Global, s.en)] {
            let n = hub_notification::ActiveModel {
                event_id: Set(EVENT_ID),
                title: Set(title.into()),
                content: Set(content.into()),
                link_url: Set(None),
                thumbnail: Set(Some(s.thumbnail.into())),
                publish_at: Set(publish),
                start_at: Set(start),
                end_at: Set(s.hours.map(|h| start + Duration::hours(h))),
                display_date: Set(None),
                locale: Set(locale),
                category: Set(s.category),
                is_official: Set(s.official),
                by_ambassador: Set(is_ambassador),
                is_certificated_stream: Set(s.category == HubCategory::OfficialStream && user_id.is_some()),
                is_public: Set(s.public),
                is_strong_recommended: Set(s.pinned),
                world_id: Set(s.world),
                user_id: Set(user_id),
                created_at: Set(publish),
                updated_at: Set(publish),
                ..Default::default()
            }
            .insert(db)
            .await?;
            for key in s.tags {
                let tag = tags.iter().find(|(k, _)| k == key).map(|(_, id)| *id);
                let tag = tag.ok_or_else(|| Error::Internal(format!("hub seed: unknown tag {key}")))?;
                hub_notification_tag::ActiveModel {
                    hub_notification_id: Set(n.id),
                    hub_tag_id: Set(tag),
                    ..Default::default()
                }
                .insert(db)
                .await?;
            }
        }
    }
    Ok(())
}

/// The demo user with `handle`, created when missing; returns the id.
async fn demo_user(
    db: &impl ConnectionTrait,
    handle: &str,
    ja: &str,
    en: &str,
    attribute: UserAttribute,
    now: DateTime<Utc>,
) -> Result<i32> {
    let sub = format!("demo-hub-{handle}");
    if let Some(u) = user::Entity::find().filter(user::Column::Sub.eq(&sub)).one(db).await? {
        return Ok(u.id);
    }
    let u = user::ActiveModel {
        sub: Set(sub),
        vmarket_id: Set(handle.into()),
        name_ja: Set(ja.into()),
        name_en: Set(en.into()),
        icon_version: Set(0),
        icon_key: Set(None),
        memo: Set(None),
        score: Set(0),
        role: Set(Role::None),
        attribute: Set(attribute),
        min_token_generation: Set(0),
        email: Set(None),
        lang: Set("ja".into()),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(u.id)
}
