//! The role matrix: every staff role, a signed-in user without one and an anonymous visitor ×
//! every registered console resource × every action, against DOMAIN.md's role table — and the
//! table the console's `canAccess` reads (`permissions` of `/admin/api/session`) says exactly
//! what the server allows.

use std::collections::BTreeMap;

use rocket::http::{Header, Method};
use serde_json::{Value, json};
use vmarket::admin::api::resources;
use vmarket::admin::permissions::Action;
use vmarket::model::user::Role;

use super::{Answer, answer, call};
use crate::support::TestApp;
use crate::support::actors::{Actor, Via};

const ROLES: [Role; 4] = [Role::Admin, Role::Director, Role::UcStaff, Role::QaTester];

/// What each role may do, per area (DOMAIN.md "Staff roles"), written out independently of the
/// code: `r` read, `w` write, `a` read, reconcile and refund, `-` nothing; columns admin, director,
/// uc_staff, qa_tester.
fn expected_access(area: &str) -> [char; 4] {
    match area {
        "event" => ['w', 'w', 'r', 'r'],
        "exhibitors" => ['w', 'w', 'w', 'r'],
        "lottery" => ['w', 'w', '-', 'r'],
        "payments" => ['a', 'r', 'r', '-'],
        "support" => ['w', 'w', 'w', 'r'],
        "users" => ['w', '-', 'r', '-'],
        "time_travel" => ['w', 'w', '-', 'w'],
        "audit" => ['r', 'r', '-', '-'],
        "assets" => ['w', 'r', 'r', 'r'],
        other => panic!("area {other} is not in DOMAIN.md's table"),
    }
}

fn role_allows(area: &str, role_index: usize, action: Action) -> bool {
    match expected_access(area)[role_index] {
        'w' => true,
        'a' => matches!(action, Action::List | Action::Show | Action::Reconcile | Action::Refund),
        'r' => matches!(action, Action::List | Action::Show),
        _ => false,
    }
}

/// An id of a record of `resource`, if it has any (read as admin).
async fn some_id(app: &TestApp, admin: &Actor<'_>, resource: &str) -> Option<i64> {
    let listed = call(app, admin, Method::Get, &format!("/admin/api/{resource}?range=%5B0%2C0%5D"), None).await;
    assert_eq!(listed.status, 200, "admin lists {resource}: {:?}", listed.body);
    listed.ids().first().copied()
}

/// Sends `action` on `resource` as `who` (`None`: anonymous). Writes carry a body that is not an
/// object, which no resource accepts, and deletions, reconciles and refunds name a record that does not
/// exist: nothing changes.
async fn attempt(app: &TestApp, who: Option<&Actor<'_>>, resource: &str, action: Action, id: Option<i64>) -> Answer {
    let (method, path, body) = match action {
        Action::List => (Method::Get, format!("/admin/api/{resource}"), None),
        Action::Show => (Method::Get, format!("/admin/api/{resource}/{}", id.unwrap_or(999_999)), None),
        Action::Create => (Method::Post, format!("/admin/api/{resource}"), Some(json!([]))),
        Action::Edit => (Method::Put, format!("/admin/api/{resource}/{}", id.unwrap_or(999_999)), Some(json!([]))),
        Action::Delete => (Method::Delete, format!("/admin/api/{resource}/999999"), None),
        Action::Reconcile => (Method::Post, format!("/admin/api/{resource}/999999/reconcile"), None),
        Action::Refund => {
            (Method::Post, format!("/admin/api/{resource}/999999/refund"), Some(json!({"reason": "test"})))
        }
    };
    match who {
        Some(actor) => call(app, actor, method, &path, body.as_ref()).await,
        None => {
            let mut req = app.client.req(method, path);
            if let Some(body) = body {
                req = req.header(rocket::http::ContentType::JSON).body(body.to_string());
            }
            answer(req.dispatch().await).await
        }
    }
}

/// The status an allowed action answers with (see [`attempt`]).
fn allowed_status(action: Action, has_record: bool) -> &'static [u16] {
    match (action, has_record) {
        (Action::List, _) => &[200],
        (Action::Show, true) => &[200],
        (Action::Show | Action::Edit, false) | (Action::Delete | Action::Reconcile | Action::Refund, _) => &[404],
        (Action::Create | Action::Edit, _) => &[422],
    }
}

#[rocket::async_test]
async fn every_role_times_every_resource_times_every_action() {
    let app = TestApp::builder().live().build().await;
    let staff: Vec<Actor> = {
        let mut all = Vec::new();
        for role in ROLES {
            all.push(app.as_staff(role).await);
        }
        all
    };
    let visitor = app.user("plain_visitor").await;
    let admin = &staff[0];
    // One audited write, so that the audit log has a record to show.
    let event = call(&app, admin, Method::Get, "/admin/api/events/13", None).await;
    let saved = call(&app, admin, Method::Put, "/admin/api/events/13", Some(&event.body)).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);

    let mut checked = 0;
    for resource in resources() {
        let id = some_id(&app, admin, resource.name).await;
        let area = resource.area.as_str();
        for action in Action::ALL {
            let offered = resource.actions.contains(&action);
            let anonymous = attempt(&app, None, resource.name, action, id).await;
            assert_eq!(anonymous.status, 401, "anonymous {action:?} {}", resource.name);
            assert_eq!(anonymous.body["code"], "unauthorized");
            let plain = attempt(&app, Some(&visitor), resource.name, action, id).await;
            assert_eq!(
                (plain.status, plain.body["code"].as_str()),
                (403, Some("forbidden")),
                "user {action:?} {}",
                resource.name
            );
            for (index, actor) in staff.iter().enumerate() {
                let got = attempt(&app, Some(actor), resource.name, action, id).await;
                let who = format!("{:?} {action:?} {}", ROLES[index], resource.name);
                if !offered {
                    assert_eq!((got.status, got.body["code"].as_str()), (405, Some("method_not_allowed")), "{who}");
                } else if role_allows(area, index, action) {
                    assert!(
                        allowed_status(action, id.is_some()).contains(&got.status),
                        "{who} is allowed: {} {:?}",
                        got.status,
                        got.body
                    );
                } else {
                    assert_eq!((got.status, got.body["code"].as_str()), (403, Some("forbidden")), "{who} is refused");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= resources().len() * 24);
}

#[rocket::async_test]
async fn the_session_lists_exactly_what_the_server_allows() {
    let app = TestApp::builder().live().build().await;
    for (index, role) in ROLES.into_iter().enumerate() {
        let actor = app.as_staff(role).await;
        let (status, session) = actor.get_json("/admin/api/session").await;
        assert_eq!(status, 200);
        let listed: BTreeMap<String, Vec<String>> = serde_json::from_value(session["permissions"].clone()).unwrap();
        let mut expected = BTreeMap::new();
        for resource in resources() {
            let actions: Vec<String> = Action::ALL
                .into_iter()
                .filter(|a| resource.actions.contains(a) && role_allows(resource.area.as_str(), index, *a))
                .map(|a| a.as_str().to_string())
                .collect();
            if !actions.is_empty() {
                expected.insert(resource.name.to_string(), actions);
            }
        }
        if role_allows("time_travel", index, Action::Edit) {
            expected.insert("time_travel".into(), vec!["show".into(), "edit".into()]);
        }
        assert_eq!(listed, expected, "{role:?}");
    }
}

#[rocket::async_test]
async fn browser_writes_need_the_csrf_token() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let event: Value = call(&app, &director, Method::Get, "/admin/api/events/13", None).await.body;
    let without = app
        .client
        .put("/admin/api/events/13")
        .cookie(rocket::http::Cookie::new("vmarket_token", director.token.clone()))
        .header(rocket::http::ContentType::JSON)
        .header(Header::new("Origin", "https://evil.example"))
        .body(event.to_string())
        .dispatch()
        .await;
    let without = answer(without).await;
    assert_eq!((without.status, without.body["code"].as_str()), (403, Some("csrf_failed")));
    let with = app.request_as(&director, Via::Cookie, Method::Put, "/admin/api/events/13", Some(&event)).await;
    assert_eq!(with.status().code, 200);
}

/// The resources issue 14 lists, by their REST names.
const ISSUE_14: &[&str] = &[
    "events",
    "concepts",
    "worlds",
    "keywords",
    "artists",
    "posters",
    "companies",
    "company_highlights",
    "catalog_items",
    "catalog_item_categories",
    "exhibitors",
    "hub_notifications",
    "hub_tags",
    "ambassadors",
    "streamers",
    "exhibitor_notifications",
    "inquiry_categories",
    "inquiries",
    "redirect_rules",
    "vrc_redirects",
    "circles",
    "entries",
    "applications",
    "entry_plans",
    "lottery_runs",
    "payments",
    "users",
    "audit_log",
];

#[test]
fn the_console_registers_exactly_the_servers_resources_in_the_same_order() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("admin-ui/src");
    let registry = std::fs::read_to_string(root.join("resources.ts")).unwrap();
    let console: Vec<&str> = registry
        .lines()
        .filter_map(|l| l.trim().strip_prefix("{ name: '"))
        .filter_map(|l| l.split('\'').next())
        .collect();
    let server: Vec<&str> = resources().iter().map(|r| r.name).collect();
    assert_eq!(console, server, "admin-ui/src/resources.ts and src/admin/api/resources/mod.rs ALL");
    for name in ISSUE_14 {
        assert!(server.contains(name), "issue 14 lists {name}");
    }
    // Each folder's form pages match what the server offers.
    for resource in resources() {
        let spec = std::fs::read_to_string(root.join(resource.name).join("index.ts")).unwrap();
        let pages = spec.lines().find_map(|l| l.trim().strip_prefix("actions: '")).and_then(|l| l.split('\'').next());
        let has = |a: Action| resource.actions.contains(&a);
        let fits = match pages {
            Some("crud") => resource.actions == Action::CRUD,
            Some("edit") => has(Action::Edit) && !has(Action::Create) && !has(Action::Delete),
            Some("create") => has(Action::Create) && !has(Action::Delete),
            Some("delete") => has(Action::Delete) && !has(Action::Create) && !has(Action::Edit),
            Some("read") => !has(Action::Create) && !has(Action::Delete),
            _ => false,
        };
        assert!(
            fits,
            "{}: the console's `actions: {pages:?}` against the server's {:?}",
            resource.name, resource.actions
        );
    }
}
