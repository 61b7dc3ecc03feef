//! The audit log: every staff write leaves one row (who, when, which record of which resource,
//! what action, the record before and after as JSON), written in the same transaction as the
//! write itself so that neither exists without the other.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, Set};
use serde::Serialize;
use serde_json::Value;

use crate::db::entities::{audit_log, user};
use crate::error::Result;

/// One staff write, about to be logged.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    /// Who wrote.
    pub actor: &'a user::Model,
    /// When (the application clock).
    pub at: DateTime<Utc>,
    /// The console resource, e.g. `events`.
    pub resource: &'a str,
    /// The record's id.
    pub record_id: String,
    /// What was done: `create`, `edit`, `delete`, or a resource's own action (`set`, `clear`…).
    pub action: &'a str,
    /// The record before (`None` when it did not exist).
    pub before: Option<Value>,
    /// The record after (`None` when it no longer exists).
    pub after: Option<Value>,
}

impl Entry<'_> {
    /// Stores the entry; call it on the transaction that carries the write.
    pub async fn record(self, txn: &impl ConnectionTrait) -> Result<audit_log::Model> {
        let json = |v: Option<Value>| v.map(|v| v.to_string());
        let row = audit_log::ActiveModel {
            actor_id: Set(self.actor.id),
            actor_vmarket_id: Set(self.actor.vmarket_id.clone()),
            actor_role: Set(role_name(self.actor)),
            at: Set(self.at),
            resource: Set(self.resource.to_string()),
            record_id: Set(self.record_id),
            action: Set(self.action.to_string()),
            before: Set(json(self.before)),
            after: Set(json(self.after)),
            ..Default::default()
        };
        Ok(row.insert(txn).await?)
    }
}

fn role_name(user: &user::Model) -> String {
    serde_json::to_value(user.role).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// JSON of any serializable record, for [`Entry::before`] / [`Entry::after`].
pub fn snapshot(record: &impl Serialize) -> Option<Value> {
    serde_json::to_value(record).ok()
}
