//! `ingame_chat_blocks`: the chat blacklist (issue 30 item 4). Support staff bar a user from
//! in-game chat with a reason (they can still read it; their posts answer 403 `chat_blocked`),
//! change the reason, and lift the bar by deleting the entry. A user is on the list once (409
//! `already_blocked`).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set, SqlErr};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::{Resource, must_exist};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{ingame_chat_block, user};
use crate::error::{Error, Result};
use crate::forms::checks;

/// The resource.
pub struct IngameChatBlocks;

/// A barred user as staff see them.
#[derive(Debug, Clone, Serialize)]
pub struct IngameChatBlockRecord {
    /// Id.
    pub id: i32,
    /// The barred user.
    pub user_id: i32,
    /// Their public handle.
    pub vmarket_id: String,
    /// Their name.
    pub user_name: String,
    /// Why.
    pub reason: String,
    /// The staff member who barred them.
    pub blocked_by: Option<i32>,
    /// When.
    pub created_at: DateTime<Utc>,
}

/// What staff send.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct IngameChatBlockInput {
    /// The user to bar (fixed once barred).
    #[validate(required, range(min = 1))]
    pub user_id: Option<i32>,
    /// Why, for other staff.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 500), custom(function = "checks::clean_text"))]
    pub reason: Option<String>,
}

impl Resource for IngameChatBlocks {
    type Entity = ingame_chat_block::Entity;
    type Record = IngameChatBlockRecord;
    type Input = IngameChatBlockInput;

    const NAME: &'static str = "ingame_chat_blocks";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns =
        Columns { sort: &["created_at", "user_id"], filter: &["user_id"], search: &["reason"], computed: &[] };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<ingame_chat_block::Model>,
    ) -> Result<Vec<IngameChatBlockRecord>> {
        let users = user::Model::by_ids(db, rows.iter().map(|r| r.user_id)).await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let who = users.get(&r.user_id);
                IngameChatBlockRecord {
                    id: r.id,
                    user_id: r.user_id,
                    vmarket_id: who.map(|u| u.vmarket_id.clone()).unwrap_or_default(),
                    user_name: who.map(|u| u.name_ja.clone()).unwrap_or_default(),
                    reason: r.reason,
                    blocked_by: r.blocked_by,
                    created_at: r.created_at,
                }
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: IngameChatBlockInput, cx: &Cx<'_>) -> Result<i32> {
        let user_id = input.user_id.unwrap_or_default();
        must_exist::<user::Entity, _>(txn, user_id, "user_id").await?;
        let row = ingame_chat_block::ActiveModel {
            user_id: Set(user_id),
            reason: Set(input.reason.unwrap_or_default()),
            blocked_by: Set(Some(cx.staff.id)),
            created_at: Set(cx.acted_at()),
            ..Default::default()
        };
        match row.insert(txn).await {
            Ok(row) => Ok(row.id),
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                Err(Error::Conflict { code: "already_blocked" })
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: ingame_chat_block::Model,
        input: IngameChatBlockInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        let mut row: ingame_chat_block::ActiveModel = row.into();
        row.reason = Set(input.reason.unwrap_or_default());
        row.update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: ingame_chat_block::Model, _cx: &Cx<'_>) -> Result<()> {
        ingame_chat_block::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}
