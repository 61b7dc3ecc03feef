//! The demo catalogue, generated deterministically: a pool of circles, the item categories,
//! dozens of exhibitors placed in every event's worlds with hundreds of bilingual items, and the
//! companies of the corporate worlds (`companies.json`). An event that already has exhibitors
//! or companies is left alone, so seeding twice changes nothing.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set};
use serde::Deserialize;

use crate::db::entities::{
    catalog_item, catalog_item_category, catalog_item_category_group, circle, company, company_highlight,
    company_world, concept, event, exhibitor, exhibitor_slot, world, world_area,
};
use crate::error::{Error, Result};
use crate::model::catalog::CategoryGroupType;
use crate::model::kinds::ConceptKind;

/// The companies of the corporate worlds, compiled into the binary.
const COMPANIES: &str = include_str!("companies.json");

/// `(key, ja, en)` of the general categories, in display order (ids 1–10).
const GENERAL: [(&str, &str, &str); 10] = [
    ("avatar", "アバター", "Avatars"),
    ("outfit", "衣装", "Outfits"),
    ("accessory", "アクセサリー", "Accessories"),
    ("hair", "ヘアスタイル", "Hairstyles"),
    ("props", "小物・3Dモデル", "Props & 3D Models"),
    ("furniture", "家具・ワールド素材", "Furniture & World Assets"),
    ("texture", "テクスチャ・マテリアル", "Textures & Materials"),
    ("gimmick", "ギミック・アニメーション", "Gimmicks & Animations"),
    ("sound", "音楽・サウンド", "Music & Sound"),
    ("goods", "イラスト・グッズ", "Art & Goods"),
];

/// `(key, ja, en)` of the company categories, in display order (ids 11–14).
const COMPANY: [(&str, &str, &str); 4] = [
    ("collab", "コラボアイテム", "Collaboration Items"),
    ("digital", "デジタルグッズ", "Digital Goods"),
    ("experience", "体験・イベント", "Experiences & Events"),
    ("physical", "実物商品", "Physical Products"),
];

type Pair = (&'static str, &'static str);

/// One general category's vocabulary.
struct Line {
    products: &'static [Pair],
    variants: &'static [Pair],
    descriptions: &'static [Pair],
    circle_intro: Pair,
    /// Price range in yen (lowest, steps of 100 above it).
    price: (i32, i32),
}

/// The vocabulary of each general category, in the order of [`GENERAL`].
const LINES: [Line; 10] = [
    Line {
        products: &[
            ("オリジナル3Dアバター「ミルフィ」", "Original 3D Avatar \"Millefie\""),
            ("狐耳アバター「こはく」", "Fox-Eared Avatar \"Kohaku\""),
            ("ロボット少女アバター「ネジコ」", "Robot Girl Avatar \"Nejiko\""),
            ("小柄なドラゴン娘アバター", "Petite Dragon Girl Avatar"),
            ("ちびキャラアバター「ぽてと」", "Chibi Avatar \"Potato\""),
            ("竜人アバター「ガルム」", "Dragonkin Avatar \"Garm\""),
            ("うさ耳アバター「みるく」", "Bunny-Eared Avatar \"Milk\""),
            ("執事アバター「セバス」", "Butler Avatar \"Sebas\""),
        ],
        variants: &[("Quest対応版", "Quest-Ready"), ("PC版", "PC Edition")],
        descriptions: &[
            (
                "PhysBone設定済みで、アップロードしてすぐに動かせます。Quest向けの軽量版も同梱しています。",
                "PhysBones are set up, so it moves the moment you upload it. A lightweight Quest version is included.",
            ),
            (
                "表情は30種類以上。シェイプキーで体型や顔立ちを細かく調整できます。",
                "Over 30 facial expressions, with shape keys to fine-tune body and face.",
            ),
            ("商用利用可。改変や配信での利用も歓迎です。", "Commercial use allowed; edits and streaming are welcome."),
        ],
        circle_intro: (
            "オリジナルアバターを中心に制作しているサークルです。",
            "We are a circle making original avatars.",
        ),
        price: (3000, 30),
    },
    Line {
        products: &[
            ("和風浴衣セット", "Japanese Yukata Set"),
            ("ゴシックドレス", "Gothic Dress"),
            ("セーラー服", "Sailor School Uniform"),
            ("もこもこパーカー", "Fluffy Hoodie"),
            ("チャイナドレス", "Qipao Dress"),
            ("魔法使いのローブ", "Wizard's Robe"),
            ("サイバーパンクジャケット", "Cyberpunk Jacket"),
            ("メイド服", "Maid Outfit"),
            ("冬のダッフルコート", "Winter Duffle Coat"),
            ("巫女装束", "Shrine Maiden Outfit"),
        ],
        variants: &[("桜色", "Sakura Pink"), ("黒", "Black"), ("白", "White"), ("紺", "Navy"), ("ミント", "Mint")],
        descriptions: &[
            (
                "人気アバター10体に対応。Modular Avatarで簡単に着せ替えできます。",
                "Fits ten popular avatars and dresses up in seconds with Modular Avatar.",
            ),
            (
                "揺れもの設定済み。裾や袖がふわりと動きます。",
                "Secondary motion is set up, so hems and sleeves sway naturally.",
            ),
            (
                "カラーバリエーション3色入り。テクスチャのPSDも同梱しています。",
                "Comes in three colours, with layered PSD textures included.",
            ),
        ],
        circle_intro: (
            "アバター向けの衣装を、季節ごとに新作で届けています。",
            "We make avatar outfits, with new designs every season.",
        ),
        price: (1500, 20),
    },
    Line {
        products: &[
            ("猫耳カチューシャ", "Cat-Ear Headband"),
            ("アバター用ネイルチップ", "Avatar Nail Tips"),
            ("天使の輪と羽根セット", "Halo and Wings Set"),
            ("丸眼鏡", "Round Glasses"),
            ("星のイヤリング", "Star Earrings"),
            ("リボンチョーカー", "Ribbon Choker"),
            ("狐のお面", "Fox Mask"),
            ("花かんむり", "Flower Crown"),
            ("ふわふわ尻尾", "Fluffy Tail"),
            ("懐中時計", "Pocket Watch"),
        ],
        variants: &[("パステル", "Pastel"), ("ゴールド", "Gold"), ("シルバー", "Silver"), ("黒", "Black")],
        descriptions: &[
            ("どのアバターにも付けられる汎用ボーン対応です。", "Works on any avatar with a generic bone setup."),
            ("軽量設計で、ポリゴン数は1,000未満です。", "Lightweight: under 1,000 polygons."),
            (
                "色違いを5種類同梱。日常使いにも撮影にもどうぞ。",
                "Five colour variations included, for everyday wear or photo shoots.",
            ),
        ],
        circle_intro: (
            "耳やしっぽ、小物まで、アバターを彩るアクセサリーを作っています。",
            "Ears, tails and trinkets: we make accessories that bring avatars to life.",
        ),
        price: (300, 10),
    },
    Line {
        products: &[
            ("ゆるふわロングヘア", "Soft Wavy Long Hair"),
            ("ツインテール", "Twin Tails"),
            ("ショートボブ", "Short Bob"),
            ("ポニーテール", "Ponytail"),
            ("三つ編みおさげ", "Braided Pigtails"),
            ("ウルフカット", "Wolf Cut"),
            ("姫カット", "Hime Cut"),
        ],
        variants: &[("金髪", "Blonde"), ("銀髪", "Silver"), ("黒髪", "Black"), ("グラデーション", "Gradient")],
        descriptions: &[
            (
                "ヘアボーンに揺れもの設定済み。前髪の長さを調整できます。",
                "Hair bones come with sway physics set up, and the fringe length is adjustable.",
            ),
            (
                "人気アバターの頭部に合わせた調整版を同梱しています。",
                "Includes versions fitted to the heads of popular avatars.",
            ),
            ("グラデーション用のマスクテクスチャ付きです。", "Comes with a mask texture for gradient colouring."),
        ],
        circle_intro: (
            "揺れ方にこだわったヘアモデルを作っています。",
            "We make hair models obsessed with how they sway.",
        ),
        price: (800, 15),
    },
    Line {
        products: &[
            ("ファンタジー剣 3Dモデル", "Fantasy Sword 3D Model"),
            ("魔法の杖", "Magic Staff"),
            ("レトロカメラ", "Retro Camera"),
            ("和傘", "Japanese Paper Umbrella"),
            ("宝石箱", "Jewellery Box"),
            ("ランタン", "Lantern"),
            ("古書と羽ペン", "Old Books and Quill"),
            ("スチームパンク銃", "Steampunk Pistol"),
            ("ティーセット", "Tea Set"),
        ],
        variants: &[("ローポリ版", "Low-Poly"), ("アンティーク", "Antique"), ("金", "Gold")],
        descriptions: &[
            ("手に持てるようにコンストレイント設定済みです。", "Constraints are set up so you can hold it in hand."),
            ("ワールドにそのまま置ける軽量モデルです。", "A lightweight model you can drop straight into your world."),
            (
                "ローポリながら手描きテクスチャで雰囲気たっぷり。",
                "Low-poly, but hand-painted textures give it plenty of charm.",
            ),
        ],
        circle_intro: ("手に持てる小物や3Dモデルを作っています。", "We make props and 3D models you can hold."),
        price: (300, 15),
    },
    Line {
        products: &[
            ("ローポリ家具パック", "Low-Poly Furniture Pack"),
            ("和室セット", "Japanese Tatami Room Set"),
            ("カフェ家具セット", "Café Furniture Set"),
            ("本棚と読書スペース", "Bookshelf Reading Nook"),
            ("観葉植物パック", "Houseplant Pack"),
            ("こたつ", "Kotatsu Table"),
            ("天蓋付きベッド", "Canopy Bed"),
            ("ネオン看板セット", "Neon Sign Set"),
            ("縁日の屋台セット", "Festival Stall Set"),
        ],
        variants: &[("木目", "Wood Grain"), ("北欧風", "Nordic"), ("和モダン", "Japanese Modern"), ("夜仕様", "Night")],
        descriptions: &[
            (
                "UdonSharp製のギミック付き。座ったり開け閉めしたりできます。",
                "Includes UdonSharp gimmicks: sit on it, open and close it.",
            ),
            (
                "ライトマップUV設定済み。ワールド制作にすぐ使えます。",
                "Lightmap UVs are ready, so you can use it in a world right away.",
            ),
            ("Quest向けワールドでも使える軽量版を同梱しています。", "Includes a lightweight version for Quest worlds."),
        ],
        circle_intro: (
            "ワールド制作に使える家具や建物素材を作っています。",
            "We make furniture and building assets for world creators.",
        ),
        price: (500, 25),
    },
    Line {
        products: &[
            ("瞳テクスチャ集", "Eye Texture Collection"),
            ("肌テクスチャ", "Skin Textures"),
            ("布マテリアルパック", "Fabric Material Pack"),
            ("水面シェーダー", "Water Surface Shader"),
            ("星空スカイボックス", "Starry Skybox"),
            ("和柄テクスチャ", "Japanese Pattern Textures"),
            ("トゥーン調マテリアル", "Toon Material Set"),
        ],
        variants: &[("4K", "4K"), ("夕焼け", "Sunset"), ("冬", "Winter")],
        descriptions: &[
            ("lilToon・Poiyomi両対応のマテリアル設定済みです。", "Material presets for both lilToon and Poiyomi."),
            ("2048pxと4096pxの2サイズを同梱しています。", "Comes in both 2048 px and 4096 px."),
            ("シームレスに並べられるタイル仕様です。", "Seamless tiles you can repeat endlessly."),
        ],
        circle_intro: (
            "テクスチャとシェーダーで、アバターとワールドの質感を磨いています。",
            "We polish the look of avatars and worlds with textures and shaders.",
        ),
        price: (300, 10),
    },
    Line {
        products: &[
            ("ダンスモーション集", "Dance Motion Pack"),
            ("表情アニメーション", "Facial Expression Animations"),
            ("ペンライトギミック", "Glow Stick Gimmick"),
            ("着せ替えギミック", "Outfit Toggle Gimmick"),
            ("座りポーズ集", "Sitting Pose Collection"),
            ("紙吹雪パーティクル", "Confetti Particles"),
            ("写真撮影ポーズ集", "Photo Pose Collection"),
        ],
        variants: &[("Vol.2", "Vol. 2"), ("Vol.3", "Vol. 3")],
        descriptions: &[
            (
                "Avatars 3.0のメニューからワンタッチで切り替えられます。",
                "Switch it on with one tap from the Avatars 3.0 menu.",
            ),
            (
                "Modular Avatar対応。ドラッグ&ドロップで導入できます。",
                "Modular Avatar ready: install by drag and drop.",
            ),
            ("写真撮影にぴったりのポーズを収録しています。", "Poses made for photo shoots."),
        ],
        circle_intro: (
            "アバターに仕込めるギミックやモーションを作っています。",
            "We make gimmicks and motions to build into avatars.",
        ),
        price: (500, 15),
    },
    Line {
        products: &[
            ("ワールドBGM集", "World BGM Collection"),
            ("環境音パック「雨の商店街」", "Ambience Pack \"Rainy Shopping Street\""),
            ("ローファイ作業用BGM", "Lo-Fi Work BGM"),
            ("効果音セット", "Sound Effect Set"),
            ("オルゴールアレンジ集", "Music Box Arrangements"),
            ("ボイスパック", "Voice Pack"),
        ],
        variants: &[("夏", "Summer"), ("冬", "Winter"), ("Vol.2", "Vol. 2")],
        descriptions: &[
            ("ワールドBGMとして、配信や動画でも使えます。", "Free to use as world BGM and in streams or videos."),
            ("ループ再生に対応したWAVとOGGを同梱しています。", "Loop-ready WAV and OGG files included."),
            ("雨音や人のざわめきを収録した環境音です。", "Field recordings of rain and the murmur of crowds."),
        ],
        circle_intro: ("ワールドBGMや環境音を作曲・収録しています。", "We compose world BGM and record ambient sound."),
        price: (500, 15),
    },
    Line {
        products: &[
            ("イラスト集", "Illustration Book"),
            ("アクリルスタンド", "Acrylic Stand"),
            ("缶バッジセット", "Pin Badge Set"),
            ("壁紙セット", "Wallpaper Set"),
            ("ステッカーパック", "Sticker Pack"),
            ("ポストカードセット", "Postcard Set"),
        ],
        variants: &[("夏", "Summer"), ("冬", "Winter"), ("会場限定", "Event Limited")],
        descriptions: &[
            ("会場限定の描き下ろしイラストを収録しています。", "Features brand-new illustrations drawn for the event."),
            ("デジタル版はPDFとPNGでお届けします。", "The digital edition comes as PDF and PNG."),
            ("実物グッズは会期後に順次発送します。", "Physical goods ship after the event closes."),
        ],
        circle_intro: (
            "VRの思い出をイラストやグッズにしています。",
            "We turn memories of VR into illustrations and goods.",
        ),
        price: (300, 15),
    },
];

/// First halves of circle names.
const CIRCLE_PREFIXES: [Pair; 20] = [
    ("猫まんま", "Nekomanma"),
    ("星屑", "Stardust"),
    ("月灯り", "Moonlit"),
    ("雪うさぎ", "Snow Bunny"),
    ("夜更かし", "Night Owl"),
    ("琥珀糖", "Amber Candy"),
    ("綿雲", "Cotton Cloud"),
    ("藍色", "Indigo"),
    ("硝子細工", "Glasswork"),
    ("金木犀", "Osmanthus"),
    ("桜餅", "Sakuramochi"),
    ("ペンギン", "Penguin"),
    ("歯車仕掛け", "Clockwork"),
    ("深海", "Deep Sea"),
    ("電脳", "Cyberspace"),
    ("紙ひこうき", "Paper Plane"),
    ("黒猫", "Black Cat"),
    ("蜂蜜", "Honey"),
    ("狐火", "Foxfire"),
    ("夕凪", "Evening Calm"),
];

/// Second halves of circle names.
const CIRCLE_SUFFIXES: [Pair; 6] = [
    ("工房", "Workshop"),
    ("アトリエ", "Atelier"),
    ("製作所", "Works"),
    ("商店", "Store"),
    ("研究所", "Lab"),
    ("舎", "House"),
];

/// Second sentences of circle descriptions.
const CIRCLE_NOTES: [Pair; 4] = [
    ("会場でしか手に入らない限定アイテムもご用意しています。", "Some items are only available at the venue."),
    ("ブースでは試着・試遊ができます。お気軽にお立ち寄りください。", "Try things on at our booth — drop by any time."),
    ("二人で活動している小さなサークルです。", "We are a small circle of two."),
    ("初参加です。よろしくお願いします！", "It's our first time exhibiting — nice to meet you!"),
];

/// Concept logos reused as circle thumbnails.
const CIRCLE_THUMBNAILS: [&str; 8] = [
    "/static/demo/concepts/c101-logo.svg",
    "/static/demo/concepts/c102-logo.svg",
    "/static/demo/concepts/c103-logo.svg",
    "/static/demo/concepts/c1101-logo.svg",
    "/static/demo/concepts/c1102-logo.svg",
    "/static/demo/concepts/c1201-logo.svg",
    "/static/demo/concepts/c1301-logo.svg",
    "/static/demo/concepts/c1304-logo.svg",
];

/// How many circles the pool holds (ids 1..=CIRCLES).
pub const CIRCLES: usize = CIRCLE_PREFIXES.len() * CIRCLE_SUFFIXES.len();

#[derive(Deserialize)]
struct CompaniesSeed {
    companies: Vec<CompanySeed>,
}

#[derive(Deserialize)]
struct CompanySeed {
    world_id: i32,
    brand: String,
    name_ja: String,
    name_en: String,
    description_ja: String,
    description_en: String,
    site_name_ja: String,
    site_name_en: String,
    items: Vec<CompanyItemSeed>,
}

#[derive(Deserialize)]
struct CompanyItemSeed {
    category: String,
    name_ja: String,
    name_en: String,
    description_ja: String,
    description_en: String,
    distributable: bool,
    price: Option<i32>,
}

/// A small deterministic mix of two numbers.
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 29;
    x = x.wrapping_mul(0x1656_67B1_9E37_79F9);
    x ^ (x >> 32)
}

/// Picks from `list` by `n`.
fn pick<T: Copy>(list: &[T], n: u64) -> T {
    list[(n % list.len() as u64) as usize]
}

/// The name and specialty of circle `i` (0-based).
pub fn circle_name(i: usize) -> (String, String) {
    let (p, q) = (i % CIRCLE_PREFIXES.len(), i / CIRCLE_PREFIXES.len());
    let (pj, pe) = CIRCLE_PREFIXES[p];
    let (sj, se) = CIRCLE_SUFFIXES[(p + q) % CIRCLE_SUFFIXES.len()];
    (format!("{pj}{sj}"), format!("{pe} {se}"))
}

/// The `(name_ja, name_en)` of product `n` of category line `line`, sometimes with a variant.
pub fn item_name(line: usize, n: u64) -> (String, String) {
    let l = &LINES[line];
    let (bj, be) = pick(l.products, n);
    let round = n / l.products.len() as u64;
    if round == 0 {
        return (bj.to_string(), be.to_string());
    }
    let (vj, ve) = pick(l.variants, round - 1 + n);
    (format!("{bj}（{vj}）"), format!("{be} ({ve})"))
}

fn slug(en: &str) -> String {
    en.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// Writes the catalogue of every event that has none yet.
pub async fn seed(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<()> {
    ensure_categories(db).await?;
    ensure_circles(db, now).await?;
    let seeds: CompaniesSeed =
        serde_json::from_str(COMPANIES).map_err(|e| Error::Internal(format!("companies.json: {e}")))?;
    for ev in event::Entity::find().order_by_asc(event::Column::Version).all(db).await? {
        let has_exhibitors =
            exhibitor::Entity::find().filter(exhibitor::Column::EventId.eq(ev.id)).count(db).await? > 0;
        let has_companies = company::Entity::find().filter(company::Column::EventId.eq(ev.id)).count(db).await? > 0;
        if has_exhibitors || has_companies {
            continue;
        }
        seed_event(db, &ev, &seeds).await?;
    }
    Ok(())
}

async fn ensure_categories(db: &impl ConnectionTrait) -> Result<()> {
    if catalog_item_category_group::Entity::find().count(db).await? > 0 {
        return Ok(());
    }
    let groups = [
        (1, CategoryGroupType::General, "一般出展アイテム", "Exhibitor Items"),
        (2, CategoryGroupType::Company, "企業出展アイテム", "Company Items"),
    ];
    catalog_item_category_group::Entity::insert_many(groups.iter().map(|(id, t, ja, en)| {
        catalog_item_category_group::ActiveModel {
            id: Set(*id),
            group_type: Set(*t),
            display_index: Set(*id),
            name_ja: Set(ja.to_string()),
            name_en: Set(en.to_string()),
        }
    }))
    .exec(db)
    .await?;
    let rows = GENERAL.iter().map(|c| (1, c)).chain(COMPANY.iter().map(|c| (2, c))).enumerate().map(
        |(i, (group, (_, ja, en)))| catalog_item_category::ActiveModel {
            id: Set(i as i32 + 1),
            group_id: Set(group),
            name_ja: Set(ja.to_string()),
            name_en: Set(en.to_string()),
            display_index: Set(i as i32 + 1),
        },
    );
    catalog_item_category::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

async fn ensure_circles(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<()> {
    if circle::Entity::find().count(db).await? > 0 {
        return Ok(());
    }
    let rows = (0..CIRCLES).map(|i| {
        let (name_ja, name_en) = circle_name(i);
        let line = &LINES[i % LINES.len()];
        let (nj, ne) = CIRCLE_NOTES[(i / LINES.len()) % CIRCLE_NOTES.len()];
        circle::ActiveModel {
            id: Set(i as i32 + 1),
            website_link: Set(Some(format!("https://{}.example.com/", slug(&name_en)))),
            name_ja: Set(name_ja),
            name_en: Set(name_en),
            description_ja: Set(format!("{}{nj}", line.circle_intro.0)),
            description_en: Set(format!("{} {ne}", line.circle_intro.1)),
            thumbnail: Set(Some(CIRCLE_THUMBNAILS[i % CIRCLE_THUMBNAILS.len()].to_string())),
            // One circle of the pool is suspended by staff, to show that it disappears.
            is_suspended: Set(i == CIRCLES - 1),
            owner_user_id: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
    });
    circle::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

/// The exhibitors, slots, companies and items of one event.
async fn seed_event(db: &impl ConnectionTrait, ev: &event::Model, seeds: &CompaniesSeed) -> Result<()> {
    let kinds: HashMap<i32, ConceptKind> = concept::Entity::find()
        .filter(concept::Column::EventId.eq(ev.id))
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c.kind))
        .collect();
    let worlds = world::Entity::find()
        .filter(world::Column::EventId.eq(ev.id))
        .order_by_asc(world::Column::DisplayOrder)
        .order_by_asc(world::Column::Id)
        .all(db)
        .await?;
    let circles = circle::Entity::find().order_by_asc(circle::Column::Id).all(db).await?;
    if circles.is_empty() {
        return Ok(());
    }
    let mut next_circle = (ev.id as usize * 17) % circles.len();
    let (mut exhibitor_index, mut item_index) = (0, 0);
    for w in &worlds {
        let kind = kinds.get(&w.concept_id).copied().unwrap_or(ConceptKind::General);
        if kind == ConceptKind::Company {
            if let Some(s) = seeds.companies.iter().find(|s| s.world_id == w.id) {
                seed_company(db, ev.id, w, s, &mut item_index).await?;
            }
            continue;
        }
        let areas = world_area::Entity::find()
            .filter(world_area::Column::WorldId.eq(w.id))
            .order_by_asc(world_area::Column::Number)
            .all(db)
            .await?;
        let mut booth_numbers: HashMap<i32, i32> = HashMap::new();
        let count = 4 + mix(w.id as u64, 1) % 4;
        for n in 0..count {
            let c = &circles[next_circle % circles.len()];
            next_circle += 1;
            exhibitor_index += 1;
            let ex = exhibitor::Entity::insert(exhibitor::ActiveModel {
                event_id: Set(ev.id),
                circle_id: Set(Some(c.id)),
                company_id: Set(None),
                kind: Set(kind),
                world_id: Set(Some(w.id)),
                name_ja: Set(c.name_ja.clone()),
                name_en: Set(c.name_en.clone()),
                display_index: Set(exhibitor_index),
                ..Default::default()
            })
            .exec(db)
            .await?
            .last_insert_id;
            if !areas.is_empty() {
                let area = &areas[(n as usize) % areas.len()];
                let number = booth_numbers.entry(area.id).or_insert(0);
                *number += 1;
                exhibitor_slot::Entity::insert(exhibitor_slot::ActiveModel {
                    exhibitor_id: Set(ex),
                    world_area_id: Set(Some(area.id)),
                    number: Set(*number),
                    ..Default::default()
                })
                .exec(db)
                .await?;
            }
            let items = circle_items(ev.id, w, c, ex, &mut item_index);
            catalog_item::Entity::insert_many(items).exec(db).await?;
        }
    }
    Ok(())
}

/// The items one circle shows in world `w`: mostly its specialty, one from a neighbour line.
fn circle_items(
    event_id: i32,
    w: &world::Model,
    c: &circle::Model,
    exhibitor_id: i32,
    item_index: &mut i32,
) -> Vec<catalog_item::ActiveModel> {
    let seed = mix(c.id as u64, event_id as u64);
    let specialty = (c.id as usize - 1) % LINES.len();
    let count = 3 + seed % 6;
    (0..count)
        .map(|k| {
            let line = if k + 1 == count && count > 3 { (specialty + 1) % LINES.len() } else { specialty };
            let l = &LINES[line];
            let n = mix(seed, k) % (l.products.len() as u64 * 3);
            // Every circle leads with its line's first products now and then, so the classics
            // (猫耳カチューシャ, 和風浴衣セット …) appear at every event.
            let n = if k == 0 && seed.is_multiple_of(3) {
                (c.id as u64 / LINES.len() as u64) % l.products.len() as u64
            } else {
                n
            };
            let (name_ja, name_en) = item_name(line, n);
            let (dj, de) = pick(l.descriptions, seed + k);
            let distributable = mix(seed, k + 100).is_multiple_of(4);
            *item_index += 1;
            catalog_item::ActiveModel {
                event_id: Set(event_id),
                exhibitor_id: Set(Some(exhibitor_id)),
                company_id: Set(None),
                category_id: Set(line as i32 + 1),
                name_ja: Set(name_ja),
                name_en: Set(name_en),
                description_ja: Set(dj.to_string()),
                description_en: Set(de.to_string()),
                thumbnail: Set(w.image.clone()),
                url: Set(c.website_link.as_ref().map(|site| format!("{site}items/{}", *item_index))),
                is_distributable: Set(distributable),
                price: Set((!distributable).then(|| l.price.0 + 100 * (mix(seed, k + 200) % l.price.1 as u64) as i32)),
                display_index: Set(*item_index),
                ..Default::default()
            }
        })
        .collect()
}

async fn seed_company(
    db: &impl ConnectionTrait,
    event_id: i32,
    w: &world::Model,
    s: &CompanySeed,
    item_index: &mut i32,
) -> Result<()> {
    let brand = format!("/static/demo/brands/{}.svg", s.brand);
    let site = format!("https://{}.example.com/", slug(&s.name_en));
    let display_index =
        company::Entity::find().filter(company::Column::EventId.eq(event_id)).count(db).await? as i32 + 1;
    let id = company::Entity::insert(company::ActiveModel {
        event_id: Set(event_id),
        display_index: Set(display_index),
        name_ja: Set(s.name_ja.clone()),
        name_en: Set(s.name_en.clone()),
        description_ja: Set(s.description_ja.clone()),
        description_en: Set(s.description_en.clone()),
        thumbnail: Set(Some(brand.clone())),
        website_link: Set(Some(site.clone())),
        site_name_ja: Set(s.site_name_ja.clone()),
        site_name_en: Set(s.site_name_en.clone()),
        vmarket_cloud_url: Set(Some(format!("https://cloud.vmarket.example/booths/{}", s.brand))),
        is_public: Set(true),
        ..Default::default()
    })
    .exec(db)
    .await?
    .last_insert_id;
    company_world::Entity::insert(company_world::ActiveModel {
        company_id: Set(id),
        world_id: Set(w.id),
        ..Default::default()
    })
    .exec(db)
    .await?;
    let highlights = [w.image.clone(), Some(brand)].into_iter().flatten().enumerate().map(|(i, image)| {
        company_highlight::ActiveModel {
            company_id: Set(id),
            image: Set(image),
            display_index: Set(i as i32 + 1),
            ..Default::default()
        }
    });
    company_highlight::Entity::insert_many(highlights).exec(db).await?;
    let mut rows = Vec::new();
    for item in &s.items {
        let category = COMPANY
            .iter()
            .position(|(key, _, _)| *key == item.category)
            .ok_or_else(|| Error::Internal(format!("companies.json: unknown category {}", item.category)))?;
        *item_index += 1;
        rows.push(catalog_item::ActiveModel {
            event_id: Set(event_id),
            exhibitor_id: Set(None),
            company_id: Set(Some(id)),
            category_id: Set((GENERAL.len() + category) as i32 + 1),
            name_ja: Set(item.name_ja.clone()),
            name_en: Set(item.name_en.clone()),
            description_ja: Set(item.description_ja.clone()),
            description_en: Set(item.description_en.clone()),
            thumbnail: Set(w.image.clone()),
            url: Set(Some(site.clone())),
            is_distributable: Set(item.distributable),
            price: Set(item.price),
            display_index: Set(*item_index),
            ..Default::default()
        });
    }
    catalog_item::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_name_fits_the_limits() {
        for (line, l) in LINES.iter().enumerate() {
            for n in 0..(l.products.len() as u64 * 3) {
                let (ja, en) = item_name(line, n);
                assert!(ja.chars().count() <= 32, "{ja} is longer than 32");
                assert!(en.chars().count() <= 64, "{en} is longer than 64");
            }
        }
        let names: std::collections::HashSet<_> = (0..CIRCLES).map(circle_name).collect();
        assert_eq!(names.len(), CIRCLES, "circle names are unique");
        assert!(names.iter().all(|(ja, en)| ja.chars().count() <= 64 && en.len() <= 128));
    }

    #[test]
    fn variants_read_naturally() {
        assert_eq!(item_name(2, 0), ("猫耳カチューシャ".to_string(), "Cat-Ear Headband".to_string()));
        let (ja, en) = item_name(2, 10);
        assert!(ja.starts_with("猫耳カチューシャ（") && en.starts_with("Cat-Ear Headband ("), "{ja} / {en}");
    }
}
