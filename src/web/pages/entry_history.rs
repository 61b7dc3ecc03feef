//! The entry history (spec §2: `/mypage/entry_history`, `/mypage/entry_history/{permalink}/apply`):
//! the entries of every circle the user owns or belongs to, newest first, and for one event
//! each entry with its wishes, each wish's lottery status in words and the entry's lottery type.
//! The owner sees edit and withdraw links while the entry window is open, a link to the AMP
//! options until `submission_end`, and a decline link beside a win to pay inside its payment
//! window; members read only.
//! The event's other tabs (hub, catalog, submissions) are `crate::web::pages::exhibit`'s.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, event_entry, payment_history};
use crate::error::Result;
use crate::exhibit::slot::slots_for;
use crate::model::entry_view::EntryView;
use crate::model::pagination::{PageRequest, Pagination};
use crate::types::Permalink;
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::entry_views::{entry_json, event_tabs};
use crate::web::pages::mypage_nav::nav;

/// Entries per list page.
pub const PAGE_SIZE: u64 = 20;

/// Most entries one event's page lists (one per circle the user is part of).
const PER_EVENT: u64 = 100;

/// Adds to each application of `items` (from [`entry_json`]) the link to the viewer's receipt
/// when they paid it.
async fn with_receipts(p: &Page<'_>, user_id: i32, items: &mut [Value]) -> Result<()> {
    let ids: Vec<i32> = items
        .iter()
        .flat_map(|e| e["applications"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| a["id"].as_i64().and_then(|id| i32::try_from(id).ok()))
        .collect();
    let receipts = payment_history::Model::receipts_of(p.db, user_id, ids).await?;
    for entry in items.iter_mut() {
        let Some(applications) = entry["applications"].as_array_mut() else { continue };
        for a in applications {
            let Some(uuid) = a["id"].as_i64().and_then(|id| receipts.get(&(id as i32))) else { continue };
            let label = p.site.messages.tf(
                p.lang,
                "payments.entry.receipt_label",
                &[("plan", a["plan"]["name"].as_str().unwrap_or_default())],
            );
            a["receipt_href"] = json!(p.href(&format!("/mypage/payment_history/{uuid}")));
            a["receipt_label"] = json!(label);
        }
    }
    Ok(())
}

/// The message of `?done=` / `?error=`, if known.
fn notices(p: &Page<'_>, done: Option<&str>, error: Option<&str>) -> Value {
    const DONE: [&str; 3] = ["withdrawn", "declined", "amp_updated"];
    const ERRORS: [&str; 5] = ["entry_closed", "circle_suspended", "decline_closed", "already_paid", "entry_drawn"];
    json!({
        "done": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("entries.done.{d}"))),
        "error": error.filter(|e| ERRORS.contains(e)).map(|e| p.t(&format!("errors.{e}"))),
    })
}

/// Every entry of the user's circles.
#[get("/mypage/entry_history?<page>&<done>")]
pub async fn list(p: Page<'_>, current: CurrentUser, page: Option<&str>, done: Option<&str>) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let (rows, count) = event_entry::Model::visible_page(p.db, current.user.id, None, req).await?;
    let views = EntryView::load(p.db, rows, current.user.id, p.lang, p.now).await?;
    let items: Vec<Value> = views.iter().map(|v| entry_json(&p, v)).collect();
    let list_href = p.href("/mypage/entry_history");
    let pagination = Pagination::new(req, count, count);
    let link = |n: u64| if n > 1 { format!("{list_href}?page={n}") } else { list_href.clone() };
    let ctx = json!({
        "nav": nav(&p),
        "items": items,
        "notices": notices(&p, done, None),
        "events_href": p.href("/mypage/events"),
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    Ok(p.render("mypage/entries/history", &p.t("entries.history.title"), ctx))
}

/// The entries of the user's circles to one event, wish by wish.
#[get("/mypage/entry_history/<permalink>/apply?<done>&<error>")]
pub async fn event_entries(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let req = PageRequest { page: 1, limit: PER_EVENT };
    let (rows, _) = event_entry::Model::visible_page(p.db, current.user.id, Some(found.id), req).await?;
    let views = EntryView::load(p.db, rows, current.user.id, p.lang, p.now).await?;
    let mut items: Vec<Value> = views.iter().map(|v| entry_json(&p, v)).collect();
    with_receipts(&p, current.user.id, &mut items).await?;
    let event_name = p.lang.pick(&found.name_ja, &found.name_en).to_string();
    let has_slots = !slots_for(p.db, found.id, current.user.id, p.lang).await?.is_empty();
    let ctx = json!({
        "nav": nav(&p),
        "event_name": event_name,
        "items": items,
        "notices": notices(&p, done, error),
        "tabs": event_tabs(&p, &found.permalink, "apply", has_slots),
        "list_href": p.href("/mypage/entry_history"),
        "events_href": p.href("/mypage/events"),
    });
    Ok(p.render("mypage/entries/event_history", &p.t("entries.history.event_title"), ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![list, event_entries]
}
