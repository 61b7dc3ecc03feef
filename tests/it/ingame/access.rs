//! Whose token opens what: an in-game token opens `/ingame` and nothing of the site (`/api/v1`,
//! `/uploader`, mypage); the site's token and cookie open nothing on `/ingame`; a token dies
//! after 30 days; a user signs out only their own games (404 for anyone else's).

use chrono::Duration;
use rocket::http::{Cookie, Header};

use super::{get_with, signed_in_game};
use crate::support::TestApp;
use crate::support::actors::Form;
use crate::support::html::Doc;

#[rocket::async_test]
async fn an_ingame_token_opens_the_ingame_api_and_nothing_else() {
    let app = TestApp::builder().live().build().await;
    let user = app.with_user("ingame_boundary").await;
    let token = signed_in_game(&app, &user, "boundary-client").await;
    assert_eq!(get_with(&app, "/ingame/user", &token).await.0, 200);

    for path in ["/api/v1/user/circles", "/uploader/assets", "/api/v1/user/active_events"] {
        let (status, body) = get_with(&app, path, &token).await;
        assert_eq!((status, &body["code"]), (401, &"unauthorized".into()), "{path}: {body}");
    }
    let res = app.client.get("/mypage").cookie(Cookie::new("vmarket_token", token.clone())).dispatch().await;
    assert_ne!(res.status().code, 200, "no mypage with an in-game token as the cookie");

    // The site's JWT, as a bearer or as the browser's cookie, is refused on /ingame.
    let (status, body) = get_with(&app, "/ingame/user", &user.token).await;
    assert_eq!((status, &body["code"]), (401, &"unauthorized".into()), "{body}");
    let res = app.client.get("/ingame/user").cookie(Cookie::new("vmarket_token", user.token.clone())).dispatch().await;
    assert_eq!(res.status().code, 401);
    assert_eq!(app.client.get("/ingame/user").dispatch().await.status().code, 401);
    let garbled =
        app.client.get("/ingame/user").header(Header::new("Authorization", "Bearer vmig_0123")).dispatch().await;
    assert_eq!(garbled.status().code, 401);

    // Thirty days on, the token is dead.
    app.clock.set(app.clock.now() + Duration::days(30) + Duration::seconds(1));
    assert_eq!(get_with(&app, "/ingame/user", &token).await.0, 401);
}

#[rocket::async_test]
async fn a_user_signs_out_only_their_own_games() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("ingame_owner").await;
    let stranger = app.with_user("ingame_stranger").await;
    let token = signed_in_game(&app, &owner, "owner-client").await;
    let (_, page) = owner.page("/mypage/ingame").await;
    let revoke = Form::parse(&page, "[data-testid=ingame-session] form", "/mypage/ingame");

    // The stranger posts the owner's revoke URL with their own CSRF field: not found, and the
    // game stays signed in.
    let mine = stranger.form("/mypage/ingame", "[data-testid=ingame-code-form]").await;
    let theirs = Form { action: revoke.action.clone(), ..mine };
    let (status, _, _) = stranger.submit(&theirs, &[], None).await;
    assert_eq!(status, 404);
    assert_eq!(get_with(&app, "/ingame/user", &token).await.0, 200);
    let (_, stranger_page) = stranger.page("/mypage/ingame").await;
    assert_eq!(Doc::parse(&stranger_page).count("[data-testid=ingame-session]"), 0, "only one's own games are listed");

    // Without the page's CSRF field, nothing is revoked either.
    let (status, _, _) = owner.submit(&Form { hidden: Vec::new(), ..revoke.clone() }, &[], None).await;
    assert_eq!(status, 403);
    assert_eq!(get_with(&app, "/ingame/user", &token).await.0, 200);
    let (status, _, _) = owner.submit(&revoke, &[], None).await;
    assert_eq!(status, 303);
    assert_eq!(get_with(&app, "/ingame/user", &token).await.0, 401);
    let (status, _, _) = owner.submit(&revoke, &[], None).await;
    assert_eq!(status, 404, "a revoked session is gone");
}
