//! Password reset and change at the built-in account service (issue 26 item 6): a mailed link
//! (in the account's language) sets a new password once within 30 minutes; asking answers the
//! same whether or not the address has an account; asking is rate limited; the change needs the
//! current password; both sign the account out everywhere — site tokens and in-game sessions.

use chrono::Duration;
use rocket::http::{ContentType, Cookie};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use vmarket::db::entities::{account, mail};
use vmarket::types::Lang;

use crate::ingame::{get_with, signed_in_game};
use crate::support::TestApp;
use crate::support::actors::{Actor, TEST_PASSWORD};
use crate::support::html::Doc;

const NEW_PASSWORD: &str = "a brand new secret";

/// The password-reset mails sent so far, oldest first.
async fn reset_mails(app: &TestApp) -> Vec<mail::Model> {
    mail::Entity::find()
        .filter(mail::Column::Kind.eq("password_reset"))
        .order_by_asc(mail::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
}

/// The site path of the link in `mail` (`/account/auth/password/reset?lang=…&token=…`).
fn link_of(mail: &mail::Model) -> String {
    let at = mail.text_body.find("/account/auth/password/reset?").expect("a reset link");
    mail.text_body[at..].split_whitespace().next().unwrap().to_string()
}

/// `who` asks for a link for `email` on the forgot page; status and HTML.
async fn ask(who: &Actor<'_>, email: &str) -> (u16, String) {
    let form = who.form("/account/auth/password/forgot", "[data-testid=forgot-form]").await;
    let (status, _, html) = who.submit(&form, &[("email", email)], None).await;
    (status, html)
}

/// `who` sets `password` (twice: `confirmation`) on the page of `link`; status and HTML.
async fn set_new(who: &Actor<'_>, link: &str, password: &str, confirmation: &str) -> (u16, String) {
    let (status, html) = who.page(link).await;
    assert_eq!(status, 200, "{html}");
    let form = crate::support::actors::Form::parse(&html, "[data-testid=reset-form]", link);
    let (status, _, html) =
        who.submit(&form, &[("password", password), ("password_confirmation", confirmation)], None).await;
    (status, html)
}

#[rocket::async_test]
async fn a_mailed_link_sets_a_new_password_once_and_signs_out_everywhere() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("reset_owner").await;
    let stranger = app.with_user("reset_stranger").await;
    let game = signed_in_game(&app, &owner, "reset-game").await;
    assert_eq!(owner.get_json("/api/v1/user/circles").await.0, 200);

    // The same answer for an address with an account and one without; one mail.
    let (status, known) = ask(&stranger, "Reset_Owner@example.com").await;
    let (unknown_status, unknown) = ask(&stranger, "nobody@example.com").await;
    assert_eq!((status, unknown_status), (200, 200));
    let text = |html: &str, email: &str| Doc::parse(html).text("[data-testid=password-sent]").replace(email, "…");
    assert_eq!(text(&known, "Reset_Owner@example.com"), text(&unknown, "nobody@example.com"), "no enumeration");
    let mails = reset_mails(&app).await;
    assert_eq!(mails.len(), 1);
    assert_eq!((mails[0].recipient.as_str(), mails[0].lang.as_str()), ("reset_owner@example.com", "ja"));
    assert!(mails[0].subject.contains("パスワード再設定"), "{}", mails[0].subject);
    let link = link_of(&mails[0]);

    // Bad new passwords keep the form; a good one is set, and everything signed in ends.
    assert_eq!(set_new(&stranger, &link, NEW_PASSWORD, "another secret!").await.0, 422, "must match");
    assert_eq!(set_new(&stranger, &link, "short", "short").await.0, 422, "8 characters at least");
    let (status, done) = set_new(&stranger, &link, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(Doc::parse(&done).count("[data-testid=password-done]"), 1);
    assert!(account::Model::authenticate(&app.db, "reset_owner@example.com", NEW_PASSWORD).await.unwrap().is_some());
    assert!(account::Model::authenticate(&app.db, "reset_owner@example.com", TEST_PASSWORD).await.unwrap().is_none());
    assert_eq!(owner.get_json("/api/v1/user/circles").await.0, 401, "the old site token is dead");
    assert_eq!(get_with(&app, "/ingame/user", &game).await.0, 401, "the game is signed out too");

    // The link works once.
    let (status, html) = stranger.page(&link).await;
    assert_eq!(status, 410);
    assert_eq!(Doc::parse(&html).count("[data-testid=password-invalid]"), 1);
    let token = link.rsplit("token=").next().unwrap();
    let replay = app
        .client
        .post("/account/auth/password/reset")
        .header(ContentType::Form)
        .cookie(Cookie::new("vmarket_csrf", "x".repeat(64)))
        .body(format!(
            "token={token}&password=third+secret+here&password_confirmation=third+secret+here&csrf_token={}",
            "x".repeat(64)
        ))
        .dispatch()
        .await;
    assert_eq!(replay.status().code, 410, "a used token sets nothing");
    assert!(account::Model::authenticate(&app.db, "reset_owner@example.com", NEW_PASSWORD).await.unwrap().is_some());
}

#[rocket::async_test]
async fn a_link_expires_after_thirty_minutes_and_comes_in_the_accounts_language() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("reset_late").await;
    owner.user.set_lang(&app.db, Lang::En).await.unwrap();
    ask(&owner, "reset_late@example.com").await;
    let mail = reset_mails(&app).await.pop().unwrap();
    assert_eq!(mail.lang, "en");
    assert!(mail.subject.contains("Set a new password"), "{}", mail.subject);
    assert!(link_of(&mail).contains("lang=en"));
    app.clock.set(app.clock.now() + Duration::minutes(31));
    let (status, html) = owner.page(&link_of(&mail)).await;
    assert_eq!(status, 410, "{html}");
    assert!(Doc::parse(&html).text("[data-testid=password-invalid]").contains("expired"), "{html}");
}

#[rocket::async_test]
async fn asking_for_links_is_rate_limited() {
    let app = TestApp::builder().live().config(|c| c.sign_in_per_minute = 3).build().await;
    let who = app.with_user("reset_flood").await;
    let mut statuses = Vec::new();
    for n in 0..4 {
        statuses.push(ask(&who, &format!("someone{n}@example.com")).await.0);
    }
    assert_eq!(statuses, [200, 200, 200, 429]);
}

#[rocket::async_test]
async fn a_signed_in_account_changes_its_password_with_the_current_one() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("change_owner").await;
    let game = signed_in_game(&app, &owner, "change-game").await;
    let now = app.clock.now();
    let account = account::Model::by_email(&app.db, "change_owner@example.com").await.unwrap().unwrap();
    let mine = account.start_session(&app.db, now).await.unwrap();
    let elsewhere = account.start_session(&app.db, now).await.unwrap();
    let csrf = "c".repeat(64);
    let post = |session: String, current: &str| {
        let body = format!(
            "current_password={}&password=changed+secret&password_confirmation=changed+secret&csrf_token={csrf}&lang=en",
            current.replace(' ', "+")
        );
        app.client
            .post("/account/auth/password/change")
            .header(ContentType::Form)
            .cookie(Cookie::new("vmarket_sso", session))
            .cookie(Cookie::new("vmarket_csrf", csrf.clone()))
            .body(body)
            .dispatch()
    };

    let signed_out = app.client.get("/account/auth/password/change?lang=en").dispatch().await;
    assert_eq!(signed_out.status().code, 401);
    let res = post(mine.clone(), "not my password").await;
    assert_eq!(res.status().code, 422);
    assert!(res.into_string().await.unwrap().contains("The current password is incorrect."));

    let res = post(mine.clone(), TEST_PASSWORD).await;
    assert_eq!(res.status().code, 200);
    let fresh = res.cookies().get("vmarket_sso").map(|c| c.value().to_string()).expect("a fresh session");
    assert_ne!(fresh, mine);
    assert!(account::Model::by_session(&app.db, &fresh, now).await.unwrap().is_some(), "this browser stays");
    for old in [&mine, &elsewhere] {
        assert!(account::Model::by_session(&app.db, old, now).await.unwrap().is_none(), "other sessions end");
    }
    assert_eq!(owner.get_json("/api/v1/user/circles").await.0, 401);
    assert_eq!(get_with(&app, "/ingame/user", &game).await.0, 401);
    assert!(
        account::Model::authenticate(&app.db, "change_owner@example.com", "changed secret").await.unwrap().is_some()
    );
}
