//! `/mypage/box-submissions`: the user's avatars submitted for display in a box (issue 31) —
//! each with where it stands, staff's reason when rejected, and what the user may do next (edit,
//! send for review, discard) — how many they hold of how many they may, and the form
//! (`/mypage/box-submissions/new`, `…/{uuid}/edit`) over one of their uploaded avatars. The same
//! calls as `/api/v1/store/box_submissions`; errors come back beside their fields with the
//! input kept.

use std::collections::HashMap;

use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::box_submission;
use crate::error::{Error, Result};
use crate::forms::box_submission::{BoxSubmissionForm, COMMENT_MAX, FACES, NAME_MAX, POSES, check};
use crate::http::template::Template;
use crate::store::model::box_submission::{self as boxes, of_owner};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// A page answer: the form with its status, or a redirect after a change.
type Answer = Either<(Status, Template), Redirect>;

/// What a `done=` says.
const DONE: [&str; 4] = ["created", "saved", "submitted", "discarded"];
/// What an `error=` explains.
const REFUSALS: [&str; 2] = ["submission_limit_reached", "submission_locked"];

fn list_href(p: &Page<'_>, query: &str) -> String {
    p.href(&format!("/mypage/box-submissions{query}"))
}

/// The label of choice `id` (1-based) of `names`, message group `group` (`pose`, `face`); the
/// first for an id out of range (the input allows none).
pub(crate) fn label(p: &Page<'_>, group: &str, names: &[&str], id: i32) -> String {
    let name = usize::try_from(id - 1).ok().and_then(|i| names.get(i)).unwrap_or(&names[0]);
    p.t(&format!("box.{group}.{name}"))
}

/// The user's submissions.
#[get("/mypage/box-submissions?<done>&<error>")]
pub async fn list(p: Page<'_>, current: CurrentUser, done: Option<&str>, error: Option<&str>) -> Result<Template> {
    let listed = boxes::list(p.db, current.user.id, p.site.config.box_submission_limit).await?;
    let rows: Vec<Value> = listed
        .data
        .iter()
        .map(|b| {
            let base = format!("/mypage/box-submissions/{}", b.uuid);
            json!({
                "name": b.name,
                "author": b.author,
                "status": b.status.as_str(),
                "status_label": p.t(&format!("box.status.{}", b.status.as_str())),
                "pose": label(&p, "pose", &POSES, b.pose_id),
                "face": label(&p, "face", &FACES, b.face_id),
                "file_name": b.file_name,
                "rejected_reason": b.rejected_reason.as_ref().filter(|_| b.status == box_submission::BoxStatus::ReviewRejected),
                "editable": b.editable,
                "edit_href": p.href(&format!("{base}/edit")),
                "submit_action": p.href(&format!("{base}/submit")),
                "discard_action": p.href(&format!("{base}/discard")),
            })
        })
        .collect();
    let ctx = json!({
        "nav": nav(&p),
        "submissions": rows,
        "count": listed.submission_count,
        "limit": listed.submission_limit_amount,
        "boxes_href": p.href("/boxes"),
        "new_href": (listed.submission_count < listed.submission_limit_amount).then(|| p.href("/mypage/box-submissions/new")),
        "notice": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("box.done.{d}"))),
        "refused": error.filter(|e| REFUSALS.contains(e)).map(|e| p.t(&format!("errors.{e}"))),
    });
    Ok(p.render("mypage/box_submissions", &p.t("box.title"), ctx))
}

/// What the form shows: values as typed, errors by field.
struct FormView {
    values: Value,
    errors: HashMap<String, Vec<String>>,
}

impl FormView {
    fn blank() -> Self {
        let values = json!({ "asset_id": "", "pose_id": "1", "face_id": "1", "name": "", "author": "", "website": "", "comment": "" });
        Self { values, errors: HashMap::new() }
    }

    fn of(row: &box_submission::Model) -> Self {
        let values = json!({
            "asset_id": row.asset_id.to_string(), "pose_id": row.pose_id.to_string(), "face_id": row.face_id.to_string(),
            "name": row.name, "author": row.author, "website": row.website, "comment": row.comment,
        });
        Self { values, errors: HashMap::new() }
    }

    fn typed(p: &Page<'_>, form: &BoxSubmissionForm, error: Error) -> Self {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let values = json!({
            "asset_id": text(&form.asset_id), "pose_id": text(&form.pose_id), "face_id": text(&form.face_id),
            "name": text(&form.name), "author": text(&form.author), "website": text(&form.website), "comment": text(&form.comment),
        });
        Self { values, errors: errors_by_field(error.details(&p.site.messages, p.lang), str::to_string) }
    }
}

/// Renders the form (a new submission when `editing` is `None`).
async fn render_form(
    p: &Page<'_>,
    me: i32,
    editing: Option<&box_submission::Model>,
    view: FormView,
    status: Status,
) -> Result<Answer> {
    let avatars: Vec<Value> = boxes::avatars(p.db, me)
        .await?
        .into_iter()
        .map(|(id, name)| json!({ "id": id.to_string(), "name": name }))
        .collect();
    let choices = |names: &[&str], group: &str| -> Vec<Value> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| json!({ "value": (i + 1).to_string(), "label": p.t(&format!("box.{group}.{n}")) }))
            .collect()
    };
    let (heading, action) = match editing {
        None => (p.t("box.form.new_title"), p.href("/mypage/box-submissions/new")),
        Some(row) => (p.t("box.form.edit_title"), p.href(&format!("/mypage/box-submissions/{}/edit", row.uuid))),
    };
    let ctx = json!({
        "nav": nav(p),
        "heading": heading,
        "action": action,
        "avatars": avatars,
        "poses": choices(&POSES, "pose"),
        "faces": choices(&FACES, "face"),
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
        "list_href": list_href(p, ""),
        "values": view.values,
        "has_errors": !view.errors.is_empty(),
        "errors": view.errors,
        "rejected_reason": editing
            .filter(|r| r.status == box_submission::BoxStatus::ReviewRejected)
            .and_then(|r| r.rejected_reason.clone()),
        "name_max": NAME_MAX,
        "comment_max": COMMENT_MAX,
    });
    Ok(Either::Left((status, p.render("mypage/box_submission_form", &heading, ctx))))
}

/// A problem of the asset field, as the form explains it (another user's or a vanished asset,
/// one without a finished upload).
fn as_field_problem(e: Error) -> Error {
    match e {
        Error::NotFound { .. } => Error::invalid("asset_id", "validation.unknown_reference"),
        Error::Conflict { code: "asset_not_uploaded" } => Error::invalid("asset_id", "validation.not_an_avatar"),
        other => other,
    }
}

/// The form for a new submission.
#[get("/mypage/box-submissions/new")]
pub async fn new(p: Page<'_>, current: CurrentUser) -> Result<Answer> {
    render_form(&p, current.user.id, None, FormView::blank(), Status::Ok).await
}

/// Saves a new draft: back to the list, or the form with its errors.
#[post("/mypage/box-submissions/new", data = "<form>")]
pub async fn create(p: Page<'_>, cookies: &CookieJar<'_>, form: Form<BoxSubmissionForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (input, wrong) = form.input();
    let made = match check(&input, &wrong) {
        Ok(fields) => {
            boxes::create(p.db, user.id, &fields, p.site.config.box_submission_limit, p.now).await.map(|_| ())
        }
        Err(e) => Err(e),
    };
    match made.map_err(as_field_problem) {
        Ok(()) => Ok(Either::Right(crate::http::redirect::to_site(&list_href(&p, "?done=created")))),
        Err(Error::Conflict { code: "submission_limit_reached" }) => {
            Ok(Either::Right(crate::http::redirect::to_site(&list_href(&p, "?error=submission_limit_reached"))))
        }
        Err(e @ Error::Validation(_)) => {
            render_form(&p, user.id, None, FormView::typed(&p, &form, e), Status::UnprocessableEntity).await
        }
        Err(other) => Err(other),
    }
}

/// The form over one of the user's submissions.
#[get("/mypage/box-submissions/<uuid>/edit")]
pub async fn edit(p: Page<'_>, current: CurrentUser, uuid: &str) -> Result<Answer> {
    let row = of_owner(p.db, current.user.id, uuid).await?;
    render_form(&p, current.user.id, Some(&row), FormView::of(&row), Status::Ok).await
}

/// Saves the form over one of the user's submissions.
#[post("/mypage/box-submissions/<uuid>/edit", data = "<form>")]
pub async fn update(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<BoxSubmissionForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = of_owner(p.db, user.id, uuid).await?;
    let (input, wrong) = form.input();
    let saved = match check(&input, &wrong) {
        Ok(fields) => boxes::change(p.db, &row, &fields, p.now).await.map(|_| ()),
        Err(e) => Err(e),
    };
    match saved.map_err(as_field_problem) {
        Ok(()) => Ok(Either::Right(crate::http::redirect::to_site(&list_href(&p, "?done=saved")))),
        Err(Error::Conflict { code }) => {
            Ok(Either::Right(crate::http::redirect::to_site(&list_href(&p, &format!("?error={code}")))))
        }
        Err(e @ Error::Validation(_)) => {
            render_form(&p, user.id, Some(&row), FormView::typed(&p, &form, e), Status::UnprocessableEntity).await
        }
        Err(other) => Err(other),
    }
}

/// A button's form: only the CSRF field.
#[derive(rocket::FromForm)]
pub struct ButtonForm {
    /// The CSRF field.
    pub csrf_token: Option<String>,
}

/// Sends a submission for review; back to the list, which says so (or why not).
#[post("/mypage/box-submissions/<uuid>/submit", data = "<form>")]
pub async fn submit(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<ButtonForm>) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = of_owner(p.db, user.id, uuid).await?;
    let query = match boxes::submit(p.db, &row, p.now).await {
        Ok(_) => "?done=submitted".to_string(),
        Err(Error::Conflict { code }) => format!("?error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&list_href(&p, &query)))
}

/// Discards a draft or a rejected submission.
#[post("/mypage/box-submissions/<uuid>/discard", data = "<form>")]
pub async fn discard(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<ButtonForm>) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = of_owner(p.db, user.id, uuid).await?;
    let query = match boxes::discard(p.db, &row).await {
        Ok(()) => "?done=discarded".to_string(),
        Err(Error::Conflict { code }) => format!("?error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&list_href(&p, &query)))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list, new, create, edit, update, submit, discard]
}
