//! `/mypage/ingame`: where a user signs a game client in (RFC 8628's verification page) and
//! sees and signs out the game clients signed in as them.
//!
//! The game shows a code; the user types it here (or arrives with it filled in from the game's
//! link, `?code=`), presses "continue", and is shown which client asks before they allow or
//! refuse it — the code is checked on both steps, each check counted by the client address
//! (`crate::ingame::limits`), and wrong codes count against the grant they nearly matched
//! (`crate::ingame::model::grant`). Works without JavaScript.

use chrono::{DateTime, Utc};
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::clock::Clock;
use crate::db::entities::{ingame_device_grant, ingame_session};
use crate::error::{Error, Result};
use crate::http::client_ip::ClientIp;
use crate::http::template::Template;
use crate::ingame::limits::IngameLimits;
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::mypage_nav::nav;

/// The page's path.
const PATH: &str = "/mypage/ingame";
/// The outcomes the page confirms (messages `ingame.done.<x>`).
const DONE: [&str; 3] = ["allowed", "denied", "revoked"];
/// The refusals the page explains after a redirect (messages `errors.<code>`).
const SHOWN_ERRORS: [&str; 1] = ["ingame_code_wrong"];

/// What the page shows besides the user's clients.
struct Shown<'a> {
    /// The code in the form.
    code: &'a str,
    /// What is wrong with it.
    error: Option<String>,
    /// What the last action did (`done`, `error` messages).
    notices: Value,
}

/// The page: the code form and the signed-in clients.
async fn render(
    p: &Page<'_>,
    user_id: i32,
    now: DateTime<Utc>,
    shown: Shown<'_>,
    status: Status,
) -> Result<(Status, Template)> {
    let sessions: Vec<Value> = ingame_session::Model::live_of(p.db, user_id, now)
        .await?
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "client_name": s.client_name,
                "created_at": s.created_at,
                "last_used_at": s.last_used_at,
                "expires_at": s.expires_at,
                "revoke_action": p.href(&format!("{PATH}/sessions/{}/revoke", s.id)),
            })
        })
        .collect();
    let ctx = json!({
        "nav": nav(p),
        "code": shown.code,
        "error": shown.error,
        "notices": shown.notices,
        "check_action": p.href(&format!("{PATH}/check")),
        "sessions": sessions,
    });
    Ok((status, p.render("mypage/ingame/index", &p.t("ingame.title"), ctx)))
}

/// The page, with what the last action did (`done`, `error`).
#[get("/mypage/ingame?<code>&<done>&<error>")]
pub async fn index(
    p: Page<'_>,
    clock: &State<Clock>,
    current: CurrentUser,
    code: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let notices = json!({
        "done": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("ingame.done.{d}"))),
        "error": error.filter(|e| SHOWN_ERRORS.contains(e)).map(|e| p.t(&format!("errors.{e}"))),
    });
    let shown = Shown { code: code.unwrap_or_default().trim(), error: None, notices };
    Ok(render(&p, current.user.id, clock.real_now(), shown, Status::Ok).await?.1)
}

/// A typed code (the check) or a decision on it.
#[derive(FromForm)]
pub struct CodeForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// What the user typed.
    pub code: Option<String>,
    /// `allow` or `deny` (the decision only).
    pub decision: Option<String>,
}

/// Checks the typed code: the confirmation of the client it belongs to, or the form again with
/// what is wrong (422), the code kept.
#[post("/mypage/ingame/check", data = "<form>")]
pub async fn check(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    clock: &State<Clock>,
    client: ClientIp,
    limits: &State<IngameLimits>,
    form: Form<CodeForm>,
) -> Result<(Status, Template)> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    limits.check(client).await?;
    let typed = form.code.as_deref().unwrap_or_default().trim();
    let now = clock.real_now();
    match ingame_device_grant::Model::check(p.db, typed, now).await {
        Ok(checked) => {
            let ctx = json!({
                "nav": nav(&p),
                "client_name": checked.grant.client_name,
                "code": checked.code.display(),
                "decide_action": p.href(&format!("{PATH}/decide")),
                "back_href": p.href(PATH),
            });
            Ok((Status::Ok, p.render("mypage/ingame/confirm", &p.t("ingame.confirm.title"), ctx)))
        }
        Err(e @ (Error::Validation(_) | Error::NotFound { .. })) => {
            let message = match &e {
                Error::Validation(found) => found.first().map(|i| i.message(&p.site.messages, p.lang)),
                _ => Some(e.message(&p.site.messages, p.lang)),
            };
            let shown = Shown { code: typed, error: message, notices: Value::Null };
            render(&p, user.id, now, shown, Status::UnprocessableEntity).await
        }
        Err(other) => Err(other),
    }
}

/// Allows or refuses the client whose code the form carries: back to the page with the outcome.
#[post("/mypage/ingame/decide", data = "<form>")]
pub async fn decide(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    clock: &State<Clock>,
    client: ClientIp,
    limits: &State<IngameLimits>,
    form: Form<CodeForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    limits.check(client).await?;
    let allow = match form.decision.as_deref() {
        Some("allow") => true,
        Some("deny") => false,
        _ => return Err(Error::BadRequest { code: "bad_request" }),
    };
    let typed = form.code.as_deref().unwrap_or_default();
    let query = match ingame_device_grant::Model::decide(p.db, typed, user.id, allow, clock.real_now()).await {
        Ok(_) => format!("done={}", if allow { "allowed" } else { "denied" }),
        Err(Error::NotFound { .. } | Error::Validation(_)) => "error=ingame_code_wrong".to_string(),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{}?{query}", p.href(PATH))))
}

/// Signs one of the user's game clients out (404 for anyone else's).
#[post("/mypage/ingame/sessions/<id>/revoke", data = "<form>")]
pub async fn revoke(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    clock: &State<Clock>,
    id: Id,
    form: Form<CodeForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    ingame_session::Model::revoke(p.db, user.id, id.0, clock.real_now()).await?;
    Ok(crate::http::redirect::to_site(&format!("{}?done=revoked", p.href(PATH))))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![index, check, decide, revoke]
}
