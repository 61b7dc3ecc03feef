//! How the entry pages (the form, the history, the AMP options, declining a win, paying) show an
//! entry, a plan and a fee, where those pages are, and the entry a page is about.

use serde_json::{Value, json};

use crate::db::entities::{circle, event_entry};
use crate::error::{Error, Result};
use crate::i18n::tera::format_jst;
use crate::model::circle::Standing;
use crate::model::entry_plan::PlanView;
use crate::model::entry_status::{LotteryType, NextStepKind};
use crate::model::entry_view::EntryView;
use crate::web::page::Page;

/// The unprefixed path of an event's apply page `page` (`new`, `edit`, …).
pub(crate) fn apply_path(permalink: &str, page: &str) -> String {
    format!("/mypage/event/{permalink}/apply/{page}")
}

/// The unprefixed path of an event's entry history page.
pub(crate) fn history_path(permalink: &str) -> String {
    format!("/mypage/entry_history/{permalink}/apply")
}

/// A fee in yen as the page shows it: `8,000円` / `¥8,000`, or "free".
pub(crate) fn fee_text(p: &Page<'_>, fee: i32) -> String {
    if fee == 0 {
        return p.t("entries.fee_free");
    }
    let digits = fee.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    p.site.messages.tf(p.lang, "entries.fee", &[("amount", &grouped)])
}

/// A plan as the form and the history show it.
pub(crate) fn plan_json(p: &Page<'_>, plan: &PlanView) -> Value {
    json!({
        "id": plan.id,
        "name": plan.name.get(),
        "category": plan.exhibition_category.as_str(),
        "category_label": p.t(&format!("entries.category.{}", plan.exhibition_category.as_str())),
        "fee": plan.fee,
        "fee_text": fee_text(p, plan.fee),
        "maximum": plan.maximum,
        "world": plan.world.name.get(),
        "rate": plan.rate_label.as_str(),
        "rate_label": p.t(&format!("entries.rate.{}", plan.rate_label.as_str())),
        "launch_url": plan.preview_world.launch_url,
    })
}

/// Whether an application in `status` of this entry is left out of the draws because its circle
/// is suspended: it stays stored as it is (`applied`, `first_lost`) and reads "not in the draw",
/// as the entry's type does (its next step says no draw either: `entry_status::next_step`).
fn excluded(view: &EntryView, status: &str) -> bool {
    view.circle.is_suspended && matches!(status, "applied" | "first_lost")
}

/// The message key of the entry's lottery type. A win to pay whose payment window is still
/// ahead says so (`…_soon`) instead of "payment open": nothing can be paid yet.
fn lottery_type_key(view: &EntryView) -> String {
    let kind = view.lottery_type.as_str();
    let winning_to_pay = matches!(view.lottery_type, LotteryType::FirstWinPayment | LotteryType::SecondWinPayment);
    let opens_later = view.applications.iter().any(|a| a.next.is_some_and(|n| n.kind == NextStepKind::PaymentOpens));
    let payable_now = view.applications.iter().any(|a| a.next.is_some_and(|n| n.kind == NextStepKind::PayBy));
    if winning_to_pay && opens_later && !payable_now {
        format!("entries.type.{kind}_soon")
    } else {
        format!("entries.type.{kind}")
    }
}

/// An entry as the pages show it: statuses and lottery type in words, links for its owner.
pub(crate) fn entry_json(p: &Page<'_>, view: &EntryView) -> Value {
    let permalink = &view.event.permalink;
    let query = format!("?circle={}", view.circle.id);
    let applications: Vec<Value> = view
        .applications
        .iter()
        .map(|a| {
            let status = serde_json::to_value(a.lottery_status).unwrap_or_default();
            let status = status.as_str().unwrap_or_default().to_string();
            let next_kind = a.next.map(|n| serde_json::to_value(n.kind).unwrap_or_default());
            let next_label = a.next.zip(next_kind.as_ref().and_then(Value::as_str)).map(|(n, kind)| {
                p.site.messages.tf(p.lang, &format!("entries.next.{kind}"), &[("at", &format_jst(n.at, true))])
            });
            json!({
                "id": a.id,
                "choice": a.choice,
                "plan": plan_json(p, &a.plan),
                "status": status,
                "status_label": p.t(&format!("entries.status.{}", if excluded(view, &status) { "incorrect" } else { &status })),
                "next_kind": next_kind,
                "next_label": next_label,
                "use_amp": a.options.use_amp,
                "amp_id": a.options.amp_id,
                "free_submission": a.options.free_submission,
                "pay_href": a.can_pay.then(|| format!("{}?application_id={}", p.href("/payment"), a.id)),
                "pay_label": p.site.messages.tf(p.lang, "payments.entry.pay_label", &[("plan", a.plan.name.get())]),
                "decline_href": a.can_decline.then(|| {
                    format!("{}?application={}", p.href(&format!("/mypage/event/{permalink}/apply/decline")), a.id)
                }),
            })
        })
        .collect();
    let owner = view.standing == Standing::Owner;
    json!({
        "id": view.id,
        "event_name": view.event.name.get(),
        "permalink": permalink,
        "circle": { "id": view.circle.id, "name": view.circle.name.get(), "is_suspended": view.circle.is_suspended },
        "is_owner": owner,
        "is_multiple_win": view.is_multiple_win,
        "lottery_type": view.lottery_type.as_str(),
        "lottery_type_label": p.t(&lottery_type_key(view)),
        "applications": applications,
        "created_at": view.created_at,
        "updated_at": view.updated_at,
        "href": p.href(&history_path(permalink)),
        "edit_href": view.can_edit.then(|| format!("{}{query}", p.href(&format!("/mypage/event/{permalink}/apply/edit")))),
        "withdraw_href": view
            .can_edit
            .then(|| format!("{}{query}", p.href(&format!("/mypage/event/{permalink}/apply/withdraw")))),
        "amp_href": view
            .can_update_amp
            .then(|| format!("{}{query}", p.href(&format!("/mypage/event/{permalink}/apply/amp")))),
    })
}

/// The entry of circle `circle_id` to the event, for its owner: 404 to strangers and for a
/// circle without an entry, 403 to members.
pub(crate) async fn owned_entry(
    p: &Page<'_>,
    user_id: i32,
    event_id: i32,
    circle_id: Option<i32>,
) -> Result<EntryView> {
    let circle_id = circle_id.ok_or_else(Error::not_found)?;
    circle::Model::for_owner(p.db, circle_id, user_id).await?;
    let entry = event_entry::Model::of_circle(p.db, event_id, circle_id).await?.ok_or_else(Error::not_found)?;
    EntryView::load_one(p.db, entry, user_id, p.lang, p.now).await
}

/// The tabs of one event's pages in the entry history (`apply`, and once the user's circles
/// hold a slot there `hub`, `catalog`, `submissions`), `current` marked; read by
/// `templates/mypage/exhibit/tabs.html.tera`.
pub(crate) fn event_tabs(p: &Page<'_>, permalink: &str, current: &str, has_slots: bool) -> Value {
    let shown = if has_slots { 4 } else { 1 };
    let tabs: Vec<Value> = ["apply", "hub", "catalog", "submissions"][..shown]
        .iter()
        .map(|k| {
            json!({
                "key": k,
                "href": p.href(&format!("/mypage/entry_history/{permalink}/{k}")),
                "label": p.t(&format!("entries.history.tab_{k}")),
                "current": *k == current,
            })
        })
        .collect();
    json!(tabs)
}
