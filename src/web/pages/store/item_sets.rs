//! A seller's sets without scripts, on the item's form (`/mypage/store/items/{uuid}/edit`): the
//! section [`section`] lists the seller's items that may go in the set, ticked when they are in
//! it; `POST /mypage/store/items/{uuid}/contents` (`csrf_token`, `items` once per ticked item)
//! saves it and redirects back to the form, which says so (`?set=saved`) or why not
//! (`?set_error=<reason>`, one of [`REASONS`]). The same rules as the API
//! ([`crate::store::model::item_set`]).

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, post, routes};
use serde_json::{Value, json};

use crate::db::entities::store_item;
use crate::error::Result;
use crate::store::model::item_set::{self, MAX_CONTENTS, set_contents};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::store::{back_to_form, refusal};

/// Why a set was not saved, as the redirect names it, and the message the form shows.
pub const REASONS: [(&str, &str); 5] = [
    ("set_too_many", "validation.set_too_many"),
    ("set_itself", "validation.set_itself"),
    ("set_unknown_item", "validation.set_unknown_item"),
    ("set_in_set", "errors.set_in_set"),
    ("set_sold", "errors.set_sold"),
];

/// The form: the ticked items.
#[derive(FromForm)]
pub struct SetForm {
    csrf_token: Option<String>,
    items: Vec<String>,
}

/// The message of what happened to the set (`set`) or why not (`set_error`), for the form.
pub fn note(p: &Page<'_>, set: Option<&str>, set_error: Option<&str>) -> Option<Value> {
    match (set, set_error) {
        (_, Some(reason)) => REASONS.iter().find(|(r, _)| *r == reason).map(|(_, key)| {
            let text = p.site.messages.tf(p.lang, key, &[("max", &MAX_CONTENTS.to_string())]);
            json!({ "ok": false, "text": text })
        }),
        (Some("saved"), None) => Some(json!({ "ok": true, "text": p.t("store.sets.saved") })),
        _ => None,
    }
}

/// The form's section about `item` as a set, with `note` (see [`note`]).
pub async fn section(p: &Page<'_>, item: &store_item::Model, note: Option<Value>) -> Result<Value> {
    let in_sets = item_set::sets_of(p.db, [item.id]).await?.remove(&item.id).unwrap_or_default();
    let sets = store_item::Model::by_ids(p.db, in_sets.iter().copied()).await?;
    let set_names: Vec<&str> = sets.values().map(|s| p.lang.pick(&s.name, &s.name_en)).collect();
    let inside = item_set::contents_of(p.db, [item.id]).await?.remove(&item.id).unwrap_or_default();
    let candidates: Vec<Value> = item_set::candidates(p.db, item)
        .await?
        .iter()
        .map(|c| {
            json!({
                "uuid": c.uuid,
                "name": p.lang.pick(&c.name, &c.name_en),
                "category": p.t(&format!("store.category.{}", c.product_category.as_str())),
                "checked": inside.contains(&c.id),
            })
        })
        .collect();
    Ok(json!({
        "action": p.href(&format!("/mypage/store/items/{}/contents", item.uuid)),
        "candidates": candidates,
        "in_sets": set_names.join(&p.t("store.list_separator")),
        "count": inside.len(),
        "max": MAX_CONTENTS,
        "note": note,
    }))
}

/// Saves which of the seller's items one of their items holds as a set.
#[post("/mypage/store/items/<uuid>/contents", data = "<form>")]
pub async fn save(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<SetForm>) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let set = store_item::Model::of_seller(p.db, uuid, user.id).await?;
    match set_contents(p.db, &set, &form.items, p.now).await {
        Ok(_) => Ok(back_to_form(&p, uuid, "set=saved", "set")),
        Err(e) => match refusal(&e, &REASONS) {
            Some(reason) => Ok(back_to_form(&p, uuid, &format!("set_error={reason}"), "set")),
            None => Err(e),
        },
    }
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![save]
}
