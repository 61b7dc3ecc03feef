//! The rule sets and asset settings every installation starts with (ASSETS.md "Asset settings"
//! and "Rule sets", the numbers sourced in [`crate::assets::analyse::defaults`]). Written once —
//! at start-up, by whoever runs the migrations — and then staff's to edit: a rule set or setting
//! already there is left as it is.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::assets::analyse::{Kind, RuleSet, defaults};
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset_rule_set, asset_setting};
use crate::error::Result;

const MIB: i64 = 1024 * 1024;

/// Names of the built-in rule sets.
fn rule_set_names(key: &str) -> (&'static str, &'static str) {
    match key {
        "vket_avatar" => ("アバター（VRM）", "Avatar (VRM)"),
        "vket_accessory_a" => ("アクセサリーA", "Accessory A"),
        "vket_clothing" => ("衣装", "Clothing"),
        "vket_housing_prop" => ("ハウジング小物", "Housing prop"),
        "vket_world_miniature" => ("ワールドミニチュア", "World miniature"),
        "vitdeck_booth" => ("ブース（Unityパッケージ）", "Booth (Unity package)"),
        "booth_maker" => ("ブース（ブースメーカー）", "Booth (booth maker)"),
        "zip_bundle" => ("アーカイブ", "Archive"),
        "scene_asset" => ("シーン素材", "Scene asset"),
        "housing_video" => ("ハウジング動画", "Housing video"),
        _ => ("ルールセット", "Rule set"),
    }
}

/// A built-in setting: label, names, type, accepted kinds, upload ceiling, rule set key.
struct Builtin {
    label: &'static str,
    name_ja: &'static str,
    name_en: &'static str,
    asset_type: AssetType,
    kinds: &'static [Kind],
    max_bytes: i64,
    rule_set: &'static str,
}

/// The upload kinds of ASSETS.md. The ceiling is what an upload may send at all; the rule set's
/// own size limit (e.g. 15 MB for an avatar) is checked in the report, so a file over it fails
/// with the limit named rather than being refused blind.
const BUILTINS: &[Builtin] = &[
    Builtin {
        label: "avatar",
        name_ja: "アバター（VRM）",
        name_en: "Avatar (VRM)",
        asset_type: AssetType::Avatar,
        kinds: &[Kind::Vrm],
        max_bytes: 64 * MIB,
        rule_set: "vket_avatar",
    },
    Builtin {
        label: "furniture",
        name_ja: "家具（GLB）",
        name_en: "Furniture (GLB)",
        asset_type: AssetType::Furniture,
        kinds: &[Kind::Glb],
        max_bytes: 64 * MIB,
        rule_set: "vket_housing_prop",
    },
    Builtin {
        label: "scene_asset",
        name_ja: "シーン素材（GLB・画像・音声）",
        name_en: "Scene asset (GLB, image, sound)",
        asset_type: AssetType::None,
        kinds: &[Kind::Glb, Kind::Png, Kind::Jpeg, Kind::Ogg, Kind::Mp3, Kind::Wav],
        max_bytes: 64 * MIB,
        rule_set: "scene_asset",
    },
    Builtin {
        label: "avatar_part_bundle",
        name_ja: "アバターパーツ（ZIP）",
        name_en: "Avatar parts (ZIP)",
        asset_type: AssetType::Zip,
        kinds: &[Kind::Zip],
        max_bytes: 256 * MIB,
        rule_set: "zip_bundle",
    },
    Builtin {
        label: "booth_package",
        name_ja: "ブースパッケージ（Unity・ZIP）",
        name_en: "Booth package (Unity, ZIP)",
        asset_type: AssetType::Zip,
        kinds: &[Kind::Zip],
        max_bytes: 256 * MIB,
        rule_set: "vitdeck_booth",
    },
    Builtin {
        label: "housing_video",
        name_ja: "ハウジング動画（MP4・WebM）",
        name_en: "Housing video (MP4, WebM)",
        asset_type: AssetType::None,
        kinds: &[Kind::Mp4, Kind::Webm],
        max_bytes: 1024 * MIB,
        rule_set: "housing_video",
    },
    Builtin {
        label: BOOTH_SCENE,
        name_ja: "ブース（ブースメーカー）",
        name_en: "Booth (booth maker)",
        asset_type: AssetType::None,
        kinds: &[],
        max_bytes: MIB,
        rule_set: "booth_maker",
    },
];

/// The setting of booths frozen by the booth maker when submitted (`crate::booth`): made by the
/// server from a scene, never uploaded (it accepts no kind of file, so the upload page does not
/// offer it and the uploader refuses it).
pub const BOOTH_SCENE: &str = "booth_scene";

/// Writes the built-in rule sets and settings that are not there yet.
pub async fn ensure(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<()> {
    for rules in defaults::all() {
        rule_set_id(db, &rules, now).await?;
    }
    for builtin in BUILTINS {
        let exists = asset_setting::Entity::find()
            .filter(asset_setting::Column::Label.eq(builtin.label))
            .one(db)
            .await?
            .is_some();
        if exists {
            continue;
        }
        let rules =
            defaults::all().into_iter().find(|r| r.id == builtin.rule_set).unwrap_or_else(defaults::scene_asset);
        let rule_set_id = rule_set_id(db, &rules, now).await?;
        asset_setting::ActiveModel {
            label: Set(builtin.label.into()),
            name_ja: Set(builtin.name_ja.into()),
            name_en: Set(builtin.name_en.into()),
            asset_type: Set(builtin.asset_type),
            accepted: Set(serde_json::to_string(builtin.kinds).unwrap_or_else(|_| "[]".into())),
            max_bytes: Set(builtin.max_bytes),
            rule_set_id: Set(rule_set_id),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

/// The id of the rule set `rules.id`, inserting it when missing.
async fn rule_set_id(db: &impl ConnectionTrait, rules: &RuleSet, now: DateTime<Utc>) -> Result<i32> {
    if let Some(found) =
        asset_rule_set::Entity::find().filter(asset_rule_set::Column::Key.eq(&rules.id)).one(db).await?
    {
        return Ok(found.id);
    }
    let (name_ja, name_en) = rule_set_names(&rules.id);
    let row = asset_rule_set::ActiveModel {
        key: Set(rules.id.clone()),
        version: Set(i32::try_from(rules.version).unwrap_or(1)),
        name_ja: Set(name_ja.into()),
        name_en: Set(name_en.into()),
        rules: Set(serde_json::to_string(rules).map_err(|e| crate::error::Error::Internal(e.to_string()))?),
        updated_by: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(row.id)
}
