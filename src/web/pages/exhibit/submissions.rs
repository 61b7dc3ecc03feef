//! `/mypage/entry_history/{permalink}/submissions`: each slot's newest submission, its check and
//! its inspection; `…/submissions/{slot_id}`: the term, every submission of the slot with what
//! inspection found, and for the owner inside the term the form that submits one of their
//! uploaded booth packages (`POST` the same path). The rules are `crate::exhibit::submission`'s.

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::error::{Error, Result};
use crate::exhibit::submission::{SubmissionView, candidates, newest_of, of_slots, submit};
use crate::exhibit::term::SubmissionTerm;
use crate::http::template::Template;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::booth_maker::views::size_label;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_views::event_tabs;
use crate::web::pages::exhibit::views::{event_slots, slot_json};
use crate::web::pages::mypage_nav::nav;

/// The refusals the slot's page shows (`?error=`; those with a date come back as text).
const ERRORS: [&str; 4] = ["report_failed", "version_not_ready", "not_found", "validation_failed"];

fn slot_path(permalink: &str, slot_id: i32) -> String {
    format!("/mypage/entry_history/{permalink}/submissions/{slot_id}")
}

fn submission_json(p: &Page<'_>, s: &SubmissionView) -> Value {
    let status = s.inspection.status.as_str();
    json!({
        "id": s.id,
        "version": s.version,
        "file_name": s.file_name,
        "submitted_at": s.submission_at.to_rfc3339(),
        "thumbnail": s.submission_thumbnail,
        "size": size_label(s.build_data_size),
        "report": s.report.as_ref().map(|r| json!({
            "status": r.status,
            "label": p.t(&format!("exhibit.submissions.report.{}", r.status)),
            "num_errors": r.num_errors,
            "num_warnings": r.num_warnings,
        })),
        "asset_href": p.href(&format!("/mypage/booth-maker/assets/{}", s.asset_id)),
        "inspection": {
            "status": status,
            "label": p.t(&format!("exhibit.submissions.inspection.{status}")),
            "findings": s.inspection.findings,
            "inspected_at": s.inspection.inspected_at.map(|at| at.to_rfc3339()),
        },
        "is_booth_error": s.is_booth_error,
    })
}

fn term_json(term: &SubmissionTerm) -> Value {
    json!({
        "start": term.submission_start_at.map(|at| at.to_rfc3339()),
        "end": term.submission_end_at_display.map(|at| at.to_rfc3339()),
        "is_open": term.is_submit,
        "not_yet": term.submission_start_at.is_some_and(|s| term.server_time < s),
    })
}

/// Each slot's newest submission.
#[get("/mypage/entry_history/<permalink>/submissions")]
pub async fn list(p: Page<'_>, current: CurrentUser, permalink: Permalink) -> Result<Template> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let ids: Vec<i32> = slots.iter().map(|s| s.id).collect();
    let newest = newest_of(p.db, &ids).await?;
    let permalink = &found.event.permalink;
    let cards: Vec<Value> = slots
        .iter()
        .map(|slot| {
            json!({
                "slot": slot_json(&p, slot),
                "newest": newest.get(&slot.id).map(|s| submission_json(&p, s)),
                "href": p.href(&slot_path(permalink, slot.id)),
            })
        })
        .collect();
    let ctx = json!({
        "nav": nav(&p),
        "event_name": p.lang.pick(&found.event.name_ja, &found.event.name_en),
        "tabs": event_tabs(&p, permalink, "submissions", true),
        "term": term_json(&SubmissionTerm::of(&found, p.now)),
        "cards": cards,
        "list_href": p.href("/mypage/entry_history"),
    });
    Ok(p.render("mypage/exhibit/submissions", &p.t("exhibit.submissions.title"), ctx))
}

/// One slot's submissions and, for its owner inside the term, the submit form.
#[get("/mypage/entry_history/<permalink>/submissions/<slot_id>?<done>&<error>")]
pub async fn slot(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    slot_id: Id,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let slot = slots.iter().find(|s| s.id == slot_id.0).ok_or_else(Error::not_found)?;
    let term = SubmissionTerm::of(&found, p.now);
    let history: Vec<Value> = of_slots(p.db, &[slot.id]).await?.iter().map(|s| submission_json(&p, s)).collect();
    let may_submit = slot.circle.is_owner && term.is_submit;
    let choices: Vec<Value> = if may_submit {
        candidates(p.db, current.user.id)
            .await?
            .into_iter()
            .map(|(asset, v)| {
                json!({ "id": v.id, "label": format!("{} — v{} ({}, {})", asset.name, v.version, v.file_name, size_label(v.byte_size)) })
            })
            .collect()
    } else {
        Vec::new()
    };
    // A refusal with a date (closed, not yet open) arrives as its message; others by code.
    let error = match error {
        Some("submission_closed") => term
            .submission_end_at
            .map(|deadline| Error::Closed { code: "submission_closed", deadline }.message(&p.site.messages, p.lang)),
        Some("submission_not_open") => term
            .submission_start_at
            .map(|deadline| Error::Closed { code: "submission_not_open", deadline }.message(&p.site.messages, p.lang)),
        Some(code) if ERRORS.contains(&code) => Some(p.t(&format!("exhibit.submissions.error.{code}"))),
        _ => None,
    };
    let ctx = json!({
        "nav": nav(&p),
        "event_name": p.lang.pick(&found.event.name_ja, &found.event.name_en),
        "tabs": event_tabs(&p, &found.event.permalink, "submissions", true),
        "card": { "slot": slot_json(&p, slot) },
        "term": term_json(&term),
        "history": history,
        "may_submit": may_submit,
        "choices": choices,
        "action": p.href(&slot_path(&found.event.permalink, slot.id)),
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
        "notices": {
            "done": (done == Some("submitted")).then(|| p.t("exhibit.submissions.done")),
            "error": error,
        },
        "back_href": p.href(&format!("/mypage/entry_history/{}/submissions", found.event.permalink)),
    });
    Ok(p.render("mypage/exhibit/submission", &p.t("exhibit.submissions.slot_title"), ctx))
}

/// The submit form.
#[derive(FromForm)]
pub struct SubmitForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The chosen asset version.
    pub asset_version_id: Option<String>,
}

/// Submits the chosen booth package: back to the slot's page with `?done=` or `?error=`.
#[post("/mypage/entry_history/<permalink>/submissions/<slot_id>", data = "<form>")]
pub async fn create(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    slot_id: Id,
    form: Form<SubmitForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (found, slots) = event_slots(&p, user.id, permalink.as_str()).await?;
    let slot = slots.iter().find(|s| s.id == slot_id.0).ok_or_else(Error::not_found)?;
    let back = p.href(&slot_path(&found.event.permalink, slot.id));
    let outcome = match form.asset_version_id.as_deref().and_then(|v| Id::parse(v).ok()) {
        Some(version) => submit(p.db, &found, slot, user.id, version.0, p.now).await.map(|_| ()),
        None => Err(Error::invalid("asset_version_id", "validation.required")),
    };
    let query = match outcome {
        Ok(()) => "done=submitted".to_string(),
        Err(e @ (Error::Closed { .. } | Error::Conflict { .. } | Error::Refused { .. } | Error::NotFound { .. })) => {
            format!("error={}", e.code())
        }
        Err(Error::Validation(_)) => "error=validation_failed".to_string(),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{back}?{query}")))
}

/// Routes of these pages.
pub fn routes() -> Vec<Route> {
    routes![list, slot, create]
}
