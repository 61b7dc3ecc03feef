//! `housing_scenes`: users' booths made in the booth maker (issue 29, spec §3 "Housing scene").
//! Staff read them and decide where they are shown: the world (`world_id`, `world_code`) whose
//! lookup (`GET /api/v1/booth_maker/housing_scenes/{worldCode}`) serves them, and `published`.
//! The scene itself is its owner's: staff do not edit it here (a booth sent for a slot is
//! inspected in `slot_submissions`).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{blank, permalink};
use crate::admin::api::resource::{Resource, must_exist};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{housing_scene, world};
use crate::error::{Error, Result};

/// The resource.
pub struct HousingScenes;

/// A booth as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct HousingSceneRecord {
    /// Id.
    pub id: i32,
    /// The owner.
    pub user_id: i32,
    /// Name.
    pub name: String,
    /// Introduction.
    pub introduction: String,
    /// The preset home.
    pub preset_home_id: i32,
    /// Items placed in the saved scene.
    pub items: u64,
    /// Polygons of the saved scene.
    pub triangles: u64,
    /// Saves so far.
    pub revision: i32,
    /// The world it is shown in.
    pub world_id: Option<i32>,
    /// The code its world's lookup uses.
    pub world_code: Option<String>,
    /// Served by the lookup.
    pub published: bool,
    /// Last saved.
    pub updated_at: DateTime<Utc>,
}

/// What staff send.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct HousingSceneInput {
    /// The world it is shown in.
    pub world_id: Option<i32>,
    /// Letters, digits, `_` and `-`; up to 64.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 64), custom(function = "permalink"))]
    pub world_code: Option<String>,
    /// Served by the lookup (needs a world code).
    pub published: bool,
}

impl Resource for HousingScenes {
    type Entity = housing_scene::Entity;
    type Record = HousingSceneRecord;
    type Input = HousingSceneInput;

    const NAME: &'static str = "housing_scenes";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["name", "updated_at"],
        filter: &["published", "world_code", "user_id"],
        search: &["name"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<housing_scene::Model>,
    ) -> Result<Vec<HousingSceneRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| {
                let totals = r.saved_totals();
                HousingSceneRecord {
                    id: r.id,
                    user_id: r.user_id,
                    name: r.name,
                    introduction: r.introduction,
                    preset_home_id: r.preset_home_id,
                    items: totals.items,
                    triangles: totals.triangles,
                    revision: r.revision,
                    world_id: r.world_id,
                    world_code: r.world_code,
                    published: r.published,
                    updated_at: r.updated_at,
                }
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: housing_scene::Model,
        input: HousingSceneInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        if let Some(id) = input.world_id {
            must_exist::<world::Entity, _>(txn, id, "world_id").await?;
        }
        if input.published && input.world_code.is_none() {
            return Err(Error::invalid("world_code", "validation.required"));
        }
        let mut active: housing_scene::ActiveModel = row.into();
        active.world_id = Set(input.world_id);
        active.world_code = Set(input.world_code);
        active.published = Set(input.published);
        active.update(txn).await?;
        Ok(())
    }
}
