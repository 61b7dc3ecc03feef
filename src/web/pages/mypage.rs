//! Signed-in pages: the mypage dashboard (profile, current event, latest news, circle
//! invitations waiting, events open for entry) and the profile editor (a React island, and the
//! link to change the password at the account service).
//! Signed-out visitors are sent to sign in and brought back.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::exhibitor_notification;
use crate::error::Result;
use crate::model::event;
use crate::model::pagination::PageRequest;
use crate::model::user::UserView;
use crate::web::page::Page;
use crate::web::pages::exhibitor_notifications::with_hrefs as notification_items;
use crate::web::pages::mypage_nav::nav;

/// How many of the newest notifications the dashboard shows.
const LATEST_NEWS: PageRequest = PageRequest { page: 1, limit: 3 };

/// The dashboard.
#[get("/mypage")]
pub async fn dashboard(page: Page<'_>, current: CurrentUser) -> Result<Template> {
    let profile = UserView::load(page.db, &current.user, page.lang).await?;
    let current_event = event::current(page.db, page.now).await?.map(|e| {
        json!({
            "name": page.lang.pick(&e.event.name_ja, &e.event.name_en),
            "href": page.href("/"),
            "my_events_href": page.href(&format!("/mypage/event/{}/my_notification", e.event.permalink)),
        })
    });
    let news = exhibitor_notification::Model::page(page.db, current.user.id, page.now, LATEST_NEWS, page.lang).await?;
    let invitations =
        crate::db::entities::circle_invitation::Model::pending_count_for_user(page.db, current.user.id, page.now)
            .await?;
    let active = crate::model::entry_events::active_for(page.db, current.user.id, page.lang, page.now).await?;
    let due: Vec<serde_json::Value> = crate::model::payment::due_for(page.db, current.user.id, page.now)
        .await?
        .iter()
        .map(|c| due_json(&page, c))
        .collect();
    let open_for_entry = active.iter().filter(|a| a.entry_open).count();
    let exhibits: Vec<serde_json::Value> =
        crate::exhibit::upcoming::due_for(page.db, current.user.id, page.lang, page.now)
            .await?
            .iter()
            .map(|d| slot_due_json(&page, d))
            .collect();
    Ok(page.render(
        "mypage/index",
        &page.t("mypage.title"),
        json!({
            "nav": nav(&page),
            "profile": profile,
            "current_event": current_event,
            "news": { "items": notification_items(&page, news.items), "unread": news.unread, "href": page.href("/mypage/news") },
            "circles": {
                "invitations": invitations,
                "invitations_href": page.href("/mypage/circles/invitations"),
                "href": page.href("/mypage/circles"),
            },
            "exhibits": exhibits,
            "payments": { "due": due, "history_href": page.href("/mypage/payment_history") },
            "entries": {
                "open": open_for_entry,
                "events_href": page.href("/mypage/events"),
                "history_href": page.href("/mypage/entry_history"),
            },
        }),
    ))
}

/// A slot with what is due next for it, for the dashboard: event, circle, plan, the step and its
/// deadline, and the event's hub.
fn slot_due_json(page: &Page<'_>, d: &crate::exhibit::upcoming::SlotDue) -> serde_json::Value {
    let permalink = &d.event.permalink;
    json!({
        "event": page.lang.pick(&d.event.name_ja, &d.event.name_en),
        "circle": d.slot.circle.name,
        "plan": d.slot.plan.name,
        "step": d.next.map(|(kind, _)| page.t(&format!("exhibit.hub.step.{}", crate::web::pages::exhibit::step_key(kind)))),
        "at": d.next.map(|(_, at)| at.to_rfc3339()),
        "href": page.href(&format!("/mypage/entry_history/{permalink}/hub")),
    })
}

/// A win to pay, for the dashboard: what, how much, by when, and the link to pay it.
fn due_json(page: &Page<'_>, c: &crate::model::payment::Checkout) -> serde_json::Value {
    let lang = page.lang;
    let deadline = match c.state {
        crate::model::payment::PayState::Open { deadline } => crate::i18n::tera::format_jst(deadline, true),
        _ => String::new(),
    };
    let text = page.site.messages.tf(
        lang,
        "payments.dashboard.item",
        &[
            ("event", lang.pick(&c.event.event.name_ja, &c.event.event.name_en)),
            ("circle", c.circle.name(lang)),
            ("plan", lang.pick(&c.plan.name_ja, &c.plan.name_en)),
            ("amount", &crate::web::pages::entry_views::fee_text(page, c.amount)),
            ("at", &deadline),
        ],
    );
    let plan = lang.pick(&c.plan.name_ja, &c.plan.name_en);
    json!({
        "text": text,
        "href": format!("{}?application_id={}", page.href("/payment"), c.application.id),
        "label": page.site.messages.tf(lang, "payments.entry.pay_label", &[("plan", plan)]),
    })
}

/// The profile editor.
#[get("/mypage/profile")]
pub async fn profile(page: Page<'_>, current: CurrentUser) -> Result<Template> {
    let profile = UserView::load(page.db, &current.user, page.lang).await?;
    Ok(page.render(
        "mypage/profile",
        &page.t("mypage.profile_title"),
        json!({
            "nav": nav(&page),
            "profile": profile,
            "island_props": json!({ "lang": page.lang.code() }).to_string(),
            "change_password_href": format!("{}/auth/password/change?lang={}", page.site.config.sso_base(), page.lang.code()),
        }),
    ))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![dashboard, profile]
}
