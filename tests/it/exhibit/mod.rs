//! After the win (issue 28): a circle's event slots and their placement, its catalogue items,
//! its booth submissions and their inspection, the checklist, and what the desktop submission
//! tool reads.

mod access;
mod catalog;
mod preview;
pub mod slots;
mod submissions;
mod tools;

use sea_orm::{ActiveModelTrait, Set};
use vmarket::db::entities::asset_version::UploadStatus;
use vmarket::db::entities::{asset, asset_setting, asset_version};

use crate::support::TestApp;

/// A booth package of user `owner` that passed its check, submitted for slot `slot` (for tests
/// of what comes after a submission: the console, its audit); the submission's id. The upload
/// itself is the uploader's tests' (`tests/it/uploader`); `submissions.rs` submits real ones.
pub async fn submitted(app: &TestApp, slot: i32, owner: i32) -> i32 {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let now = app.clock.now();
    let setting = asset_setting::Entity::find()
        .filter(asset_setting::Column::Label.eq("booth_package"))
        .one(&app.db)
        .await
        .unwrap()
        .expect("the booth package setting");
    let a = asset::ActiveModel {
        user_id: Set(owner),
        asset_setting_id: Set(setting.id),
        name: Set("booth".into()),
        description: Set(String::new()),
        sub_type: Set(None),
        published: Set(false),
        deleted: Set(false),
        deleted_at: Set(None),
        latest_version_id: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&app.db)
    .await
    .unwrap();
    let report = r#"{"status":"passed","issues":{"num_errors":0,"num_warnings":0}}"#;
    let v = asset_version::ActiveModel {
        uuid: Set(uuid::Uuid::new_v4().to_string()),
        asset_id: Set(a.id),
        version: Set(1),
        upload_status: Set(UploadStatus::Uploaded),
        file_name: Set("booth.zip".into()),
        byte_size: Set(1024),
        sha256: Set(None),
        mime_type: Set(Some("application/zip".into())),
        kind: Set(Some("zip".into())),
        object_key: Set(format!("assets/{}/booth.zip", a.id)),
        detail: Set(None),
        report: Set(Some(report.into())),
        rule_set_id: Set(None),
        rule_set_version: Set(None),
        thumbnail_key: Set(None),
        ingame_thumbnail_key: Set(None),
        snapshot_key: Set(None),
        pipeline_attempts: Set(0),
        status_reason: Set(None),
        status_changed_by: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        completed_at: Set(Some(now)),
        uploaded_at: Set(Some(now)),
        ..Default::default()
    }
    .insert(&app.db)
    .await
    .unwrap();
    vmarket::exhibit::submission::record(
        &app.db,
        slot,
        &v,
        vmarket::db::entities::event_slot_submission::ToolsType::VmarketTools,
        owner,
        now,
    )
    .await
    .unwrap()
    .id
}
