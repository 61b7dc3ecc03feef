//! The audit log: each staff write leaves exactly one row (who, when, resource, record, action,
//! before → after) in the same transaction as the write; refused writes leave none; the
//! `audit_log` resource lists the rows with filters and is read-only.

use rocket::http::Method;
use sea_orm::{ConnectionTrait, EntityTrait, PaginatorTrait};
use serde_json::{Value, json};
use vmarket::db::entities::{audit_log, event};
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::{TestApp, at};

async fn entries(app: &TestApp) -> Vec<audit_log::Model> {
    audit_log::Entity::find().all(&app.db).await.unwrap()
}

#[rocket::async_test]
async fn every_write_is_logged_with_the_record_before_and_after() {
    let app = TestApp::builder().live().at(at("2026-11-21T03:00:00Z")).build().await;
    let director = app.as_staff(Role::Director).await;
    let body = json!({"permalink": "audit_me", "version": 30, "name_ja": "監査", "name_en": "Audit", "phases": []});
    let created = call(&app, &director, Method::Post, "/admin/api/events", Some(&body)).await;
    assert_eq!(created.status, 201);
    let id = created.body["id"].as_i64().unwrap();

    app.clock.set(at("2026-11-21T04:00:00Z"));
    let mut changed = created.body.clone();
    changed["name_en"] = json!("Audited");
    assert_eq!(
        call(&app, &director, Method::Put, &format!("/admin/api/events/{id}"), Some(&changed)).await.status,
        200
    );
    app.clock.set(at("2026-11-21T05:00:00Z"));
    assert_eq!(call(&app, &director, Method::Delete, &format!("/admin/api/events/{id}"), None).await.status, 200);

    let rows = entries(&app).await;
    assert_eq!(rows.len(), 3);
    let json = |text: &Option<String>| text.as_deref().map(|t| serde_json::from_str::<Value>(t).unwrap());
    for row in &rows {
        assert_eq!(
            (row.actor_id, row.actor_vmarket_id.as_str(), row.actor_role.as_str()),
            (director.user.id, "staff_director", "director")
        );
        assert_eq!((row.resource.as_str(), row.record_id.clone()), ("events", id.to_string()));
    }
    let actions: Vec<_> = rows.iter().map(|r| r.action.as_str()).collect();
    assert_eq!(actions, ["create", "edit", "delete"]);
    assert_eq!(
        rows.iter().map(|r| r.at).collect::<Vec<_>>(),
        [at("2026-11-21T03:00:00Z"), at("2026-11-21T04:00:00Z"), at("2026-11-21T05:00:00Z")]
    );
    assert_eq!(json(&rows[0].before), None);
    assert_eq!(json(&rows[0].after).unwrap()["name_en"], "Audit");
    assert_eq!(json(&rows[1].before).unwrap()["name_en"], "Audit");
    assert_eq!(json(&rows[1].after).unwrap()["name_en"], "Audited");
    assert_eq!(json(&rows[2].before).unwrap()["permalink"], "audit_me");
    assert_eq!(json(&rows[2].after), None);
}

#[rocket::async_test]
async fn refused_writes_leave_no_entry_and_no_change() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let qa = app.as_staff(Role::QaTester).await;
    let winter = call(&app, &director, Method::Get, "/admin/api/events/13", None).await.body;
    let mut invalid = winter.clone();
    invalid["name_ja"] = json!("");
    assert_eq!(call(&app, &director, Method::Put, "/admin/api/events/13", Some(&invalid)).await.status, 422);
    assert_eq!(call(&app, &director, Method::Delete, "/admin/api/events/13", None).await.status, 409);
    assert_eq!(call(&app, &qa, Method::Put, "/admin/api/events/13", Some(&winter)).await.status, 403);
    assert!(entries(&app).await.is_empty());
    assert_eq!(call(&app, &director, Method::Get, "/admin/api/events/13", None).await.body, winter);
}

#[rocket::async_test]
async fn a_write_whose_entry_cannot_be_stored_does_not_happen() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let mut winter = call(&app, &director, Method::Get, "/admin/api/events/13", None).await.body;
    app.db.execute_unprepared("DROP TABLE audit_log").await.unwrap();
    winter["name_en"] = json!("Unaudited");
    let answer = call(&app, &director, Method::Put, "/admin/api/events/13", Some(&winter)).await;
    assert_eq!((answer.status, answer.body["code"].as_str()), (500, Some("internal_error")));
    let stored = event::Entity::find_by_id(13).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.name_en, "Virtual Market 2026 Winter", "the write was rolled back with its entry");
}

#[rocket::async_test]
async fn staff_read_the_log_with_filters_but_never_write_it() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let director = app.as_staff(Role::Director).await;
    // Tokens live a day: the writes are an hour apart (12:00, 13:00, 14:00 in Japan).
    for (who, id, hour) in [(&admin, 1, "03"), (&director, 11, "04"), (&director, 12, "05")] {
        app.clock.set(at(&format!("2026-11-21T{hour}:00:00Z")));
        let record = call(&app, who, Method::Get, &format!("/admin/api/events/{id}"), None).await.body;
        assert_eq!(call(&app, who, Method::Put, &format!("/admin/api/events/{id}"), Some(&record)).await.status, 200);
    }
    let list = |filter: &str| list_path("/admin/api/audit_log", Some(r#"["at","DESC"]"#), Some("[0,24]"), Some(filter));
    let all = call(&app, &director, Method::Get, &list("{}"), None).await;
    assert_eq!(all.content_range.as_deref(), Some("audit_log 0-2/3"));
    let records: Vec<_> = all.body.as_array().unwrap().iter().map(|r| r["record_id"].as_str().unwrap()).collect();
    assert_eq!(records, ["12", "11", "1"], "newest first");
    assert_eq!(all.body[0]["after"]["permalink"], "2026Summer");

    let by_actor =
        call(&app, &director, Method::Get, &list(&format!(r#"{{"actor_id":{}}}"#, admin.user.id)), None).await;
    assert_eq!(by_actor.body.as_array().unwrap().len(), 1);
    assert_eq!(by_actor.body[0]["actor_vmarket_id"], "staff_admin");
    let by_time = call(
        &app,
        &director,
        Method::Get,
        &list(r#"{"at_gte":"2026-11-21T12:30","at_lte":"2026-11-21T04:00:00Z","resource":"events"}"#),
        None,
    )
    .await;
    assert_eq!(by_time.body.as_array().unwrap().len(), 1);
    assert_eq!(by_time.body[0]["record_id"], "11");
    let other = call(&app, &director, Method::Get, &list(r#"{"resource":"users"}"#), None).await;
    assert_eq!(other.content_range.as_deref(), Some("audit_log */0"));

    let id = all.ids()[0];
    for (method, path) in [
        (Method::Post, "/admin/api/audit_log".to_string()),
        (Method::Put, format!("/admin/api/audit_log/{id}")),
        (Method::Delete, format!("/admin/api/audit_log/{id}")),
    ] {
        let answer = call(&app, &admin, method, &path, Some(&json!({}))).await;
        assert_eq!(answer.status, 405, "{path}");
    }
    assert_eq!(audit_log::Entity::find().count(&app.db).await.unwrap(), 3);
}

#[rocket::async_test]
async fn the_log_shows_only_what_the_viewer_may_read_and_no_email() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let director = app.as_staff(Role::Director).await;
    let someone = app.user("someone").await;
    let user_path = format!("/admin/api/users/{}", someone.user.id);
    let record = call(&app, &admin, Method::Get, &user_path, None).await.body;
    assert!(record["email"].as_str().is_some_and(|e| e.contains('@')), "{record}");
    let changed = call(&app, &admin, Method::Put, &user_path, Some(&json!({"role": "uc_staff"}))).await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    let winter = call(&app, &director, Method::Get, "/admin/api/events/13", None).await.body;
    assert_eq!(call(&app, &director, Method::Put, "/admin/api/events/13", Some(&winter)).await.status, 200);

    let list = list_path("/admin/api/audit_log", Some(r#"["id","ASC"]"#), Some("[0,999]"), None);
    let resources = |answer: &super::Answer| -> Vec<String> {
        answer.body.as_array().unwrap().iter().map(|r| r["resource"].as_str().unwrap().to_string()).collect()
    };
    let seen_by_admin = call(&app, &admin, Method::Get, &list, None).await;
    assert_eq!(resources(&seen_by_admin), ["users", "events"]);
    let entry = &seen_by_admin.body[0];
    assert_eq!(entry["before"], json!({"id": someone.user.id, "vmarket_id": "someone", "role": "none"}));
    assert_eq!(entry["after"], json!({"id": someone.user.id, "vmarket_id": "someone", "role": "uc_staff"}));
    let stored = entries(&app).await;
    assert!(stored.iter().all(|e| !format!("{:?}{:?}", e.before, e.after).contains('@')), "no email is stored");

    // A director may not read users: not in the list, the CSV export (a list), getMany or getOne.
    let seen_by_director = call(&app, &director, Method::Get, &list, None).await;
    assert_eq!(resources(&seen_by_director), ["events"]);
    assert_eq!(seen_by_director.content_range.as_deref(), Some("audit_log 0-0/1"));
    let users_entry = entry["id"].as_i64().unwrap();
    let many = list_path("/admin/api/audit_log", None, None, Some(&format!(r#"{{"id":[{users_entry}]}}"#)));
    assert_eq!(call(&app, &director, Method::Get, &many, None).await.body, json!([]));
    let filtered = list_path("/admin/api/audit_log", None, None, Some(r#"{"resource":"users"}"#));
    assert_eq!(call(&app, &director, Method::Get, &filtered, None).await.body, json!([]));
    let one = call(&app, &director, Method::Get, &format!("/admin/api/audit_log/{users_entry}"), None).await;
    assert_eq!((one.status, one.body["code"].as_str()), (404, Some("not_found")));
    assert_eq!(call(&app, &admin, Method::Get, &format!("/admin/api/audit_log/{users_entry}"), None).await.status, 200);
}

#[rocket::async_test]
async fn two_admins_demoting_each_other_at_once_leave_one_admin() {
    use sea_orm::{ColumnTrait, QueryFilter};
    use vmarket::db::entities::user;
    let app = TestApp::builder().live().build().await;
    let first = app.as_staff(Role::Admin).await;
    let second = app.with_user("second_admin").await;
    // Only these two are admins: the demo's admin is demoted first.
    let demo_admins = user::Entity::find().filter(user::Column::Role.eq(Role::Admin)).all(&app.db).await.unwrap();
    for admin in demo_admins.iter().filter(|a| a.id != first.user.id) {
        let path = format!("/admin/api/users/{}", admin.id);
        assert_eq!(call(&app, &first, Method::Put, &path, Some(&json!({"role": "none"}))).await.status, 200);
    }
    let path = format!("/admin/api/users/{}", second.user.id);
    assert_eq!(call(&app, &first, Method::Put, &path, Some(&json!({"role": "admin"}))).await.status, 200);

    let none = json!({"role": "none"});
    let (demote_second, demote_first) =
        (format!("/admin/api/users/{}?lang=en", second.user.id), format!("/admin/api/users/{}?lang=en", first.user.id));
    let (a, b) = tokio::join!(
        call(&app, &first, Method::Put, &demote_second, Some(&none)),
        call(&app, &second, Method::Put, &demote_first, Some(&none)),
    );
    // One demotion goes through; the other is refused: as the last admin's (409), or — when the
    // first had committed before the second request was let in — because its sender is no
    // admin any more (403).
    let (done, refused) = if a.status == 200 { (&a, &b) } else { (&b, &a) };
    assert_eq!(done.status, 200, "{:?} {:?}", a.body, b.body);
    let refusal = (refused.status, refused.body["code"].as_str());
    assert!(matches!(refusal, (409, Some("last_admin")) | (403, Some("forbidden"))), "{refusal:?}");
    let admins = user::Entity::find().filter(user::Column::Role.eq(Role::Admin)).all(&app.db).await.unwrap();
    assert_eq!(admins.len(), 1, "one admin is left");
}

#[rocket::async_test]
async fn console_writes_are_stamped_with_the_real_time_while_the_site_travels() {
    let app = TestApp::builder().live().at(at("2026-11-21T03:00:00Z")).build().await;
    let director = app.as_staff(Role::Director).await;
    let travelled = call(
        &app,
        &director,
        Method::Put,
        "/api/v1/admin/time_travel",
        Some(&json!({"timestamp": "2027-02-01T12:00"})),
    )
    .await;
    assert_eq!(travelled.status, 200);
    assert_eq!(app.clock.now(), at("2027-02-01T03:00:00Z"), "the site is in February");
    let body = json!({"permalink": "stamped", "version": 31, "name_ja": "刻印", "name_en": "Stamped", "phases": []});
    let created = call(&app, &director, Method::Post, "/admin/api/events", Some(&body)).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    assert_eq!(created.body["created_at"], "2026-11-21T03:00:00Z", "when the staff member acted");
    assert_eq!(created.body["updated_at"], "2026-11-21T03:00:00Z");
    app.clock.set(at("2026-11-21T04:00:00Z"));
    let id = created.body["id"].as_i64().unwrap();
    let mut changed = created.body.clone();
    changed["name_en"] = json!("Stamped again");
    let updated = call(&app, &director, Method::Put, &format!("/admin/api/events/{id}"), Some(&changed)).await;
    assert_eq!(updated.body["updated_at"], "2026-11-21T04:00:00Z");
    assert_eq!(updated.body["created_at"], "2026-11-21T03:00:00Z");
    let rows = entries(&app).await;
    let last = rows.last().unwrap();
    assert_eq!((last.resource.as_str(), last.action.as_str(), last.at), ("events", "edit", at("2026-11-21T04:00:00Z")));
    assert!(rows.iter().all(|r| r.at < at("2026-12-01T00:00:00Z")), "the log's \"when\" is real time");
}
