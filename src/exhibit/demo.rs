//! The demo's work after the win (issue 28 item 8, `vmarket seed demo`, after the demo assets):
//! in 2026Winter the demo exhibitor's paid slot (ともしび工房) lists three catalogue items and
//! has submitted its booth package, which passed inspection; the slot of 夜更かし天文部 — the
//! exhibitor's other circle, as a member — submitted a booth that staff asked to fix. Written
//! through the feature's own functions (not its windows: the demo is seeded on any date).
//! Idempotent: a slot with items or submissions is left alone.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};

use crate::assets::demo::BOOTH_PACKAGES;
use crate::db::entities::event_slot_submission::{InspectionStatus, ToolsType};
use crate::db::entities::user::Role;
use crate::db::entities::{
    asset, asset_version, catalog_item_category, catalog_item_category_group, circle, event, user,
};
use crate::error::Result;
use crate::exhibit::catalog::{self, ItemChange, items_of};
use crate::exhibit::slot::slots_for;
use crate::exhibit::submission::{Finding, Verdict, inspect, of_slots, record};
use crate::model::catalog::CategoryGroupType;
use crate::types::Lang;

/// The event the demo's slots are in.
const EVENT: &str = "2026Winter";

/// The items of ともしび工房's slot: Japanese and English names, free or not.
const ITEMS: [(&str, &str, bool); 3] = [
    ("ともしびランタン", "Tomoshibi lantern", false),
    ("ミニ行灯（卓上）", "Mini paper lamp (desk)", false),
    ("ほたる瓶ストラップ", "Firefly jar strap", true),
];

/// Seeds what is missing; answers what it made.
pub async fn seed(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Vec<String>> {
    let Some(found) = event::Entity::find().filter(event::Column::Permalink.eq(EVENT)).one(db).await? else {
        return Ok(Vec::new());
    };
    let staff =
        user::Entity::find().filter(user::Column::Role.eq(Role::Admin)).order_by_asc(user::Column::Id).one(db).await?;
    let mut made = Vec::new();
    for (index, (owner_handle, package)) in BOOTH_PACKAGES.iter().enumerate() {
        let Some(owner) = user::Entity::find().filter(user::Column::VmarketId.eq(*owner_handle)).one(db).await? else {
            continue;
        };
        let owned: Vec<i32> = circle::Entity::find()
            .filter(circle::Column::OwnerUserId.eq(owner.id))
            .all(db)
            .await?
            .into_iter()
            .map(|c| c.id)
            .collect();
        let slots: Vec<_> = slots_for(db, found.id, owner.id, Lang::Ja)
            .await?
            .into_iter()
            .filter(|s| owned.contains(&s.circle.id))
            .collect();
        let Some(slot) = slots.first() else { continue };
        if index == 0 && items_of(db, &slots, Lang::Ja).await?.is_empty() {
            let category = lamp_category(db).await?;
            for (name_ja, name_en, free) in ITEMS {
                let change = ItemChange {
                    name_ja: name_ja.into(),
                    name_en: name_en.into(),
                    url: Some("https://tomoshibi.example/shop".into()),
                    category_id: category,
                    is_distributable: free,
                    thumbnail: Some("/static/demo/circles/tomoshibi.svg".into()),
                };
                catalog::insert(db, slot, change).await?;
            }
            made.push(format!("{} catalogue items", ITEMS.len()));
        }
        if !of_slots(db, &[slot.id]).await?.is_empty() {
            continue;
        }
        let Some(version) = booth_version(db, owner.id, package).await? else { continue };
        let submitted = record(db, slot.id, &version, ToolsType::VmarketTools, owner.id, now).await?;
        if let Some(staff) = &staff {
            let verdict = if index == 0 {
                Verdict { status: InspectionStatus::Passed, findings: Vec::new() }
            } else {
                Verdict {
                    status: InspectionStatus::NeedsFix,
                    findings: vec![Finding {
                        rule_id: Some("booth_space".into()),
                        reason: "ドームの屋根がブースの枠（4×5×4 m）から上に30 cmはみ出しています。高さを5 m以内に収めてください。"
                            .into(),
                        blocking: true,
                    }],
                }
            };
            inspect(db, submitted.id, verdict, staff.id, now).await?;
        }
        made.push(format!("the submission of {}", slot.circle.name));
    }
    Ok(made)
}

/// The category for the demo's lamps: 小物・3Dモデル when the catalogue has it, else the first
/// category of exhibitors' items.
async fn lamp_category(db: &DatabaseConnection) -> Result<i32> {
    if let Some(c) = catalog_item_category::Entity::find()
        .filter(catalog_item_category::Column::NameJa.eq("小物・3Dモデル"))
        .one(db)
        .await?
    {
        return Ok(c.id);
    }
    let group = catalog_item_category_group::Entity::find()
        .filter(catalog_item_category_group::Column::GroupType.eq(CategoryGroupType::General))
        .order_by_asc(catalog_item_category_group::Column::DisplayIndex)
        .one(db)
        .await?
        .ok_or_else(crate::error::Error::not_found)?;
    Ok(catalog_item_category::Entity::find()
        .filter(catalog_item_category::Column::GroupId.eq(group.id))
        .order_by_asc(catalog_item_category::Column::DisplayIndex)
        .one(db)
        .await?
        .ok_or_else(crate::error::Error::not_found)?
        .id)
}

/// The uploaded version of `owner`'s asset named `name`.
async fn booth_version(db: &DatabaseConnection, owner: i32, name: &str) -> Result<Option<asset_version::Model>> {
    let Some(a) = asset::Entity::find()
        .filter(asset::Column::UserId.eq(owner))
        .filter(asset::Column::Name.eq(name))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    Ok(asset_version::Entity::find()
        .filter(asset_version::Column::AssetId.eq(a.id))
        .filter(asset_version::Column::UploadStatus.eq(asset_version::UploadStatus::Uploaded))
        .order_by_desc(asset_version::Column::Id)
        .one(db)
        .await?)
}
