//! `ingame_chat_messages`: what players said in game (issue 30 item 4), for the support staff who
//! keep chat civil. They read messages by channel or speaker and hide one (`hidden: true`): no
//! player reads it from then on, and every node's chat hub tells live streams to drop it
//! (`hidden` events). Showing it again (`hidden: false`) reaches readers who read the channel
//! afterwards. Messages themselves are never edited or deleted here.

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseTransaction};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{ingame_chat_message, user};
use crate::error::Result;
use crate::ingame::chat::messages;

/// The resource.
pub struct IngameChatMessages;

/// A message as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct IngameChatMessageRecord {
    /// Id.
    pub id: i32,
    /// The channel (`channel_session_code`).
    pub channel: String,
    /// The speaker.
    pub user_id: i32,
    /// The speaker's public handle.
    pub vmarket_id: String,
    /// The speaker's name in the console's language.
    pub user_name: String,
    /// `Text` or `Emote_stamp`.
    pub message_type: String,
    /// The text.
    pub message: String,
    /// The stamp's emote.
    pub emote_id: Option<i32>,
    /// Hidden from players.
    pub hidden: bool,
    /// When it was hidden.
    pub hidden_at: Option<DateTime<Utc>>,
    /// Who hid it.
    pub hidden_by: Option<i32>,
    /// When it was said.
    pub created_at: DateTime<Utc>,
}

/// What staff change: whether the message is hidden.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct IngameChatMessageInput {
    /// Hide it from players.
    pub hidden: bool,
}

impl Resource for IngameChatMessages {
    type Entity = ingame_chat_message::Entity;
    type Record = IngameChatMessageRecord;
    type Input = IngameChatMessageInput;

    const NAME: &'static str = "ingame_chat_messages";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["id", "created_at", "channel"],
        filter: &["channel", "user_id", "message_type"],
        search: &["message", "channel"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<ingame_chat_message::Model>,
    ) -> Result<Vec<IngameChatMessageRecord>> {
        let users = user::Model::by_ids(db, rows.iter().map(|r| r.user_id)).await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let speaker = users.get(&r.user_id);
                IngameChatMessageRecord {
                    id: r.id,
                    channel: r.channel,
                    user_id: r.user_id,
                    vmarket_id: speaker.map(|u| u.vmarket_id.clone()).unwrap_or_default(),
                    user_name: speaker.map(|u| u.name_ja.clone()).unwrap_or_default(),
                    message_type: r.message_type,
                    message: r.message,
                    emote_id: r.emote_id,
                    hidden: r.hidden_at.is_some(),
                    hidden_at: r.hidden_at,
                    hidden_by: r.hidden_by,
                    created_at: r.created_at,
                }
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: ingame_chat_message::Model,
        input: IngameChatMessageInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        match (input.hidden, row.hidden_at.is_some()) {
            (true, false) => messages::hide(txn, row, cx.staff.id, cx.acted_at()).await,
            (false, true) => messages::unhide(txn, row).await,
            _ => Ok(()),
        }
    }
}
