//! Applying to an event from mypage (spec §2: `/mypage/events`,
//! `/mypage/event/{permalink}/apply/new`, `/apply/edit`, `/apply/details`, `/apply/complete`):
//! the events a user's circles can apply to, the entry form (circle, exhibition category, up to
//! three ranked wishes with their AMP options, multiple-win), its confirmation, the saved
//! entry, and withdrawal (a confirmation page, then a POST).
//!
//! Everything works without JavaScript: the form posts with a CSRF field to `/apply/details`,
//! which shows what will be sent; the confirmation posts to `/apply/complete`, which saves
//! through the model the API uses ([`crate::forms::entry`] then
//! [`crate::db::entities::event_entry::Model::apply`] / `change`), so the rules and their
//! messages are the API's. Errors come back beside their fields, with everything typed kept.
//! Only the circle's owner reaches the form of an entry (a member gets 403, anyone else 404).

use std::collections::HashMap;

use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{circle, event, event_entry};
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::model::entry::MAX_WISHES;
use crate::model::entry_events::active_for;
use crate::model::entry_plan::ExhibitionCategory;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_form::{Answer, EntryForm, REFUSALS, Setting, check, refused_form, render_form};
use crate::web::pages::entry_views::{apply_path, history_path, owned_entry, plan_json};
use crate::web::pages::mypage_nav::nav;

/// The events the user's circles can apply to, and what they have applied to.
#[get("/mypage/events")]
pub async fn events(p: Page<'_>, current: CurrentUser) -> Result<Template> {
    let active = active_for(p.db, current.user.id, p.lang, p.now).await?;
    let items: Vec<Value> = active
        .iter()
        .filter(|a| {
            let coming = a.entry_starts_at.is_some_and(|at| p.now < at) && !a.event.is_entry_closed;
            a.entry_open || coming || a.circles.iter().any(|c| c.entry_id.is_some())
        })
        .map(|a| {
            let permalink = &a.event.permalink;
            let circles: Vec<Value> = a
                .circles
                .iter()
                .map(|c| {
                    let query = format!("?circle={}", c.circle_id);
                    json!({
                        "id": c.circle_id,
                        "name": c.name.get(),
                        "is_suspended": c.is_suspended,
                        "applied": c.entry_id.is_some(),
                        "apply_href": (a.entry_open && c.entry_id.is_none() && !c.is_suspended)
                            .then(|| format!("{}{query}", p.href(&apply_path(permalink, "new")))),
                        "edit_href": (a.entry_open && c.entry_id.is_some() && !c.is_suspended)
                            .then(|| format!("{}{query}", p.href(&apply_path(permalink, "edit")))),
                    })
                })
                .collect();
            let coming = a.entry_starts_at.is_some_and(|at| p.now < at);
            json!({
                "id": a.event.id,
                "name": a.event.name.get(),
                "permalink": permalink,
                "image": a.event.image,
                "entry_open": a.entry_open,
                "coming": coming,
                "entry_starts_at": a.entry_starts_at,
                "entry_ends_at": a.entry_ends_at,
                "circles": circles,
                "any_applied": a.circles.iter().any(|c| c.entry_id.is_some()),
                "apply_href": a.entry_open.then(|| p.href(&apply_path(permalink, "new"))),
                "history_href": p.href(&history_path(permalink)),
            })
        })
        .collect();
    let one = crate::model::pagination::PageRequest { page: 1, limit: 1 };
    let owns_circles = circle::Model::owned_page(p.db, current.user.id, one).await?.1 > 0;
    let ctx = json!({
        "nav": nav(&p),
        "items": items,
        "owns_circles": owns_circles,
        "new_circle_href": p.href("/mypage/circle/new"),
        "history_href": p.href("/mypage/entry_history"),
    });
    Ok(p.render("mypage/entries/events", &p.t("entries.events.title"), ctx))
}

/// The entry form for a new entry (`?circle=` preselects one of the user's circles,
/// `?category=` narrows the plans).
#[get("/mypage/event/<permalink>/apply/new?<circle>&<category>")]
pub async fn new(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    category: Option<&str>,
) -> Result<Answer> {
    let setting = Setting::load(&p, current.user.id, &permalink).await?;
    let form = EntryForm {
        mode: Some("new".into()),
        circle_id: circle.map(str::to_string),
        category: category.map(str::to_string),
        ..Default::default()
    };
    let refused = (!setting.event.entry_open(p.now)).then_some("entry_closed");
    Ok(render_form(&p, &setting, &form, HashMap::new(), refused, Status::Ok))
}

/// The form over the entry of `?circle=` (its owner only).
#[get("/mypage/event/<permalink>/apply/edit?<circle>&<category>")]
pub async fn edit(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    category: Option<&str>,
) -> Result<Answer> {
    let setting = Setting::load(&p, current.user.id, &permalink).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, setting.event.event.id, circle_id).await?;
    let mut form = EntryForm::of_entry(&view);
    form.category = category.map(str::to_string);
    let refused = if view.circle.is_suspended {
        Some("circle_suspended")
    } else if !setting.event.entry_open(p.now) {
        Some("entry_closed")
    } else {
        (!view.can_edit).then_some("entry_drawn")
    };
    Ok(render_form(&p, &setting, &form, HashMap::new(), refused, Status::Ok))
}

/// The confirmation of a filled form (or the form again with its problems).
#[post("/mypage/event/<permalink>/apply/details", data = "<form>")]
pub async fn details(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    form: Form<EntryForm>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let setting = Setting::load(&p, user.id, &permalink).await?;
    let checked = match check(&p, user.id, &setting, &form).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(answer)) => return Ok(answer),
        Err(e @ Error::Conflict { .. }) => Err(e),
        Err(other) => return Err(other),
    };
    if let Err(e) = checked {
        let (_, slots) = form.input(setting.event.event.id);
        return refused_form(&p, &setting, &form, &slots, e);
    }
    let circle_name = setting
        .active
        .as_ref()
        .and_then(|a| form.circle().and_then(|id| a.circles.iter().find(|c| c.circle_id == id)))
        .map(|c| c.name.get().clone())
        .unwrap_or_default();
    let wishes: Vec<Value> = (1..=MAX_WISHES)
        .filter_map(|slot| {
            let s = form.slot(slot);
            let plan = setting.plan(s.plan)?;
            Some(json!({
                "n": slot,
                "plan": plan_json(&p, plan),
                "use_amp": s.use_amp,
                "amp_id": if s.use_amp { s.amp_id.trim() } else { "" },
                "free_submission": s.free_submission,
            }))
        })
        .collect();
    let editing = form.is_edit();
    let title = p.t("entries.details.title");
    let ctx = json!({
        "nav": nav(&p),
        "event": setting.event_json(&p),
        "mode": if editing { "edit" } else { "new" },
        "circle_name": circle_name,
        "values": form.values(),
        "category": form.category.as_deref().and_then(ExhibitionCategory::parse).map(|c| c.as_str()),
        "wishes": wishes,
        "action": p.href(&apply_path(setting.permalink(), "complete")),
    });
    Ok(Either::Left((Status::Ok, p.render("mypage/entries/details", &title, ctx))))
}

/// Saves a confirmed form (or, with `action=back`, shows the form again to change it).
#[post("/mypage/event/<permalink>/apply/complete", data = "<form>")]
pub async fn save(p: Page<'_>, cookies: &CookieJar<'_>, permalink: Permalink, form: Form<EntryForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let setting = Setting::load(&p, user.id, &permalink).await?;
    if form.action.as_deref() == Some("back") {
        return Ok(render_form(&p, &setting, &form, HashMap::new(), None, Status::Ok));
    }
    let event_id = setting.event.event.id;
    let (input, slots) = form.input(event_id);
    let change = match input.checked(!form.is_edit()) {
        Ok(change) => change,
        Err(e) => return refused_form(&p, &setting, &form, &slots, e),
    };
    let circle_id = form.circle().unwrap_or_default();
    let saved = if form.is_edit() {
        let entry = owned_entry(&p, user.id, event_id, Some(circle_id)).await?;
        event_entry::Model::change(p.db, entry.id, user.id, change, p.now).await
    } else {
        event_entry::Model::apply(p.db, event_id, circle_id, user.id, change, p.now).await
    };
    match saved {
        Ok(entry) => {
            let done = if form.is_edit() { "updated" } else { "applied" };
            let href = format!(
                "{}?circle={}&done={done}",
                p.href(&apply_path(setting.permalink(), "complete")),
                entry.circle_id
            );
            Ok(Either::Right(crate::http::redirect::to_site(&href)))
        }
        Err(e) => refused_form(&p, &setting, &form, &slots, e),
    }
}

/// The saved entry: what was sent, and where to follow it.
#[get("/mypage/event/<permalink>/apply/complete?<circle>&<done>")]
pub async fn complete(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    done: Option<&str>,
) -> Result<Template> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, found.id, circle_id).await?;
    let ctx = json!({
        "nav": nav(&p),
        "event_name": view.event.name.get(),
        "updated": done == Some("updated"),
        "entry": crate::web::pages::entry_views::entry_json(&p, &view),
        "history_href": p.href(&history_path(&found.permalink)),
        "events_href": p.href("/mypage/events"),
    });
    Ok(p.render("mypage/entries/complete", &p.t("entries.complete.title"), ctx))
}

/// Asks before withdrawing the entry of `?circle=`.
#[get("/mypage/event/<permalink>/apply/withdraw?<circle>")]
pub async fn withdraw_confirm(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
) -> Result<Template> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, found.id, circle_id).await?;
    let ctx = json!({
        "nav": nav(&p),
        "entry": crate::web::pages::entry_views::entry_json(&p, &view),
        "action": p.href(&apply_path(&found.permalink, "withdraw")),
        "circle_id": view.circle.id,
        "history_href": p.href(&history_path(&found.permalink)),
    });
    Ok(p.render("mypage/entries/withdraw", &p.t("entries.withdraw.title"), ctx))
}

/// The withdrawal form: the CSRF field and the circle.
#[derive(FromForm)]
pub struct WithdrawForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The circle whose entry goes.
    pub circle_id: Option<String>,
}

/// Withdraws the entry: to the event's entry history with a confirmation, or back with the
/// reason it was refused.
#[post("/mypage/event/<permalink>/apply/withdraw", data = "<form>")]
pub async fn withdraw(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    form: Form<WithdrawForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = form.circle_id.as_deref().and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0);
    let view = owned_entry(&p, user.id, found.id, circle_id).await?;
    let query = match event_entry::Model::withdraw(p.db, view.id, user.id, p.now).await {
        Ok(()) => "done=withdrawn".to_string(),
        Err(Error::Conflict { code }) if REFUSALS.contains(&code) => format!("error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{}?{query}", p.href(&history_path(&found.permalink)))))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![events, new, edit, details, save, complete, withdraw_confirm, withdraw]
}
