//! Mypage circles (spec §2: `/mypage/circles`, `/mypage/circles/joined`,
//! `/mypage/circles/invitations`, `/mypage/circle/new`, `/mypage/circle/{id}/edit`): the circles
//! a user owns and has joined, the invitations waiting for them (join or decline), and the form
//! that creates or changes a circle. Everything works without JavaScript: forms post with a CSRF
//! field, errors come back beside their fields with the input kept, a change ends in a redirect
//! with a message (`?done=`) or the reason it was refused (`?error=`). The owner's member pages
//! and the previews are in [`crate::web::pages::circle_members`].

use std::collections::HashMap;

use crate::http::template::Template;
use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, FromForm, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::csrf;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{circle, circle_invitation, user};
use crate::error::{Error, FieldError, Result};
use crate::forms::circle::{CircleForm, checked};
use crate::http::notifier::Notifier;
use crate::http::upload::Uploads;
use crate::model::circle::{CircleDetailView, DESCRIPTION_MAX, NAME_EN_MAX, NAME_JA_MAX, WEBSITE_MAX};
use crate::model::circle_invitation::CircleInvitationView;
use crate::model::pagination::{PageRequest, Pagination};
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// Circles and invitations per list page.
pub const PAGE_SIZE: u64 = 20;

/// A page answer: the rendered page with its status, or a redirect after a change.
pub(crate) type Answer = Either<(Status, Template), Redirect>;

/// The error codes a refused change may show on the page it returns to (their messages are
/// `errors.<code>`); anything else in `?error=` is ignored.
const SHOWN_ERRORS: [&str; 9] = [
    "circle_suspended",
    "already_member",
    "already_invited",
    "circle_full",
    "invitation_not_pending",
    "invitation_expired",
    "owner_cannot_leave",
    "user_not_found",
    "not_found",
];

/// The confirmations a change may show (`circles.done.<key>`).
const DONE: [&str; 8] = ["created", "updated", "invited", "cancelled", "removed", "left", "approved", "withdrawn"];

/// The message of `?done=` and `?error=`, if they are known.
pub(crate) fn notices(p: &Page<'_>, done: Option<&str>, error: Option<&str>) -> Value {
    json!({
        "done": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("circles.done.{d}"))),
        "error": error.filter(|e| SHOWN_ERRORS.contains(e)).map(|e| p.t(&format!("errors.{e}"))),
    })
}

/// The signed-in user of a form post, once its CSRF field checked out (a page form cannot send
/// the header the API guards read).
pub(crate) fn poster<'a>(p: &'a Page<'_>, cookies: &CookieJar<'_>, token: Option<&str>) -> Result<&'a user::Model> {
    let user = p.user.as_ref().ok_or(Error::Unauthorized)?;
    if !csrf::verify(cookies, token) {
        return Err(Error::CsrfFailed);
    }
    Ok(user)
}

/// After a change: back to `path` with `?done=`; a refusal the page can explain (a 409 or a
/// vanished row) goes back with `?error=` instead; anything else is an error page.
pub(crate) fn back(p: &Page<'_>, path: &str, outcome: Result<&str>) -> Result<Redirect> {
    let href = p.href(path);
    let query = match outcome {
        Ok(done) => format!("done={done}"),
        Err(Error::Conflict { code }) | Err(Error::NotFound { code }) if SHOWN_ERRORS.contains(&code) => {
            format!("error={code}")
        }
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{href}?{query}")))
}

/// The links of one circle's pages for `view`'s standing.
pub(crate) fn circle_links(p: &Page<'_>, view: &CircleDetailView) -> Value {
    let base = format!("/mypage/circle/{}", view.id);
    match view.standing {
        crate::model::circle::Standing::Owner => json!({
            "members": p.href(&format!("{base}/members")),
            "edit": p.href(&format!("{base}/edit")),
            "preview": p.href(&format!("{base}/preview")),
        }),
        crate::model::circle::Standing::Member => json!({
            "members": p.href(&format!("{base}/member/members")),
            "preview": p.href(&format!("{base}/member/preview")),
        }),
    }
}

/// The tabs of the circle lists, with the number of waiting invitations.
async fn tabs(p: &Page<'_>, user_id: i32, current: &str) -> Result<Value> {
    let waiting = circle_invitation::Model::pending_count_for_user(p.db, user_id, p.now).await?;
    let tabs: Vec<Value> = [
        ("owned", "/mypage/circles"),
        ("joined", "/mypage/circles/joined"),
        ("invitations", "/mypage/circles/invitations"),
    ]
    .iter()
    .map(|(key, path)| {
        json!({
            "key": key,
            "label": p.t(&format!("circles.tabs.{key}")),
            "href": p.href(path),
            "current": *key == current,
            "count": (*key == "invitations" && waiting > 0).then_some(waiting),
        })
    })
    .collect();
    Ok(json!(tabs))
}

/// The owned or joined list.
async fn circle_list(
    p: Page<'_>,
    current: CurrentUser,
    joined: bool,
    page: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let user_id = current.user.id;
    let (rows, count) = if joined {
        circle::Model::joined_page(p.db, user_id, req).await?
    } else {
        circle::Model::owned_page(p.db, user_id, req).await?
    };
    let cap = p.site.config.circle_member_cap;
    let views = CircleDetailView::load(p.db, rows, user_id, cap, p.lang).await?;
    let items: Vec<Value> = views
        .iter()
        .map(|v| json!({ "circle": v, "links": circle_links(&p, v), "member_count": v.members.len() }))
        .collect();
    let (key, path) = if joined { ("joined", "/mypage/circles/joined") } else { ("owned", "/mypage/circles") };
    let list_href = p.href(path);
    let pagination = Pagination::new(req, count, count);
    let link = |n: u64| if n > 1 { format!("{list_href}?page={n}") } else { list_href.clone() };
    let ctx = json!({
        "nav": nav(&p),
        "tabs": tabs(&p, user_id, key).await?,
        "which": key,
        "items": items,
        "notices": notices(&p, done, error),
        "new_href": p.href("/mypage/circle/new"),
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    Ok(p.render("mypage/circles/list", &p.t(&format!("circles.title.{key}")), ctx))
}

/// The circles the user owns.
#[get("/mypage/circles?<page>&<done>&<error>")]
pub async fn owned(
    p: Page<'_>,
    current: CurrentUser,
    page: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    circle_list(p, current, false, page, done, error).await
}

/// The circles the user has joined.
#[get("/mypage/circles/joined?<page>&<done>&<error>")]
pub async fn joined(
    p: Page<'_>,
    current: CurrentUser,
    page: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    circle_list(p, current, true, page, done, error).await
}

/// The invitations waiting for the user, each with join and decline buttons.
#[get("/mypage/circles/invitations?<page>&<done>&<error>")]
pub async fn invitations(
    p: Page<'_>,
    current: CurrentUser,
    page: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let (rows, count) = circle_invitation::Model::pending_for_user(p.db, current.user.id, p.now, req).await?;
    let views = CircleInvitationView::load(p.db, rows, p.now, p.lang).await?;
    let items: Vec<Value> = views
        .iter()
        .map(|v| {
            let base = format!("/mypage/circles/invitations/{}", v.id);
            json!({
                "invitation": v,
                "approve_action": p.href(&format!("{base}/approve")),
                "withdraw_action": p.href(&format!("{base}/withdraw")),
            })
        })
        .collect();
    let list_href = p.href("/mypage/circles/invitations");
    let pagination = Pagination::new(req, count, count);
    let link = |n: u64| if n > 1 { format!("{list_href}?page={n}") } else { list_href.clone() };
    let ctx = json!({
        "nav": nav(&p),
        "tabs": tabs(&p, current.user.id, "invitations").await?,
        "items": items,
        "notices": notices(&p, done, error),
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    Ok(p.render("mypage/circles/invitations", &p.t("circles.title.invitations"), ctx))
}

/// A button's form: only the CSRF field.
#[derive(FromForm)]
pub struct ButtonForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
}

/// Joins a circle: to the joined list, or back to the invitations with the reason.
#[post("/mypage/circles/invitations/<id>/approve", data = "<form>")]
pub async fn approve(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let cap = p.site.config.circle_member_cap;
    match circle_invitation::Model::approve(p.db, notifier.mailer, id.0, user, cap, p.now).await {
        Ok((_, mails)) => {
            notifier.push(mails).await;
            back(&p, "/mypage/circles/joined", Ok("approved"))
        }
        Err(e) => back(&p, "/mypage/circles/invitations", Err(e)),
    }
}

/// Declines an invitation.
#[post("/mypage/circles/invitations/<id>/withdraw", data = "<form>")]
pub async fn withdraw(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let outcome = circle_invitation::Model::withdraw(p.db, notifier.mailer, id.0, user, p.now).await;
    let outcome = match outcome {
        Ok((_, mails)) => {
            notifier.push(mails).await;
            Ok("withdrawn")
        }
        Err(e) => Err(e),
    };
    back(&p, "/mypage/circles/invitations", outcome)
}

/// What the circle form shows: values as typed (or stored) and errors by field.
struct FormView {
    values: Value,
    errors: HashMap<String, Vec<String>>,
}

impl FormView {
    fn blank() -> Self {
        let values =
            json!({ "name_ja": "", "name_en": "", "description_ja": "", "description_en": "", "website_link": "" });
        Self { values, errors: HashMap::new() }
    }

    fn of(c: &circle::Model) -> Self {
        let values = json!({
            "name_ja": c.name_ja, "name_en": c.name_en, "description_ja": c.description_ja,
            "description_en": c.description_en, "website_link": c.website_link.clone().unwrap_or_default(),
        });
        Self { values, errors: HashMap::new() }
    }

    fn typed(form: &CircleForm<'_>, errors: &[FieldError]) -> Self {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let by_field = errors_by_field(errors.to_vec(), str::to_string);
        let values = json!({
            "name_ja": text(&form.name_ja), "name_en": text(&form.name_en),
            "description_ja": text(&form.description_ja), "description_en": text(&form.description_en),
            "website_link": text(&form.website_link),
        });
        Self { values, errors: by_field }
    }
}

/// Renders the circle form (a new circle when `editing` is `None`).
fn render_form(p: &Page<'_>, editing: Option<&circle::Model>, view: FormView, status: Status) -> Answer {
    let (title, action) = match editing {
        None => (p.t("circles.form.new_title"), p.href("/mypage/circle/new")),
        Some(c) => (p.t("circles.form.edit_title"), p.href(&format!("/mypage/circle/{}/edit", c.id))),
    };
    let circle_ctx = editing.map(|c| {
        json!({ "id": c.id, "name": c.name(p.lang), "is_suspended": c.is_suspended, "thumbnail": c.thumbnail_view() })
    });
    let links = editing.map(|c| {
        let base = format!("/mypage/circle/{}", c.id);
        json!({
            "edit": p.href(&format!("{base}/edit")),
            "members": p.href(&format!("{base}/members")),
            "preview": p.href(&format!("{base}/preview")),
        })
    });
    let ctx = json!({
        "nav": nav(p),
        "heading": title,
        "action": action,
        "circle": circle_ctx,
        "links": links,
        "values": view.values,
        "errors": view.errors,
        "has_errors": !view.errors.is_empty(),
        "list_href": p.href("/mypage/circles"),
        "limits": { "name_ja": NAME_JA_MAX, "name_en": NAME_EN_MAX, "description": DESCRIPTION_MAX, "website": WEBSITE_MAX },
    });
    Either::Left((status, p.render("mypage/circles/form", &title, ctx)))
}

/// The form for a new circle.
#[get("/mypage/circle/new")]
pub async fn new(p: Page<'_>, _current: CurrentUser) -> Answer {
    render_form(&p, None, FormView::blank(), Status::Ok)
}

/// Creates the circle: to the owner's list, or the form again with its errors.
#[post("/mypage/circle/new", data = "<form>")]
pub async fn create(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    form: Form<CircleForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    match checked(&uploads, &form, None).await {
        Ok(change) => {
            circle::Model::create_owned(p.db, user, change, p.now).await?;
            Ok(Either::Right(back(&p, "/mypage/circles", Ok("created"))?))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = e.details(&p.site.messages, p.lang);
            Ok(render_form(&p, None, FormView::typed(&form, &errors), Status::UnprocessableEntity))
        }
        Err(other) => Err(other),
    }
}

/// The form for one of the user's circles (read-only while it is suspended).
#[get("/mypage/circle/<id>/edit")]
pub async fn edit(p: Page<'_>, current: CurrentUser, id: Id) -> Result<Answer> {
    let found = circle::Model::for_owner(p.db, id.0, current.user.id).await?;
    let view = FormView::of(&found);
    Ok(render_form(&p, Some(&found), view, Status::Ok))
}

/// Saves the form over one of the user's circles.
#[post("/mypage/circle/<id>/edit", data = "<form>")]
pub async fn update(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    id: Id,
    form: Form<CircleForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = circle::Model::for_owner(p.db, id.0, user.id).await?;
    if found.is_suspended {
        let refused = Err(Error::Conflict { code: "circle_suspended" });
        return Ok(Either::Right(back(&p, &format!("/mypage/circle/{}/members", found.id), refused)?));
    }
    match checked(&uploads, &form, Some(&found)).await {
        Ok(change) => {
            let outcome = circle::Model::change(p.db, found.id, user.id, change, p.now).await.map(|_| "updated");
            Ok(Either::Right(back(&p, &format!("/mypage/circle/{}/members", found.id), outcome)?))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = e.details(&p.site.messages, p.lang);
            Ok(render_form(&p, Some(&found), FormView::typed(&form, &errors), Status::UnprocessableEntity))
        }
        Err(other) => Err(other),
    }
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![owned, joined, invitations, approve, withdraw, new, create, edit, update]
}
