//! Mypage user events (spec §2 `/my_notification`, `/new`, `/open`, `/close`, `/{id}/edit`,
//! here under `/mypage/event/{permalink}/`): the signed-in user's own posts to an event's hub,
//! listed by standing, and a form to post, change or delete one. The form works without
//! JavaScript: it posts multipart with a CSRF field and runs the checks of the API
//! (`forms::user_event`); errors come back beside their fields with the input kept.

use std::collections::HashMap;

use crate::http::template::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Asia::Tokyo;
use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::csrf;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, hub_notification, user, world};
use crate::error::{Error, FieldError, Result};
use crate::forms::user_event::{self, MAX_CONTENT, MAX_TITLE, UserEventForm};
use crate::http::upload::Uploads;
use crate::model::hub_tag::HubTagView;
use crate::model::pagination::{PageRequest, Pagination};
use crate::model::user_event::Scope;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// Posts per list page.
pub const PAGE_SIZE: u64 = 20;

/// A page answer: the rendered page with its status, or a redirect after a change.
type Answer = Either<(Status, Template), Redirect>;

/// `2026-12-13T20:00` in Japan time, as a `datetime-local` field shows it.
pub(crate) fn local_input(at: DateTime<Utc>) -> String {
    at.with_timezone(&Tokyo).format("%Y-%m-%dT%H:%M").to_string()
}

/// A typed value as the form shows it again ("" when absent).
fn text(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("")
}

/// The base path of an event's user-event pages (unprefixed).
fn base(permalink: &str) -> String {
    format!("/mypage/event/{permalink}/my_notification")
}

/// The list of the user's events in `scope`.
async fn list(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    scope: Scope,
    page: Option<&str>,
    done: Option<&str>,
) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    let (rows, count) = hub_notification::Model::own_page(p.db, ev.id, current.user.id, scope, p.now, req).await?;
    let base = base(&ev.permalink);
    let scope_slug = match scope {
        Scope::All => "",
        Scope::Open => "/open",
        Scope::Closed => "/close",
    };
    let list_href = p.href(&format!("{base}{scope_slug}"));
    let items: Vec<Value> = rows
        .iter()
        .map(|n| {
            let standing = n.standing(p.now);
            let on_hub = n.is_public && n.publish_at <= p.now;
            json!({
                "id": n.id,
                "title": n.title,
                "start_at": n.start_at,
                "end_at": n.end_at,
                "publish_at": n.publish_at,
                "standing": standing,
                "edit_href": p.href(&format!("{base}/{}/edit", n.id)),
                "hub_href": on_hub.then(|| p.href(&format!("/hub/{}/virtual_events/{}", ev.permalink, n.id))),
            })
        })
        .collect();
    let pagination = Pagination::new(req, count, count);
    let link = |n: u64| if n > 1 { format!("{list_href}?page={n}") } else { list_href.clone() };
    let tabs: Vec<Value> = [("all", ""), ("open", "/open"), ("close", "/close")]
        .iter()
        .map(|(key, slug)| {
            json!({
                "label": p.t(&format!("my_events.tabs.{key}")),
                "href": p.href(&format!("{base}{slug}")),
                "current": *slug == scope_slug,
            })
        })
        .collect();
    let done =
        done.filter(|d| matches!(*d, "created" | "updated" | "deleted")).map(|d| p.t(&format!("my_events.done.{d}")));
    let ctx = json!({
        "nav": nav(&p),
        "event_name": p.lang.pick(&ev.name_ja, &ev.name_en),
        "items": items,
        "tabs": tabs,
        "done": done,
        "new_href": p.href(&format!("{base}/new")),
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    Ok(p.render("mypage/my_events", &p.t("my_events.title"), ctx))
}

/// All of the user's events in the event.
#[get("/mypage/event/<permalink>/my_notification?<page>&<done>")]
pub async fn all(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    page: Option<&str>,
    done: Option<&str>,
) -> Result<Template> {
    list(p, current, permalink, Scope::All, page, done).await
}

/// The user's events that are not over.
#[get("/mypage/event/<permalink>/my_notification/open?<page>")]
pub async fn open(p: Page<'_>, current: CurrentUser, permalink: Permalink, page: Option<&str>) -> Result<Template> {
    list(p, current, permalink, Scope::Open, page, None).await
}

/// The user's events that are over.
#[get("/mypage/event/<permalink>/my_notification/close?<page>")]
pub async fn close(p: Page<'_>, current: CurrentUser, permalink: Permalink, page: Option<&str>) -> Result<Template> {
    list(p, current, permalink, Scope::Closed, page, None).await
}

/// What the form shows: field values as typed, and errors by field.
struct FormView {
    values: Value,
    errors: HashMap<String, Vec<String>>,
    thumbnail: Option<String>,
}

impl FormView {
    fn blank() -> Self {
        let values = json!({
            "title": "", "content": "", "start_at": "", "end_at": "", "publish_at": "", "locale": "jp",
            "link_url": "", "world_id": "", "hub_tags": [],
        });
        Self { values, errors: HashMap::new(), thumbnail: None }
    }

    async fn of(db: &sea_orm::DatabaseConnection, n: &hub_notification::Model) -> Result<Self> {
        let tags: Vec<String> = n.tag_ids(db).await?.iter().map(i32::to_string).collect();
        Ok(Self {
            values: json!({
                "title": n.title,
                "content": n.content,
                "start_at": local_input(n.start_at),
                "end_at": n.end_at.map(local_input).unwrap_or_default(),
                "publish_at": local_input(n.publish_at),
                "locale": n.locale,
                "link_url": n.link_url.clone().unwrap_or_default(),
                "world_id": n.world_id.map(|w| w.to_string()).unwrap_or_default(),
                "hub_tags": tags,
            }),
            errors: HashMap::new(),
            thumbnail: n.thumbnail.clone(),
        })
    }

    fn typed(form: &UserEventForm<'_>, errors: &[FieldError], thumbnail: Option<String>) -> Self {
        let by_field = errors_by_field(errors.to_vec(), str::to_string);
        Self {
            values: json!({
                "title": text(&form.title), "content": text(&form.content), "start_at": text(&form.start_at),
                "end_at": text(&form.end_at), "publish_at": text(&form.publish_at), "locale": text(&form.locale),
                "link_url": text(&form.link_url), "world_id": text(&form.world_id), "hub_tags": form.hub_tags,
            }),
            errors: by_field,
            thumbnail,
        }
    }
}

/// Renders the form for `ev` (a new post when `editing` is `None`).
async fn render_form(
    p: &Page<'_>,
    ev: &event::Model,
    editing: Option<i32>,
    view: FormView,
    status: Status,
) -> Result<Answer> {
    let worlds: Vec<Value> = world::Model::of_event(p.db, ev.id)
        .await?
        .iter()
        .map(|w| json!({ "id": w.id.to_string(), "name": p.lang.pick(&w.name_ja, &w.name_en) }))
        .collect();
    let base = base(&ev.permalink);
    let (title, action) = match editing {
        None => (p.t("my_events.form.new_title"), p.href(&format!("{base}/new"))),
        Some(id) => (p.t("my_events.form.edit_title"), p.href(&format!("{base}/{id}/edit"))),
    };
    let ctx = json!({
        "nav": nav(p),
        "event_name": p.lang.pick(&ev.name_ja, &ev.name_en),
        "heading": title,
        "action": action,
        "delete_action": editing.map(|id| p.href(&format!("{base}/{id}/delete"))),
        "list_href": p.href(&base),
        "values": view.values,
        "errors": view.errors,
        "has_errors": !view.errors.is_empty(),
        "thumbnail": view.thumbnail,
        "worlds": worlds,
        "tags": HubTagView::all(p.db, p.lang).await?,
        "title_max": MAX_TITLE,
        "content_max": MAX_CONTENT,
    });
    Ok(Either::Left((status, p.render("mypage/my_event_form", &title, ctx))))
}

/// The signed-in user of a form post, once its CSRF field checked out (a page form cannot send
/// the header the API guards read).
fn poster<'a>(p: &'a Page<'_>, cookies: &CookieJar<'_>, csrf_token: Option<&str>) -> Result<&'a user::Model> {
    let user = p.user.as_ref().ok_or(Error::Unauthorized)?;
    if !csrf::verify(cookies, csrf_token) {
        return Err(Error::CsrfFailed);
    }
    Ok(user)
}

/// The form for a new post.
#[get("/mypage/event/<permalink>/my_notification/new")]
pub async fn new(p: Page<'_>, _current: CurrentUser, permalink: Permalink) -> Result<Answer> {
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    render_form(&p, &ev, None, FormView::blank(), Status::Ok).await
}

/// Posts the form: back to the list, or the form again with its errors.
#[post("/mypage/event/<permalink>/my_notification/new", data = "<form>")]
pub async fn create(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    permalink: Permalink,
    form: Form<UserEventForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    match user_event::input(p.db, &uploads, ev.id, user.id, &form).await {
        Ok(input) => {
            hub_notification::Model::create_user_event(p.db, ev.id, user, input, p.now).await?;
            Ok(Either::Right(crate::http::redirect::to_site(&format!("{}?done=created", p.href(&base(&ev.permalink))))))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = e.details(&p.site.messages, p.lang);
            render_form(&p, &ev, None, FormView::typed(&form, &errors, None), Status::UnprocessableEntity).await
        }
        Err(other) => Err(other),
    }
}

/// The form for one of the user's posts.
#[get("/mypage/event/<permalink>/my_notification/<id>/edit")]
pub async fn edit(p: Page<'_>, current: CurrentUser, permalink: Permalink, id: Id) -> Result<Answer> {
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    let n = hub_notification::Model::find_own(p.db, ev.id, current.user.id, id.0).await?;
    let view = FormView::of(p.db, &n).await?;
    render_form(&p, &ev, Some(n.id), view, Status::Ok).await
}

/// Saves the form over one of the user's posts.
#[post("/mypage/event/<permalink>/my_notification/<id>/edit", data = "<form>")]
pub async fn update(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    permalink: Permalink,
    id: Id,
    form: Form<UserEventForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    let n = hub_notification::Model::find_own(p.db, ev.id, user.id, id.0).await?;
    match user_event::input(p.db, &uploads, ev.id, user.id, &form).await {
        Ok(input) => {
            n.update_user_event(p.db, input, p.now).await?;
            Ok(Either::Right(crate::http::redirect::to_site(&format!("{}?done=updated", p.href(&base(&ev.permalink))))))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = e.details(&p.site.messages, p.lang);
            let view = FormView::typed(&form, &errors, n.thumbnail.clone());
            render_form(&p, &ev, Some(n.id), view, Status::UnprocessableEntity).await
        }
        Err(other) => Err(other),
    }
}

/// The delete button's form: only the CSRF field.
#[derive(rocket::FromForm)]
pub struct DeleteForm {
    csrf_token: Option<String>,
}

/// Deletes one of the user's posts.
#[post("/mypage/event/<permalink>/my_notification/<id>/delete", data = "<form>")]
pub async fn remove(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    id: Id,
    form: Form<DeleteForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let ev = event::Model::resolve(p.db, permalink.as_str()).await?;
    let n = hub_notification::Model::find_own(p.db, ev.id, user.id, id.0).await?;
    n.delete_user_event(p.db).await?;
    Ok(crate::http::redirect::to_site(&format!("{}?done=deleted", p.href(&base(&ev.permalink)))))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![all, open, close, new, create, edit, update, remove]
}
