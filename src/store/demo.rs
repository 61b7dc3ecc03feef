//! The store's demo (`vmarket seed demo`): the demo exhibitor sells their wooden table for free
//! and their demo avatar for 1,500 yen at 20 % off for two weeks from the seed; the owner of their
//! other circle has got the table (a sale in the exhibitor's sales); the exhibitor has a draft box
//! submission of the demo avatar; the avatar maker offers a free short bob and a lantern ribbon
//! for the buyers of its store item (300 yen), which also comes in a set with the avatar.
//! Idempotent: an item of that asset already there is left alone, a set with contents is left
//! alone, and a user with a submission gets no draft.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};

use crate::db::entities::avatar_part::{self, CharacterType, PartType};
use crate::db::entities::store_item::AccessibleStatus;
use crate::db::entities::{asset, store_item, user};
use crate::error::Result;
use crate::forms::box_submission::BoxSubmissionFields;
use crate::forms::store_item::StoreItemFields;
use crate::store::model::purchase::buy;
use crate::store::model::{box_submission, item_set};

/// One demo item: the asset's name, the item's names, description, price and discount.
struct Demo {
    asset: &'static str,
    name: &'static str,
    name_en: &'static str,
    description: &'static str,
    price: i32,
    discount_rate: i32,
}

const DEMOS: [Demo; 3] = [
    Demo {
        asset: "木のテーブル",
        name: "木のテーブル",
        name_en: "Wooden table",
        description: "屋台にちょうどいい、小さな木のテーブルです。ブースメーカーで床に置けます。",
        price: 0,
        discount_rate: 0,
    },
    Demo {
        asset: "こはくちゃん（デモアバター）",
        name: "こはくちゃん",
        name_en: "Kohaku",
        description: "ともしび工房のオリジナルアバター（VRM）。",
        price: 1500,
        discount_rate: 20,
    },
    Demo {
        asset: crate::assets::demo::PART_BUNDLES[1],
        name: "灯りのリボン",
        name_en: "Lantern ribbon",
        description: "アバターメーカーで髪に結べる、灯りの色のリボンです。購入するとメーカーのパーツに加わります。",
        price: 300,
        discount_rate: 0,
    },
];

/// One demo avatar part: its bundle (a demo asset's name), names, type and whether its bundle's
/// store item must be bought.
struct DemoPart {
    bundle: &'static str,
    name: &'static str,
    name_en: &'static str,
    part_type: PartType,
    is_purchase_required: bool,
}

const PARTS: [DemoPart; 2] = [
    DemoPart {
        bundle: crate::assets::demo::PART_BUNDLES[0],
        name: "ショートボブ",
        name_en: "Short bob",
        part_type: PartType::Hair,
        is_purchase_required: false,
    },
    DemoPart {
        bundle: crate::assets::demo::PART_BUNDLES[1],
        name: "灯りのリボン",
        name_en: "Lantern ribbon",
        part_type: PartType::Accessory,
        is_purchase_required: true,
    },
];

/// Writes what is missing; answers what was made.
pub async fn seed(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Vec<String>> {
    let mut made = Vec::new();
    let by_handle = |handle: &'static str| user::Entity::find().filter(user::Column::VmarketId.eq(handle)).one(db);
    let (Some(owner), buyer) =
        (by_handle(crate::assets::demo::OWNER).await?, by_handle(crate::assets::demo::OTHER_OWNER).await?)
    else {
        return Ok(made);
    };
    for demo in &DEMOS {
        let Some(found) = asset::Entity::find()
            .filter(asset::Column::UserId.eq(owner.id))
            .filter(asset::Column::Name.eq(demo.asset))
            .one(db)
            .await?
        else {
            continue;
        };
        let exists =
            store_item::Entity::find().filter(store_item::Column::AssetId.eq(found.id)).one(db).await?.is_some();
        if exists || found.latest_version_id.is_none() {
            continue;
        }
        let discounted = demo.discount_rate > 0;
        let fields = StoreItemFields {
            asset_id: Some(found.id),
            name: demo.name.into(),
            name_en: demo.name_en.into(),
            description: demo.description.into(),
            price: demo.price,
            accessible_status: AccessibleStatus::Published,
            start_at: None,
            end_at: None,
            discount_rate: demo.discount_rate,
            discount_start_at: discounted.then_some(now - Duration::hours(1)),
            discount_end_at: discounted.then_some(now + Duration::days(14)),
            item_order: 0,
        };
        let item = store_item::Model::create(db, owner.id, &fields, now).await?;
        if let (Some(buyer), 0) = (&buyer, demo.price) {
            buy(db, buyer.id, &item.uuid, now).await?;
        }
        made.push(demo.name.to_string());
    }
    // The avatar comes with its ribbon: a set of two (bought together, both are the buyer's).
    let items = store_item::Model::all_of_seller(db, owner.id).await?;
    let named = |name: &str| items.iter().find(|i| i.name == name);
    if let (Some(avatar), Some(ribbon)) = (named(DEMOS[1].name), named(DEMOS[2].name))
        && item_set::contents_of(db, [avatar.id]).await?.is_empty()
    {
        item_set::set_contents(db, avatar, std::slice::from_ref(&ribbon.uuid), now).await?;
        made.push(format!("set {} + {}", DEMOS[1].name, DEMOS[2].name));
    }
    if box_submission::of_user(db, owner.id).await?.is_empty()
        && let Some(avatar) = asset::Entity::find()
            .filter(asset::Column::UserId.eq(owner.id))
            .filter(asset::Column::Name.eq(DEMOS[1].asset))
            .one(db)
            .await?
        && avatar.latest_version_id.is_some()
    {
        let fields = BoxSubmissionFields {
            asset_id: avatar.id,
            pose_id: 3,
            face_id: 1,
            name: DEMOS[1].name.into(),
            author: "ともしび工房".into(),
            website: String::new(),
            comment: "手を振るこはくちゃんを展示したいです。".into(),
        };
        box_submission::create(db, owner.id, &fields, crate::config::settings::DEFAULT_BOX_SUBMISSION_LIMIT, now)
            .await?;
        made.push("box submission draft".to_string());
    }
    for (order, part) in PARTS.iter().enumerate() {
        let Some(bundle) = asset::Entity::find()
            .filter(asset::Column::UserId.eq(owner.id))
            .filter(asset::Column::Name.eq(part.bundle))
            .one(db)
            .await?
        else {
            continue;
        };
        let exists = avatar_part::Entity::find().filter(avatar_part::Column::AssetId.eq(bundle.id)).one(db).await?;
        if exists.is_some() || bundle.latest_version_id.is_none() {
            continue;
        }
        let item = store_item::Entity::find().filter(store_item::Column::AssetId.eq(bundle.id)).one(db).await?;
        avatar_part::ActiveModel {
            uuid: Set(uuid::Uuid::new_v4().to_string()),
            name: Set(part.name.into()),
            name_en: Set(part.name_en.into()),
            character_type: Set(CharacterType::Human),
            part_type: Set(part.part_type),
            asset_id: Set(bundle.id),
            store_item_id: Set(item.map(|i| i.id)),
            is_purchase_required: Set(part.is_purchase_required),
            is_limited: Set(false),
            published: Set(true),
            part_order: Set(order as i32),
            avatar_maker_version: Set(1),
            is_vrc_uploadable: Set(true),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
        made.push(format!("avatar part {}", part.name));
    }
    Ok(made)
}
