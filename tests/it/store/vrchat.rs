//! Linking a VRChat account (issue 31), against the fake VRChat of `scripts/fakes/vrchat.py`
//! over real HTTP: a user names their account, gets a code, puts it in the account's bio and is
//! linked; the code works once; an account links to one user; unlinking frees it. Bad input and
//! a silent VRChat get clear answers and store nothing; a stale code is refused; users racing for
//! one account link at most one of them (with a control run without the unique key, on
//! PostgreSQL, which links more than one).

use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseBackend, EntityTrait, Statement, TransactionTrait};
use serde_json::json;
use vmarket::db::entities::{vrchat_account_link, vrchat_link_challenge};

use crate::support::fakes::{Fake, Kind, VRCHAT_AUTH_COOKIE};
use crate::support::html::Doc;
use crate::support::{TestApp, at};

const HANA: &str = "usr_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/// A live app whose VRChat is `fake` (none: linking not offered), calls timing out after 1 s.
async fn app_with(fake: Option<&Fake>) -> TestApp {
    let base = fake.map(|f| format!("{}/api/1", f.base));
    TestApp::builder()
        .live()
        .config(move |c| {
            if let Some(base) = base {
                c.vrchat_api_base = base;
                c.vrchat_auth_cookie = VRCHAT_AUTH_COOKIE.into();
            }
            c.vrchat_timeout_ms = 1000;
        })
        .build()
        .await
}

/// Makes (or replaces) VRChat user `id` on the fake, with `bio`.
async fn vrchat_user(fake: &Fake, id: &str, name: &str, bio: &str) {
    let made = fake.post("/_fake/users", json!({"id": id, "displayName": name, "bio": bio})).await;
    assert_eq!(made["id"], id, "{made}");
}

#[rocket::async_test]
async fn a_user_links_their_account_by_a_code_in_its_bio() {
    let Some(fake) = Fake::start(Kind::Vrchat) else { return };
    let app = app_with(Some(&fake)).await;
    vrchat_user(&fake, HANA, "Hana", "よろしくね").await;
    let me = app.user("vrc_hana").await;
    let rival = app.user("vrc_rival").await;

    let (status, state) = me.get_json("/api/v1/store/vrchat/link").await;
    assert_eq!((status, state["offered"].as_bool(), state["link"].is_null()), (200, Some(true), true), "{state}");
    let (status, begun) = me
        .post_json("/api/v1/store/vrchat/link", &json!({"vrchat_id": format!("https://vrchat.com/home/user/{HANA}/")}))
        .await;
    assert_eq!(status, 201, "a profile link is read as its id: {begun}");
    let code = begun["challenge"]["code"].as_str().unwrap().to_string();
    assert!(code.starts_with("vmarket-") && code.len() == 18, "{code}");
    assert_eq!(begun["challenge"]["display_name"], "Hana");
    assert_eq!(begun["edit_bio_url"], format!("https://vrchat.com/home/user/{HANA}"));

    let (status, err) = me.post_json("/api/v1/store/vrchat/link/verify", &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("vrchat_code_not_in_bio")), "{err}");
    vrchat_user(&fake, HANA, "Hana", &format!("よろしくね {code}")).await;
    let (status, linked) = me.post_json("/api/v1/store/vrchat/link/verify", &json!({})).await;
    assert_eq!(status, 200, "{linked}");
    assert_eq!(
        (linked["link"]["vrchat_id"].as_str(), linked["link"]["display_name"].as_str()),
        (Some(HANA), Some("Hana"))
    );
    assert!(linked["link"]["bio"].as_str().unwrap().contains(&code), "the profile as read");
    assert!(linked["challenge"].is_null());
    let (status, err) = me.post_json("/api/v1/store/vrchat/link/verify", &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("vrchat_no_challenge")), "the code works once: {err}");

    // The account is taken; the user cannot link a second one; unlinking frees it.
    let (status, err) = rival.post_json("/api/v1/store/vrchat/link", &json!({"vrchat_id": HANA})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("vrchat_account_taken")), "{err}");
    let (status, err) = me.post_json("/api/v1/store/vrchat/link", &json!({"vrchat_id": HANA})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("vrchat_already_linked")), "{err}");
    assert_eq!(me.delete("/api/v1/store/vrchat/link").await.0, 204);
    assert_eq!(me.delete("/api/v1/store/vrchat/link").await.0, 404, "nothing left to unlink");
    let (status, begun) = rival.post_json("/api/v1/store/vrchat/link", &json!({"vrchat_id": HANA})).await;
    assert_eq!(status, 201, "{begun}");
    let (_, theirs) = rival.get_json("/api/v1/store/vrchat/link").await;
    assert_ne!(theirs["challenge"]["code"].as_str(), Some(code.as_str()), "each proof has its own code");

    // The service account's session never reaches the database.
    let links = vrchat_account_link::Entity::find().all(&app.db).await.unwrap();
    let challenges = vrchat_link_challenge::Entity::find().all(&app.db).await.unwrap();
    assert!(!format!("{links:?}{challenges:?}").contains(VRCHAT_AUTH_COOKIE));
}

#[rocket::async_test]
async fn bad_ids_a_silent_vrchat_and_a_stale_code_get_clear_answers() {
    let Some(fake) = Fake::start(Kind::Vrchat) else { return };
    let app = app_with(Some(&fake)).await;
    app.clock.set(at("2026-12-01T00:00:00Z"));
    vrchat_user(&fake, HANA, "Hana", "").await;
    let me = app.user("vrc_bad").await;
    let start = |id: &str| json!({"vrchat_id": id});

    for (raw, key) in [
        ("../auth/user", "not an id"),
        ("usr_not-a-uuid", "not an id"),
        ("USR_0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D", "not an id"),
        ("", "not an id"),
        ("usr_ffffffff-ffff-4fff-8fff-ffffffffffff", "no such user"),
    ] {
        let (status, err) = me.post_json("/api/v1/store/vrchat/link", &start(raw)).await;
        assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some("vrchat_id")), "{raw} ({key}): {err}");
    }
    // A typo costs no VRChat read: fifteen of them leave the per-minute reads untouched.
    for _ in 0..15 {
        assert_eq!(me.post_json("/api/v1/store/vrchat/link", &start("kaede")).await.0, 422);
    }
    let (status, err) = me.post_json("/api/v1/store/vrchat/link", &json!({"id": 3})).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")), "{err}");

    // VRChat silent past the timeout: 502, nothing stored.
    fake.fault("GET", "/api/1/users/", "hang", 1).await;
    let (status, err) = me.post_json("/api/v1/store/vrchat/link", &start(HANA)).await;
    assert_eq!((status, err["code"].as_str()), (502, Some("vrchat_unavailable")), "{err}");
    let (_, state) = me.get_json("/api/v1/store/vrchat/link").await;
    assert!(state["challenge"].is_null(), "{state}");
    fake.heal().await;

    // A code past its half hour is refused.
    let (status, _) = me.post_json("/api/v1/store/vrchat/link", &start(HANA)).await;
    assert_eq!(status, 201);
    app.clock.set(at("2026-12-01T00:31:00Z"));
    let (status, err) = me.post_json("/api/v1/store/vrchat/link/verify", &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("vrchat_challenge_expired")), "{err}");
    let (_, state) = me.get_json("/api/v1/store/vrchat/link").await;
    assert!(state["challenge"].is_null(), "an expired proof is not shown: {state}");

    // Profile reads are limited per user.
    let mut last = 0;
    for _ in 0..12 {
        last = me.post_json("/api/v1/store/vrchat/link", &start(HANA)).await.0;
    }
    assert_eq!(last, 429, "past the per-minute reads");

    // Without a service account, linking is not offered.
    let bare = app_with(None).await;
    let someone = bare.user("vrc_none").await;
    let (_, state) = someone.get_json("/api/v1/store/vrchat/link").await;
    assert_eq!(state["offered"], false);
    assert_eq!(someone.post_json("/api/v1/store/vrchat/link", &start(HANA)).await.0, 501);
    let (status, html) = someone.page("/en/mypage/vrchat").await;
    assert!(status == 200 && html.contains("data-testid=\"vrchat-not-offered\""), "{status}");
}

#[rocket::async_test]
async fn the_mypage_page_links_and_unlinks_without_scripts() {
    let Some(fake) = Fake::start(Kind::Vrchat) else { return };
    let app = app_with(Some(&fake)).await;
    vrchat_user(&fake, HANA, "Hana", "").await;
    let me = app.user("vrc_page").await;

    let form = me.form("/mypage/vrchat", "[data-testid=vrchat-start-form]").await;
    let (status, _, page) = me.submit(&form, &[("vrchat_id", "hana")], None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&page);
    assert_eq!(doc.attrs(".field__error", "data-field"), ["vrchat_id"], "{page}");
    assert_eq!(doc.attr("#vrchat_id", "value"), "hana", "the input is kept");
    let (status, location, _) = me.submit(&form, &[("vrchat_id", HANA)], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat?done=started")));
    let (_, page) = me.page("/mypage/vrchat?done=started").await;
    let doc = Doc::parse(&page);
    let code = doc.text("[data-testid=vrchat-code]");
    assert!(code.starts_with("vmarket-"), "{page}");
    assert!(doc.text("[data-testid=vrchat-challenge] h2").contains("Hana"));

    let confirm = me.form("/mypage/vrchat", "form:has([data-testid=vrchat-verify])").await;
    let (status, location, _) = me.submit(&confirm, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat?error=vrchat_code_not_in_bio")));
    let (_, page) = me.page("/en/mypage/vrchat?error=vrchat_code_not_in_bio").await;
    assert!(Doc::parse(&page).text("[data-testid=vrchat-refused]").contains("not in your VRChat bio"), "{page}");
    vrchat_user(&fake, HANA, "Hana", &code).await;
    let (status, location, _) = me.submit(&confirm, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat?done=linked")));
    let (_, page) = me.page("/mypage/vrchat?done=linked").await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.text("[data-testid=vrchat-name]"), "Hana");
    assert_eq!(doc.count("[data-testid=vrchat-start-form]"), 0, "linked: no form to link another");

    let unlink = me.form("/mypage/vrchat", "form:has([data-testid=vrchat-unlink])").await;
    let (status, location, _) = me.submit(&unlink, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat?done=unlinked")));
    let (_, page) = me.page("/mypage/vrchat").await;
    assert_eq!(Doc::parse(&page).count("[data-testid=vrchat-linked]"), 0);
}

/// `users` users each prove account HANA (whose bio holds every code) and verify at once; how
/// many links are stored. On PostgreSQL the race is made certain rather than left to timing: a
/// gate transaction holds `vrchat_account_links` in SHARE mode (reads pass, inserts wait) until
/// every proof has looked for an existing link and is waiting to insert its own, then lets them
/// all go at once — the worst interleaving, every time.
async fn verify_concurrently(app: &TestApp, fake: &Fake, users: usize, round: usize) -> usize {
    let client = vmarket::store::vrchat::client::VrchatClient::from_config(&app.config).expect("a client");
    let mut ids = Vec::new();
    let mut codes = Vec::new();
    for i in 0..users {
        let actor = app.user(&format!("vrc_race_{round}_{i}")).await;
        let id = vmarket::store::vrchat::link::vrchat_id(HANA).expect("an id");
        let made = vmarket::store::vrchat::link::start(&app.db, &client, actor.user.id, &id, app.clock.now()).await;
        codes.push(made.unwrap_or_else(|e| panic!("a proof in round {round}: {e:?}")).code);
        ids.push(actor.user.id);
    }
    vrchat_user(fake, HANA, "Hana", &codes.join(" ")).await;
    let postgres = app.db.get_database_backend() == DatabaseBackend::Postgres;
    let gate = if postgres {
        let gate = app.db.begin().await.unwrap();
        gate.execute_unprepared("LOCK TABLE vrchat_account_links IN SHARE MODE").await.unwrap();
        Some(gate)
    } else {
        None
    };
    let db = Arc::new(app.db.clone());
    let now = app.clock.now();
    let handles: Vec<_> = ids
        .into_iter()
        .map(|id| {
            let (db, client) = (db.clone(), client.clone());
            rocket::tokio::spawn(
                async move { vmarket::store::vrchat::link::verify(db.as_ref(), &client, id, now).await },
            )
        })
        .collect();
    if let Some(gate) = gate {
        let waiting = "SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON l.relation = c.oid \
                       WHERE c.relname = 'vrchat_account_links' AND NOT l.granted";
        for _ in 0..200 {
            let row = app.db.query_one_raw(Statement::from_string(DatabaseBackend::Postgres, waiting)).await.unwrap();
            let n: i64 = row.and_then(|r| r.try_get("", "n").ok()).unwrap_or(0);
            if usize::try_from(n).unwrap_or(0) >= users {
                break;
            }
            rocket::tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        gate.commit().await.unwrap();
    }
    for h in handles {
        // The losers answer 409; what counts is what was stored.
        let _ = h.await.unwrap();
    }
    vrchat_account_link::Entity::find().all(&app.db).await.unwrap().len()
}

#[rocket::async_test]
async fn users_racing_for_one_account_link_at_most_one() {
    let Some(fake) = Fake::start(Kind::Vrchat) else { return };
    let app = app_with(Some(&fake)).await;
    vrchat_user(&fake, HANA, "Hana", "").await;
    assert_eq!(verify_concurrently(&app, &fake, 6, 0).await, 1);
}

/// The control: without the unique key on the VRChat account the same race links it to more
/// than one user, so the test above can fail. On PostgreSQL only: SQLite runs one writer at a
/// time, and a proof's first write (using up its code) makes the others wait, so there the race
/// cannot interleave with or without the key (nor can the gate above be built).
#[rocket::async_test]
async fn control_without_the_account_key_a_race_links_more_than_one() {
    let Some(fake) = Fake::start(Kind::Vrchat) else { return };
    let app = app_with(Some(&fake)).await;
    if app.db.get_database_backend() != DatabaseBackend::Postgres {
        return;
    }
    vrchat_user(&fake, HANA, "Hana", "").await;
    app.db
        .execute_unprepared("DROP INDEX idx_vrchat_account_links_vrchat_id")
        .await
        .expect("the control drops the key");
    let linked = verify_concurrently(&app, &fake, 6, 0).await;
    assert!(linked > 1, "without the key one account is not guarded ({linked} link)");
}
