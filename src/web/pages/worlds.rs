//! World pages: the worlds of an event grouped by concept, and a world's detail page.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::error::{Error, Result};
use crate::model::concept::ConceptView;
use crate::model::event::{EventView, EventWithPhases};
use crate::model::phase::PhaseType;
use crate::model::world::WorldView;
use crate::types::{Id, Permalink};
use crate::web::page::Page;

/// The current event, or 404 when there is none.
async fn current_event(page: &Page<'_>) -> Result<EventWithPhases> {
    page.tree.current(page.now).cloned().ok_or_else(Error::unknown_permalink)
}

/// The event named by `permalink`.
async fn event_by_permalink(page: &Page<'_>, permalink: &Permalink) -> Result<EventWithPhases> {
    page.tree.resolve(permalink.as_str()).cloned().ok_or_else(Error::unknown_permalink)
}

/// Worlds of the current event.
#[get("/worlds")]
pub async fn current_worlds(page: Page<'_>) -> Result<Template> {
    let event = current_event(&page).await?;
    worlds_page(&page, event, false).await
}

/// Worlds of the event `permalink`.
#[get("/<permalink>/worlds", rank = 5)]
pub async fn event_worlds(page: Page<'_>, permalink: Permalink) -> Result<Template> {
    let event = event_by_permalink(&page, &permalink).await?;
    worlds_page(&page, event, true).await
}

async fn worlds_page(page: &Page<'_>, event: EventWithPhases, by_permalink: bool) -> Result<Template> {
    let concepts = ConceptView::from_tree(&page.tree, page.tree.concepts_of(event.event.id), page.lang);
    let base = if by_permalink { format!("/{}", event.event.permalink) } else { String::new() };
    let view = EventView::new(&event, page.lang, page.now);
    Ok(page.render(
        "worlds/index",
        &page.t("worlds.title"),
        json!({
            "event": view,
            "concepts": concepts,
            "world_count": concepts.iter().map(|c| c.worlds.len()).sum::<usize>(),
            "world_base": page.href(&format!("{base}/world")),
        }),
    ))
}

/// A world of the current event.
#[get("/world/<id>")]
pub async fn current_world(page: Page<'_>, id: Id) -> Result<Template> {
    let event = current_event(&page).await?;
    world_page(&page, event, id, false).await
}

/// A world of the event `permalink`.
#[get("/<permalink>/world/<id>", rank = 5)]
pub async fn event_world(page: Page<'_>, permalink: Permalink, id: Id) -> Result<Template> {
    let event = event_by_permalink(&page, &permalink).await?;
    world_page(&page, event, id, true).await
}

async fn world_page(page: &Page<'_>, event: EventWithPhases, id: Id, by_permalink: bool) -> Result<Template> {
    let tree = page.tree.clone();
    let world = tree.world(event.event.id, id.0).ok_or_else(Error::not_found)?;
    let concept = tree.concept(event.event.id, world.concept_id).ok_or_else(Error::not_found)?;
    let areas = world.areas(page.db).await?;
    let posters = world.posters(page.db).await?;
    let view = WorldView::from_tree(&tree, [world], page.lang).pop().ok_or_else(Error::not_found)?;
    let mut artists_by_category: Vec<serde_json::Value> = Vec::new();
    for category in ["world_modeler", "bgm_composer", "logo_designer"] {
        let names: Vec<_> = view
            .world_artists
            .iter()
            .filter(|a| a.category.as_str() == category)
            .map(|a| a.artist.name.get().clone())
            .collect();
        if !names.is_empty() {
            artists_by_category
                .push(json!({ "label": page.t(&format!("artist_categories.{category}")), "names": names }));
        }
    }
    let base = if by_permalink { format!("/{}", event.event.permalink) } else { String::new() };
    let opens_at = event.at(PhaseType::EventOpen);
    let title = view.name.get().clone();
    Ok(page.render(
        "worlds/show",
        &title,
        json!({
            "event": EventView::new(&event, page.lang, page.now),
            "world": view,
            "other_name": match page.lang { crate::types::Lang::Ja => &view.name.text().en, crate::types::Lang::En => &view.name.text().ja },
            "concept_name": page.lang.pick(&concept.name_ja, &concept.name_en),
            "artists_by_category": artists_by_category,
            "areas": areas.iter().map(|a| json!({"number": a.number, "name": a.name})).collect::<Vec<_>>(),
            "poster_count": posters.len(),
            "platform_label": page.t(&format!("platforms.{}", view.exhibition_platform.as_str())),
            "venue_label": page.t(&format!("venues.{}", view.venue.as_str())),
            "launch_open": event.reached(PhaseType::EventOpen, page.now),
            "opens_at": opens_at,
            "worlds_href": page.href(&format!("{base}/worlds")),
        }),
    ))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![current_worlds, event_worlds, current_world, event_world]
}
