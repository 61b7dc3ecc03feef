//! Access pages (spec §2): how to visit Virtual Market (`/access`) and an event's venues with
//! their worlds and launch links (`/access/{permalink}/venues`; the links appear once the event
//! has opened).

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::error::Result;
use crate::model::concept::ConceptView;
use crate::model::event::EventView;
use crate::model::phase::PhaseType;
use crate::types::Permalink;
use crate::web::page::Page;

/// How to visit: platforms, devices, steps and questions, linking the current event.
#[get("/access")]
pub async fn index(page: Page<'_>) -> Result<Template> {
    let current = page.tree.current(page.now);
    let event = current.map(|e| {
        json!({
            "view": EventView::new(e, page.lang, page.now),
            "worlds_href": page.href(&format!("/{}/worlds", e.event.permalink)),
            "venues_href": page.href(&format!("/access/{}/venues", e.event.permalink)),
            "open": e.reached(PhaseType::EventOpen, page.now),
            "opens_at": e.at(PhaseType::EventOpen),
        })
    });
    Ok(page.render("access/index", &page.t("access.title"), json!({ "event": event })))
}

/// The venues of the event `permalink`: concepts with their worlds, platform and venue.
#[get("/access/<permalink>/venues")]
pub async fn venues(page: Page<'_>, permalink: Permalink) -> Result<Template> {
    let tree = page.tree.clone();
    let event = tree.resolve(permalink.as_str()).ok_or_else(crate::error::Error::unknown_permalink)?;
    let concepts = ConceptView::from_tree(&tree, tree.concepts_of(event.event.id), page.lang);
    let concepts: Vec<_> = concepts
        .into_iter()
        .map(|c| {
            json!({
                "platform_label": page.t(&format!("platforms.{}", c.platform.as_str())),
                "venue_label": page.t(&format!("venues.{}", c.venue.as_str())),
                "worlds": c.worlds.iter().map(|w| json!({
                    "world": w,
                    "platform_label": page.t(&format!("platforms.{}", w.exhibition_platform.as_str())),
                    "venue_label": page.t(&format!("venues.{}", w.venue.as_str())),
                })).collect::<Vec<_>>(),
                "concept": c,
            })
        })
        .collect();
    let title = page.t("access.venues.title");
    Ok(page.render(
        "access/venues",
        &title,
        json!({
            "event": EventView::new(event, page.lang, page.now),
            "concepts": concepts,
            "launch_open": event.reached(PhaseType::EventOpen, page.now),
            "opens_at": event.at(PhaseType::EventOpen),
            "world_base": page.href(&format!("/{}/world", event.event.permalink)),
            "access_href": page.href("/access"),
        }),
    ))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![index, venues]
}
