//! The seller's side under mypage: `/mypage/store/items` (their items with status, price in
//! force and purchases; their sales with the platform's fee and the proceeds), and the item form
//! (`/mypage/store/items/new`, `/mypage/store/items/{uuid}/edit`) over one of their uploaded
//! assets, with its pictures ([`super::item_images`]) and its set ([`item_sets`]). Errors come
//! back beside their fields with the input kept.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item::{self, AccessibleStatus};
use crate::error::{Error, Result};
use crate::forms::store_item::{DESCRIPTION_MAX, NAME_MAX, PRICE_MAX, StoreItemForm, check};
use crate::http::template::Template;
use crate::model::lottery_mails::yen;
use crate::store::model::purchase::{self, Side};
use crate::store::model::store_item::{sellable_assets, views};
use crate::store::model::store_item_image;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;
use crate::web::pages::store::item_images::REASONS;
use crate::web::pages::store::item_json;
use crate::web::pages::store::item_sets;

/// A page answer: the form with its status, or a redirect after a change.
type Answer = Either<(Status, Template), Redirect>;

/// A time as a `datetime-local` field shows it ("" when none).
fn local_input(at: Option<DateTime<Utc>>) -> String {
    at.map(crate::web::pages::my_events::local_input).unwrap_or_default()
}

/// The seller's items and sales.
#[get("/mypage/store/items?<done>")]
pub async fn list(p: Page<'_>, current: CurrentUser, done: Option<&str>) -> Result<Template> {
    let me = current.user.id;
    let rows = store_item::Model::all_of_seller(p.db, me).await?;
    let items: Vec<Value> = views(p.db, rows, Some(me), p.now)
        .await?
        .iter()
        .map(|v| {
            let mut shown = item_json(&p, v);
            let status = if v.is_forced_private { "forced_private" } else { status_key(v.accessible_status) };
            shown["status"] = json!(status);
            shown["status_label"] = json!(p.t(&format!("store.status.{status}")));
            shown["edit_href"] = json!(p.href(&format!("/mypage/store/items/{}/edit", v.uuid)));
            shown
        })
        .collect();
    let sales = purchase::views(p.db, purchase::of_user(p.db, me, Side::Seller).await?).await?;
    let standing: Vec<_> = sales.iter().filter(|s| s.refunded_at.is_none()).collect();
    let total = |f: fn(&&purchase::PurchaseView) -> i32| yen(standing.iter().map(f).sum());
    let sales_rows: Vec<Value> = sales
        .iter()
        .map(|s| {
            json!({
                "item": p.lang.pick(&s.item_name, &s.item_name_en),
                "item_href": p.href(&format!("/store/items/{}", s.item_uuid)),
                "price": yen(s.price), "fee": yen(s.fee_amount), "proceeds": yen(s.proceeds),
                "at": s.created_at,
                "refunded": s.refunded_at.is_some(),
            })
        })
        .collect();
    let notice = match done {
        Some("created") => Some(p.t("store.mine.done.created")),
        Some("updated") => Some(p.t("store.mine.done.updated")),
        _ => None,
    };
    let ctx = json!({
        "nav": nav(&p),
        "items": items,
        "new_href": p.href("/mypage/store/items/new"),
        "store_href": p.href("/store"),
        "sales": sales_rows,
        "totals": { "price": total(|s| s.price), "fee": total(|s| s.fee_amount), "proceeds": total(|s| s.proceeds) },
        "notice": notice,
    });
    Ok(p.render("mypage/store/items", &p.t("store.mine.title"), ctx))
}

/// The message-key part of a status.
fn status_key(status: AccessibleStatus) -> &'static str {
    match status {
        AccessibleStatus::Private => "private",
        AccessibleStatus::Limited => "limited",
        AccessibleStatus::Published => "published",
    }
}

/// What the form shows: values as typed, errors by field.
struct FormView {
    values: Value,
    errors: HashMap<String, Vec<String>>,
}

impl FormView {
    fn blank() -> Self {
        Self {
            values: json!({
                "asset_id": "", "name": "", "name_en": "", "description": "", "price": "0",
                "accessible_status": "private", "start_at": "", "end_at": "", "discount_rate": "",
                "discount_start_at": "", "discount_end_at": "", "item_order": "0",
            }),
            errors: HashMap::new(),
        }
    }

    fn of(item: &store_item::Model) -> Self {
        Self {
            values: json!({
                "name": item.name, "name_en": item.name_en, "description": item.description,
                "price": item.price.to_string(), "accessible_status": status_key(item.accessible_status),
                "start_at": local_input(item.start_at), "end_at": local_input(item.end_at),
                "discount_rate": if item.discount_rate > 0 { item.discount_rate.to_string() } else { String::new() },
                "discount_start_at": local_input(item.discount_start_at),
                "discount_end_at": local_input(item.discount_end_at),
                "item_order": item.item_order.to_string(), "asset_id": "",
            }),
            errors: HashMap::new(),
        }
    }

    fn typed(form: &StoreItemForm, errors: &[crate::error::FieldError]) -> Self {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let by_field = errors_by_field(errors.to_vec(), str::to_string);
        Self {
            values: json!({
                "asset_id": text(&form.asset_id), "name": text(&form.name), "name_en": text(&form.name_en),
                "description": text(&form.description), "price": text(&form.price),
                "accessible_status": text(&form.accessible_status), "start_at": text(&form.start_at),
                "end_at": text(&form.end_at), "discount_rate": text(&form.discount_rate),
                "discount_start_at": text(&form.discount_start_at), "discount_end_at": text(&form.discount_end_at),
                "item_order": text(&form.item_order),
            }),
            errors: by_field,
        }
    }
}

/// What the form of an item says after its pictures or its set changed.
#[derive(Default)]
struct Notes {
    picture: Option<Value>,
    set: Option<Value>,
}

/// Renders the form (a new item when `editing` is `None`).
async fn render_form(
    p: &Page<'_>,
    me: i32,
    editing: Option<&store_item::Model>,
    view: FormView,
    status: Status,
    notes: Notes,
) -> Result<Answer> {
    let pictures: Option<Value> = match editing {
        Some(item) => {
            let shown = store_item_image::of_items(p.db, [item.id]).await?.remove(&item.id).unwrap_or_default();
            let rows: Vec<Value> = shown
                .iter()
                .enumerate()
                .map(|(i, pic)| {
                    json!({
                        "url": pic.url, "thumbnail_url": pic.thumbnail_url,
                        "alt": p.site.messages.tf(p.lang, "store.pictures.alt", &[("n", &(i + 1).to_string())]),
                        "delete_action": p.href(&format!("/mypage/store/items/{}/images/{}/delete", item.uuid, pic.uuid)),
                    })
                })
                .collect();
            Some(json!({
                "rows": rows,
                "full": rows.len() >= store_item_image::MAX_IMAGES as usize,
                "max": store_item_image::MAX_IMAGES,
                "action": p.href(&format!("/mypage/store/items/{}/images", item.uuid)),
                "note": notes.picture,
            }))
        }
        None => None,
    };
    let set = match editing {
        Some(item) => Some(item_sets::section(p, item, notes.set).await?),
        None => None,
    };
    let uploads: Vec<Value> = match editing {
        Some(_) => Vec::new(),
        None => sellable_assets(p.db, me)
            .await?
            .into_iter()
            .map(|(id, name, category)| {
                json!({ "id": id.to_string(), "name": name, "category": p.t(&format!("store.category.{}", category.as_str())) })
            })
            .collect(),
    };
    let (heading, action) = match editing {
        None => (p.t("store.form.new_title"), p.href("/mypage/store/items/new")),
        Some(item) => (p.t("store.form.edit_title"), p.href(&format!("/mypage/store/items/{}/edit", item.uuid))),
    };
    let statuses: Vec<Value> = ["private", "limited", "published"]
        .iter()
        .map(|s| json!({ "value": s, "label": p.t(&format!("store.status.{s}")) }))
        .collect();
    let times = |names: &[&str]| -> Vec<Value> {
        names
            .iter()
            .map(|name| {
                json!({
                    "name": name,
                    "label": p.t(&format!("store.form.{name}")),
                    "value": view.values[*name],
                    "error": view.errors.get(*name).map(|e| e.join(" ")),
                })
            })
            .collect()
    };
    let (sale_times, discount_times) =
        (times(&["start_at", "end_at"]), times(&["discount_start_at", "discount_end_at"]));
    let ctx = json!({
        "nav": nav(p),
        "heading": heading,
        "sale_times": sale_times,
        "discount_times": discount_times,
        "action": action,
        "pictures": pictures,
        "set": set,
        "editing": editing.map(|i| json!({ "name": i.name, "href": p.href(&format!("/store/items/{}", i.uuid)) })),
        "uploads": uploads,
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
        "list_href": p.href("/mypage/store/items"),
        "statuses": statuses,
        "values": view.values,
        "has_errors": !view.errors.is_empty(),
        "errors": view.errors,
        "name_max": NAME_MAX,
        "description_max": DESCRIPTION_MAX,
        "price_max": PRICE_MAX,
    });
    Ok(Either::Left((status, p.render("mypage/store/item_form", &heading, ctx))))
}

/// The form for a new item.
#[get("/mypage/store/items/new")]
pub async fn new(p: Page<'_>, current: CurrentUser) -> Result<Answer> {
    render_form(&p, current.user.id, None, FormView::blank(), Status::Ok, Notes::default()).await
}

/// Puts one of the seller's assets on sale: back to the list, or the form with its errors.
#[post("/mypage/store/items/new", data = "<form>")]
pub async fn create(p: Page<'_>, cookies: &CookieJar<'_>, form: Form<StoreItemForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (input, wrong) = form.input();
    let made = match check(&input, &wrong) {
        Ok(fields) => store_item::Model::create(p.db, user.id, &fields, p.now).await.map(|_| ()),
        Err(e) => Err(e),
    };
    match made {
        Ok(()) => Ok(Either::Right(crate::http::redirect::to_site(&p.href("/mypage/store/items?done=created")))),
        Err(e) => {
            // A vanished or foreign asset, or one without an upload, is a problem of the asset field.
            let e = match e {
                Error::NotFound { .. } => Error::invalid("asset_id", "validation.unknown_reference"),
                Error::Conflict { code: "asset_not_uploaded" } => Error::invalid("asset_id", "validation.not_sellable"),
                other => other,
            };
            match e {
                e @ Error::Validation(_) => {
                    let errors = e.details(&p.site.messages, p.lang);
                    let view = FormView::typed(&form, &errors);
                    render_form(&p, user.id, None, view, Status::UnprocessableEntity, Notes::default()).await
                }
                other => Err(other),
            }
        }
    }
}

/// The form over one of the seller's items; after a picture was added or removed, what happened
/// (`picture`) or why not (`picture_error`, one of [`REASONS`]); after its set was saved, the
/// same (`set`, `set_error`: [`item_sets::note`]).
#[get("/mypage/store/items/<uuid>/edit?<picture>&<picture_error>&<set>&<set_error>")]
pub async fn edit(
    p: Page<'_>,
    current: CurrentUser,
    uuid: &str,
    picture: Option<&str>,
    picture_error: Option<&str>,
    set: Option<&str>,
    set_error: Option<&str>,
) -> Result<Answer> {
    let item = store_item::Model::of_seller(p.db, uuid, current.user.id).await?;
    let note = match (picture, picture_error) {
        (_, Some(reason)) => {
            REASONS.iter().find(|(r, _)| *r == reason).map(|(_, key)| json!({ "ok": false, "text": p.t(key) }))
        }
        (Some(done @ ("added" | "removed")), None) => {
            Some(json!({ "ok": true, "text": p.t(&format!("store.pictures.done.{done}")) }))
        }
        _ => None,
    };
    let notes = Notes { picture: note, set: item_sets::note(&p, set, set_error) };
    render_form(&p, current.user.id, Some(&item), FormView::of(&item), Status::Ok, notes).await
}

/// Saves the form over one of the seller's items.
#[post("/mypage/store/items/<uuid>/edit", data = "<form>")]
pub async fn update(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<StoreItemForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let item = store_item::Model::of_seller(p.db, uuid, user.id).await?;
    let (input, wrong) = form.input();
    match check(&input, &wrong) {
        Ok(fields) => {
            item.change(p.db, &fields, p.now).await?;
            Ok(Either::Right(crate::http::redirect::to_site(&p.href("/mypage/store/items?done=updated"))))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = e.details(&p.site.messages, p.lang);
            let view = FormView::typed(&form, &errors);
            render_form(&p, user.id, Some(&item), view, Status::UnprocessableEntity, Notes::default()).await
        }
        Err(other) => Err(other),
    }
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list, new, create, edit, update]
}
