//! Deletions never take other records along. Every foreign key cascades, so a console delete
//! of a row that others refer to would silently remove them (an event its entries, a world its
//! entry plans and with them applications and payments): every deletable resource × the demo's
//! records is tried, and after each answer no table but the record's own (and its declared parts)
//! has lost a row; a refusal is a 409 naming what still uses the record. The database keeps the
//! money rows itself: a raw delete that would cascade into a payment fails. A world whose event's
//! records refer to it cannot move to another event's concept.

use std::collections::BTreeMap;

use rocket::http::Method;
use sea_orm::{ConnectionTrait, DatabaseBackend, EntityTrait, Statement};
use serde_json::json;
use vmarket::admin::api::resources;
use vmarket::admin::permissions::Action;
use vmarket::db::entities::{event_entry_application, event_entry_plan, order, payment_history};
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;

/// The tables a deleted record of `resource` takes along: its own parts, nobody else's data.
fn parts_of(resource: &str) -> &'static [&'static str] {
    match resource {
        "events" => &["event_phases"],
        "concepts" => &["concept_keywords", "concept_artists"],
        "worlds" => &["world_keywords", "world_artists", "world_areas"],
        "hub_notifications" => &["hub_notification_tags"],
        "exhibitor_notifications" => &["exhibitor_notification_reads"],
        _ => &[],
    }
}

/// Every table of the schema (no search index shadows) with its row count.
async fn counts(app: &TestApp) -> BTreeMap<String, i64> {
    let backend = app.db.get_database_backend();
    let tables_sql = match backend {
        DatabaseBackend::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%_fts%' AND name NOT LIKE 'sqlite_%'"
        }
        _ => "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()",
    };
    let rows = app.db.query_all_raw(Statement::from_string(backend, tables_sql)).await.unwrap();
    let tables: Vec<String> = rows.iter().map(|r| r.try_get::<String>("", "name").unwrap()).collect();
    let union = tables
        .iter()
        .map(|t| format!("SELECT '{t}' AS name, COUNT(*) AS n FROM \"{t}\""))
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let rows = app.db.query_all_raw(Statement::from_string(backend, union)).await.unwrap();
    rows.iter().map(|r| (r.try_get::<String>("", "name").unwrap(), r.try_get::<i64>("", "n").unwrap())).collect()
}

/// The ids of `resource`'s records: all of them up to 100, else 50 spread over the list.
async fn ids(app: &TestApp, admin: &crate::support::actors::Actor<'_>, resource: &str) -> Vec<i64> {
    let path = list_path(&format!("/admin/api/{resource}"), None, Some("[0,999]"), None);
    let all = call(app, admin, Method::Get, &path, None).await.ids();
    if all.len() <= 100 { all } else { all.iter().step_by(all.len() / 50).copied().collect() }
}

#[rocket::async_test]
async fn no_console_delete_takes_other_records_along() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let deletable: Vec<_> = resources().iter().filter(|r| r.actions.contains(&Action::Delete)).collect();
    assert!(deletable.len() >= 18, "{} deletable resources", deletable.len());
    let (mut deleted, mut refused) = (0, 0);
    // Twice: a record refused the first time may be free once what used it is gone.
    for _ in 0..2 {
        for resource in &deletable {
            for id in ids(&app, &admin, resource.name).await {
                let before = counts(&app).await;
                let answer =
                    call(&app, &admin, Method::Delete, &format!("/admin/api/{}/{id}?lang=en", resource.name), None)
                        .await;
                let after = counts(&app).await;
                let own = [match resource.name {
                    "entry_plans" => "event_entry_plans",
                    other => other,
                }];
                let lost: Vec<_> = before
                    .iter()
                    .filter(|(t, n)| after.get(*t).copied().unwrap_or(0) < **n)
                    .map(|(t, _)| t.as_str())
                    .filter(|t| !own.contains(t) && !parts_of(resource.name).contains(t))
                    .collect();
                assert!(lost.is_empty(), "deleting {} {id} ({}) took rows of {lost:?}", resource.name, answer.status);
                match answer.status {
                    200 => {
                        assert_eq!(after[own[0]], before[own[0]] - 1, "{} {id}", resource.name);
                        deleted += 1;
                    }
                    409 => {
                        assert_eq!(after, before, "a refusal changes nothing");
                        let details = answer.body["details"].as_array().unwrap();
                        assert!(
                            !details.is_empty(),
                            "{} {id}: the refusal names what uses it: {:?}",
                            resource.name,
                            answer.body
                        );
                        assert!(
                            answer.body["message"].as_str().unwrap().contains("Still used by:"),
                            "{:?}",
                            answer.body
                        );
                        refused += 1;
                    }
                    other => panic!("deleting {} {id}: {other} {:?}", resource.name, answer.body),
                }
            }
        }
    }
    assert!(deleted > 100 && refused > 20, "{deleted} deleted, {refused} refused");
}

/// The id of the demo's 2027Spring event.
async fn spring(app: &TestApp, who: &crate::support::actors::Actor<'_>) -> i32 {
    let path = list_path("/admin/api/events", None, None, Some(r#"{"permalink":"2027Spring"}"#));
    call(app, who, Method::Get, &path, None).await.ids()[0] as i32
}

#[rocket::async_test]
async fn an_event_or_world_in_use_is_refused_naming_what_uses_it() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    // 2027Spring: a drawn first round with wins being paid.
    let spring = spring(&app, &director).await;
    let event = call(&app, &director, Method::Delete, &format!("/admin/api/events/{spring}?lang=en"), None).await;
    assert_eq!((event.status, event.body["code"].as_str()), (409, Some("event_not_empty")));
    let named: Vec<_> = event.attributes();
    for kind in ["concepts", "worlds", "entry_plans", "entries"] {
        assert!(named.iter().any(|n| n == kind), "{kind} in {named:?}");
    }
    let message = event.body["message"].as_str().unwrap();
    assert!(message.contains("Entry plans ("), "{message}");
    let ja = call(&app, &director, Method::Delete, &format!("/admin/api/events/{spring}"), None).await;
    assert!(ja.body["message"].as_str().unwrap().contains("出展プラン"), "{:?}", ja.body);

    let plan = event_entry_plan::Entity::find().all(&app.db).await.unwrap();
    let world_id = plan.iter().find(|p| p.event_id == spring).unwrap().world_id;
    let world = call(&app, &director, Method::Delete, &format!("/admin/api/worlds/{world_id}?lang=en"), None).await;
    assert_eq!((world.status, world.body["code"].as_str()), (409, Some("in_use")), "{:?}", world.body);
    assert!(world.attributes().contains(&"entry_plans".to_string()), "{:?}", world.body);
    assert_eq!(event_entry_plan::Entity::find().all(&app.db).await.unwrap().len(), plan.len());
}

#[rocket::async_test]
async fn a_world_with_its_events_records_stays_with_its_event() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let spring = spring(&app, &director).await;
    let plans = event_entry_plan::Entity::find().all(&app.db).await.unwrap();
    let plan = plans.iter().find(|p| p.event_id == spring).unwrap();
    let mut world =
        call(&app, &director, Method::Get, &format!("/admin/api/worlds/{}", plan.world_id), None).await.body;
    // A concept of another event.
    let concepts = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/concepts", None, None, Some(r#"{"event_id":13}"#)),
        None,
    )
    .await;
    let elsewhere = concepts.ids()[0];
    world["concept_id"] = json!(elsewhere);
    let moved =
        call(&app, &director, Method::Put, &format!("/admin/api/worlds/{}?lang=en", plan.world_id), Some(&world)).await;
    assert_eq!((moved.status, moved.body["code"].as_str()), (409, Some("world_event_fixed")), "{:?}", moved.body);
    assert!(moved.attributes().contains(&"entry_plans".to_string()));
    let stored = call(&app, &director, Method::Get, &format!("/admin/api/worlds/{}", plan.world_id), None).await.body;
    assert_eq!(stored["event_id"], spring, "it stays");

    // A concept of the same event is fine; so is moving a world nothing refers to.
    let same = call(
        &app,
        &director,
        Method::Get,
        &list_path("/admin/api/concepts", None, None, Some(&format!(r#"{{"event_id":{spring}}}"#))),
        None,
    )
    .await;
    world["concept_id"] = json!(same.ids()[0]);
    let kept = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{}", plan.world_id), Some(&world)).await;
    assert_eq!(kept.status, 200, "{:?}", kept.body);
    let lone = call(
        &app,
        &director,
        Method::Post,
        "/admin/api/worlds",
        Some(&json!({"concept_id": same.ids()[0], "name_ja": "空き地", "name_en": "Vacant lot", "exhibition_platform": "pc", "venue": "vrc"})),
    )
    .await;
    let mut lone_world = lone.body.clone();
    lone_world["concept_id"] = json!(elsewhere);
    let lone_id = lone_world["id"].as_i64().unwrap();
    let moved = call(&app, &director, Method::Put, &format!("/admin/api/worlds/{lone_id}"), Some(&lone_world)).await;
    assert_eq!((moved.status, moved.body["event_id"].as_i64()), (200, Some(13)), "{:?}", moved.body);
}

#[rocket::async_test]
async fn the_database_keeps_payments_whatever_is_deleted() {
    let app = TestApp::builder().build().await;
    // The demo's settled payment: ともしび工房's 2026Winter booth.
    let paid = payment_history::Entity::find().one(&app.db).await.unwrap().expect("the demo's payment");
    let application =
        event_entry_application::Entity::find_by_id(paid.application_id).one(&app.db).await.unwrap().unwrap();
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(&app.db).await.unwrap().unwrap();
    let backend = app.db.get_database_backend();
    for (table, id) in [
        ("payment_histories", paid.id),
        ("orders", paid.order_id),
        ("event_entry_applications", application.id),
        ("event_entries", application.entry_id),
        ("event_entry_plans", plan.id),
        ("worlds", plan.world_id),
        ("events", plan.event_id),
        ("users", paid.user_id),
    ] {
        let raw = format!("DELETE FROM {table} WHERE id = {id}");
        let refused = app.db.execute_raw(Statement::from_string(backend, raw.clone())).await;
        let error = refused.expect_err(&raw).to_string();
        assert!(error.contains("money_rows_kept"), "{raw}: {error}");
    }
    assert_eq!(payment_history::Entity::find().all(&app.db).await.unwrap(), [paid]);
    assert_eq!(order::Entity::find().all(&app.db).await.unwrap().len(), 1);
    assert!(event_entry_plan::Entity::find_by_id(plan.id).one(&app.db).await.unwrap().is_some());
}
