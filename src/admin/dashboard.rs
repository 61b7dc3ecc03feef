//! `GET /admin/api/dashboard`: what needs staff attention, as cards — each the count of records
//! in some state, the few oldest, and the list filter that shows them all:
//!
//! - inquiries nobody has resolved (support);
//! - inquiries not forwarded: a target (Slack, Jira) gave up, or still waits although the
//!   inquiry came in more than [`FORWARDING_LATE_MINUTES`] ago (support);
//! - draws previewed but not published yet (lottery);
//! - payments stuck pending for more than [`STUCK_PAYMENT_MINUTES`] (payments): a payer paying
//!   right now is pending for a minute or two; longer, the provider's answer was lost and an
//!   admin reconciles it;
//! - payments to refund (payments): the provider took money that no payment settled — paid a
//!   second time, or an amount other than the fee
//!   ([`crate::model::settlement::MONEY_TAKEN_UNSETTLED`]), the longest-waiting first.
//!
//! A staff member gets only the cards of areas their role may read. Adding a card: a function
//! and a line in [`CARDS`].

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use sea_orm::{ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::{OpenApi, ToSchema};

use crate::admin::api::access::Console;
use crate::admin::api::cx::Cx;
use crate::admin::api::resources::inquiries::unforwarded_before;
use crate::admin::api::resources::payments::needs_refund;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::lottery_run::LotteryRunState;
use crate::db::entities::order::OrderState;
use crate::db::entities::{event, event_entry, event_entry_application, inquiry, lottery_run, order};
use crate::error::{Error, Result};
use crate::model::inquiry::{ForwardStatus, Handling};

/// How many records a card shows.
pub const SHOWN: u64 = 5;

/// A forwarding target still pending this long after the inquiry came in is late.
pub const FORWARDING_LATE_MINUTES: i64 = 15;

/// A payment attempt pending this long is stuck (a payer takes a minute or two).
pub const STUCK_PAYMENT_MINUTES: i64 = 10;

/// One record a card shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CardItem {
    /// Its id in the card's resource.
    pub id: i32,
    /// What to call it.
    pub title: String,
    /// A second line (an error, a status), if any.
    pub detail: Option<String>,
    /// Since when it waits.
    pub at: DateTime<Utc>,
}

/// Something that needs attention.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Card {
    /// Stable key; the console titles it `admin.dashboard.cards.<key>.*`.
    pub key: &'static str,
    /// The console resource its records belong to.
    pub resource: &'static str,
    /// The list filter (JSON) that shows all of them.
    #[schema(value_type = Object)]
    pub filter: Value,
    /// How many records need attention.
    pub count: u64,
    /// The oldest few.
    pub items: Vec<CardItem>,
}

/// The dashboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DashboardView {
    /// The cards the staff member's role may see, in order.
    pub cards: Vec<Card>,
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A kind of card: the area it belongs to and how to fill it.
struct CardKind {
    area: Area,
    fill: for<'a> fn(&'a Cx<'a>) -> BoxFuture<'a, Result<Card>>,
}

/// Every card, in order.
const CARDS: &[CardKind] = &[
    CardKind { area: Area::Support, fill: |cx| Box::pin(pending_inquiries(cx)) },
    CardKind { area: Area::Support, fill: |cx| Box::pin(unforwarded(cx)) },
    CardKind { area: Area::Lottery, fill: |cx| Box::pin(draws_awaiting_publication(cx)) },
    CardKind { area: Area::Payments, fill: |cx| Box::pin(stuck_payments(cx)) },
    CardKind { area: Area::Payments, fill: |cx| Box::pin(payments_to_refund(cx)) },
];

/// `at` as the RFC 3339 text list filters take.
fn instant(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Inquiries nobody has resolved yet, oldest first.
async fn pending_inquiries(cx: &Cx<'_>) -> Result<Card> {
    let waiting = Condition::any()
        .add(inquiry::Column::Handling.eq(Handling::Open))
        .add(inquiry::Column::Handling.eq(Handling::InProgress));
    let count = inquiry::Entity::find().filter(waiting.clone()).count(cx.db).await?;
    let rows = inquiry::Entity::find()
        .filter(waiting)
        .order_by_asc(inquiry::Column::CreatedAt)
        .order_by_asc(inquiry::Column::Id)
        .limit(SHOWN)
        .all(cx.db)
        .await?;
    let items = rows
        .into_iter()
        .map(|i| CardItem {
            id: i.id,
            detail: Some(cx.t(&format!("admin.choices.handling.{}", handling_name(i.handling)))),
            title: format!("#{} {}", i.id, i.email),
            at: i.created_at,
        })
        .collect();
    Ok(Card {
        key: "pending_inquiries",
        resource: "inquiries",
        filter: json!({"handling": ["open", "in_progress"]}),
        count,
        items,
    })
}

fn handling_name(h: Handling) -> &'static str {
    match h {
        Handling::Open => "open",
        Handling::InProgress => "in_progress",
        Handling::Resolved => "resolved",
    }
}

/// Inquiries a forwarding target (Slack, Jira) gave up on, or still waits for too long after
/// the inquiry came in, oldest first.
async fn unforwarded(cx: &Cx<'_>) -> Result<Card> {
    let before = instant(cx.now - Duration::minutes(FORWARDING_LATE_MINUTES));
    let filter = json!({ "unforwarded_before": before });
    let condition = unforwarded_before(&filter["unforwarded_before"])
        .ok_or_else(|| Error::Internal("dashboard: unforwarded filter".into()))?;
    let count = inquiry::Entity::find().filter(condition.clone()).count(cx.db).await?;
    let rows = inquiry::Entity::find()
        .filter(condition)
        .order_by_asc(inquiry::Column::CreatedAt)
        .order_by_asc(inquiry::Column::Id)
        .limit(SHOWN)
        .all(cx.db)
        .await?;
    let items = rows
        .into_iter()
        .map(|i| {
            let targets: Vec<String> = [("Slack", i.slack_status), ("Jira", i.jira_status)]
                .into_iter()
                .filter(|(_, s)| matches!(s, ForwardStatus::Failed | ForwardStatus::Pending))
                .map(|(name, s)| {
                    format!("{name}: {}", cx.t(&format!("admin.choices.forward_status.{}", forward_name(s))))
                })
                .collect();
            CardItem {
                id: i.id,
                title: format!("#{} {} ({})", i.id, i.email, targets.join(", ")),
                detail: i.last_error,
                at: i.created_at,
            }
        })
        .collect();
    Ok(Card { key: "unforwarded", resource: "inquiries", filter, count, items })
}

fn forward_name(s: ForwardStatus) -> &'static str {
    match s {
        ForwardStatus::None => "none",
        ForwardStatus::Pending => "pending",
        ForwardStatus::Sent => "sent",
        ForwardStatus::Failed => "failed",
    }
}

/// Draws staff previewed and have not published yet, oldest preview first.
async fn draws_awaiting_publication(cx: &Cx<'_>) -> Result<Card> {
    let waiting = lottery_run::Column::State.eq(LotteryRunState::Preview);
    let count = lottery_run::Entity::find().filter(waiting.clone()).count(cx.db).await?;
    let rows = lottery_run::Entity::find()
        .filter(waiting)
        .order_by_asc(lottery_run::Column::PreviewedAt)
        .order_by_asc(lottery_run::Column::Id)
        .limit(SHOWN)
        .all(cx.db)
        .await?;
    let events = event::Entity::find()
        .filter(event::Column::Id.is_in(rows.iter().map(|r| r.event_id).collect::<Vec<_>>()))
        .all(cx.db)
        .await?;
    let items = rows
        .into_iter()
        .map(|r| {
            let permalink = events.iter().find(|e| e.id == r.event_id).map(|e| e.permalink.as_str()).unwrap_or("");
            let round =
                serde_json::to_value(r.round).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
            let at = r.previewed_at.unwrap_or(r.created_at);
            CardItem {
                id: r.id,
                title: format!("#{} {permalink} {}", r.id, cx.t(&format!("admin.choices.lottery_round.{round}"))),
                detail: None,
                at,
            }
        })
        .collect();
    Ok(Card {
        key: "draws_awaiting_publication",
        resource: "lottery_runs",
        filter: json!({"state": "preview"}),
        count,
        items,
    })
}

/// `#id circle ¥amount (provider)` for each attempt of `rows`, in the staff member's language.
async fn attempt_titles(cx: &Cx<'_>, rows: &[order::Model]) -> Result<Vec<String>> {
    let applications = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::Id.is_in(rows.iter().map(|o| o.application_id).collect::<Vec<_>>()))
        .all(cx.db)
        .await?;
    let entries = event_entry::Entity::find()
        .filter(event_entry::Column::Id.is_in(applications.iter().map(|a| a.entry_id).collect::<Vec<_>>()))
        .all(cx.db)
        .await?;
    let circles =
        crate::admin::api::resources::applications::circles_of(cx.db, entries.iter().map(|e| e.circle_id).collect())
            .await?;
    Ok(rows
        .iter()
        .map(|o| {
            let circle = applications
                .iter()
                .find(|a| a.id == o.application_id)
                .and_then(|a| entries.iter().find(|e| e.id == a.entry_id))
                .and_then(|e| circles.get(&e.circle_id))
                .map(|c| crate::types::Bilingual::new(c.name_ja.clone(), c.name_en.clone()).pick(cx.lang).clone())
                .unwrap_or_default();
            let provider = cx.t(&format!("admin.choices.payment_type.{}", o.provider.as_str()));
            format!("#{} {circle} ¥{} ({provider})", o.id, crate::model::lottery_mails::yen(o.amount))
        })
        .collect())
}

/// How many payment attempts match `condition`, and the first [`SHOWN`] of them (oldest `by`
/// first) with their titles.
async fn attempts(cx: &Cx<'_>, condition: Condition, by: order::Column) -> Result<(u64, Vec<(order::Model, String)>)> {
    let count = order::Entity::find().filter(condition.clone()).count(cx.db).await?;
    let rows = order::Entity::find()
        .filter(condition)
        .order_by_asc(by)
        .order_by_asc(order::Column::Id)
        .limit(SHOWN)
        .all(cx.db)
        .await?;
    let titles = attempt_titles(cx, &rows).await?;
    Ok((count, rows.into_iter().zip(titles).collect()))
}

/// Payment attempts pending for longer than a payer takes, oldest first.
async fn stuck_payments(cx: &Cx<'_>) -> Result<Card> {
    let before = cx.now - Duration::minutes(STUCK_PAYMENT_MINUTES);
    let stuck =
        Condition::all().add(order::Column::State.eq(OrderState::Pending)).add(order::Column::CreatedAt.lte(before));
    let (count, attempts) = attempts(cx, stuck, order::Column::CreatedAt).await?;
    let items = attempts
        .into_iter()
        .map(|(o, title)| CardItem {
            id: o.id,
            title,
            detail: Some(cx.tf("admin.dashboard.checked", &[("count", &o.reconcile_attempts.to_string())])),
            at: o.created_at,
        })
        .collect();
    let filter = json!({"state": "pending", "created_at_lte": instant(before)});
    Ok(Card { key: "stuck_payments", resource: "payments", filter, count, items })
}

/// Attempts closed although the provider took money that no payment settled (to refund), the
/// longest-waiting first, each with why.
async fn payments_to_refund(cx: &Cx<'_>) -> Result<Card> {
    let filter = json!({"needs_refund": true});
    let condition = needs_refund(&filter["needs_refund"])
        .ok_or_else(|| Error::Internal("dashboard: needs_refund filter".into()))?;
    let (count, attempts) = attempts(cx, condition, order::Column::UpdatedAt).await?;
    let items = attempts
        .into_iter()
        .map(|(o, title)| CardItem {
            id: o.id,
            title,
            detail: o.failure.as_deref().map(|why| cx.t(&format!("admin.dashboard.money_taken.{why}"))),
            at: o.updated_at,
        })
        .collect();
    Ok(Card { key: "payments_to_refund", resource: "payments", filter, count, items })
}

/// What needs attention, for the signed-in staff member's role.
#[utoipa::path(get, path = "/admin/api/dashboard", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = DashboardView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
#[get("/api/dashboard")]
pub async fn dashboard(console: std::result::Result<Console<'_>, Error>) -> Result<Json<DashboardView>> {
    let Console(cx) = console?;
    let mut cards = Vec::new();
    for kind in CARDS.iter().filter(|k| k.area.allows(cx.staff.role, Action::List)) {
        cards.push((kind.fill)(&cx).await?);
    }
    Ok(Json(DashboardView { cards }))
}

/// The OpenAPI operations of this module.
#[derive(OpenApi)]
#[openapi(paths(dashboard))]
pub struct Doc;

/// Routes of the dashboard.
pub fn routes() -> Vec<Route> {
    routes![dashboard]
}
