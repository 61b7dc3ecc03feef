//! `preset_homes`: the rooms the booth maker builds booths in (issue 29 item 1, spec §3 "Housing"
//! preset home). Staff add a home (its GLB — a file under `/static/` or an https URL — and its
//! interior in metres), order and publish it; an unpublished home is no longer offered for new
//! booths, while booths made in it keep it. A home booths are made in cannot be deleted (409
//! naming how many).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationError};

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{blank, permalink};
use crate::admin::api::resource::Resource;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{housing_scene, preset_home};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct PresetHomes;

/// A home as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct PresetHomeRecord {
    /// Id.
    pub id: i32,
    /// The platform it is made for.
    pub platform_code: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Position in the editor's list.
    pub order: i32,
    /// The room's GLB.
    pub scene_url: String,
    /// Its picture.
    pub thumbnail_url: Option<String>,
    /// Interior width, metres.
    pub width: f64,
    /// Interior height, metres.
    pub height: f64,
    /// Interior depth, metres.
    pub depth: f64,
    /// Offered for new booths.
    pub published: bool,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a home.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct PresetHomeInput {
    /// The platform, e.g. `vket_cloud`.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 32), custom(function = "permalink"))]
    pub platform_code: Option<String>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 100), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 100), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Position in the list, 0–10,000.
    #[validate(range(min = 0, max = 10_000))]
    pub order: i32,
    /// The room's GLB: `/static/…` or an https URL.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 2048), custom(function = "file_url"))]
    pub scene_url: Option<String>,
    /// Its picture: `/static/…` or an https URL.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 2048), custom(function = "file_url"))]
    pub thumbnail_url: Option<String>,
    /// Interior width, 0.5–50 m.
    #[validate(required, range(min = 0.5, max = 50.0))]
    pub width: Option<f64>,
    /// Interior height, 0.5–50 m.
    #[validate(required, range(min = 0.5, max = 50.0))]
    pub height: Option<f64>,
    /// Interior depth, 0.5–50 m.
    #[validate(required, range(min = 0.5, max = 50.0))]
    pub depth: Option<f64>,
    /// Offered for new booths.
    pub published: bool,
}

/// A file of this site (`/static/…`, no `..`) or an https URL.
fn file_url(value: &str) -> std::result::Result<(), ValidationError> {
    if value.starts_with("/static/") && !value.contains("..") && !value.contains("//") {
        return Ok(());
    }
    if value.starts_with("https://") {
        return checks::http_url(value);
    }
    Err(ValidationError::new("file_url"))
}

impl Resource for PresetHomes {
    type Entity = preset_home::Entity;
    type Record = PresetHomeRecord;
    type Input = PresetHomeInput;

    const NAME: &'static str = "preset_homes";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["order", "name_ja", "updated_at"],
        filter: &["published", "platform_code"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<preset_home::Model>,
    ) -> Result<Vec<PresetHomeRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| PresetHomeRecord {
                id: r.id,
                platform_code: r.platform_code,
                name_ja: r.name_ja,
                name_en: r.name_en,
                order: r.order,
                scene_url: r.scene_url,
                thumbnail_url: r.thumbnail_url,
                width: r.width,
                height: r.height,
                depth: r.depth,
                published: r.published,
                created_at: r.created_at,
                updated_at: r.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: PresetHomeInput, cx: &Cx<'_>) -> Result<i32> {
        let row = preset_home::ActiveModel { created_at: Set(cx.now), ..Default::default() };
        Ok(fill(row, input, cx).insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: preset_home::Model,
        input: PresetHomeInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        fill(row.into(), input, cx).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: preset_home::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new()
            .count(
                txn,
                "housing_scenes",
                housing_scene::Entity::find().filter(housing_scene::Column::PresetHomeId.eq(row.id)),
            )
            .await?
            .refuse("in_use")?;
        preset_home::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

fn fill(mut row: preset_home::ActiveModel, input: PresetHomeInput, cx: &Cx<'_>) -> preset_home::ActiveModel {
    row.platform_code = Set(input.platform_code.unwrap_or_default());
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.order = Set(input.order);
    row.scene_url = Set(input.scene_url.unwrap_or_default());
    row.thumbnail_url = Set(input.thumbnail_url);
    row.width = Set(input.width.unwrap_or(1.0));
    row.height = Set(input.height.unwrap_or(1.0));
    row.depth = Set(input.depth.unwrap_or(1.0));
    row.published = Set(input.published);
    row.updated_at = Set(cx.now);
    row
}
