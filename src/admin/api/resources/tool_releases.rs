//! `tool_releases`: the desktop submission tool's releases (issue 28 item 4). `GET
//! /api/get/version` answers the newest published one; staff publish a new release by creating
//! it, and take one back by unpublishing it (the one before answers again).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::tool_release;
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct ToolReleases;

/// A release as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ToolReleaseRecord {
    /// Id.
    pub id: i32,
    /// The tool's version.
    pub version: String,
    /// The package's file name.
    pub package_name: String,
    /// Where it is downloaded.
    pub download_url: String,
    /// Which tool.
    pub tool_type: String,
    /// Served by `GET /api/get/version`.
    pub is_published: bool,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a release.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ToolReleaseInput {
    /// The tool's version, e.g. `2.4.1`.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 32), custom(function = "checks::clean_text"))]
    pub version: Option<String>,
    /// The package's file name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub package_name: Option<String>,
    /// Where it is downloaded (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(required, custom(function = "checks::http_url"))]
    pub download_url: Option<String>,
    /// Which tool; `vmarket_tools` when left empty.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 32), custom(function = "crate::admin::api::input::permalink"))]
    pub tool_type: Option<String>,
    /// Served by `GET /api/get/version`.
    pub is_published: bool,
}

impl Resource for ToolReleases {
    type Entity = tool_release::Entity;
    type Record = ToolReleaseRecord;
    type Input = ToolReleaseInput;

    const NAME: &'static str = "tool_releases";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["version", "created_at"],
        filter: &["is_published", "tool_type"],
        search: &["version", "package_name"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<tool_release::Model>,
    ) -> Result<Vec<ToolReleaseRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| ToolReleaseRecord {
                id: r.id,
                version: r.version,
                package_name: r.package_name,
                download_url: r.download_url,
                tool_type: r.tool_type,
                is_published: r.is_published,
                created_at: r.created_at,
                updated_at: r.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: ToolReleaseInput, cx: &Cx<'_>) -> Result<i32> {
        let row = tool_release::ActiveModel { created_at: Set(cx.now), ..Default::default() };
        Ok(fill(row, input, cx).insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: tool_release::Model,
        input: ToolReleaseInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        fill(row.into(), input, cx).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: tool_release::Model, _cx: &Cx<'_>) -> Result<()> {
        tool_release::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

fn fill(mut row: tool_release::ActiveModel, input: ToolReleaseInput, cx: &Cx<'_>) -> tool_release::ActiveModel {
    row.version = Set(input.version.unwrap_or_default());
    row.package_name = Set(input.package_name.unwrap_or_default());
    row.download_url = Set(input.download_url.unwrap_or_default());
    row.tool_type = Set(input.tool_type.unwrap_or_else(|| "vmarket_tools".into()));
    row.is_published = Set(input.is_published);
    row.updated_at = Set(cx.now);
    row
}
