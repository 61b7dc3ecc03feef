//! `GET /admin/api/dashboard`: what needs staff attention, as cards — each the count of records
//! in some state, the few oldest, and the list filter that shows them all. A staff member gets
//! only the cards of areas their role may read. Adding a card (draws awaiting publish, stuck
//! payments…): a function and a line in [`CARDS`].

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use sea_orm::{ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::{OpenApi, ToSchema};

use crate::admin::api::{Console, Cx};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::inquiry;
use crate::error::{Error, Result};
use crate::model::inquiry::{ForwardStatus, Handling};

/// How many records a card shows.
pub const SHOWN: u64 = 5;

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
    CardKind { area: Area::Support, fill: |cx| Box::pin(failed_forwarding(cx)) },
];

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

/// Inquiries a forwarding target (Slack, Jira) gave up on, oldest first.
async fn failed_forwarding(cx: &Cx<'_>) -> Result<Card> {
    let failed = Condition::any()
        .add(inquiry::Column::SlackStatus.eq(ForwardStatus::Failed))
        .add(inquiry::Column::JiraStatus.eq(ForwardStatus::Failed));
    let count = inquiry::Entity::find().filter(failed.clone()).count(cx.db).await?;
    let rows = inquiry::Entity::find()
        .filter(failed)
        .order_by_asc(inquiry::Column::CreatedAt)
        .order_by_asc(inquiry::Column::Id)
        .limit(SHOWN)
        .all(cx.db)
        .await?;
    let items = rows
        .into_iter()
        .map(|i| {
            let targets: Vec<&str> = [("Slack", i.slack_status), ("Jira", i.jira_status)]
                .into_iter()
                .filter(|(_, s)| *s == ForwardStatus::Failed)
                .map(|(name, _)| name)
                .collect();
            CardItem {
                id: i.id,
                title: format!("#{} {} ({})", i.id, i.email, targets.join(", ")),
                detail: i.last_error,
                at: i.created_at,
            }
        })
        .collect();
    Ok(Card { key: "failed_forwarding", resource: "inquiries", filter: json!({"forwarding": "failed"}), count, items })
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
