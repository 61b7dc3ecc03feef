//! Every write of every console resource is audited, generated over the registry: each resource
//! × each of create / edit / delete it offers leaves exactly one audit row (its resource, record
//! id and action; the record before and after as the API answered them, as far as the resource's
//! snapshot keeps them), and in the same transaction: while the audit table refuses inserts, the
//! write answers 500 and changes nothing. A writable resource without a fixture here fails the
//! test, so a new resource cannot go unaudited unnoticed.

use rocket::http::Method;
use sea_orm::{ConnectionTrait, DatabaseBackend, EntityTrait, QueryOrder, Statement};
use serde_json::{Value, json};
use vmarket::admin::api::resources;
use vmarket::admin::permissions::Action;
use vmarket::db::entities::audit_log;
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

/// How one resource is written in this test.
struct Fixture {
    /// The body of a new record (resources that create).
    create: Option<Value>,
    /// The record to edit, when the resource does not create (an existing one).
    existing: Option<i64>,
    /// The fields an edit changes.
    change: Value,
}

/// Writes covered by other tests, with where (a draw needs its window and inputs).
const ELSEWHERE: &[(&str, Action, &str)] =
    &[("lottery_runs", Action::Edit, "tests/it/admin/entries.rs (preview / publish, audited)")];

async fn first(app: &TestApp, who: &Actor<'_>, resource: &str, filter: &str) -> Value {
    let path = list_path(&format!("/admin/api/{resource}"), None, Some("[0,0]"), Some(filter));
    let listed = call(app, who, Method::Get, &path, None).await;
    listed.body.get(0).cloned().unwrap_or_else(|| panic!("a {resource} with {filter}"))
}

async fn fixture(app: &TestApp, admin: &Actor<'_>, resource: &str) -> Option<Fixture> {
    let winter = 13;
    let concept = first(app, admin, "concepts", r#"{"event_id":13}"#).await["id"].clone();
    let world = first(app, admin, "worlds", r#"{"event_id":13}"#).await["id"].clone();
    let company = first(app, admin, "companies", r#"{"event_id":13}"#).await["id"].clone();
    let category = first(app, admin, "catalog_item_categories", "{}").await;
    let new = |create: Value, change: Value| Some(Fixture { create: Some(create), existing: None, change });
    let old = |id: &Value, change: Value| Some(Fixture { create: None, existing: id.as_i64(), change });
    match resource {
        "events" => new(
            json!({"permalink": "audited", "version": 40, "name_ja": "監査", "name_en": "Audit", "phases": []}),
            json!({"name_en": "Audited"}),
        ),
        "concepts" => new(
            json!({"event_id": winter, "name_ja": "監査", "name_en": "Audit", "platform": "pc", "venue": "vrc", "kind": "general"}),
            json!({"name_en": "Audited"}),
        ),
        "worlds" => new(
            json!({"concept_id": concept, "name_ja": "監査", "name_en": "Audit", "exhibition_platform": "pc", "venue": "vrc"}),
            json!({"name_en": "Audited"}),
        ),
        "keywords" | "artists" => new(json!({"name_ja": "監査", "name_en": "Audit"}), json!({"name_en": "Audited"})),
        "posters" => new(json!({"world_id": world, "number": 999, "name": "Audit"}), json!({"name": "Audited"})),
        "companies" => {
            new(json!({"event_id": winter, "name_ja": "監査", "name_en": "Audit"}), json!({"name_en": "Audited"}))
        }
        "company_highlights" => {
            new(json!({"company_id": company, "image": "/media/audit.png"}), json!({"display_index": 7}))
        }
        "exhibitors" => new(
            json!({"event_id": winter, "kind": "general", "name_ja": "監査", "name_en": "Audit"}),
            json!({"name_en": "Audited"}),
        ),
        "catalog_item_categories" => new(
            json!({"group_id": category["group_id"], "name_ja": "監査", "name_en": "Audit"}),
            json!({"name_en": "Audited"}),
        ),
        "catalog_items" => new(
            json!({"event_id": winter, "company_id": company, "category_id": category["id"], "name_ja": "監査", "name_en": "Audit"}),
            json!({"name_en": "Audited"}),
        ),
        "hub_notifications" => new(
            json!({"event_id": winter, "title": "Audit", "content": "監査", "publish_at": "2026-11-20T00:00", "start_at": "2026-12-12T20:00", "locale": "jp", "category": "official_stream"}),
            json!({"is_strong_recommended": true}),
        ),
        "hub_tags" => new(json!({"name_ja": "監査", "name_en": "Audit"}), json!({"name_en": "Audited"})),
        "ambassadors" => {
            let user = app.user("audited_ambassador").await.user.id;
            new(json!({"user_id": user, "generation": 9, "team_type": "japan_team"}), json!({"is_inactive": true}))
        }
        "exhibitor_notifications" => new(
            json!({"title_ja": "監査", "title_en": "Audit", "description_ja": "本文", "description_en": "Text", "published_at": "2026-11-20T00:00"}),
            json!({"title_en": "Audited"}),
        ),
        "entry_plans" => new(
            json!({"event_id": winter, "world_id": world, "exhibition_category": "space", "name_ja": "監査", "name_en": "Audit", "maximum": 3, "fee": 1000}),
            json!({"fee": 2000}),
        ),
        "lottery_runs" => {
            let summer = first(app, admin, "events", r#"{"permalink":"2027Summer"}"#).await["id"].clone();
            new(json!({"event_id": summer, "round": "first"}), json!({}))
        }
        "inquiry_categories" => new(json!({"name_ja": "監査", "name_en": "Audit"}), json!({"name_en": "Audited"})),
        "redirect_rules" => new(
            json!({"slug": "audited", "target": "/2026Winter/worlds", "is_active": true}),
            json!({"permanent": true}),
        ),
        "vrc_redirects" => new(
            json!({"event_id": winter, "url_key": "audited", "url": "https://example.com/audit"}),
            json!({"url": "https://example.com/audited"}),
        ),
        "streamers" => {
            let user = app.user("audited_streamer").await.user.id;
            old(&json!(user), json!({"attribute": "certificated_streamer"}))
        }
        "circles" => old(
            &first(app, admin, "circles", "{}").await["id"],
            json!({"is_suspended": true, "suspension_reason": "監査"}),
        ),
        "applications" => {
            let listed = call(app, admin, Method::Get, "/admin/api/applications", None).await;
            let correctable = listed.body.as_array().unwrap().iter().find(|a| a["corrections"][0].is_string()).cloned();
            let correctable = correctable.expect("an application staff may correct");
            old(&correctable["id"], json!({"lottery_status": correctable["corrections"][0], "reason": "監査のため"}))
        }
        "inquiries" => {
            let (status, _, _) = app
                .post_json(
                    "/api/v1/inquiry",
                    &json!({"email": "fan@example.com", "message": "監査", "inquiry_category_id": 1, "agreement": true}),
                )
                .await;
            assert_eq!(status, 201);
            old(&first(app, admin, "inquiries", "{}").await["id"], json!({"handling": "resolved"}))
        }
        "asset_versions" => {
            // The demo exhibitor's assets, through the real pipeline.
            let rocket = app.client.rocket();
            let storage = rocket.state::<vmarket::storage::Storage>().expect("storage");
            let data_dir = &rocket.state::<vmarket::http::Site>().expect("site").config.data_dir;
            vmarket::assets::demo::seed(&app.db, storage, data_dir, app.clock.now()).await.expect("demo assets");
            let uploaded = first(app, admin, "asset_versions", r#"{"upload_status":"uploaded"}"#).await;
            old(&uploaded["id"], json!({"upload_status": "failed", "reason": "監査のため"}))
        }
        "store_items" => {
            // The demo exhibitor's table on sale, from their demo upload.
            let rocket = app.client.rocket();
            let storage = rocket.state::<vmarket::storage::Storage>().expect("storage");
            let data_dir = &rocket.state::<vmarket::http::Site>().expect("site").config.data_dir;
            vmarket::assets::demo::seed(&app.db, storage, data_dir, app.clock.now()).await.expect("demo assets");
            vmarket::store::demo::seed(&app.db, app.clock.now()).await.expect("demo store");
            old(&first(app, admin, "store_items", "{}").await["id"], json!({"is_forced_private": true, "fee": 15}))
        }
        "avatar_parts" => {
            // A part of the demo exhibitor's basic hair bundle.
            let rocket = app.client.rocket();
            let storage = rocket.state::<vmarket::storage::Storage>().expect("storage");
            let data_dir = &rocket.state::<vmarket::http::Site>().expect("site").config.data_dir;
            vmarket::assets::demo::seed(&app.db, storage, data_dir, app.clock.now()).await.expect("demo assets");
            use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
            let bundle = vmarket::db::entities::asset::Entity::find()
                .filter(vmarket::db::entities::asset::Column::Name.eq(vmarket::assets::demo::PART_BUNDLES[0]))
                .one(&app.db)
                .await
                .unwrap()
                .expect("the demo bundle");
            new(
                json!({"name": "監査", "part_type": "hair", "asset_id": bundle.id, "avatar_maker_version": 1}),
                json!({"name": "監査済み", "part_type": "hair", "asset_id": bundle.id, "avatar_maker_version": 2}),
            )
        }
        "vrchat_account_links" => {
            // A link of the admin's (users make links through VRChat; staff only remove them).
            use sea_orm::{ActiveModelTrait, Set};
            let link = vmarket::db::entities::vrchat_account_link::ActiveModel {
                user_id: Set(admin.user.id),
                vrchat_id: Set("usr_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d".into()),
                display_name: Set("監査".into()),
                user_icon: Set(String::new()),
                bio: Set(String::new()),
                linked_at: Set(app.clock.now()),
                updated_at: Set(app.clock.now()),
                ..Default::default()
            }
            .insert(&app.db)
            .await
            .unwrap();
            old(&json!(link.id), json!({}))
        }
        "box_submissions" => {
            // The demo exhibitor's demo avatar, submitted for review.
            let rocket = app.client.rocket();
            let storage = rocket.state::<vmarket::storage::Storage>().expect("storage");
            let data_dir = &rocket.state::<vmarket::http::Site>().expect("site").config.data_dir;
            vmarket::assets::demo::seed(&app.db, storage, data_dir, app.clock.now()).await.expect("demo assets");
            use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
            let avatar = vmarket::db::entities::asset::Entity::find()
                .filter(vmarket::db::entities::asset::Column::Name.eq("こはくちゃん（デモアバター）"))
                .one(&app.db)
                .await
                .unwrap()
                .expect("the demo avatar");
            let fields = vmarket::forms::box_submission::BoxSubmissionFields {
                asset_id: avatar.id,
                pose_id: 1,
                face_id: 1,
                name: "こはく".into(),
                author: "ともしび工房".into(),
                website: String::new(),
                comment: String::new(),
            };
            let model =
                vmarket::store::model::box_submission::create(&app.db, avatar.user_id, &fields, 3, app.clock.now())
                    .await
                    .expect("a draft");
            vmarket::store::model::box_submission::submit(&app.db, &model, app.clock.now()).await.expect("sent");
            old(&json!(model.id), json!({"status": "review_approved"}))
        }
        "asset_settings" => {
            old(&first(app, admin, "asset_settings", "{}").await["id"], json!({"max_bytes": 1_048_576}))
        }
        "asset_rule_sets" => new(
            json!({"key": "audited", "name_ja": "監査", "name_en": "Audit",
                   "rules": [{"rule_id": "polygons", "severity": "warning", "limit": {"max_triangles": 1000}}]}),
            json!({"name_en": "Audited"}),
        ),
        "ingame_emotes" => new(
            json!({"name": "監査", "name_en": "Audit", "icon_url": "https://example.com/e.png",
                   "json_url": "https://example.com/e.json"}),
            json!({"is_blacklist": true}),
        ),
        "ingame_chat_blocks" => {
            let user = first(app, admin, "users", "{}").await["id"].clone();
            new(json!({"user_id": user, "reason": "監査"}), json!({"reason": "audited"}))
        }
        "ingame_chat_messages" => {
            let token = crate::ingame::signed_in_game(app, admin, "audit").await;
            let body = json!({"message_type": "Text", "message": "監査"});
            let (status, said) =
                crate::ingame::send(app, Method::Post, "/ingame/chat/audit/messages", &token, Some(body)).await;
            assert_eq!(status, 201, "{said}");
            old(&said["id"], json!({"hidden": true}))
        }
        "preset_homes" => new(
            json!({"platform_code": "vket_cloud", "name_ja": "監査", "name_en": "Audit", "order": 9,
                   "scene_url": "/static/booth-maker/homes/stall.glb", "width": 4, "height": 3, "depth": 4,
                   "published": true}),
            json!({"name_en": "Audited"}),
        ),
        "housing_scenes" => {
            // A booth of the admin's own, in a demo home.
            vmarket::booth::model::home::ensure_demo_homes(&app.db, app.clock.now()).await.unwrap();
            let (_, homes) = admin.get_json("/api/v1/booth_maker/preset_homes").await;
            let body = json!({"name": "監査", "preset_home_id": homes[0]["id"]});
            let (status, made) = admin.post_json("/api/v1/booth_maker/scenes", &body).await;
            assert_eq!(status, 201, "{made}");
            old(&made["id"], json!({"world_code": "audit", "published": true}))
        }
        "tool_releases" => new(
            json!({"version": "9.9.9", "package_name": "audit.unitypackage", "download_url": "https://example.com/audit.zip"}),
            json!({"is_published": true}),
        ),
        "event_slots" => {
            // A paid application of the demo data's, placed in a new area of its plan's world.
            let slot = first(app, admin, "event_slots", "{}").await;
            let world = slot["world_id"].as_i64().unwrap();
            let path = format!("/admin/api/worlds/{world}");
            let mut areas = call(app, admin, Method::Get, &path, None).await.body["areas"].as_array().cloned().unwrap();
            areas.push(json!({"name": "監査", "number": 99}));
            let saved = call(app, admin, Method::Put, &path, Some(&json!({"areas": areas}))).await;
            let area =
                saved.body["areas"].as_array().unwrap().iter().find(|a| a["number"] == 99).unwrap()["id"].clone();
            old(&slot["id"], json!({"world_area_id": area, "number": 1}))
        }
        "slot_submissions" => {
            // A booth submitted for one of the demo data's slots.
            let slot = first(app, admin, "event_slots", "{}").await["id"].as_i64().unwrap() as i32;
            let id = crate::exhibit::submitted(app, slot, admin.user.id).await;
            old(
                &json!(id),
                json!({"inspection_status": "needs_fix", "findings": [{"rule_id": null, "reason": "監査", "blocking": true}]}),
            )
        }
        "users" => {
            let user = app.user("audited_user").await.user.id;
            old(&json!(user), json!({"role": "qa_tester"}))
        }
        _ => None,
    }
}

async fn log(app: &TestApp) -> Vec<audit_log::Model> {
    audit_log::Entity::find().order_by_asc(audit_log::Column::Id).all(&app.db).await.unwrap()
}

fn json_of(text: &Option<String>) -> Value {
    text.as_deref().map(|t| serde_json::from_str(t).unwrap()).unwrap_or(Value::Null)
}

/// Every field the snapshot kept says what the API answered.
fn kept_from(snapshot: &Value, record: &Value, what: &str) {
    let fields = snapshot.as_object().unwrap_or_else(|| panic!("{what}: a snapshot, not {snapshot}"));
    assert!(fields.contains_key("id"), "{what}: the snapshot names the record");
    for (key, value) in fields {
        if key == "reason" {
            continue;
        }
        assert_eq!(Some(value), record.get(key), "{what}: {key}");
    }
}

/// Makes the audit table refuse (or take again) every insert.
async fn refuse_audit(app: &TestApp, refuse: bool) {
    let backend = app.db.get_database_backend();
    let statements: &[&str] = match (backend, refuse) {
        (DatabaseBackend::Sqlite, true) => {
            &["CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END"]
        }
        (DatabaseBackend::Sqlite, false) => &["DROP TRIGGER audit_refused"],
        (_, true) => &[
            "CREATE OR REPLACE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$",
            "CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_refused()",
        ],
        (_, false) => &["DROP TRIGGER audit_refused ON audit_log"],
    };
    for sql in statements {
        app.db.execute_raw(Statement::from_string(backend, *sql)).await.unwrap();
    }
}

/// Sends a write twice: first while the audit table refuses it (500, and what `probe` lists or
/// shows does not change), then for real; checks it left exactly one audit row, and returns the
/// answer and the row.
async fn write_audited(
    app: &TestApp,
    admin: &Actor<'_>,
    (method, path, body): (Method, &str, Option<&Value>),
    probe: &str,
    what: &str,
) -> (Answer, audit_log::Model) {
    let rows = log(app).await.len();
    let seen = call(app, admin, Method::Get, probe, None).await;
    refuse_audit(app, true).await;
    let refused = call(app, admin, method, path, body).await;
    refuse_audit(app, false).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (500, Some("internal_error")), "{what}");
    let still = call(app, admin, Method::Get, probe, None).await;
    assert_eq!(
        (still.status, still.content_range, still.body),
        (seen.status, seen.content_range, seen.body),
        "{what}: no change without its audit row"
    );
    assert_eq!(log(app).await.len(), rows);
    let answer = call(app, admin, method, path, body).await;
    assert!(matches!(answer.status, 200 | 201), "{what}: {} {:?}", answer.status, answer.body);
    let after = log(app).await;
    assert_eq!(after.len(), rows + 1, "{what}: one audit row");
    (answer, after.last().unwrap().clone())
}

#[rocket::async_test]
async fn every_write_of_every_resource_leaves_one_audit_row_in_its_transaction() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let mut audited = Vec::new();
    for resource in resources() {
        let writes: Vec<Action> = [Action::Create, Action::Edit, Action::Delete]
            .into_iter()
            .filter(|a| resource.actions.contains(a))
            .filter(|a| !ELSEWHERE.iter().any(|(r, action, _)| *r == resource.name && action == a))
            .collect();
        if writes.is_empty() {
            continue;
        }
        let name = resource.name;
        let fixture = fixture(&app, &admin, name).await.unwrap_or_else(|| panic!("{name} writes: give it a fixture"));
        let base = format!("/admin/api/{name}");

        let id = if writes.contains(&Action::Create) {
            let body = fixture.create.as_ref().expect("a body to create");
            let listed = list_path(&base, Some(r#"["id","DESC"]"#), Some("[0,4]"), None);
            let what = format!("{name} create");
            let (created, row) = write_audited(&app, &admin, (Method::Post, &base, Some(body)), &listed, &what).await;
            let id = created.body["id"].as_i64().unwrap();
            assert_eq!(
                (row.resource.as_str(), row.record_id.clone(), row.action.as_str()),
                (name, id.to_string(), "create")
            );
            assert_eq!(json_of(&row.before), Value::Null);
            kept_from(&json_of(&row.after), &created.body, &format!("{name} create"));
            audited.push(format!("{name} create"));
            id
        } else {
            fixture.existing.expect("an existing record to edit")
        };

        let path = format!("{base}/{id}");
        if writes.contains(&Action::Edit) {
            let before = call(&app, &admin, Method::Get, &path, None).await.body;
            let what = format!("{name} edit");
            let (edited, row) =
                write_audited(&app, &admin, (Method::Put, &path, Some(&fixture.change)), &path, &what).await;
            assert_eq!(
                call(&app, &admin, Method::Get, &path, None).await.body,
                edited.body,
                "{name}: the edit is stored as answered"
            );
            assert_eq!(
                (row.resource.as_str(), row.record_id.clone(), row.action.as_str()),
                (name, id.to_string(), "edit")
            );
            kept_from(&json_of(&row.before), &before, &format!("{name} edit before"));
            kept_from(&json_of(&row.after), &edited.body, &format!("{name} edit after"));
            for (field, value) in fixture.change.as_object().unwrap().iter().filter(|(f, _)| *f != "reason") {
                assert_eq!(&edited.body[field], value, "{name}: {field} changed");
                let after = json_of(&row.after);
                if after.get(field).is_some() {
                    assert_eq!(&after[field], value, "{name}: the log has the new {field}");
                }
            }
            audited.push(format!("{name} edit"));
        }

        if writes.contains(&Action::Delete) {
            let before = call(&app, &admin, Method::Get, &path, None).await.body;
            let what = format!("{name} delete");
            let (_, row) = write_audited(&app, &admin, (Method::Delete, &path, None), &path, &what).await;
            assert_eq!(call(&app, &admin, Method::Get, &path, None).await.status, 404, "{name}: deleted");
            assert_eq!(
                (row.resource.as_str(), row.record_id.clone(), row.action.as_str()),
                (name, id.to_string(), "delete")
            );
            kept_from(&json_of(&row.before), &before, &format!("{name} delete"));
            assert_eq!(json_of(&row.after), Value::Null);
            audited.push(format!("{name} delete"));
        }
    }
    assert!(audited.len() >= 60, "{} writes audited: {audited:?}", audited.len());
}
