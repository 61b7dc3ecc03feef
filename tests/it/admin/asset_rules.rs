//! The console's `asset_settings` and `asset_rule_sets` (issue 27 items 5 and 9): staff read the
//! uploader's kinds and rule sets; an admin changes a rule and the next upload is checked
//! against it, its report naming the set's new version; rules that the analysers could not read,
//! a changed key, kinds the rule set refuses and a rule set still in use are refused with the
//! field named. Directors, uc_staff and QA testers read only.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::call;
use crate::support::TestApp;
use crate::uploader::{avatar, one_shot, open};

/// The record of the resource's row whose `field` is `value`.
fn row<'a>(rows: &'a Value, field: &str, value: &str) -> &'a Value {
    rows.as_array().and_then(|r| r.iter().find(|x| x[field] == value)).unwrap_or_else(|| panic!("{value} in {rows}"))
}

#[rocket::async_test]
async fn an_admin_changes_a_rule_and_the_next_upload_is_checked_against_it() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.with_user("rules_owner").await;
    let (admin, director, uc_staff, qa) = (
        app.as_staff(Role::Admin).await,
        app.as_staff(Role::Director).await,
        app.as_staff(Role::UcStaff).await,
        app.as_staff(Role::QaTester).await,
    );
    let (_, passed_before) = one_shot(&owner, "avatar", "before.vrm", &avatar(8_000)).await;

    // Everyone of the area reads the kinds and the sets.
    let sets = call(&app, &qa, Method::Get, "/admin/api/asset_rule_sets", None).await;
    assert_eq!(sets.status, 200, "{:?}", sets.body);
    let avatar_set = row(&sets.body, "key", "vket_avatar").clone();
    assert_eq!((avatar_set["version"].as_i64(), avatar_set["used_by"].clone()), (Some(1), json!(["avatar"])));
    let settings = call(&app, &uc_staff, Method::Get, "/admin/api/asset_settings", None).await;
    let avatar_setting = row(&settings.body, "label", "avatar").clone();
    assert_eq!(avatar_setting["accepted_kinds"], json!(["vrm"]));
    assert_eq!(avatar_setting["rule_set_id"], avatar_set["id"]);

    // A tighter polygon rule: only admins may make it.
    let mut rules = avatar_set["rules"].as_array().unwrap().clone();
    let polygons = rules.iter_mut().find(|r| r["rule_id"] == "polygons").unwrap();
    assert_eq!(polygons["limit"], json!({"max_triangles": 20000}));
    polygons["limit"] = json!({"max_triangles": 5000});
    let path = format!("/admin/api/asset_rule_sets/{}", avatar_set["id"]);
    let edit = json!({"key": "vket_avatar", "name_ja": "アバター（VRM）", "name_en": "Avatar (VRM)", "rules": rules});
    for reader in [&director, &uc_staff, &qa] {
        assert_eq!(call(&app, reader, Method::Put, &path, Some(&edit)).await.status, 403);
    }
    let saved = call(&app, &admin, Method::Put, &path, Some(&edit)).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(
        (saved.body["version"].as_i64(), saved.body["updated_by"].as_i64()),
        (Some(2), Some(admin.user.id as i64))
    );

    // The next upload of the same avatar fails against the new limit, naming version 2.
    let (_, failed) = one_shot(&owner, "avatar", "after.vrm", &avatar(8_000)).await;
    let shown = call(&app, &director, Method::Get, &format!("/admin/api/asset_versions/{failed}"), None).await;
    let report = &shown.body["report"];
    assert_eq!(
        (report["status"].as_str(), report["rule_set"].clone()),
        (Some("failed"), json!({"id": "vket_avatar", "version": 2}))
    );
    let breach = report["issues"]["messages"].as_array().unwrap().iter().find(|m| m["rule_id"] == "polygons").cloned();
    let breach = breach.unwrap_or_else(|| panic!("a polygons message in {report}"));
    assert_eq!((breach["limit"].clone(), breach["actual"].clone()), (json!(5000), json!(8000)));
    // The version checked before keeps the report it had.
    let before = call(&app, &qa, Method::Get, &format!("/admin/api/asset_versions/{passed_before}"), None).await;
    assert_eq!(before.body["report"]["rule_set"]["version"], 1);

    // The same rules as text (what the console's editor sends) and only a new name: no new version.
    let renamed = json!({"key": "vket_avatar", "name_ja": "アバター", "name_en": "Avatar",
                         "rules": serde_json::to_string_pretty(&rules).unwrap()});
    let saved = call(&app, &admin, Method::Put, &path, Some(&renamed)).await;
    assert_eq!(
        (saved.status, saved.body["version"].as_i64(), saved.body["name_en"].as_str()),
        (200, Some(2), Some("Avatar"))
    );
}

#[rocket::async_test]
async fn rule_sets_and_settings_refuse_what_the_uploader_could_not_use() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let owner = app.with_user("settings_owner").await;
    let sets = call(&app, &admin, Method::Get, "/admin/api/asset_rule_sets", None).await.body;
    let avatar_set = row(&sets, "key", "vket_avatar").clone();
    let path = format!("/admin/api/asset_rule_sets/{}", avatar_set["id"]);
    let with = |key: &str, rules: Value| json!({"key": key, "name_ja": "名前", "name_en": "Name", "rules": rules});

    // Rules the analysers cannot read, repeated ids, a changed key: 422 on the field, nothing saved.
    let bad = [
        (with("vket_avatar", json!("[{\"rule_id\": ")), "rules"),
        (with("vket_avatar", json!([{"rule_id": "p", "severity": "error", "limit": {"max_polygons": 1}}])), "rules"),
        (with("vket_avatar", json!([{"rule_id": "p", "severity": "fatal", "limit": {"max_triangles": 1}}])), "rules"),
        (
            with(
                "vket_avatar",
                json!([{"rule_id": "p", "severity": "error", "limit": {"max_triangles": 1}},
                       {"rule_id": "p", "severity": "error", "limit": {"max_materials": 1}}]),
            ),
            "rules",
        ),
        (with("vket_avatar", json!({"rules": []})), "rules"),
        (with("renamed_avatar", avatar_set["rules"].clone()), "key"),
        (json!({"rules": null}), "rules"),
    ];
    for (body, field) in bad {
        let answer = call(&app, &admin, Method::Put, &path, Some(&body)).await;
        assert_eq!(answer.status, 422, "{body}: {:?}", answer.body);
        assert_eq!(answer.attributes(), vec![field.to_string()], "{body}: {:?}", answer.body);
    }
    let unchanged = call(&app, &admin, Method::Get, &path, None).await.body;
    assert_eq!((unchanged["version"].clone(), unchanged["rules"].clone()), (json!(1), avatar_set["rules"].clone()));

    // A new set: its key is taken once; it can go while nothing uses it, a set in use cannot.
    let new = with(
        "event_avatar",
        json!([{"rule_id": "polygons", "severity": "warning", "limit": {"max_triangles": 70000}}]),
    );
    let made = call(&app, &admin, Method::Post, "/admin/api/asset_rule_sets", Some(&new)).await;
    assert_eq!((made.status, made.body["version"].as_i64()), (201, Some(1)), "{:?}", made.body);
    let again = call(&app, &admin, Method::Post, "/admin/api/asset_rule_sets", Some(&new)).await;
    assert_eq!((again.status, again.attributes()), (422, vec!["key".to_string()]));
    assert_eq!(call(&app, &admin, Method::Delete, &path, None).await.status, 409);

    // Settings: the kinds must be ones the set allows, the set must exist, the ceiling holds.
    let settings = call(&app, &admin, Method::Get, "/admin/api/asset_settings", None).await.body;
    let setting = row(&settings, "label", "avatar").clone();
    let setting_path = format!("/admin/api/asset_settings/{}", setting["id"]);
    let input = |kinds: Value, max_bytes: i64, rule_set_id: &Value| {
        json!({"name_ja": "アバター", "name_en": "Avatar", "accepted_kinds": kinds, "max_bytes": max_bytes,
               "rule_set_id": rule_set_id})
    };
    let refused = [
        (input(json!(["vrm", "png"]), 1 << 20, &avatar_set["id"]), "accepted_kinds"),
        (input(json!([]), 1 << 20, &avatar_set["id"]), "accepted_kinds"),
        (input(json!(["fbx"]), 1 << 20, &avatar_set["id"]), "accepted_kinds"),
        (input(json!(["vrm"]), 0, &avatar_set["id"]), "max_bytes"),
        (input(json!(["vrm"]), 1 << 20, &json!(999_999)), "rule_set_id"),
    ];
    for (body, field) in refused {
        let answer = call(&app, &admin, Method::Put, &setting_path, Some(&body)).await;
        assert_eq!((answer.status, answer.attributes()), (422, vec![field.to_string()]), "{body}: {:?}", answer.body);
    }
    assert_eq!(call(&app, &admin, Method::Post, "/admin/api/asset_settings", Some(&setting)).await.status, 405);

    // A 1 MiB ceiling: the uploader refuses a 6 MiB avatar before a byte is sent.
    let (status, _) = open(&owner, "avatar", "big", "big.vrm", 6 << 20).await;
    assert_eq!(status, 201);
    let saved =
        call(&app, &admin, Method::Put, &setting_path, Some(&input(json!(["vrm"]), 1 << 20, &made.body["id"]))).await;
    assert_eq!((saved.status, saved.body["max_bytes"].as_i64()), (200, Some(1 << 20)), "{:?}", saved.body);
    let (status, body) = open(&owner, "avatar", "big", "big.vrm", 6 << 20).await;
    assert_eq!(status, 422, "{body}");
    let (_, view) = owner.get_json("/uploader/asset_settings/avatar").await;
    assert_eq!((view["max_bytes"].as_i64(), view["rule_set"]["key"].as_str()), (Some(1 << 20), Some("event_avatar")));

    // Nothing uses the avatar set any more (no version was checked here): it can go.
    assert_eq!(call(&app, &admin, Method::Delete, &path, None).await.status, 200);
    let used = format!("/admin/api/asset_rule_sets/{}", made.body["id"]);
    assert_eq!(call(&app, &admin, Method::Delete, &used, None).await.status, 409);
}
