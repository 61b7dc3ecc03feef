//! The staff console's door, role by role: `/admin` and `GET /admin/api/session` (the only route
//! behind a `Staff<R>` guard so far, `Staff<AnyStaff>`) let each staff role in and report its
//! part of DOMAIN.md's role table; a signed-in user without a role is refused in their language;
//! a signed-out visitor is sent to sign in.

use rocket::http::{Cookie, Method};
use sea_orm::{ActiveModelTrait, Set};
use serde_json::{Map, Value, json};
use vmarket::db::entities::user;
use vmarket::model::user::Role;

use crate::support::actors::Via;
use crate::support::html::Doc;
use crate::support::{TestApp, at};

const SESSION: &str = "/admin/api/session";

/// DOMAIN.md "Staff roles", one row per area of the console (and issue 27's row for assets);
/// columns admin, director, uc_staff, qa_tester ("-": the area is not shown).
const ROLE_TABLE: [(&str, [&str; 4]); 9] = [
    ("event", ["write", "write", "read", "read"]),
    ("exhibitors", ["write", "write", "write", "read"]),
    ("lottery", ["write", "write", "-", "read"]),
    ("payments", ["read_and_act", "read", "read", "-"]),
    ("support", ["write", "write", "write", "read"]),
    ("users", ["write", "-", "read", "-"]),
    ("time_travel", ["write", "write", "-", "write"]),
    ("audit", ["read", "read", "-", "-"]),
    ("assets", ["write", "read", "read", "read"]),
];

/// The staff roles in the table's column order, with their names on the wire.
const ROLES: [(Role, &str); 4] =
    [(Role::Admin, "admin"), (Role::Director, "director"), (Role::UcStaff, "uc_staff"), (Role::QaTester, "qa_tester")];

/// The `access` object the session should report for the role in `column`.
fn access_of(column: usize) -> Value {
    let areas: Map<String, Value> = ROLE_TABLE
        .iter()
        .filter(|(_, row)| row[column] != "-")
        .map(|(area, row)| (area.to_string(), json!(row[column])))
        .collect();
    Value::Object(areas)
}

/// A dist folder with a console page, as `npm run build` makes it.
fn console_dist() -> std::path::PathBuf {
    let dir = tempfile::tempdir().unwrap().keep();
    std::fs::create_dir_all(dir.join("admin")).unwrap();
    std::fs::write(
        dir.join("admin/index.html"),
        "<!doctype html><html><head><title>admin</title></head><body><div id=root></div></body></html>",
    )
    .unwrap();
    dir
}

async fn console_app() -> TestApp {
    TestApp::builder().live().dist_dir(console_dist()).build().await
}

#[rocket::async_test]
async fn each_staff_role_gets_the_console_and_its_part_of_the_role_table() {
    let app = console_app().await;
    for (column, (role, name)) in ROLES.into_iter().enumerate() {
        let staff = app.as_staff(role).await;
        // The session, as the console asks for it (cookie) and as an API client would (bearer).
        for via in [Via::Cookie, Via::Bearer] {
            let (status, session) = staff.via(via).get_json(SESSION).await;
            assert_eq!(status, 200, "{name} via {via:?}: {session}");
            assert_eq!(session["role"], name);
            assert_eq!(session["id"], staff.user.id);
            assert_eq!(session["vmarket_id"], staff.user.vmarket_id);
            assert_eq!(session["name_ja"], staff.user.name_ja);
            assert_eq!(session["access"], access_of(column), "{name}: DOMAIN.md's role table");
        }
        // The console itself, at its root and at a client-side route, with its style nonce and
        // the CSRF token its scripts send.
        // `/admin/worlds` also has the shape of an event's worlds page (`/<permalink>/worlds`);
        // `/en/admin/…` is the same console (it picks its language in the browser).
        for path in
            ["/admin", "/admin/lottery_runs", "/admin/worlds", "/admin/worlds?filter=%7B%7D", "/en/admin/worlds"]
        {
            let res = staff.via(Via::Cookie).request(Method::Get, path).dispatch().await;
            assert_eq!(res.status().code, 200, "{name} {path}");
            let csp = res.headers().get_one("Content-Security-Policy").unwrap().to_string();
            let doc = Doc::parse(&res.into_string().await.unwrap());
            assert_eq!(doc.count("div#root"), 1, "{name} {path}: the app");
            let nonce = doc.attr("meta[name=csp-nonce]", "content");
            assert!(csp.contains(&format!("style-src 'self' 'nonce-{nonce}';")), "{csp}");
            assert!(csp.contains("script-src 'self';"), "{csp}");
            assert_eq!(doc.attr("meta[name=csrf-token]", "content").len(), 64);
        }
    }
    let (status, body) = app.get_json("/admin/api/no_such_resource").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "the API never answers with the app");
}

#[rocket::async_test]
async fn a_user_without_a_role_is_refused_in_their_language() {
    let app = console_app().await;
    let visitor = app.with_user("curious").await;

    // The API: 403 `forbidden`, by bearer and by cookie, in the requested language.
    for via in [Via::Bearer, Via::Cookie] {
        let (status, body) = visitor.via(via).get_json(SESSION).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")), "{via:?}");
        assert_eq!(body["message"], "この操作を行う権限がありません。");
        assert!(body.get("access").is_none(), "{body}");
    }
    let (_, body) = visitor.get_json(&format!("{SESSION}?lang=en")).await;
    assert_eq!(body["message"], "You are not allowed to do this.");

    // The console: a 403 page, never the app, in Japanese by default …
    for path in ["/admin", "/admin/events"] {
        let (status, html) = visitor.page(path).await;
        assert_eq!(status, 403, "{path}");
        let doc = Doc::parse(&html);
        assert_eq!(doc.attr("html", "lang"), "ja");
        assert_eq!(doc.text("[data-testid=error-detail]"), "このページはバーチャルマーケットのスタッフ専用です。");
        assert_eq!(doc.count("div#root") + doc.count("meta[name=csp-nonce]"), 0, "{path}: not the app");
    }
    // … in English when they chose it on the site …
    let res = visitor
        .via(Via::Cookie)
        .request(Method::Get, "/admin")
        .cookie(Cookie::new("VUEI18N_MANUAL_LOCALE", "en"))
        .dispatch()
        .await;
    assert_eq!(res.status().code, 403);
    let doc = Doc::parse(&res.into_string().await.unwrap());
    assert_eq!(doc.text("[data-testid=error-detail]"), "This page is for Virtual Market staff only.");
    // … and when they last signed in in English.
    let mut row: user::ActiveModel = visitor.user.clone().into();
    row.lang = Set("en".into());
    row.update(&app.db).await.unwrap();
    let (status, html) = visitor.page("/admin").await;
    assert_eq!(status, 403);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("html", "lang"), "en");
    assert_eq!(doc.text("[data-testid=error-detail]"), "This page is for Virtual Market staff only.");
}

#[rocket::async_test]
async fn the_role_is_read_on_every_request() {
    let app = console_app().await;
    let director = app.as_staff(Role::Director).await;
    assert_eq!(director.get_json(SESSION).await.0, 200);
    // The role is taken away (`vmarket user grant-role … none`): the same token is refused at once.
    director.user.clone().set_role(&app.db, Role::None, app.clock.now()).await.unwrap();
    let (status, body) = director.get_json(SESSION).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")));
    assert_eq!(director.page("/admin").await.0, 403);
    // A new role counts at once as well.
    director.user.clone().set_role(&app.db, Role::QaTester, app.clock.now()).await.unwrap();
    let (status, body) = director.get_json(SESSION).await;
    assert_eq!((status, body["role"].as_str()), (200, Some("qa_tester")));
    assert_eq!(body["access"], access_of(3));
}

#[rocket::async_test]
async fn signed_out_visitors_are_sent_to_sign_in() {
    let app = console_app().await;
    for (path, next) in [("/admin", "%2Fadmin"), ("/admin/events", "%2Fadmin%2Fevents")] {
        let res = app.get(path).await;
        assert_eq!(res.status().code, 303, "{path}");
        assert_eq!(res.headers().get_one("Location"), Some(format!("/auth/login?next={next}&auto=1").as_str()));
    }
    let (status, body) = app.get_json(SESSION).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (401, Some("unauthorized"), Some("ログインが必要です。"))
    );

    // An admin whose token has expired is signed out too, until a fresh token comes.
    let mut admin = app.as_staff(Role::Admin).await;
    app.clock.set(at("2026-11-23T03:00:00Z"));
    let (status, body) = admin.get_json(&format!("{SESSION}?lang=en")).await;
    assert_eq!((status, body["message"].as_str()), (401, Some("Please sign in.")));
    let res = admin.via(Via::Cookie).request(Method::Get, "/admin").dispatch().await;
    assert_eq!(res.headers().get_one("Location"), Some("/auth/login?next=%2Fadmin&auto=1"));
    admin.renew().await;
    assert_eq!(admin.get_json(SESSION).await.1["role"], "admin");
    assert_eq!(admin.page("/admin").await.0, 200);
}
