//! `entries`: every circle's entry to an event (DOMAIN.md "Entries and applications"), read
//! only: its circle, its applications (wishes in `choice` order, statuses as the site shows them
//! now) and the lottery type derived from them and the phase ([`lottery_type`]). Staff correct
//! a status on the application (`applications`), not here.
//!
//! Filters: `event_id`, `circle_id`, `is_multiple_win`; `lottery_status` (entries with an
//! application in that stored status) and `q` (circle name).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use serde_json::Value;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::NoInput;
use crate::admin::api::resource::Resource;
use crate::admin::api::resources::applications::{
    ApplicationRecord, application_records, circles_named, circles_of, timelines_of,
};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::event_entry_application::LotteryStatus;
use crate::db::entities::{event_entry, event_entry_application};
use crate::error::Result;
use crate::model::entry_status::{LotteryType, lottery_type};

/// The resource.
pub struct Entries;

/// An entry as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct EntryRecord {
    /// Entry id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// The event's permalink.
    pub event_permalink: String,
    /// Its circle.
    pub circle_id: i32,
    /// The circle's Japanese name.
    pub circle_name_ja: String,
    /// The circle's English name.
    pub circle_name_en: String,
    /// Whether staff suspended the circle.
    pub circle_is_suspended: bool,
    /// The circle accepts more than one win.
    pub is_multiple_win: bool,
    /// The lottery type as the site shows it now (derived, never stored).
    pub lottery_type: Option<LotteryType>,
    /// Its applications, first wish first.
    pub applications: Vec<ApplicationRecord>,
    /// When the owner last agreed to the event's terms (null: never, or no terms).
    pub terms_agreed_at: Option<DateTime<Utc>>,
    /// The version (SHA-256 digest) of the terms they agreed to.
    pub terms_digest: Option<String>,
    /// What they were shown: each document's kind and URL, as JSON.
    pub terms_shown: Option<String>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

fn with_status(value: &Value) -> Option<Condition> {
    let status: LotteryStatus = serde_json::from_value(value.clone()).ok()?;
    let entries = Query::select()
        .column(event_entry_application::Column::EntryId)
        .from(event_entry_application::Entity)
        .and_where(event_entry_application::Column::LotteryStatus.eq(status))
        .to_owned();
    Some(Condition::all().add(event_entry::Column::Id.in_subquery(entries)))
}

fn circle_name(value: &Value) -> Option<Condition> {
    Some(Condition::all().add(event_entry::Column::CircleId.in_subquery(circles_named(value.as_str()?))))
}

/// Records of `rows` at `now` (`None`: lottery types left out).
async fn entry_records<C: ConnectionTrait + Sync>(
    db: &C,
    rows: Vec<event_entry::Model>,
    now: Option<DateTime<Utc>>,
) -> Result<Vec<EntryRecord>> {
    let ids: Vec<i32> = rows.iter().map(|e| e.id).collect();
    let wishes = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.is_in(ids))
        .order_by_asc(event_entry_application::Column::Choice)
        .all(db)
        .await?;
    let mut applications: HashMap<i32, Vec<ApplicationRecord>> = HashMap::new();
    for a in application_records(db, wishes, now.unwrap_or(DateTime::<Utc>::MIN_UTC)).await? {
        applications.entry(a.entry_id).or_default().push(a);
    }
    let circles = circles_of(db, rows.iter().map(|e| e.circle_id).collect()).await?;
    let timelines = timelines_of(db, rows.iter().map(|e| e.event_id).collect()).await?;
    Ok(rows
        .into_iter()
        .map(|e| {
            let circle = circles.get(&e.circle_id);
            let suspended = circle.is_some_and(|c| c.is_suspended);
            let applications = applications.remove(&e.id).unwrap_or_default();
            let timeline = timelines.get(&e.event_id);
            let statuses: Vec<LotteryStatus> = applications.iter().map(|a| a.lottery_status).collect();
            EntryRecord {
                id: e.id,
                event_id: e.event_id,
                event_permalink: timeline.map(|t| t.event.permalink.clone()).unwrap_or_default(),
                circle_id: e.circle_id,
                circle_name_ja: circle.map(|c| c.name_ja.clone()).unwrap_or_default(),
                circle_name_en: circle.map(|c| c.name_en.clone()).unwrap_or_default(),
                circle_is_suspended: suspended,
                is_multiple_win: e.is_multiple_win,
                lottery_type: timeline.zip(now).map(|(t, now)| lottery_type(&statuses, suspended, t, now)),
                applications,
                terms_agreed_at: e.terms_agreed_at,
                terms_digest: e.terms_digest,
                terms_shown: e.terms_shown,
                created_at: e.created_at,
                updated_at: e.updated_at,
            }
        })
        .collect())
}

impl Resource for Entries {
    type Entity = event_entry::Entity;
    type Record = EntryRecord;
    type Input = NoInput;

    const NAME: &'static str = "entries";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "circle_id", "is_multiple_win", "terms_agreed_at", "created_at", "updated_at"],
        filter: &["event_id", "circle_id", "is_multiple_win", "created_at"],
        search: &[],
        computed: &[("lottery_status", with_status), ("q", circle_name)],
    };

    /// Without a clock: statuses as stored, no lottery type.
    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<event_entry::Model>) -> Result<Vec<EntryRecord>> {
        entry_records(db, rows, None).await
    }

    async fn records_at<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<event_entry::Model>,
        now: DateTime<Utc>,
    ) -> Result<Vec<EntryRecord>> {
        entry_records(db, rows, Some(now)).await
    }
}
