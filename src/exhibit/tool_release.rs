//! The desktop submission tool's newest release, as `GET /api/get/version` answers it (spec
//! "Other": `version`, `package_name`, `download_url`, `type`).

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::tool_release;
use crate::error::{Error, Result};

/// The newest published release.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ToolVersion {
    /// The tool's version.
    pub version: String,
    /// The package's file name.
    pub package_name: String,
    /// Where to download it.
    pub download_url: String,
    /// Which tool.
    #[serde(rename = "type")]
    pub tool_type: String,
}

/// The newest published release (404 `no_tool_release` while there is none).
pub async fn latest(db: &impl ConnectionTrait) -> Result<ToolVersion> {
    let row = tool_release::Entity::find()
        .filter(tool_release::Column::IsPublished.eq(true))
        .order_by_desc(tool_release::Column::Id)
        .one(db)
        .await?
        .ok_or(Error::NotFound { code: "no_tool_release" })?;
    Ok(ToolVersion {
        version: row.version,
        package_name: row.package_name,
        download_url: row.download_url,
        tool_type: row.tool_type,
    })
}
