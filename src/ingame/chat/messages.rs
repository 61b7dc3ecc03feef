//! Chat messages (spec §3 "Chat message"): posting a text or an emote stamp on a channel, reading
//! a channel, staff hiding a message, and the blacklist. A message names its speaker (both names,
//! the icon) and, for a stamp, its emote, as they are when it is read. Hidden messages are read
//! by no player; a blacklisted player cannot post (403 `chat_blocked`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{ingame_chat_block, ingame_chat_hide, ingame_chat_message, ingame_emote, user};
use crate::error::{Error, Invalid, Result};
use crate::forms::Problems;
use crate::forms::ingame::{ChatPost, Pos};
use crate::ingame::model::emotes::unplayable;
use crate::model::user::IconView;

/// `message_type` of a text.
pub const TEXT: &str = "Text";
/// `message_type` of an emote stamp.
pub const EMOTE_STAMP: &str = "Emote_stamp";

/// The emote of a stamp, as the game plays it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmoteStamp {
    /// The emote's id.
    pub id: i32,
    /// Japanese name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Its icon.
    pub icon_url: String,
    /// The motion the game loads.
    pub json_url: String,
}

/// A chat message as every reader sees it (the same in both languages: it carries both names).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatMessageView {
    /// The id readers resume after.
    pub id: i32,
    /// `Text` or `Emote_stamp`.
    pub message_type: String,
    /// The text (empty for a stamp).
    pub message: String,
    /// When it was said.
    pub created_at: DateTime<Utc>,
    /// The speaker.
    pub user_id: i32,
    /// The speaker's Japanese name.
    pub user_name_ja: String,
    /// The speaker's English name.
    pub user_name_en: String,
    /// The speaker's icon.
    pub user_icon: IconView,
    /// The channel.
    pub channel_session_code: String,
    /// Where the speaker stood.
    pub pos: Pos,
    /// The emote of a stamp.
    pub emote_stamp: Option<EmoteStamp>,
}

/// `rows` as readers see them, in their order, in a fixed number of statements.
pub async fn views(db: &impl ConnectionTrait, rows: &[ingame_chat_message::Model]) -> Result<Vec<ChatMessageView>> {
    let users = user::Model::by_ids(db, rows.iter().map(|r| r.user_id)).await?;
    let emote_ids: Vec<i32> = rows.iter().filter_map(|r| r.emote_id).collect();
    let emotes: HashMap<i32, ingame_emote::Model> = if emote_ids.is_empty() {
        HashMap::new()
    } else {
        ingame_emote::Entity::find()
            .filter(ingame_emote::Column::Id.is_in(emote_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect()
    };
    Ok(rows
        .iter()
        .filter_map(|r| Some(view(r, users.get(&r.user_id)?, r.emote_id.and_then(|id| emotes.get(&id)))))
        .collect())
}

/// `row`, said by `speaker`, with its stamp's `emote`, as readers see it.
fn view(
    row: &ingame_chat_message::Model,
    speaker: &user::Model,
    emote: Option<&ingame_emote::Model>,
) -> ChatMessageView {
    ChatMessageView {
        id: row.id,
        message_type: row.message_type.clone(),
        message: row.message.clone(),
        created_at: row.created_at,
        user_id: row.user_id,
        user_name_ja: speaker.name_ja.clone(),
        user_name_en: speaker.name_en.clone(),
        user_icon: speaker.icon(),
        channel_session_code: row.channel.clone(),
        pos: Pos { x: row.pos_x, y: row.pos_y, z: row.pos_z },
        emote_stamp: emote.map(|e| EmoteStamp {
            id: e.id,
            name: e.name.clone(),
            name_en: e.name_en.clone(),
            icon_url: e.icon_url.clone(),
            json_url: e.json_url.clone(),
        }),
    }
}

/// Whether staff barred `user_id` from chat.
pub async fn blocked(db: &impl ConnectionTrait, user_id: i32) -> Result<bool> {
    Ok(ingame_chat_block::Entity::find().filter(ingame_chat_block::Column::UserId.eq(user_id)).one(db).await?.is_some())
}

/// What is wrong with `input` beyond its own checks (a text without text, a stamp without an
/// emote or with one the player cannot play), and a stamp's emote.
async fn problems(db: &impl ConnectionTrait, input: &ChatPost) -> Result<(Problems, Option<ingame_emote::Model>)> {
    let mut found = Problems::of(input);
    let mut stamp = None;
    match input.message_type.as_deref() {
        Some(TEXT) if input.message.is_none() => found.fail("message", "validation.required"),
        Some(EMOTE_STAMP) => {
            let emote = match input.emote_id {
                Some(id) => ingame_emote::Entity::find_by_id(id).one(db).await?,
                None => None,
            };
            let key = match input.emote_id {
                None => Some("validation.required"),
                Some(_) => unplayable(emote.as_ref(), input.version.unwrap_or(1)),
            };
            if let Some(key) = key {
                found.add(Invalid::new("emote_id", key));
            }
            stamp = emote;
        }
        _ => {}
    }
    Ok((found, stamp))
}

/// `speaker` says `input` on `channel` (a code already checked): the stored message as readers
/// see it. 403 `chat_blocked` for a blacklisted speaker; 422 naming each field that is wrong.
pub async fn post(
    db: &impl ConnectionTrait,
    speaker: &user::Model,
    channel: &str,
    input: &ChatPost,
    now: DateTime<Utc>,
) -> Result<ChatMessageView> {
    if blocked(db, speaker.id).await? {
        return Err(Error::Denied { code: "chat_blocked" });
    }
    let (found, emote) = problems(db, input).await?;
    found.into_result()?;
    let stamp = input.message_type.as_deref() == Some(EMOTE_STAMP);
    let pos = input.pos.unwrap_or_default();
    let row = ingame_chat_message::ActiveModel {
        channel: Set(channel.to_string()),
        user_id: Set(speaker.id),
        message_type: Set(if stamp { EMOTE_STAMP } else { TEXT }.to_string()),
        message: Set(if stamp { String::new() } else { input.message.clone().unwrap_or_default() }),
        emote_id: Set(if stamp { input.emote_id } else { None }),
        pos_x: Set(pos.x),
        pos_y: Set(pos.y),
        pos_z: Set(pos.z),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(view(&row, speaker, emote.as_ref()))
}

/// The visible messages of `channel` after id `since`, oldest first, at most `limit`; without
/// `since`, its latest `limit` messages, oldest first.
pub async fn read(
    db: &impl ConnectionTrait,
    channel: &str,
    since: Option<i32>,
    limit: u64,
) -> Result<Vec<ingame_chat_message::Model>> {
    let query = ingame_chat_message::Entity::find()
        .filter(ingame_chat_message::Column::Channel.eq(channel))
        .filter(ingame_chat_message::Column::HiddenAt.is_null());
    Ok(match since {
        Some(since) => {
            query
                .filter(ingame_chat_message::Column::Id.gt(since))
                .order_by_asc(ingame_chat_message::Column::Id)
                .limit(limit)
                .all(db)
                .await?
        }
        None => {
            let mut rows = query.order_by_desc(ingame_chat_message::Column::Id).limit(limit).all(db).await?;
            rows.reverse();
            rows
        }
    })
}

/// Messages of every channel with ids above `floor` and not in `seen`, oldest first, at most
/// `limit` (what a chat hub polls for; hidden ones included, for the tail's sake).
pub async fn after(
    db: &impl ConnectionTrait,
    floor: i32,
    seen: &[i32],
    limit: u64,
) -> Result<Vec<ingame_chat_message::Model>> {
    let mut query = ingame_chat_message::Entity::find().filter(ingame_chat_message::Column::Id.gt(floor));
    if !seen.is_empty() {
        query = query.filter(ingame_chat_message::Column::Id.is_not_in(seen.to_vec()));
    }
    Ok(query.order_by_asc(ingame_chat_message::Column::Id).limit(limit).all(db).await?)
}

/// Hides recorded with ids above `floor` and not in `seen`, oldest first, at most `limit`.
pub async fn hides_after(
    db: &impl ConnectionTrait,
    floor: i32,
    seen: &[i32],
    limit: u64,
) -> Result<Vec<ingame_chat_hide::Model>> {
    let mut query = ingame_chat_hide::Entity::find().filter(ingame_chat_hide::Column::Id.gt(floor));
    if !seen.is_empty() {
        query = query.filter(ingame_chat_hide::Column::Id.is_not_in(seen.to_vec()));
    }
    Ok(query.order_by_asc(ingame_chat_hide::Column::Id).limit(limit).all(db).await?)
}

/// Where a chat hub starts following messages (`hides: false`) or hides (`true`): a floor
/// [`HEAD_WINDOW`] below the highest id, and the ids above it already there (ids in the window
/// still committing are then passed on when they commit).
pub async fn head(db: &impl ConnectionTrait, hides: bool) -> Result<(i32, Vec<i32>)> {
    let ids: Vec<i32> = if hides {
        ingame_chat_hide::Entity::find()
            .select_only()
            .column(ingame_chat_hide::Column::Id)
            .order_by_desc(ingame_chat_hide::Column::Id)
            .limit(HEAD_WINDOW as u64)
            .into_tuple()
            .all(db)
            .await?
    } else {
        ingame_chat_message::Entity::find()
            .select_only()
            .column(ingame_chat_message::Column::Id)
            .order_by_desc(ingame_chat_message::Column::Id)
            .limit(HEAD_WINDOW as u64)
            .into_tuple()
            .all(db)
            .await?
    };
    let top = ids.first().copied().unwrap_or(0);
    Ok(((top - HEAD_WINDOW).max(0), ids))
}

/// How far below the highest id a starting hub looks for rows still committing.
pub const HEAD_WINDOW: i32 = 256;

/// Staff member `staff` hides message `row` (nothing when it is hidden already): players read it
/// no more, and live streams drop it.
pub async fn hide(
    db: &impl ConnectionTrait,
    row: ingame_chat_message::Model,
    staff: i32,
    now: DateTime<Utc>,
) -> Result<()> {
    if row.hidden_at.is_some() {
        return Ok(());
    }
    let (id, channel) = (row.id, row.channel.clone());
    let mut active: ingame_chat_message::ActiveModel = row.into();
    active.hidden_at = Set(Some(now));
    active.hidden_by = Set(Some(staff));
    active.update(db).await?;
    ingame_chat_hide::ActiveModel {
        message_id: Set(id),
        channel: Set(channel),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Staff show a hidden message `row` again (to readers who read the channel from now on).
pub async fn unhide(db: &impl ConnectionTrait, row: ingame_chat_message::Model) -> Result<()> {
    let mut active: ingame_chat_message::ActiveModel = row.into();
    active.hidden_at = Set(None);
    active.hidden_by = Set(None);
    active.update(db).await?;
    Ok(())
}
