//! `/mypage/entry_history/{permalink}/hub`: per slot, the checklist (`crate::exhibit::checklist`)
//! — each step's state, its deadline in Japan time and the link that completes it — and the
//! slot's next deadline on top.

use rocket::{Route, get, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::exhibit::catalog::counts_of;
use crate::exhibit::checklist::{SlotFacts, StepKind, StepState, next_deadline, steps};
use crate::exhibit::submission::newest_of;
use crate::forms::snake as name;
use crate::http::template::Template;
use crate::types::Permalink;
use crate::web::page::Page;
use crate::web::pages::entry_views::event_tabs;
use crate::web::pages::exhibit::views::{event_slots, slot_json};
use crate::web::pages::mypage_nav::nav;

/// Where a step's action leads, for the states that call for one.
fn action(p: &Page<'_>, permalink: &str, slot_id: i32, kind: StepKind, state: StepState) -> Option<String> {
    let base = format!("/mypage/entry_history/{permalink}");
    let to = |path: String| Some(p.href(&path));
    match (kind, state) {
        (StepKind::Catalog, StepState::Open | StepState::Done) => to(format!("{base}/catalog")),
        (StepKind::Submitted | StepKind::Inspected, StepState::Open | StepState::NeedsFix | StepState::Waiting) => {
            to(format!("{base}/submissions/{slot_id}"))
        }
        (StepKind::Submitted, StepState::Done) => to(format!("{base}/submissions/{slot_id}")),
        _ => None,
    }
}

/// The message key of a step's action: a member reads the catalogue items the owner edits.
fn action_key(kind: StepKind, is_owner: bool) -> String {
    match kind {
        StepKind::Catalog if !is_owner => "exhibit.hub.action.catalog_view".into(),
        _ => format!("exhibit.hub.action.{}", name(kind)),
    }
}

/// The checklist of every slot the user's circles hold in the event.
#[get("/mypage/entry_history/<permalink>/hub")]
pub async fn hub(p: Page<'_>, current: CurrentUser, permalink: Permalink) -> Result<Template> {
    let (found, slots) = event_slots(&p, current.user.id, permalink.as_str()).await?;
    let counts = counts_of(p.db, &slots).await?;
    let ids: Vec<i32> = slots.iter().map(|s| s.id).collect();
    let newest = newest_of(p.db, &ids).await?;
    let permalink = &found.event.permalink;
    let cards: Vec<Value> = slots
        .iter()
        .map(|slot| {
            let facts = SlotFacts { items: counts.get(&slot.id).copied().unwrap_or(0), newest: newest.get(&slot.id) };
            let list = steps(&found, &facts, p.now);
            let next = next_deadline(&list, p.now).map(
                |(kind, at)| json!({ "step": p.t(&format!("exhibit.hub.step.{}", name(kind))), "at": at.to_rfc3339() }),
            );
            let rows: Vec<Value> = list
                .iter()
                .map(|s| {
                    json!({
                        "kind": name(s.kind),
                        "state": name(s.state),
                        "label": p.t(&format!("exhibit.hub.step.{}", name(s.kind))),
                        "state_label": p.t(&format!("exhibit.hub.state.{}", name(s.state))),
                        "opens_at": s.opens_at.map(|at| at.to_rfc3339()),
                        "deadline": s.deadline.map(|at| at.to_rfc3339()),
                        "action": action(&p, permalink, slot.id, s.kind, s.state),
                        "action_label": p.t(&action_key(s.kind, slot.circle.is_owner)),
                    })
                })
                .collect();
            json!({
                "slot": slot_json(&p, slot),
                "steps": rows,
                "next": next,
                "preview_href": p.href(&format!("/mypage/entry_history/{permalink}/preview/{}", slot.id)),
            })
        })
        .collect();
    let event_name = p.lang.pick(&found.event.name_ja, &found.event.name_en).to_string();
    let ctx = json!({
        "nav": nav(&p),
        "event_name": event_name,
        "tabs": event_tabs(&p, permalink, "hub", true),
        "cards": cards,
        "list_href": p.href("/mypage/entry_history"),
    });
    Ok(p.render("mypage/exhibit/hub", &p.t("exhibit.hub.title"), ctx))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![hub]
}
