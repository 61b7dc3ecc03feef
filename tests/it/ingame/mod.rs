//! The in-game API (`/ingame`, issue 30) as a game client and its user meet it: the device
//! sign-in end to end (`sign_in.rs`), whose tokens open what (`access.rs`), refusals of bad
//! input and guessing (`bad_input.rs`) and the user's assets in game (`assets.rs`).
//! The helpers act as the game does (form posts to `/ingame/auth/…`) and as the user's browser
//! does on `/mypage/ingame` (the page's forms, with its CSRF field).

mod access;
mod assets;
mod bad_input;
mod chat;
mod emotes;
mod people;
mod presence;
mod sign_in;

use rocket::http::{ContentType, Header};
use serde_json::Value;

use crate::support::TestApp;
use crate::support::actors::{Actor, json_of};

/// The grant type of a poll.
pub const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// Posts `fields` as a form to `path` without credentials, as a game client does.
pub async fn post_form(app: &TestApp, path: &str, fields: &[(&str, &str)]) -> (u16, Value) {
    let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
    json_of(app.client.post(path.to_string()).header(ContentType::Form).body(body).dispatch().await).await
}

/// Opens a device grant for `client_id`; the answer (asserting 200).
pub async fn open_grant(app: &TestApp, client_id: &str) -> Value {
    let (status, grant) = post_form(app, "/ingame/auth/device", &[("client_id", client_id)]).await;
    assert_eq!(status, 200, "{grant}");
    grant
}

/// One poll of `grant`; status and body.
pub async fn poll(app: &TestApp, grant: &Value) -> (u16, Value) {
    let device = grant["device_code"].as_str().expect("a device code");
    post_form(app, "/ingame/auth/token", &[("grant_type", DEVICE_GRANT), ("device_code", device)]).await
}

/// `user` types `code` on `/mypage/ingame` (at `prefix`: "" or "/en"); status, Location and
/// HTML of the check.
pub async fn check_code(user: &Actor<'_>, prefix: &str, code: &str) -> (u16, Option<String>, String) {
    let form = user.form(&format!("{prefix}/mypage/ingame"), "[data-testid=ingame-code-form]").await;
    user.submit(&form, &[("code", code)], None).await
}

/// `user` types `code` and then presses `decision` (`allow` or `deny`) on the confirmation;
/// where the decision redirects.
pub async fn decide(user: &Actor<'_>, prefix: &str, code: &str, decision: &str) -> String {
    let (status, _, html) = check_code(user, prefix, code).await;
    assert_eq!(status, 200, "the confirmation: {html}");
    let form = crate::support::actors::Form::parse(&html, "[data-testid=ingame-decide-form]", "/mypage/ingame/check");
    let (status, location, body) = user.submit(&form, &[("decision", decision)], None).await;
    assert_eq!(status, 303, "{body}");
    location.expect("a redirect")
}

/// A game client signed in as `user`: its token.
pub async fn signed_in_game(app: &TestApp, user: &Actor<'_>, client_id: &str) -> String {
    let grant = open_grant(app, client_id).await;
    decide(user, "", grant["user_code"].as_str().unwrap(), "allow").await;
    let (status, token) = poll(app, &grant).await;
    assert_eq!(status, 200, "{token}");
    token["access_token"].as_str().unwrap().to_string()
}

/// GETs `path` with `token` as the bearer; status and body.
pub async fn get_with(app: &TestApp, path: &str, token: &str) -> (u16, Value) {
    let req = app.client.get(path.to_string()).header(Header::new("Authorization", format!("Bearer {token}")));
    json_of(req.dispatch().await).await
}

/// Sends `method` to `path` with `token` and an optional JSON body; status and body.
pub async fn send(
    app: &TestApp,
    method: rocket::http::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req =
        app.client.req(method, path.to_string()).header(Header::new("Authorization", format!("Bearer {token}")));
    if let Some(body) = body {
        req = req.header(ContentType::JSON).body(body.to_string());
    }
    json_of(req.dispatch().await).await
}
