//! `audit_log`: every staff write, read-only, newest first by default in the console; filter by
//! resource, record, actor, action and time (`at_gte` / `at_lte`). A viewer sees only the entries
//! of resources their role may read (a director no `users` entries), in lists, `getMany`, CSV
//! export and single entries alike. Each entry names the fields a change touched
//! (`changed_fields`, in the list) and shows each as before → after (`changes`).

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
    /// The fields whose values differ between before and after, comma-separated.
    pub changed_fields: String,
    /// Those fields, each as `{"field", "before", "after"}`.
    pub changes: Vec<Value>,
}

/// The top-level fields of `before` and `after` whose values differ, in `after`'s order (then
/// fields only `before` has), each with both values (null where one side lacks it).
pub fn changes(before: &Value, after: &Value) -> Vec<(String, Value, Value)> {
    let empty = serde_json::Map::new();
    let (b, a) = (before.as_object().unwrap_or(&empty), after.as_object().unwrap_or(&empty));
    let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
    keys.filter_map(|k| {
        let (old, new) = (b.get(k).cloned().unwrap_or(Value::Null), a.get(k).cloned().unwrap_or(Value::Null));
        (old != new).then(|| (k.clone(), old, new))
    })
    .collect()
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
            .map(|r| {
                let (before, after) = (json(r.before), json(r.after));
                let changed = changes(&before, &after);
                AuditRecord {
                    id: r.id,
                    at: r.at,
                    actor_id: r.actor_id,
                    actor_vmarket_id: r.actor_vmarket_id,
                    actor_role: r.actor_role,
                    resource: r.resource,
                    record_id: r.record_id,
                    action: r.action,
                    changed_fields: changed.iter().map(|(k, ..)| k.as_str()).collect::<Vec<_>>().join(", "),
                    changes: changed
                        .into_iter()
                        .map(|(field, before, after)| serde_json::json!({"field": field, "before": before, "after": after}))
                        .collect(),
                    before,
                    after,
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::changes;

    #[test]
    fn changes_name_the_fields_that_differ_with_both_values() {
        let before = json!({"id": 1, "is_suspended": false, "suspension_reason": null, "gone": 3});
        let after = json!({"id": 1, "is_suspended": true, "suspension_reason": "spam"});
        let found: Vec<String> = changes(&before, &after).into_iter().map(|(k, ..)| k).collect();
        assert_eq!(found, ["is_suspended", "suspension_reason", "gone"]);
        assert_eq!(changes(&before, &before), vec![]);
        let created = changes(&serde_json::Value::Null, &json!({"name": "x"}));
        assert_eq!(created, vec![("name".to_string(), serde_json::Value::Null, json!("x"))]);
    }
}
