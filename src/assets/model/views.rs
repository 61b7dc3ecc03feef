//! What clients see of assets and versions (spec §3 "Asset", "Asset version"): the owner's
//! views, with the version detail the analysis found and, for uploaded versions, a short-lived
//! download URL.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::asset::SubType;
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version, user};
use crate::error::Result;

/// The owner, as an asset names them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AssetUser {
    /// User id.
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

/// A short-lived link to a version's file.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DownloadUrl {
    /// Where to `GET` the file.
    pub url: String,
    /// Until when the link works.
    pub expires_on: DateTime<Utc>,
}

/// A version's pictures (160, 320 and 640 px; for 3D, the snapshot the upload page rendered, or
/// a placeholder).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Thumbnail {
    /// 160 px.
    pub small: String,
    /// 320 px.
    pub medium: String,
    /// 640 px.
    pub large: String,
}

/// What the analysis found, per kind (spec §3 avatar, zip, furniture and scene detail); stored
/// with the version.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct Detail {
    /// Avatars: `general`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motion_type: Option<String>,
    /// Avatars: `all_ages` unless the owner says otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_age: Option<String>,
    /// Avatars: the VRM version (`vrm0`, `vrm1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar_type: Option<String>,
    /// Avatars and furniture: triangles drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polygon_count: Option<u64>,
    /// Furniture: where it goes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_type: Option<SubType>,
    /// Furniture: `object`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_type: Option<String>,
    /// Scene assets: `model`, `image` or `sound`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scene_asset_type: Option<String>,
    /// The kind of file, from its bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_type: Option<String>,
    /// Images (and videos): width in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Images (and videos): height in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Archives: entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip_entries: Option<u64>,
    /// Sounds and videos: seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<f64>,
}

/// The report's verdict, in short (the whole report: `GET …/versions/{id}/report`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReportSummary {
    /// `passed`, `warnings` or `failed`.
    pub status: String,
    /// Errors.
    pub num_errors: u64,
    /// Warnings.
    pub num_warnings: u64,
}

/// A version as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionView {
    /// Id.
    pub id: i32,
    /// UUID.
    pub uuid: String,
    /// 1, 2, … per asset.
    pub version: i32,
    /// Pipeline status.
    pub upload_status: UploadStatus,
    /// The file's name as sent.
    pub file_name: String,
    /// Bytes.
    pub byte_size: i64,
    /// From the bytes.
    pub mime_type: Option<String>,
    /// SHA-256 of the bytes (hex).
    pub sha256: Option<String>,
    /// Pictures, once made.
    pub thumbnail: Option<Thumbnail>,
    /// The in-game picture, once made.
    pub ingame_thumbnail: Option<String>,
    /// Animation preview (none is made).
    pub animation: Option<String>,
    /// A short-lived link to the file (uploaded versions, for their owner).
    pub download_url: Option<DownloadUrl>,
    /// What the analysis found.
    pub detail: Detail,
    /// The report's verdict, once validated.
    pub report: Option<ReportSummary>,
    /// Why staff failed or restored it.
    pub status_reason: Option<String>,
    /// Opened.
    pub created_at: DateTime<Utc>,
    /// All bytes there.
    pub completed_at: Option<DateTime<Utc>>,
    /// Ready.
    pub uploaded_at: Option<DateTime<Utc>>,
}

/// An asset as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AssetView {
    /// Id.
    pub id: i32,
    /// Owner's id.
    pub user_id: i32,
    /// The setting (upload kind).
    pub asset_setting_id: i32,
    /// Its label.
    pub setting_label: String,
    /// The asset type.
    pub asset_type: AssetType,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Furniture: where it goes.
    pub sub_type: Option<SubType>,
    /// Deleted by its owner (files freed after the grace period).
    pub deleted: bool,
    /// Shown to others.
    pub published: bool,
    /// The newest uploaded version.
    pub latest_version: Option<VersionView>,
    /// Every version, newest first.
    pub asset_versions: Vec<VersionView>,
    /// The owner.
    pub user: AssetUser,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// Builds a version's view; `download` is its link when one was made.
pub fn version_view(v: &asset_version::Model, download: Option<DownloadUrl>) -> VersionView {
    let pictures = v.thumbnail_key.as_ref().map(|prefix| Thumbnail {
        small: format!("/media/{prefix}/160.png"),
        medium: format!("/media/{prefix}/320.png"),
        large: format!("/media/{prefix}/640.png"),
    });
    VersionView {
        id: v.id,
        uuid: v.uuid.clone(),
        version: v.version,
        upload_status: v.upload_status,
        file_name: v.file_name.clone(),
        byte_size: v.byte_size,
        mime_type: v.mime_type.clone(),
        sha256: v.sha256.clone(),
        thumbnail: pictures,
        ingame_thumbnail: v.ingame_thumbnail_key.as_ref().map(|k| format!("/media/{k}")),
        animation: None,
        download_url: download,
        detail: v.detail.as_deref().and_then(|d| serde_json::from_str(d).ok()).unwrap_or_default(),
        report: v.report.as_deref().and_then(|r| serde_json::from_str::<ReportHead>(r).ok()).map(|r| ReportSummary {
            status: r.status,
            num_errors: r.issues.num_errors,
            num_warnings: r.issues.num_warnings,
        }),
        status_reason: v.status_reason.clone(),
        created_at: v.created_at,
        completed_at: v.completed_at,
        uploaded_at: v.uploaded_at,
    }
}

/// The head of a stored report (its status and counts).
#[derive(Deserialize)]
struct ReportHead {
    status: String,
    issues: ReportCounts,
}

#[derive(Deserialize)]
struct ReportCounts {
    num_errors: u64,
    num_warnings: u64,
}

/// The views of `assets` with their versions; `links` holds the download links made for some of
/// their uploaded versions, by version id.
pub async fn asset_views(
    db: &impl ConnectionTrait,
    assets: Vec<asset::Model>,
    links: &HashMap<i32, DownloadUrl>,
) -> Result<Vec<AssetView>> {
    let ids: Vec<i32> = assets.iter().map(|a| a.id).collect();
    let mut versions: HashMap<i32, Vec<asset_version::Model>> = HashMap::new();
    for v in asset_version::Model::of_assets(db, &ids).await? {
        versions.entry(v.asset_id).or_default().push(v);
    }
    let setting_ids: Vec<i32> = assets.iter().map(|a| a.asset_setting_id).collect();
    let settings: HashMap<i32, asset_setting::Model> = asset_setting::Entity::find()
        .filter(asset_setting::Column::Id.is_in(setting_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.id, s))
        .collect();
    let user_ids: Vec<i32> = assets.iter().map(|a| a.user_id).collect();
    let users: HashMap<i32, user::Model> = user::Model::by_ids(db, user_ids).await?;
    Ok(assets
        .into_iter()
        .map(|a| {
            let own = versions.remove(&a.id).unwrap_or_default();
            let views: Vec<VersionView> = own
                .iter()
                .map(|v| {
                    let link = (v.upload_status == UploadStatus::Uploaded).then(|| links.get(&v.id).cloned()).flatten();
                    version_view(v, link)
                })
                .collect();
            let setting = settings.get(&a.asset_setting_id);
            let owner = users.get(&a.user_id);
            AssetView {
                id: a.id,
                user_id: a.user_id,
                asset_setting_id: a.asset_setting_id,
                setting_label: setting.map(|s| s.label.clone()).unwrap_or_default(),
                asset_type: setting.map_or(AssetType::None, |s| s.asset_type),
                name: a.name,
                description: a.description,
                sub_type: a.sub_type,
                deleted: a.deleted,
                published: a.published,
                // The newest uploaded version of the versions read here (the asset row's
                // `latest_version_id` was read before them, and a pipeline may have finished one
                // in between: the view stays consistent with its own list).
                latest_version: views
                    .iter()
                    .filter(|v| v.upload_status == UploadStatus::Uploaded)
                    .max_by_key(|v| v.version)
                    .cloned(),
                asset_versions: views,
                user: AssetUser {
                    id: a.user_id,
                    vmarket_id: owner.map(|u| u.vmarket_id.clone()).unwrap_or_default(),
                    name_ja: owner.map(|u| u.name_ja.clone()).unwrap_or_default(),
                    name_en: owner.map(|u| u.name_en.clone()).unwrap_or_default(),
                },
                created_at: a.created_at,
                updated_at: a.updated_at,
            }
        })
        .collect())
}
