//! `/mypage/entry_history/{permalink}/preview/{slot_id}`: the slot's exhibitor page exactly as
//! visitors will see it after `event_open` — the public page's own template and view
//! (`crate::web::pages::exhibitors::render_exhibitor`) — with a banner saying when it opens, for
//! the owners and members of the circle holding the slot (404 to anyone else).

use rocket::{Route, get, routes};
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::error::{Error, Result};
use crate::exhibit::preview::of_slot;
use crate::http::template::Template;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::catalog::CatalogContext;
use crate::web::pages::exhibit::views::event_slots;
use crate::web::pages::exhibitors::render_exhibitor;

/// The preview of one slot's exhibitor page.
#[get("/mypage/entry_history/<permalink>/preview/<slot_id>")]
pub async fn preview(p: Page<'_>, current: CurrentUser, permalink: Permalink, slot_id: Id) -> Result<Template> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let slot = slots.iter().find(|s| s.id == slot_id.0).ok_or_else(Error::not_found)?;
    let shown = of_slot(p.db, &found, slot, p.lang, p.now).await?;
    let cx = CatalogContext::load(&p, Some(&permalink)).await?;
    let event_permalink = &found.event.permalink;
    let public_href = (shown.is_public && shown.exhibitor.exhibitor.id > 0)
        .then(|| p.href(&format!("/{event_permalink}/exhibitor/{}", shown.exhibitor.exhibitor.id)));
    let extra = json!({
        "public_from": shown.public_from.map(|at| at.to_rfc3339()),
        "is_public": shown.is_public,
        "public_href": public_href,
        "hub_href": p.href(&format!("/mypage/entry_history/{event_permalink}/hub")),
        "catalog_href": p.href(&format!("/mypage/entry_history/{event_permalink}/catalog")),
    });
    render_exhibitor(&p, &cx, shown.exhibitor, extra).await
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![preview]
}
