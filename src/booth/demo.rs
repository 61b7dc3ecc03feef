//! The booth maker's demo (`vmarket seed demo`): the preset homes of the repository and, for the
//! demo exhibitor, a booth in the wooden stall with their table on the floor. Idempotent.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};

use crate::booth::model::home::ensure_demo_homes;
use crate::booth::model::housing::{NewScene, json};
use crate::booth::scene::{SceneItem, SceneJson};
use crate::db::entities::asset::SubType;
use crate::db::entities::{asset, housing_scene, preset_home, user};
use crate::error::Result;

/// The demo booth's name.
pub const SCENE_NAME: &str = "ともしび工房の屋台";

/// Writes what is missing; answers what was made.
pub async fn seed(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Vec<String>> {
    let mut made = Vec::new();
    if ensure_demo_homes(db, now).await? > 0 {
        made.push("preset homes".to_string());
    }
    let Some(owner) =
        user::Entity::find().filter(user::Column::VmarketId.eq(crate::assets::demo::OWNER)).one(db).await?
    else {
        return Ok(made);
    };
    let exists = housing_scene::Entity::find()
        .filter(housing_scene::Column::UserId.eq(owner.id))
        .filter(housing_scene::Column::Name.eq(SCENE_NAME))
        .one(db)
        .await?
        .is_some();
    let home = preset_home::Entity::find().filter(preset_home::Column::NameEn.eq("Wooden stall")).one(db).await?;
    let table = asset::Entity::find()
        .filter(asset::Column::UserId.eq(owner.id))
        .filter(asset::Column::Name.eq("木のテーブル"))
        .one(db)
        .await?;
    let (Some(home), Some(table), false) = (home, table, exists) else { return Ok(made) };
    let input = NewScene {
        name: SCENE_NAME.into(),
        introduction: "灯りの屋台。テーブルに新作を並べます。".into(),
        preset_home_id: Some(home.id),
    };
    let scene = housing_scene::Model::create(db, owner.id, &home, &input, now).await?;
    let Some(version_id) = table.latest_version_id else { return Ok(made) };
    let placed = SceneJson {
        items: vec![SceneItem {
            asset_version_id: version_id,
            sub_type: SubType::Floor,
            position: [0.0, 0.0, -1.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0, 1.0, 1.0],
        }],
        ..SceneJson::empty(home.id)
    };
    let sums = crate::booth::model::check::weigh(db, owner.id, &home, &placed).await?.totals;
    let mut row: housing_scene::ActiveModel = scene.into();
    row.scene_json = Set(json(&placed)?);
    row.totals = Set(json(&sums)?);
    row.revision = Set(1);
    row.update(db).await?;
    made.push(SCENE_NAME.to_string());
    Ok(made)
}
