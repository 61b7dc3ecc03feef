//! The one check of a scene a user sends (draft, save, submit): its structure against its home
//! ([`SceneJson::problems`]), then what it places — each item one of the user's own furniture
//! versions that finished uploading, attached as its asset's sub type. Every problem is named at
//! its field in one 422; nothing is written. What passes comes back with each version's stats,
//! read from its report, for the totals.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter};

use crate::assets::analyse::RuleSet;
use crate::assets::analyse::Stats;
use crate::booth::scene::SceneJson;
use crate::booth::totals::{Breach, ItemStats, RuleView, Totals, breaches, scene_rules, totals};
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::store_item::ProductCategory;
use crate::db::entities::{asset, asset_setting, asset_version, preset_home};
use crate::error::{Error, Invalid, Result};
use crate::store::model::purchase::bought_assets;

/// A placeable version: its asset and stats.
#[derive(Debug, Clone)]
pub struct Placeable {
    /// The version.
    pub version: asset_version::Model,
    /// Its asset.
    pub asset: asset::Model,
    /// What it weighs.
    pub stats: ItemStats,
}

/// The stats of `version` from its report (a version without model stats weighs nothing but
/// its bytes).
pub fn stats_of(version: &asset_version::Model) -> ItemStats {
    let bytes = u64::try_from(version.byte_size).unwrap_or(0);
    let model = version
        .report
        .as_deref()
        .and_then(|r| serde_json::from_str::<serde_json::Value>(r).ok())
        .and_then(|r| serde_json::from_value::<Stats>(r["stats"].clone()).ok());
    match model {
        Some(Stats::Model(m)) => ItemStats::of_model(&m, bytes),
        _ => ItemStats { triangles: 0, materials: 0, texture_memory: 0, bytes, box_min: [0.0; 3], box_max: [0.0; 3] },
    }
}

/// The ids of the asset settings of type `asset_type`.
pub async fn setting_ids(db: &impl ConnectionTrait, asset_type: AssetType) -> Result<Vec<i32>> {
    Ok(asset_setting::Entity::find()
        .filter(asset_setting::Column::AssetType.eq(asset_type))
        .all(db)
        .await?
        .into_iter()
        .map(|s| s.id)
        .collect())
}

/// The furniture versions among `ids` the user may place — of their own assets or of furniture
/// they bought and still hold (not deleted, any status), by version id.
pub async fn furniture_versions(
    db: &impl ConnectionTrait,
    user_id: i32,
    ids: &[i32],
) -> Result<HashMap<i32, (asset_version::Model, asset::Model)>> {
    let furniture = setting_ids(db, AssetType::Furniture).await?;
    let versions =
        asset_version::Entity::find().filter(asset_version::Column::Id.is_in(ids.iter().copied())).all(db).await?;
    let bought = bought_assets(db, user_id, ProductCategory::HousingFurniture).await?;
    let assets: HashMap<i32, asset::Model> = asset::Entity::find()
        .filter(asset::Column::Id.is_in(versions.iter().map(|v| v.asset_id)))
        .filter(Condition::any().add(asset::Column::UserId.eq(user_id)).add(asset::Column::Id.is_in(bought)))
        .filter(asset::Column::Deleted.eq(false))
        .filter(asset::Column::AssetSettingId.is_in(furniture))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    Ok(versions.into_iter().filter_map(|v| assets.get(&v.asset_id).cloned().map(|a| (v.id, (v, a)))).collect())
}

/// Checks `scene` of `user_id` in `home`: the placeable versions it uses, by id, or a 422 naming
/// every problem.
pub async fn check(
    db: &impl ConnectionTrait,
    user_id: i32,
    home: &preset_home::Model,
    scene: &SceneJson,
) -> Result<HashMap<i32, Placeable>> {
    let mut problems = scene.problems(home.id, home.interior());
    if problems.iter().any(|p| p.attribute == "scene.items") {
        return Err(Error::Validation(problems));
    }
    let found = furniture_versions(db, user_id, &scene.version_ids()).await?;
    for (i, item) in scene.items.iter().enumerate() {
        let at = format!("scene.items.{i}.asset_version_id");
        match found.get(&item.asset_version_id) {
            // Someone else's, deleted, not furniture or no such version: the same message, so
            // the answer does not tell which exist.
            None => problems.push(Invalid::new(at, "booth_maker.validation.not_yours")),
            Some((v, _)) if v.upload_status == UploadStatus::Failed => {
                problems.push(Invalid::new(at, "booth_maker.validation.failed"))
            }
            Some((v, _)) if v.upload_status != UploadStatus::Uploaded => {
                problems.push(Invalid::new(at, "booth_maker.validation.not_ready"))
            }
            Some((_, a)) if a.sub_type != Some(item.sub_type) => problems.push(
                Invalid::new(format!("scene.items.{i}.sub_type"), "booth_maker.validation.sub_type")
                    .with("sub_type", a.sub_type.map_or("floor", sub_type_name)),
            ),
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    Ok(found
        .into_iter()
        .map(|(id, (version, asset))| {
            let stats = stats_of(&version);
            (id, Placeable { version, asset, stats })
        })
        .collect())
}

/// A checked scene: what it places, its totals, and the booth's rules it is over.
#[derive(Debug, Clone)]
pub struct Weighed {
    /// The placeable versions it uses, by id.
    pub placed: HashMap<i32, Placeable>,
    /// The totals.
    pub totals: Totals,
    /// The rules over, in order.
    pub breaches: Vec<Breach>,
    /// The booth's setting (`booth_scene`) and its rule set, for a submission's frozen file.
    pub setting: asset_setting::Model,
    /// That rule set.
    pub rules: RuleSet,
}

/// [`check`]s `scene`, sums it and checks the sums against the booth's rules: what every write
/// of a scene (draft, save, submit) answers with.
pub async fn weigh(
    db: &impl ConnectionTrait,
    user_id: i32,
    home: &preset_home::Model,
    scene: &SceneJson,
) -> Result<Weighed> {
    let placed = check(db, user_id, home, scene).await?;
    let stats: HashMap<i32, ItemStats> = placed.iter().map(|(id, p)| (*id, p.stats.clone())).collect();
    let sums = totals(scene, &stats);
    let (setting, rules, views) = booth_rules(db).await?;
    Ok(Weighed { breaches: breaches(&sums, &views), totals: sums, placed, setting, rules })
}

/// The snake_case name of a sub type.
pub fn sub_type_name(sub_type: crate::db::entities::asset::SubType) -> &'static str {
    use crate::db::entities::asset::SubType;
    match sub_type {
        SubType::Floor => "floor",
        SubType::Wall => "wall",
        SubType::Ceiling => "ceiling",
    }
}

/// The booth maker's rule set (the `booth_scene` setting's, which staff edit in the console),
/// with the rules a scene's totals can break.
pub async fn booth_rules(db: &impl ConnectionTrait) -> Result<(asset_setting::Model, RuleSet, Vec<RuleView>)> {
    let setting = asset_setting::Model::by_label(db, crate::assets::model::defaults::BOOTH_SCENE).await?;
    let row = setting.rule_set_row(db).await?;
    let set: RuleSet =
        serde_json::from_str(&row.rules).map_err(|e| Error::Internal(format!("rule set {}: {e}", row.key)))?;
    let views = scene_rules(&set);
    Ok((setting, set, views))
}
