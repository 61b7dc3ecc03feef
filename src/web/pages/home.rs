//! The top page: the current event's name, theme and key visual, its phase timeline with a live
//! countdown island, what is open now, its lottery commitments and published draws, and its
//! concepts. The same page of any public event is its top at `/{permalink}` ([`event_top`],
//! served by the `/{slug}` catch-all when no redirect rule claims the path).

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::error::Result;
use crate::model::concept::ConceptView;
use crate::model::event::{EventView, EventWithPhases, Window};
use crate::web::page::Page;

/// The top page of the current event.
#[get("/")]
pub async fn index(page: Page<'_>) -> Result<Template> {
    let tree = page.tree.clone();
    let Some(current) = tree.current(page.now) else {
        return Ok(page.render("home/empty", &page.t("site.name"), json!({})));
    };
    Ok(render_event(&page, current))
}

/// The top page of the public event `permalink`, or `None` when there is none.
pub async fn event_top(page: &Page<'_>, permalink: &str) -> Result<Option<Template>> {
    let tree = page.tree.clone();
    Ok(tree.event_by_permalink(permalink).map(|found| render_event(page, found)))
}

/// An event's top page (from the event tree: no statement).
fn render_event(page: &Page<'_>, current: &EventWithPhases) -> Template {
    let tree = &page.tree;
    let lottery_runs = tree.lottery_runs.get(&current.event.id).cloned().unwrap_or_default();
    let view = EventView::new(current, page.lang, page.now);
    let concepts = ConceptView::from_tree(tree, tree.concepts_of(current.event.id), page.lang);
    let title = view.name.get().clone();
    // This event's own worlds: `/worlds` is the current event's, another event's are under its
    // permalink (a past event's page once sent its visitors to today's worlds).
    let is_current = tree.current(page.now).is_some_and(|c| c.event.id == current.event.id);
    let worlds_href =
        if is_current { page.href("/worlds") } else { page.href(&format!("/{}/worlds", current.event.permalink)) };
    page.render(
        "home/index",
        &title,
        json!({
            "event": view,
            "timeline": timeline(page, &view),
            "open_now": open_now(page, current),
            // The other public events taking entries or payments now.
            "elsewhere": page.naming().open_events(tree, Some(current.event.id)),
            "countdown_props": countdown_props(page, &view).to_string(),
            "next_phase": next_phase(page, &view),
            "lottery_runs": lottery_runs,
            "concepts": concepts,
            "world_count": concepts.iter().map(|c| c.worlds.len()).sum::<usize>(),
            "worlds_href": worlds_href,
        }),
    )
}

/// The display phases (entry / lottery / payment / submission) as timeline rows.
fn timeline(page: &Page<'_>, view: &EventView) -> Vec<serde_json::Value> {
    view.event_phases
        .iter()
        .filter(|p| p.is_displayable)
        .filter_map(|p| {
            let label = p.display_label?;
            Some(json!({
                "label": page.t(&format!("phase_labels.{}", label.as_str())),
                "label_key": label.as_str(),
                "name": page.t(&format!("phases.{}", p.phase_type.as_str())),
                "at": p.phase_timestamp,
                "status": p.phase_status,
            }))
        })
        .collect()
}

/// The windows open now, with their closing time; the entry window with the way to apply (the
/// events page of mypage, behind sign-in).
fn open_now(page: &Page<'_>, event: &EventWithPhases) -> Vec<serde_json::Value> {
    event
        .open_windows(page.now)
        .into_iter()
        .map(|(window, until)| {
            let mut row = page.naming().window(window, until);
            row["apply_href"] = json!((window == Window::Entry).then(|| page.href("/mypage/events")));
            row
        })
        .collect()
}

/// Public, displayable, non-display phases still ahead, for the countdown island.
fn upcoming<'a>(view: &'a EventView, page: &Page<'_>) -> impl Iterator<Item = &'a crate::model::event::PhaseView> {
    let now = page.now;
    view.event_phases.iter().filter(move |p| p.is_displayable && p.display_label.is_none() && p.phase_timestamp > now)
}

/// The next phase ahead, for the no-JavaScript fallback of the countdown.
fn next_phase(page: &Page<'_>, view: &EventView) -> Option<serde_json::Value> {
    upcoming(view, page).next().map(|p| {
        json!({
            "name": page.t(&format!("phases.{}", p.phase_type.as_str())),
            "at": p.phase_timestamp,
        })
    })
}

/// Props of the `phase-countdown` island.
fn countdown_props(page: &Page<'_>, view: &EventView) -> serde_json::Value {
    let phases: Vec<_> = upcoming(view, page)
        .map(|p| {
            json!({
                "type": p.phase_type,
                "label": page.t(&format!("phases.{}", p.phase_type.as_str())),
                "at": p.phase_timestamp,
            })
        })
        .collect();
    json!({ "lang": page.lang.code(), "now": page.now, "phases": phases })
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![index]
}
