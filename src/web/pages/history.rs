//! The event history page: past events, newest first.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::error::Result;
use crate::model::event::EventView;
use crate::model::phase::PhaseType;
use crate::web::page::Page;

/// Events whose close has passed.
#[get("/event_history")]
pub async fn index(page: Page<'_>) -> Result<Template> {
    let events: Vec<_> = page
        .tree
        .events
        .iter()
        .filter(|e| e.reached(PhaseType::EventClose, page.now))
        .map(|e| {
            json!({
                "event": EventView::new(e, page.lang, page.now),
                "open_at": e.at(PhaseType::EventOpen),
                "close_at": e.at(PhaseType::EventClose),
                "worlds_href": page.href(&format!("/{}/worlds", e.event.permalink)),
            })
        })
        .collect();
    Ok(page.render("history/index", &page.t("history.title"), json!({ "events": events })))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![index]
}
