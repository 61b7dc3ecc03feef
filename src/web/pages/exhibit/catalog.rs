//! `/mypage/entry_history/{permalink}/catalog`: the catalogue items of the user's slots in the
//! event, and for the owner — until the catalogue closes — `…/catalog/new?slot=`,
//! `…/catalog/{id}/edit` and `…/catalog/{id}/delete`: the same multipart form and checks as the
//! API (`crate::exhibit::catalog_form`), working without JavaScript.

use std::collections::HashMap;

use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::{Either, Route, get, post, routes};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::catalog_item;
use crate::error::{Error, Result};
use crate::exhibit::catalog::{
    self, NAME_EN_MAX, NAME_JA_MAX, SlotItemView, edits_close_at, is_editable, item_of, items_of,
};
use crate::exhibit::catalog_form::{CatalogItemForm, checked};
use crate::exhibit::slot::SlotView;
use crate::http::template::Template;
use crate::http::upload::Uploads;
use crate::model::catalog::{CategoryGroupType, CategoryGroupView};
use crate::model::event::EventWithPhases;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::circles::{ButtonForm, poster};
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::entry_views::event_tabs;
use crate::web::pages::exhibit::views::{event_slots, slot_json};
use crate::web::pages::mypage_nav::nav;

type Answer = Either<(Status, Template), rocket::response::Redirect>;

/// The confirmations the list may show (`exhibit.catalog.done.<key>`).
const DONE: [&str; 3] = ["created", "updated", "deleted"];
/// The refusals the list may show (`errors.<code>`).
const ERRORS: [&str; 2] = ["catalog_closed", "catalog_items_full"];

fn list_path(permalink: &str) -> String {
    format!("/mypage/entry_history/{permalink}/catalog")
}

/// Back to the list with `?done=` or a refusal it can explain as `?error=`.
fn back(p: &Page<'_>, permalink: &str, outcome: Result<&str>) -> Result<rocket::response::Redirect> {
    let query = match outcome {
        Ok(done) => format!("done={done}"),
        Err(Error::Closed { code, .. }) | Err(Error::Conflict { code }) if ERRORS.contains(&code) => {
            format!("error={code}")
        }
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{}?{query}", p.href(&list_path(permalink)))))
}

fn item_json(p: &Page<'_>, permalink: &str, i: &SlotItemView, writable: bool) -> Value {
    let base = format!("{}/{}", list_path(permalink), i.item.id);
    json!({
        "id": i.item.id,
        "name": i.item.name.get(),
        "thumbnail": i.item.thumbnail,
        "url": i.item.url,
        "is_distributable": i.item.is_distributable,
        "category": i.item.category.name.get(),
        "edit_href": writable.then(|| p.href(&format!("{base}/edit"))),
        "delete_action": writable.then(|| p.href(&format!("{base}/delete"))),
    })
}

/// The items of the user's slots in the event.
#[get("/mypage/entry_history/<permalink>/catalog?<done>&<error>")]
pub async fn list(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let items = items_of(p.db, &slots, p.lang).await?;
    let editable = is_editable(&found, p.now);
    let permalink = &found.event.permalink;
    let cards: Vec<Value> = slots
        .iter()
        .map(|slot| {
            let writable = editable && slot.circle.is_owner;
            let mine: Vec<Value> =
                items.iter().filter(|i| i.slot_id == slot.id).map(|i| item_json(&p, permalink, i, writable)).collect();
            let new_href = writable.then(|| p.href(&format!("{}/new?slot={}", list_path(permalink), slot.id)));
            json!({ "slot": slot_json(&p, slot), "items": mine, "new_href": new_href })
        })
        .collect();
    let ctx = json!({
        "nav": nav(&p),
        "event_name": p.lang.pick(&found.event.name_ja, &found.event.name_en),
        "tabs": event_tabs(&p, permalink, "catalog", true),
        "cards": cards,
        "is_editable": editable,
        "editable_until": edits_close_at(&found).map(|at| at.to_rfc3339()),
        "notices": {
            "done": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("exhibit.catalog.done.{d}"))),
            "error": error.filter(|e| ERRORS.contains(e)).map(|e| p.t(&format!("exhibit.catalog.error.{e}"))),
        },
        "list_href": p.href("/mypage/entry_history"),
    });
    Ok(p.render("mypage/exhibit/catalog", &p.t("exhibit.catalog.title"), ctx))
}

/// What the item form shows: values as typed (or stored) and errors by field.
fn form_ctx(
    p: &Page<'_>,
    found: &EventWithPhases,
    slot: &SlotView,
    action: String,
    values: Value,
    errors: HashMap<String, Vec<String>>,
    current_thumbnail: Option<String>,
) -> Value {
    let permalink = &found.event.permalink;
    json!({
        "nav": nav(p),
        "event_name": p.lang.pick(&found.event.name_ja, &found.event.name_en),
        "tabs": event_tabs(p, permalink, "catalog", true),
        "card": { "slot": slot_json(p, slot) },
        "action": action,
        "values": values,
        "has_errors": !errors.is_empty(),
        "errors": errors,
        "current_thumbnail": current_thumbnail,
        "groups": CategoryGroupView::from_tree(&p.tree, CategoryGroupType::General, p.lang),
        "limits": { "name_ja": NAME_JA_MAX, "name_en": NAME_EN_MAX },
        "back_href": p.href(&list_path(permalink)),
    })
}

fn typed(form: &CatalogItemForm<'_>, slot_id: i32) -> Value {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    json!({
        "slot_id": slot_id,
        "name_ja": text(&form.name_ja), "name_en": text(&form.name_en), "url": text(&form.url),
        "category_id": text(&form.category_id),
        "is_distributable": matches!(form.is_distributable.as_deref(), Some("true" | "1" | "on")),
    })
}

/// The form's errors by field (the page's fields are named as the input's).
fn by_field(p: &Page<'_>, e: &Error) -> HashMap<String, Vec<String>> {
    errors_by_field(e.details(&p.site.messages, p.lang), str::to_string)
}

/// The slot `raw` names among the user's (the only one when it names none), owned and open
/// for edits (else why not).
fn writable_slot<'s>(
    found: &EventWithPhases,
    slots: &'s [SlotView],
    raw: Option<&str>,
    p: &Page<'_>,
) -> Result<&'s SlotView> {
    let slot = match raw {
        Some(r) => {
            let id = Id::parse(r).map_err(|_| Error::not_found())?;
            slots.iter().find(|s| s.id == id.0).ok_or_else(Error::not_found)?
        }
        // A circle with one slot needs not name it.
        None if slots.len() == 1 => &slots[0],
        None => return Err(Error::not_found()),
    };
    catalog::ensure_may_write(found, slot, p.now)?;
    Ok(slot)
}

/// The form for a new item of slot `slot`.
#[get("/mypage/entry_history/<permalink>/catalog/new?<slot>")]
pub async fn new(p: Page<'_>, current: CurrentUser, permalink: Permalink, slot: Option<&str>) -> Result<Answer> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let slot = match writable_slot(&found, &slots, slot, &p) {
        Ok(s) => s,
        Err(e @ Error::Closed { .. }) => return Ok(Either::Right(back(&p, &found.event.permalink, Err(e))?)),
        Err(e) => return Err(e),
    };
    let action = p.href(&format!("{}/new", list_path(&found.event.permalink)));
    let values = json!({ "slot_id": slot.id, "name_ja": "", "name_en": "", "url": "", "category_id": "", "is_distributable": false });
    let ctx = form_ctx(&p, &found, slot, action, values, HashMap::new(), None);
    Ok(Either::Left((Status::Ok, p.render("mypage/exhibit/item_form", &p.t("exhibit.catalog.new_title"), ctx))))
}

/// Adds the item: to the list, or the form again with its errors.
#[post("/mypage/entry_history/<permalink>/catalog/new", data = "<form>")]
pub async fn create(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    permalink: Permalink,
    form: Form<CatalogItemForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (found, slots) = event_slots(&p, user.id, permalink.as_str()).await?;
    let permalink = &found.event.permalink;
    let slot = match writable_slot(&found, &slots, form.slot_id.as_deref(), &p) {
        Ok(s) => s,
        Err(e @ Error::Closed { .. }) => return Ok(Either::Right(back(&p, permalink, Err(e))?)),
        Err(e) => return Err(e),
    };
    match checked(p.db, &uploads, &form, None).await {
        Ok(change) => {
            let outcome = catalog::create(p.db, &found, slot, change, p.now).await.map(|_| "created");
            Ok(Either::Right(back(&p, permalink, outcome)?))
        }
        Err(e @ Error::Validation(_)) => {
            let action = p.href(&format!("{}/new", list_path(permalink)));
            let ctx = form_ctx(&p, &found, slot, action, typed(&form, slot.id), by_field(&p, &e), None);
            let title = p.t("exhibit.catalog.new_title");
            Ok(Either::Left((Status::UnprocessableEntity, p.render("mypage/exhibit/item_form", &title, ctx))))
        }
        Err(other) => Err(other),
    }
}

/// The form for one item.
#[get("/mypage/entry_history/<permalink>/catalog/<id>/edit")]
pub async fn edit(p: Page<'_>, current: CurrentUser, permalink: Permalink, id: Id) -> Result<Answer> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let (item, slot) = item_of(p.db, &slots, id.0, p.lang).await?;
    if let Err(e) = catalog::ensure_may_write(&found, slot, p.now) {
        return match e {
            Error::Closed { .. } => Ok(Either::Right(back(&p, &found.event.permalink, Err(e))?)),
            other => Err(other),
        };
    }
    let row = catalog_item::Entity::find_by_id(id.0).one(p.db).await?.ok_or_else(Error::not_found)?;
    let action = p.href(&format!("{}/{}/edit", list_path(&found.event.permalink), id.0));
    let values = json!({
        "slot_id": slot.id, "name_ja": row.name_ja, "name_en": row.name_en, "url": row.url.unwrap_or_default(),
        "category_id": row.category_id.to_string(), "is_distributable": row.is_distributable,
    });
    let ctx = form_ctx(&p, &found, slot, action, values, HashMap::new(), item.item.thumbnail);
    Ok(Either::Left((Status::Ok, p.render("mypage/exhibit/item_form", &p.t("exhibit.catalog.edit_title"), ctx))))
}

/// Saves the form over one item.
#[post("/mypage/entry_history/<permalink>/catalog/<id>/edit", data = "<form>")]
pub async fn update(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uploads: Uploads<'_>,
    permalink: Permalink,
    id: Id,
    form: Form<CatalogItemForm<'_>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (found, slots) = event_slots(&p, user.id, permalink.as_str()).await?;
    let permalink = &found.event.permalink;
    let (item, slot) = item_of(p.db, &slots, id.0, p.lang).await?;
    if let Err(e) = catalog::ensure_may_write(&found, slot, p.now) {
        return Ok(Either::Right(back(&p, permalink, Err(e))?));
    }
    let row = catalog_item::Entity::find_by_id(id.0).one(p.db).await?.ok_or_else(Error::not_found)?;
    match checked(p.db, &uploads, &form, Some(&row)).await {
        Ok(change) => {
            let outcome = catalog::update(p.db, &found, slot, id.0, change, p.now).await.map(|_| "updated");
            Ok(Either::Right(back(&p, permalink, outcome)?))
        }
        Err(e @ Error::Validation(_)) => {
            let action = p.href(&format!("{}/{}/edit", list_path(permalink), id.0));
            let ctx = form_ctx(&p, &found, slot, action, typed(&form, slot.id), by_field(&p, &e), item.item.thumbnail);
            let title = p.t("exhibit.catalog.edit_title");
            Ok(Either::Left((Status::UnprocessableEntity, p.render("mypage/exhibit/item_form", &title, ctx))))
        }
        Err(other) => Err(other),
    }
}

/// Removes one item.
#[post("/mypage/entry_history/<permalink>/catalog/<id>/delete", data = "<form>")]
pub async fn delete(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    id: Id,
    form: Form<ButtonForm>,
) -> Result<rocket::response::Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (found, slots) = event_slots(&p, user.id, permalink.as_str()).await?;
    let (_, slot) = item_of(p.db, &slots, id.0, p.lang).await?;
    let outcome = catalog::delete(p.db, &found, slot, id.0, p.now).await.map(|_| "deleted");
    back(&p, &found.event.permalink, outcome)
}

/// Routes of these pages.
pub fn routes() -> Vec<Route> {
    routes![list, new, create, edit, update, delete]
}
