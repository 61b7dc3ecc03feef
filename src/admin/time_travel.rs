//! `/api/v1/admin/time_travel`: staff (admin, director, qa_tester) move the application clock
//! to another instant and back, outside production. The offset is kept in the database, so every
//! node and worker follows it within a second (`crate::model::time_travel::follow`); this node
//! follows at once. Each change is audited (resource `time_travel`). A console endpoint under
//! the product API's base (the spec's path): mounted at `/api/v1` by `crate::app`.

use chrono::{DateTime, Utc};
use rocket::data::Data;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, put, routes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::admin::api::access::Console;
use crate::admin::api::cx::Cx;
use crate::admin::api::input;
use crate::admin::permissions::{Action, Area};
use crate::config::Environment;
use crate::error::{Error, Invalid, Result};
use crate::forms::checks::parse_instant;
use crate::i18n::tera::format_jst;
use crate::model::{audit, time_travel};

/// Where the application clock stands.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TimeTravelView {
    /// The travelled "now" (UTC), or null in real time.
    pub timestamp: Option<DateTime<Utc>>,
    /// How far the application clock is from the real one, in seconds (0 in real time).
    pub offset_seconds: i64,
    /// The real "now" of the server (UTC).
    pub now: DateTime<Utc>,
}

impl TimeTravelView {
    /// The stored state, against this node's real clock.
    pub async fn load(cx: &Cx<'_>) -> Result<Self> {
        let offset = time_travel::offset(cx.db).await?;
        Ok(Self::of(cx, offset))
    }

    fn of(cx: &Cx<'_>, offset: chrono::Duration) -> Self {
        let now = cx.clock.real_now();
        Self { timestamp: (!offset.is_zero()).then(|| now + offset), offset_seconds: offset.num_seconds(), now }
    }
}

/// `PUT` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TimeTravelInput {
    /// Where to travel: RFC 3339 (`2026-12-12T12:00:00+09:00`); a date-time without offset
    /// (`2026-12-12T12:00`) means Japan time.
    pub timestamp: String,
}

/// The context of a staff member who may `action` time travel.
fn allowed(console: Result<Console<'_>, Error>, action: Action) -> Result<Cx<'_>> {
    let Console(cx) = console?;
    if !Area::TimeTravel.allows(cx.staff.role, action) {
        return Err(Error::Forbidden);
    }
    Ok(cx)
}

/// Stores `offset` with its audit entry, then moves this node's clock. One write transaction
/// (on SQLite an immediate one: it reads the stored offset before it writes, and a deferred one
/// fails "database is locked" when a worker writes in between), reading "before" inside it.
async fn travel(cx: &Cx<'_>, offset: chrono::Duration, action: Action) -> Result<TimeTravelView> {
    let txn = crate::db::begin_write(cx.db).await?;
    let before = TimeTravelView::of(cx, time_travel::offset(&txn).await?);
    let after = TimeTravelView::of(cx, offset);
    time_travel::store(&txn, offset, cx.staff.id, cx.acted_at()).await?;
    audit::Entry {
        actor: &cx.staff,
        at: cx.acted_at(),
        resource: "time_travel",
        record_id: "1".into(),
        action: action.as_str(),
        before: audit::snapshot(&before),
        after: audit::snapshot(&after),
    }
    .record(&txn)
    .await?;
    txn.commit().await?;
    cx.clock.set_travel(offset);
    Ok(after)
}

/// Where the application clock stands.
#[utoipa::path(get, path = "/api/v1/admin/time_travel", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = TimeTravelView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
#[get("/admin/time_travel")]
pub async fn show(console: Result<Console<'_>, Error>) -> Result<Json<TimeTravelView>> {
    let cx = allowed(console, Action::Show)?;
    TimeTravelView::load(&cx).await.map(Json)
}

/// Travels to `timestamp`: from now on the whole site (phases, gating, jobs, deadlines) runs as
/// if it were then, and time goes on from there. Refused in production; an instant more than ten
/// years from the real now is a 422 (`validation.time_travel_range`).
#[utoipa::path(put, path = "/api/v1/admin/time_travel", tag = "admin", security(("bearer" = [])),
    request_body = TimeTravelInput,
    responses((status = 200, body = TimeTravelView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "validation_failed, or time_travel_disabled in production")))]
#[put("/admin/time_travel", data = "<body>")]
pub async fn set(console: Result<Console<'_>, Error>, body: Data<'_>) -> Result<Json<TimeTravelView>> {
    let cx = allowed(console, Action::Edit)?;
    if cx.site.config.environment == Environment::Production {
        return Err(Error::Refused { code: "time_travel_disabled" });
    }
    let body = input::read_json(body).await?;
    let target = body
        .get("timestamp")
        .and_then(|v| v.as_str())
        .and_then(|raw| parse_instant(raw.trim()))
        .ok_or_else(|| Error::invalid("timestamp", "validation.datetime"))?;
    let offset = target - cx.clock.real_now();
    if !time_travel::in_range(offset) {
        let (from, to) =
            (cx.clock.real_now() - time_travel::max_offset(), cx.clock.real_now() + time_travel::max_offset());
        return Err(Error::Validation(vec![
            Invalid::new("timestamp", "validation.time_travel_range")
                .with("from", format_jst(from, true))
                .with("to", format_jst(to, true)),
        ]));
    }
    travel(&cx, offset, Action::Edit).await.map(Json)
}

/// Back to real time (also allowed in production, where it only clears a stray offset).
#[utoipa::path(delete, path = "/api/v1/admin/time_travel", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = TimeTravelView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
#[delete("/admin/time_travel")]
pub async fn clear(console: Result<Console<'_>, Error>) -> Result<Json<TimeTravelView>> {
    let cx = allowed(console, Action::Edit)?;
    travel(&cx, chrono::Duration::zero(), Action::Delete).await.map(Json)
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(show, set, clear))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show, set, clear]
}
