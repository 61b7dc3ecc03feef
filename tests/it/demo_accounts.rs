//! The demo sign-in accounts of `vmarket seed demo`: they sign in at the built-in account
//! service with the one documented password, as the demo users they are linked to and with their
//! staff roles; a production deployment never gets them.

use std::path::PathBuf;
use std::process::Command;

use sea_orm::{EntityTrait, PaginatorTrait};
use vmarket::db::entities::{account, user};
use vmarket::model::user::Role;

use crate::support::TestApp;
use crate::support::html::Doc;

/// The demo password the README documents.
const DEMO_PASSWORD: &str = "vmarket-demo-2026";

/// Signs in at the account service as `email` with `password` through the browser flow;
/// returns the mypage's greeting, or `None` when the sign-in was refused.
async fn sign_in(app: &TestApp, email: &str, password: &str) -> Option<String> {
    let (_, html) = app.open_account_page("/mypage").await;
    let (status, location, _) =
        app.submit("/account/auth/sign_in", &html, &[("email", email), ("password", password)]).await;
    if status != 303 {
        return None;
    }
    let (path, status, html) = app.follow(location.expect("a redirect")).await;
    assert_eq!((path.as_str(), status), ("/mypage", 200));
    Some(Doc::parse(&html).text("[data-testid=greeting]"))
}

#[rocket::async_test]
async fn demo_accounts_sign_in_as_the_demo_users_with_their_roles() {
    let app = TestApp::builder().live().build().await;
    assert_eq!(
        sign_in(&app, "exhibitor@demo.vmarket.test", DEMO_PASSWORD).await.as_deref(),
        Some("楓こはくさん、こんにちは。"),
        "the exhibitor is the demo user Kohaku Kaede"
    );
    let browser = TestApp::builder().live().build().await;
    assert_eq!(sign_in(&browser, "exhibitor@demo.vmarket.test", "wrong password").await, None);
    assert_eq!(
        sign_in(&browser, "admin@demo.vmarket.test", DEMO_PASSWORD).await.as_deref(),
        Some("デモ管理者さん、こんにちは。")
    );

    let roles: Vec<(String, String, Role)> = {
        let mut rows = Vec::new();
        for a in account::Entity::find().all(&app.db).await.unwrap() {
            let u = user::Model::by_sub(&app.db, &a.sub).await.unwrap().expect("every demo account has its user");
            assert_eq!(u.vmarket_id, a.vmarket_id);
            assert_eq!(u.email.as_deref(), Some(a.email.as_str()));
            rows.push((a.email, u.vmarket_id, u.role));
        }
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    };
    let expected = [
        ("admin@demo.vmarket.test", "demo_admin", Role::Admin),
        ("director@demo.vmarket.test", "demo_director", Role::Director),
        ("exhibitor@demo.vmarket.test", "kaede_kohaku", Role::None),
        ("friend@demo.vmarket.test", "tsukishiro_noa", Role::None),
        ("qa@demo.vmarket.test", "demo_qa", Role::QaTester),
        ("uc_staff@demo.vmarket.test", "demo_uc_staff", Role::UcStaff),
    ];
    let expected: Vec<(String, String, Role)> =
        expected.iter().map(|(e, h, r)| (e.to_string(), h.to_string(), *r)).collect();
    assert_eq!(roles, expected);
    // Linked, not duplicated: the two demo users kept their rows.
    let noa = user::Model::by_sub(&app.db, "demo-hub-tsukishiro_noa").await.unwrap().expect("demo user");
    assert_eq!(noa.email.as_deref(), Some("friend@demo.vmarket.test"));
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `vmarket seed demo` against a fresh SQLite database in `environment`; returns its output.
fn seed_in(tmp: &tempfile::TempDir, environment: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vmarket"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("ROCKET_")) {
        cmd.env_remove(key);
    }
    let out = cmd
        .current_dir(repo())
        .args(["seed", "demo"])
        .env("ROCKET_DATABASE_URL", format!("sqlite://{}?mode=rwc", tmp.path().join("v.db").display()))
        .env("ROCKET_DATA_DIR", tmp.path().join("data"))
        .env("ROCKET_ENVIRONMENT", environment)
        .output()
        .expect("vmarket runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[rocket::async_test]
async fn production_gets_no_demo_accounts_and_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let out = seed_in(&tmp, "production");
    assert!(
        out.contains("demo sign-in accounts not created: environment is production"),
        "the operator is told why: {out}"
    );
    let db = vmarket::db::connect(&format!("sqlite://{}", tmp.path().join("v.db").display())).await.unwrap();
    assert_eq!(account::Entity::find().count(&db).await.unwrap(), 0);

    let tmp = tempfile::tempdir().unwrap();
    let out = seed_in(&tmp, "development");
    assert!(out.contains("created now: exhibitor@demo.vmarket.test, friend@demo.vmarket.test"), "{out}");
    let db = vmarket::db::connect(&format!("sqlite://{}", tmp.path().join("v.db").display())).await.unwrap();
    assert_eq!(account::Entity::find().count(&db).await.unwrap(), 6);
}
