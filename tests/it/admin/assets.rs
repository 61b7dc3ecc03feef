//! The console's `asset_versions` (issue 27 item 9): staff find versions by status, kind and
//! owner and read their report; an admin fails an uploaded version or restores a failed one,
//! always with a reason, which the owner then reads beside the version and the audit log keeps;
//! the asset's latest version follows. Other roles read; a version still in the pipeline or
//! expired cannot be changed (409), and a change without a reason is refused (422).

use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use vmarket::db::entities::audit_log;
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;
use crate::uploader::{avatar, one_shot, version_of};

#[rocket::async_test]
async fn staff_find_versions_read_reports_and_admins_fail_or_restore_them_with_a_reason() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("console_assets_owner").await;
    let (fine, fine_version) = one_shot(&owner, "avatar", "fine.vrm", &avatar(8_000)).await;
    let (_, heavy_version) = one_shot(&owner, "avatar", "heavy.vrm", &avatar(25_000)).await;
    let asset_id = fine["id"].as_i64().unwrap();
    let (admin, director, uc_staff, qa) = (
        app.as_staff(Role::Admin).await,
        app.as_staff(Role::Director).await,
        app.as_staff(Role::UcStaff).await,
        app.as_staff(Role::QaTester).await,
    );

    // Found by status, kind and owner; the report comes with it.
    let failed = call(
        &app,
        &uc_staff,
        Method::Get,
        &list_path("/admin/api/asset_versions", None, None, Some(r#"{"upload_status":"failed"}"#)),
        None,
    )
    .await;
    assert_eq!((failed.status, failed.ids()), (200, vec![heavy_version]), "{:?}", failed.body);
    let filter = format!(r#"{{"setting_label":"avatar","owner_user_id":{}}}"#, owner.user.id);
    let mine =
        call(&app, &qa, Method::Get, &list_path("/admin/api/asset_versions", None, None, Some(&filter)), None).await;
    assert_eq!(mine.ids().len(), 2, "{:?}", mine.body);
    let furniture = call(
        &app,
        &qa,
        Method::Get,
        &list_path("/admin/api/asset_versions", None, None, Some(r#"{"setting_label":"furniture"}"#)),
        None,
    )
    .await;
    assert!(!furniture.ids().contains(&fine_version), "{:?}", furniture.body);
    let shown = call(&app, &director, Method::Get, &format!("/admin/api/asset_versions/{heavy_version}"), None).await;
    assert_eq!(shown.body["report"]["status"], "failed");
    assert_eq!(shown.body["report_status"], "failed");
    assert_eq!(shown.body["owner_vmarket_id"], "console_assets_owner");
    assert_eq!(shown.body["corrections"], json!(["uploaded"]));

    // Only admins change; a reason is required.
    let fail = json!({"upload_status": "failed", "reason": "A logo we may not show (ticket #7)."});
    let path = format!("/admin/api/asset_versions/{fine_version}");
    for reader in [&director, &uc_staff, &qa] {
        assert_eq!(call(&app, reader, Method::Put, &path, Some(&fail)).await.status, 403);
    }
    let no_reason = call(&app, &admin, Method::Put, &path, Some(&json!({"upload_status": "failed"}))).await;
    assert_eq!(no_reason.status, 422, "{:?}", no_reason.body);
    assert!(no_reason.attributes().contains(&"reason".to_string()));

    // Failed: the owner sees it and why; the asset has no latest version any more.
    let done = call(&app, &admin, Method::Put, &path, Some(&fail)).await;
    assert_eq!(done.status, 200, "{:?}", done.body);
    let (_, seen) = owner.get_json(&format!("/uploader/assets/{asset_id}")).await;
    let version = version_of(&seen, fine_version);
    assert_eq!(
        (version["upload_status"].as_str(), version["status_reason"].as_str()),
        (Some("failed"), Some("A logo we may not show (ticket #7)."))
    );
    assert!(seen["latest_version"].is_null(), "{seen}");
    let (_, html) = owner.page(&format!("/en/mypage/booth-maker/assets/{asset_id}")).await;
    assert!(html.contains("A logo we may not show (ticket #7)."), "the owner reads the reason on the asset's page");

    // Restored: uploaded and latest again. Failing it twice is not a change.
    let restore = json!({"upload_status": "uploaded", "reason": "Permission received."});
    assert_eq!(call(&app, &admin, Method::Put, &path, Some(&restore)).await.status, 200);
    let (_, seen) = owner.get_json(&format!("/uploader/assets/{asset_id}")).await;
    assert_eq!(seen["latest_version"]["id"].as_i64(), Some(fine_version), "{seen}");
    let again = call(&app, &admin, Method::Put, &path, Some(&restore)).await;
    assert_eq!((again.status, again.body["code"].as_str()), (409, Some("version_not_correctable")), "{:?}", again.body);

    let rows =
        audit_log::Entity::find().filter(audit_log::Column::Resource.eq("asset_versions")).all(&app.db).await.unwrap();
    assert_eq!(rows.len(), 2, "one entry per change");
    assert!(rows.iter().all(|r| r.after.as_deref().is_some_and(|a| a.contains("reason"))), "{rows:?}");
}
