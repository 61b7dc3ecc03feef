//! Exhibitor and company detail pages: `/{permalink}/exhibitor/{id}` and
//! `/{permalink}/company/{id}`. Both answer 404 before the event opens (spec §4).

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::db::entities::{company, exhibitor, world};
use crate::error::{Error, Result};
use crate::model::company::CompanyView;
use crate::model::exhibitor::ExhibitorDetailView;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::catalog::CatalogContext;

/// An exhibitor: its circle, placement, world and items.
#[get("/<permalink>/exhibitor/<id>", rank = 5)]
pub async fn exhibitor_page(page: Page<'_>, permalink: Permalink, id: Id) -> Result<Template> {
    let cx = CatalogContext::load(&page, Some(&permalink)).await?;
    if !cx.open {
        return Err(Error::not_found());
    }
    let found = exhibitor::Model::find_visible(page.db, cx.event.event.id, id.0).await?;
    let view = ExhibitorDetailView::load(page.db, found, page.lang).await?;
    render_exhibitor(&page, &cx, view, serde_json::Value::Null).await
}

/// The exhibitor page of `view` in event `cx` — the public page, and the preview an exhibitor
/// sees before it opens (`extra` goes to the template as `preview`).
pub(crate) async fn render_exhibitor(
    page: &Page<'_>,
    cx: &CatalogContext,
    view: ExhibitorDetailView,
    extra: serde_json::Value,
) -> Result<Template> {
    let launch_link = match view.exhibitor.world.as_ref() {
        Some(w) => world::Model::find(page.db, w.id).await?.launch_link,
        None => None,
    };
    let world_href = view
        .exhibitor
        .world
        .as_ref()
        .map(|w| page.href(&format!("{}/catalog/{}?world_id={}", cx.base, w.concept_id, w.id)));
    let other_name = view.exhibitor.name.text().pick(page.lang.other()).clone();
    let title = view.exhibitor.name.get().clone();
    let mut ctx = cx.common(page);
    ctx["exhibitor"] = json!(view);
    ctx["other_name"] = json!(other_name);
    ctx["world_href"] = json!(world_href);
    ctx["launch_link"] = json!(launch_link);
    ctx["preview"] = extra;
    Ok(page.render("catalog/exhibitor", &title, ctx))
}

/// A company: description, highlights, worlds, links and items.
#[get("/<permalink>/company/<id>", rank = 5)]
pub async fn company_page(page: Page<'_>, permalink: Permalink, id: Id) -> Result<Template> {
    let cx = CatalogContext::load(&page, Some(&permalink)).await?;
    if !cx.open {
        return Err(Error::not_found());
    }
    let found = company::Model::find_public(page.db, cx.event.event.id, id.0).await?;
    let view = CompanyView::load_one(page.db, found, page.lang).await?;
    let worlds: Vec<_> = view
        .worlds
        .iter()
        .map(|w| {
            json!({
                "name": w.name,
                "href": page.href(&format!("{}/catalog/{}?world_id={}", cx.base, w.concept_id, w.id)),
            })
        })
        .collect();
    let other_name = view.name.text().pick(page.lang.other()).clone();
    let title = view.name.get().clone();
    let mut ctx = cx.common(&page);
    ctx["company"] = json!(view);
    ctx["other_name"] = json!(other_name);
    ctx["worlds"] = json!(worlds);
    Ok(page.render("catalog/company", &title, ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![exhibitor_page, company_page]
}
