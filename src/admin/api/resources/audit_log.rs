//! `audit_log`: every staff write, read-only, newest first by default in the console; filter by
//! resource, record, actor, action and time (`at_gte` / `at_lte`). A viewer sees only the entries
//! of resources their role may read (a director no `users` entries), in lists, `getMany`, CSV
//! export and single entries alike.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait};
use serde::Serialize;
use serde_json::Value;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::NoInput;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::audit_log;
use crate::error::Result;

/// The resource.
pub struct AuditLog;

/// One logged write.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRecord {
    /// Entry id.
    pub id: i32,
    /// When.
    pub at: DateTime<Utc>,
    /// Who (user id).
    pub actor_id: i32,
    /// Their handle at the time.
    pub actor_vmarket_id: String,
    /// Their role at the time.
    pub actor_role: String,
    /// The console resource.
    pub resource: String,
    /// The record.
    pub record_id: String,
    /// What was done.
    pub action: String,
    /// The record before (null for a creation).
    pub before: Value,
    /// The record after (null for a deletion).
    pub after: Value,
}

impl Resource for AuditLog {
    type Entity = audit_log::Entity;
    type Record = AuditRecord;
    type Input = NoInput;

    const NAME: &'static str = "audit_log";
    const AREA: Area = Area::Audit;
    const ACTIONS: &'static [Action] = Action::READ;
    const COLUMNS: Columns = Columns {
        sort: &["at", "resource", "actor_vmarket_id", "action"],
        filter: &["at", "resource", "record_id", "actor_id", "actor_vmarket_id", "action"],
        search: &[],
        computed: &[],
    };

    fn scope(cx: &Cx<'_>) -> Condition {
        Condition::all().add(audit_log::Column::Resource.is_in(cx.readable_resources()))
    }

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<audit_log::Model>) -> Result<Vec<AuditRecord>> {
        let json = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
        Ok(rows
            .into_iter()
            .map(|r| AuditRecord {
                id: r.id,
                at: r.at,
                actor_id: r.actor_id,
                actor_vmarket_id: r.actor_vmarket_id,
                actor_role: r.actor_role,
                resource: r.resource,
                record_id: r.record_id,
                action: r.action,
                before: json(r.before),
                after: json(r.after),
            })
            .collect())
    }
}
