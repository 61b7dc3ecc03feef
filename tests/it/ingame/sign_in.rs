//! The device sign-in end to end: the game opens a grant and polls; the user types the code on
//! mypage, sees which client asks and allows it; the next poll answers a token, once; mypage
//! lists the signed-in game and signs it out. Refusals use the RFC's names.

use chrono::Duration;
use rocket::futures::future::join_all;
use serde_json::Value;

use super::{DEVICE_GRANT, check_code, decide, get_with, open_grant, poll, post_form};
use crate::support::TestApp;
use crate::support::html::Doc;

#[rocket::async_test]
async fn a_game_signs_in_when_its_user_allows_it_and_its_device_code_works_once() {
    let app = TestApp::builder().live().build().await;
    let user = app.with_named_user("ingame_player", "ゲーム太郎", "Game Taro").await;
    let grant = open_grant(&app, "Vket Cloud (Windows)").await;
    let code = grant["user_code"].as_str().unwrap().to_string();
    assert_eq!((code.len(), &code[4..5]), (9, "-"), "shown as BCDF-GHJK: {grant}");
    assert_eq!(grant["interval"], 5);
    assert_eq!(grant["expires_in"], 600);
    assert!(grant["verification_uri"].as_str().unwrap().ends_with("/mypage/ingame"), "{grant}");
    assert!(grant["verification_uri_complete"].as_str().unwrap().ends_with(&format!("/mypage/ingame?code={code}")));

    // Before the user answers: pending; polling faster than the interval slows the client down.
    let (status, pending) = poll(&app, &grant).await;
    assert_eq!(
        (status, &pending["error"], &pending["code"]),
        (400, &Value::from("authorization_pending"), &pending["error"])
    );
    assert!(!pending["error_description"].as_str().unwrap().is_empty(), "{pending}");
    let (_, fast) = poll(&app, &grant).await;
    assert_eq!(fast["error"], "slow_down", "a second poll at the same instant");
    app.clock.set(app.clock.now() + Duration::seconds(11));
    assert_eq!(poll(&app, &grant).await.1["error"], "authorization_pending", "after the longer interval");

    // The link from the game fills the code in; the check names the client before anything
    // is allowed; lower case and spaces are fine.
    let (status, page) = user.page(&format!("/mypage/ingame?code={code}")).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&page).attrs("#code", "value"), vec![code.clone()]);
    let (status, _, confirm) = check_code(&user, "", &format!(" {} ", code.to_lowercase())).await;
    assert_eq!(status, 200, "{confirm}");
    let doc = Doc::parse(&confirm);
    assert!(doc.text("[data-testid=ingame-asking]").contains("「Vket Cloud (Windows)」"), "{confirm}");
    assert_eq!(doc.text("[data-testid=ingame-code]"), code);
    assert_eq!(poll(&app, &grant).await.1["error"], "slow_down", "a check decides nothing");

    let location = decide(&user, "", &code, "allow").await;
    assert_eq!(location, "/mypage/ingame?done=allowed");
    let (_, done) = user.page(&location).await;
    assert!(Doc::parse(&done).text("[data-testid=done]").contains("サインインが完了"), "{done}");

    let (status, token) = poll(&app, &grant).await;
    assert_eq!(status, 200, "{token}");
    let access = token["access_token"].as_str().unwrap().to_string();
    assert!(access.starts_with("vmig_"), "{token}");
    assert_eq!(
        (&token["token_type"], &token["expires_in"], &token["scope"]),
        (&"Bearer".into(), &(30 * 86_400).into(), &"ingame".into())
    );
    assert_eq!(poll(&app, &grant).await.1["error"], "invalid_grant", "the device code is spent");

    let (status, me) = get_with(&app, "/ingame/user?lang=en", &access).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(
        (me["id"].as_i64(), &me["name"], &me["client_name"]),
        (Some(user.user.id.into()), &"Game Taro".into(), &"Vket Cloud (Windows)".into())
    );

    // Mypage lists the game and signs it out; the token then opens nothing.
    let (_, page) = user.page("/en/mypage/ingame").await;
    let doc = Doc::parse(&page);
    assert_eq!(doc.count("[data-testid=ingame-session]"), 1, "{page}");
    assert!(doc.text("[data-testid=ingame-session]").contains("Vket Cloud (Windows)"));
    let revoke = crate::support::actors::Form::parse(&page, "[data-testid=ingame-session] form", "/en/mypage/ingame");
    let (status, location, _) = user.submit(&revoke, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/en/mypage/ingame?done=revoked")));
    assert_eq!(get_with(&app, "/ingame/user", &access).await.0, 401, "revoked");
    let (_, page) = user.page("/en/mypage/ingame").await;
    assert_eq!(Doc::parse(&page).count("[data-testid=ingame-no-sessions]"), 1, "{page}");
}

#[rocket::async_test]
async fn a_refused_grant_answers_access_denied_and_an_unanswered_one_expires() {
    let app = TestApp::builder().live().build().await;
    let user = app.with_user("ingame_refuser").await;
    let refused = open_grant(&app, "unknown-app").await;
    let location = decide(&user, "/en", refused["user_code"].as_str().unwrap(), "deny").await;
    assert_eq!(location, "/en/mypage/ingame?done=denied");
    assert_eq!(poll(&app, &refused).await.1["error"], "access_denied");

    let forgotten = open_grant(&app, "forgotten-app").await;
    app.clock.set(app.clock.now() + Duration::minutes(11));
    assert_eq!(poll(&app, &forgotten).await.1["error"], "expired_token");
    let (status, _, html) = check_code(&user, "/en", forgotten["user_code"].as_str().unwrap()).await;
    assert_eq!(status, 422, "an expired code cannot be allowed");
    assert!(Doc::parse(&html).text("#code-error").contains("not valid, or it has expired"), "{html}");
}

/// Of twenty polls of an allowed grant at once, exactly one receives a token: the grant is
/// spent by one conditional update.
#[rocket::async_test]
async fn twenty_polls_at_once_of_an_allowed_grant_receive_one_token() {
    let app = TestApp::builder().live().build().await;
    let user = app.with_user("ingame_racer").await;
    let grant = open_grant(&app, "racing-client").await;
    decide(&user, "", grant["user_code"].as_str().unwrap(), "allow").await;
    let device = grant["device_code"].as_str().unwrap();
    let fields = [("grant_type", DEVICE_GRANT), ("device_code", device)];
    let polls = (0..20).map(|_| post_form(&app, "/ingame/auth/token", &fields));
    let answers = join_all(polls).await;
    let tokens = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(tokens, 1, "{answers:?}");
    assert!(answers.iter().all(|(s, b)| *s == 200 || b["error"] == "invalid_grant"), "{answers:?}");
    let sessions = vmarket::db::entities::ingame_session::Model::live_of(&app.db, user.user.id, app.clock.now()).await;
    assert_eq!(sessions.unwrap().len(), 1);
}
