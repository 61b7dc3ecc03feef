//! The booth maker's pages over the uploader: the asset list, the upload page and an asset's
//! page, as the owner sees them in both languages (status, verdict, the findings with limit,
//! actual value and fix, the preview's file), and what a visitor and a stranger get (the
//! sign-in, the 404 page).

use super::{avatar, one_shot};
use crate::support::TestApp;
use crate::support::html::Doc;

#[rocket::async_test]
async fn the_owner_sees_assets_their_status_and_report_and_a_stranger_sees_nothing() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let res = app.get("/mypage/booth-maker").await;
    assert_eq!(
        res.headers().get_one("Location"),
        Some("/auth/login?next=%2Fmypage%2Fbooth-maker&auto=1"),
        "a visitor signs in first"
    );
    let owner = app.with_user("booth_pages_owner").await;
    let stranger = app.with_user("booth_pages_stranger").await;

    let (status, html) = owner.page("/mypage/booth-maker").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "ブースメーカー");
    assert!(doc.text("[data-testid=asset-empty]").starts_with("アセットはまだありません"));
    assert_eq!(doc.attr(".mypage-nav a[aria-current=page]", "href"), "/mypage/booth-maker", "the menu marks it");

    let (fine, _) = one_shot(&owner, "avatar", "fine.vrm", &avatar(8_000)).await;
    let (heavy, _) = one_shot(&owner, "avatar", "heavy.vrm", &avatar(25_000)).await;
    let (fine_id, heavy_id) = (fine["id"].as_i64().unwrap(), heavy["id"].as_i64().unwrap());

    // The list, newest first, with each newest version's status and verdict.
    let doc = Doc::parse(&owner.page("/mypage/booth-maker").await.1);
    assert_eq!(doc.texts(".asset-card__name a"), ["heavy.vrm", "fine.vrm"]);
    assert_eq!(doc.texts("[data-testid=asset-status]"), ["不合格", "アップロード完了"]);
    let doc = Doc::parse(&owner.page("/en/mypage/booth-maker").await.1);
    assert_eq!(doc.texts("[data-testid=asset-status]"), ["Failed", "Uploaded"]);
    assert_eq!(doc.attrs(".asset-card__name a", "href")[1], format!("/en/mypage/booth-maker/assets/{fine_id}"));

    // A passed avatar: its verdict, its measurements, and the preview of its file.
    let (status, html) = owner.page(&format!("/mypage/booth-maker/assets/{fine_id}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "fine.vrm");
    assert_eq!(doc.attr("[data-testid=report]", "data-status"), "passed");
    assert_eq!(doc.text("[data-testid=report-verdict]"), "チェック合格");
    assert!(doc.text("[data-testid=report-stats]").contains("8000"), "{}", doc.text("[data-testid=report-stats]"));
    let props: serde_json::Value =
        serde_json::from_str(&doc.attr("[data-island=model-preview]", "data-props")).unwrap();
    assert_eq!(props["kind"], "vrm");
    assert!(props["url"].as_str().unwrap().contains("/uploader/downloads/"), "{props}");
    assert_eq!(doc.count("[data-island=asset-status]"), 0, "nothing left to watch");

    // A failed one: the rule, the limit, the actual count and the fix, in English too.
    let doc = Doc::parse(&owner.page(&format!("/en/mypage/booth-maker/assets/{heavy_id}")).await.1);
    assert_eq!(doc.attr("[data-testid=report]", "data-status"), "failed");
    assert_eq!(doc.texts("[data-testid=finding-limit]"), ["20000"]);
    assert_eq!(doc.texts("[data-testid=finding-actual]"), ["25000"]);
    assert!(doc.text(".finding__fix").starts_with("How to fix:"), "{}", doc.text(".finding__fix"));
    assert_eq!(doc.count("[data-island=model-preview]"), 0, "a failed version has no file to preview");

    // The upload page offers every kind; for a new version, only the asset's own.
    let doc = Doc::parse(&owner.page("/mypage/booth-maker/assets/upload").await.1);
    let props: serde_json::Value = serde_json::from_str(&doc.attr("[data-island=asset-upload]", "data-props")).unwrap();
    let labels: Vec<&str> = props["kinds"].as_array().unwrap().iter().filter_map(|k| k["label"].as_str()).collect();
    assert!(labels.contains(&"avatar") && labels.contains(&"booth_package"), "{labels:?}");
    let doc = Doc::parse(&owner.page(&format!("/mypage/booth-maker/assets/upload?asset={fine_id}")).await.1);
    let props: serde_json::Value = serde_json::from_str(&doc.attr("[data-island=asset-upload]", "data-props")).unwrap();
    assert_eq!(props["kinds"].as_array().unwrap().len(), 1);
    assert_eq!(props["asset"]["id"], fine_id);

    // Someone else's asset is not found, whichever page asks.
    for path in [
        format!("/mypage/booth-maker/assets/{fine_id}"),
        format!("/mypage/booth-maker/assets/upload?asset={fine_id}"),
        "/mypage/booth-maker/assets/upload?asset=abc".to_string(),
        "/mypage/booth-maker/assets/999999".to_string(),
    ] {
        let (status, html) = stranger.page(&path).await;
        assert_eq!(status, 404, "{path}");
        assert!(!html.contains("fine.vrm"), "{path} shows nothing of the asset");
    }
    let doc = Doc::parse(&stranger.page("/mypage/booth-maker").await.1);
    assert_eq!(doc.count("[data-testid=asset-row]"), 0, "a stranger's list is their own");
}

#[rocket::async_test]
async fn the_demo_exhibitor_has_a_passed_avatar_a_table_and_a_draft_that_failed_its_report() {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
    use vmarket::db::entities::{asset, asset_version, user};

    let app = TestApp::new().await;
    let rocket = app.client.rocket();
    let storage = rocket.state::<vmarket::storage::Storage>().expect("storage");
    let data_dir = rocket.state::<vmarket::http::Site>().expect("site").config.data_dir.clone();
    let now = app.clock.now();
    let created = vmarket::assets::demo::seed(&app.db, storage, &data_dir, now).await.expect("demo assets");
    assert_eq!(created.len(), 8, "{created:?}");
    let again = vmarket::assets::demo::seed(&app.db, storage, &data_dir, now).await.expect("again");
    assert!(again.is_empty(), "idempotent: {again:?}");

    let owner = user::Entity::find()
        .filter(user::Column::VmarketId.eq(vmarket::assets::demo::OWNER))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    let assets = asset::Entity::find().filter(asset::Column::UserId.eq(owner.id)).all(&app.db).await.unwrap();
    assert_eq!(assets.len(), 7, "an avatar, a table, a draft, a booth package, two avatar-part bundles, a video");
    let ids: Vec<i32> = assets.iter().map(|a| a.id).collect();
    let versions = asset_version::Entity::find()
        .filter(asset_version::Column::AssetId.is_in(ids))
        .order_by_asc(asset_version::Column::Id)
        .all(&app.db)
        .await
        .unwrap();
    let outcome: Vec<(String, Option<String>)> = versions
        .iter()
        .map(|v| {
            let report: Option<serde_json::Value> = v.report.as_deref().and_then(|r| serde_json::from_str(r).ok());
            (v.upload_status.as_str().to_string(), report.and_then(|r| r["status"].as_str().map(str::to_string)))
        })
        .collect();
    let reports: Vec<&str> = versions.iter().map(|v| v.report.as_deref().unwrap_or("")).collect();
    assert_eq!(outcome[0], ("uploaded".to_string(), Some("passed".to_string())), "{reports:?}");
    assert_eq!(outcome[1].0, "uploaded", "{outcome:?}");
    assert_eq!(outcome[2], ("failed".to_string(), Some("failed".to_string())), "{outcome:?}");
    assert_eq!(outcome[3], ("uploaded".to_string(), Some("passed".to_string())), "the booth package: {reports:?}");
    for bundle in [4, 5] {
        assert_eq!(outcome[bundle], ("uploaded".to_string(), Some("passed".to_string())), "a part bundle: {reports:?}");
        assert_eq!(versions[bundle].kind.as_deref(), Some("zip"));
    }
    assert_eq!(outcome[6], ("uploaded".to_string(), Some("passed".to_string())), "the video: {reports:?}");
    assert_eq!(versions[6].kind.as_deref(), Some("mp4"));
    assert!(
        versions.iter().all(|v| v.thumbnail_key.is_some()
            || v.upload_status.as_str() == "failed"
            || v.kind.as_deref() == Some("zip")),
        "pictures made of the models"
    );
    let total: i64 = versions.iter().map(|v| v.byte_size).sum();
    assert!(total < 1_000_000, "a few hundred KB in all, not {total}");

    // After the win (issue 28): the booth packages are submitted for the two 2026Winter slots,
    // one passed, one asked to fix; ともしび工房 lists its items. Idempotent too.
    let made = vmarket::exhibit::demo::seed(&app.db, now).await.expect("demo slots");
    assert_eq!(made, ["3 catalogue items", "the submission of ともしび工房", "the submission of 夜更かし天文部"]);
    assert!(vmarket::exhibit::demo::seed(&app.db, now).await.expect("again").is_empty());
    use vmarket::db::entities::event_slot_submission as sub;
    let verdicts: Vec<(String, bool)> = sub::Entity::find()
        .order_by_asc(sub::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.inspection_status.as_str().to_string(), s.is_booth_error))
        .collect();
    assert_eq!(verdicts, [("passed".to_string(), false), ("needs_fix".to_string(), true)]);
}
