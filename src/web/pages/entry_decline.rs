//! Declining a win from mypage (DOMAIN.md: `first_win` / `second_win` ──declines──▶ `decline`):
//! the entry history shows a "decline" link beside a win its owner may decline (a win to pay,
//! inside its payment window); `/mypage/event/{permalink}/apply/decline?application=` asks for
//! confirmation, naming the plan, and its form POSTs (with the CSRF field) through the model
//! the API uses (`event_entry::Model::decline`), then goes back to the entry history with what
//! happened. Only the circle's owner reaches the page (a member gets 403, anyone else 404).
//! Works without JavaScript.

use crate::http::template::Template;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Route, get, post, routes};
use sea_orm::EntityTrait;
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, event_entry, event_entry_application};
use crate::error::{Error, Result};
use crate::model::entry_status::LotteryStatus;
use crate::model::entry_view::{ApplicationView, EntryView};
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_views::{apply_path, entry_json, history_path, plan_json};
use crate::web::pages::mypage_nav::nav;

/// The refusals the entry history explains after a decline (messages `errors.<code>`).
pub(crate) const REFUSALS: [&str; 3] = ["decline_closed", "already_paid", "circle_suspended"];

/// Application `raw` of an entry to event `event_id`, with its entry as `user_id` sees it: 404 to
/// anyone outside the circle (and for an application of another event), 403 to members.
async fn owned_application(
    p: &Page<'_>,
    user_id: i32,
    event_id: i32,
    raw: Option<&str>,
) -> Result<(EntryView, ApplicationView)> {
    let id = raw.and_then(|a| Id::parse(a.trim()).ok()).ok_or_else(Error::not_found)?.0;
    let application = event_entry_application::Entity::find_by_id(id).one(p.db).await?.ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(p.db).await?.ok_or_else(Error::not_found)?;
    if entry.event_id != event_id {
        return Err(Error::not_found());
    }
    let entry = event_entry::Model::for_owner(p.db, entry.id, user_id).await?;
    let view = EntryView::load_one(p.db, entry, user_id, p.lang, p.now).await?;
    let shown = view.applications.iter().find(|a| a.id == id).cloned().ok_or_else(Error::not_found)?;
    Ok((view, shown))
}

/// Why `application` of `view` cannot be declined now (an error code), if it cannot.
fn refusal(view: &EntryView, application: &ApplicationView) -> Option<&'static str> {
    if application.can_decline {
        None
    } else if application.lottery_status == LotteryStatus::Paid {
        Some("already_paid")
    } else if view.circle.is_suspended {
        Some("circle_suspended")
    } else {
        Some("decline_closed")
    }
}

/// Asks before declining the win `?application=` (or says why it cannot be declined: 409).
#[get("/mypage/event/<permalink>/apply/decline?<application>")]
pub async fn confirm(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    application: Option<&str>,
) -> Result<(Status, Template)> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let (view, shown) = owned_application(&p, current.user.id, found.id, application).await?;
    let refused = refusal(&view, &shown);
    let ctx = json!({
        "nav": nav(&p),
        "entry": entry_json(&p, &view),
        "application_id": shown.id,
        "choice": shown.choice,
        "plan": plan_json(&p, &shown.plan),
        "refused": refused.map(|code| p.t(&format!("errors.{code}"))),
        "action": p.href(&apply_path(&found.permalink, "decline")),
        "history_href": p.href(&history_path(&found.permalink)),
    });
    let status = if refused.is_some() { Status::Conflict } else { Status::Ok };
    Ok((status, p.render("mypage/entries/decline", &p.t("entries.decline.title"), ctx)))
}

/// The decline form: the CSRF field and the application.
#[derive(FromForm)]
pub struct DeclineForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The application whose win is declined.
    pub application_id: Option<String>,
}

/// Declines the win: to the event's entry history with a confirmation, or with the reason it was
/// refused.
#[post("/mypage/event/<permalink>/apply/decline", data = "<form>")]
pub async fn decline(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    form: Form<DeclineForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let (view, shown) = owned_application(&p, user.id, found.id, form.application_id.as_deref()).await?;
    let query = match event_entry::Model::decline(p.db, view.id, shown.id, user.id, p.now).await {
        Ok(_) => "done=declined".to_string(),
        Err(Error::Conflict { code }) if REFUSALS.contains(&code) => format!("error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{}?{query}", p.href(&history_path(&found.permalink)))))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![confirm, decline]
}
