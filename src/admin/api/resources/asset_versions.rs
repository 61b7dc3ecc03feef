//! `asset_versions`: every uploaded file's version with its asset, owner, kind, pipeline status
//! and report (issue 27, ASSETS.md "The asset uploader"). Staff filter by status, kind and owner,
//! read the report as its owner does, and make one change: fail an uploaded version or restore a
//! failed one whose bytes all arrived, always with a reason — shown to the owner on the asset's
//! page and kept in the audit log ([`asset_version::Model::correct`]). Assets have their own area
//! of the role table: admins write; directors, uc_staff and QA testers read. Whoever may read a
//! version may open its file (`GET /admin/api/asset_versions/{id}/file`: the console's 3-D preview).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::applications::id_value;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::{asset, asset_setting, asset_version, user};
use crate::error::{Error, Result};
use crate::forms::checks;

/// The resource.
pub struct AssetVersions;

/// A version as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct AssetVersionRecord {
    /// Version id.
    pub id: i32,
    /// Its asset.
    pub asset_id: i32,
    /// The asset's name.
    pub asset_name: String,
    /// The owner's user id.
    pub owner_user_id: i32,
    /// The owner's handle.
    pub owner_vmarket_id: String,
    /// The upload kind (asset setting label).
    pub setting_label: String,
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
    /// The report's verdict (`passed`, `warnings`, `failed`), once validated.
    pub report_status: Option<String>,
    /// The report's errors.
    pub num_errors: Option<u64>,
    /// The report's warnings.
    pub num_warnings: Option<u64>,
    /// The whole report (ASSETS.md "The report"), as stored.
    pub report: Option<Value>,
    /// Why staff failed or restored it (or why the pipeline gave up).
    pub status_reason: Option<String>,
    /// The statuses staff may set (`failed` for an uploaded version, `uploaded` for a failed one
    /// whose bytes all arrived).
    pub corrections: Vec<UploadStatus>,
    /// Opened.
    pub created_at: DateTime<Utc>,
    /// Ready.
    pub uploaded_at: Option<DateTime<Utc>>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send: the status and why.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AssetVersionInput {
    /// `failed` or `uploaded`.
    #[validate(required)]
    pub upload_status: Option<UploadStatus>,
    /// Why (shown to the owner, kept in the audit log).
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 1000), custom(function = "checks::clean_text"))]
    pub reason: Option<String>,
}

/// The statuses staff may set on `v`.
fn corrections(v: &asset_version::Model) -> Vec<UploadStatus> {
    match v.upload_status {
        UploadStatus::Uploaded => vec![UploadStatus::Failed],
        UploadStatus::Failed if v.completed_at.is_some() && v.sha256.is_some() => vec![UploadStatus::Uploaded],
        _ => Vec::new(),
    }
}

/// Versions of assets matching `condition`.
fn of_assets(condition: Condition) -> Condition {
    let mut ids = Query::select();
    ids.column(asset::Column::Id).from(asset::Entity).cond_where(condition);
    Condition::all().add(asset_version::Column::AssetId.in_subquery(ids))
}

fn of_owner(value: &Value) -> Option<Condition> {
    Some(of_assets(Condition::all().add(asset::Column::UserId.eq(id_value(value)?))))
}

fn of_kind(value: &Value) -> Option<Condition> {
    let mut settings = Query::select();
    settings
        .column(asset_setting::Column::Id)
        .from(asset_setting::Entity)
        .and_where(asset_setting::Column::Label.eq(value.as_str()?));
    Some(of_assets(Condition::all().add(asset::Column::AssetSettingId.in_subquery(settings))))
}

impl Resource for AssetVersions {
    type Entity = asset_version::Entity;
    type Record = AssetVersionRecord;
    type Input = AssetVersionInput;

    const NAME: &'static str = "asset_versions";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["asset_id", "version", "upload_status", "byte_size", "created_at", "uploaded_at", "updated_at"],
        filter: &["asset_id", "upload_status", "created_at"],
        search: &["file_name"],
        computed: &[("owner_user_id", of_owner), ("setting_label", of_kind)],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<asset_version::Model>,
    ) -> Result<Vec<AssetVersionRecord>> {
        let asset_ids: Vec<i32> = rows.iter().map(|v| v.asset_id).collect();
        let assets: HashMap<i32, asset::Model> = asset::Entity::find()
            .filter(asset::Column::Id.is_in(asset_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let settings: HashMap<i32, String> =
            asset_setting::Entity::find().all(db).await?.into_iter().map(|s| (s.id, s.label)).collect();
        let owners: HashMap<i32, String> = user::Entity::find()
            .filter(user::Column::Id.is_in(assets.values().map(|a| a.user_id).collect::<Vec<_>>()))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u.vmarket_id))
            .collect();
        Ok(rows
            .into_iter()
            .map(|v| {
                let owner = assets.get(&v.asset_id);
                let report: Option<Value> = v.report.as_deref().and_then(|r| serde_json::from_str(r).ok());
                let count = |field: &str| {
                    report.as_ref().and_then(|r| r.pointer(&format!("/issues/{field}"))).and_then(Value::as_u64)
                };
                AssetVersionRecord {
                    asset_name: owner.map(|a| a.name.clone()).unwrap_or_default(),
                    owner_user_id: owner.map_or(0, |a| a.user_id),
                    owner_vmarket_id: owner.and_then(|a| owners.get(&a.user_id).cloned()).unwrap_or_default(),
                    setting_label: owner.and_then(|a| settings.get(&a.asset_setting_id).cloned()).unwrap_or_default(),
                    report_status: report.as_ref().and_then(|r| r["status"].as_str().map(str::to_string)),
                    num_errors: count("num_errors"),
                    num_warnings: count("num_warnings"),
                    corrections: corrections(&v),
                    id: v.id,
                    asset_id: v.asset_id,
                    version: v.version,
                    upload_status: v.upload_status,
                    file_name: v.file_name,
                    byte_size: v.byte_size,
                    mime_type: v.mime_type,
                    report,
                    status_reason: v.status_reason,
                    created_at: v.created_at,
                    uploaded_at: v.uploaded_at,
                    updated_at: v.updated_at,
                }
            })
            .collect())
    }

    fn reason(input: &AssetVersionInput) -> Option<String> {
        input.reason.clone()
    }

    /// The version's own file (the console previews a 3-D one).
    async fn file(row: asset_version::Model, _cx: &Cx<'_>) -> Result<asset_version::Model> {
        Ok(row)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: asset_version::Model,
        input: AssetVersionInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let to = input.upload_status.ok_or_else(|| Error::invalid("upload_status", "validation.required"))?;
        let reason = input.reason.unwrap_or_default();
        asset_version::Model::correct(txn, row.id, to, &reason, cx.acted_at()).await
    }
}
