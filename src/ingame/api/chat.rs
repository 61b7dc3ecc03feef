//! Chat (spec §3 "Chat message"): `POST /ingame/chat/{channel_session_code}/messages` (a text or
//! an emote stamp; per-player rate limit, 429 with `Retry-After`), `GET …/messages?since=&limit=`
//! (the channel after a message id, or its latest messages) and `GET …/stream?since=` (the
//! channel live, as server-sent events: `message` events with the message as data and its id as
//! the event id, `hidden` events when staff hide one; a reconnecting client sends
//! `Last-Event-ID` and gets what it missed first).

use std::collections::BTreeSet;
use std::time::Duration;

use rocket::futures::Stream;
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::{Route, Shutdown, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::forms::ingame::{ChatPost, channel_code};
use crate::ingame::chat::hub::{ChatEvent, ChatHub};
use crate::ingame::chat::messages::{self, ChatMessageView};
use crate::ingame::chat::sse::{HEARTBEAT_FRAME, Sse, message_frame};
use crate::ingame::limits::IngameLimits;
use crate::ingame::player::Player;
use crate::ingame::state::Ingame;
use crate::ingame::window::Window;

/// Messages a stream replays at most when it starts after `since` or catches up.
const REPLAY: u64 = 100;
/// Ids a stream remembers having sent, to send none twice.
const REMEMBER: usize = 1024;
/// How often an idle stream sends a comment to keep proxies from closing it.
const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long a stream gathers events after the first before it writes them together (fewer,
/// larger writes; at most this much later).
const LINGER: Duration = Duration::from_millis(40);

/// Messages of a channel.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatList {
    /// The messages, oldest first.
    pub data: Vec<ChatMessageView>,
    /// The limit used.
    pub limit: u64,
}

/// The checked channel code of a path (422 `channel_session_code`).
fn channel(raw: &str) -> Result<String> {
    channel_code(raw).map_err(|_| Error::invalid("channel_session_code", "validation.ingame_channel"))?;
    Ok(raw.to_string())
}

/// A message id to read after: a whole number of at least 0 (422 `since`).
fn since(raw: Option<&str>) -> Result<Option<i32>> {
    raw.map(|v| {
        v.trim()
            .parse::<i32>()
            .ok()
            .filter(|v| *v >= 0)
            .ok_or_else(|| Error::invalid("since", "validation.positive_integer"))
    })
    .transpose()
}

/// The `Last-Event-ID` a reconnecting event stream sends (absent or unreadable: none).
pub struct LastEventId(Option<i32>);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for LastEventId {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let id = req.headers().get_one("Last-Event-ID").and_then(|v| v.trim().parse::<i32>().ok()).filter(|v| *v >= 0);
        Outcome::Success(LastEventId(id))
    }
}

/// Says something on a channel.
#[utoipa::path(post, path = "/ingame/chat/{channel_session_code}/messages", tag = "ingame", security(("ingame" = [])),
    params(("channel_session_code" = String, Path, description = "1–64 of A–Z a–z 0–9 . _ : ~ -")),
    request_body = ChatPost,
    responses((status = 201, body = ChatMessageView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "chat_blocked: staff barred the player from chat"),
              (status = 422, body = crate::error::ErrorBody, description = "channel, type, text, emote or position"),
              (status = 429, body = crate::error::ErrorBody, description = "too many messages: see Retry-After")))]
#[post("/chat/<channel_session_code>/messages", data = "<body>")]
pub async fn chat_post(
    ig: Ingame<'_>,
    player: Player,
    limits: &State<IngameLimits>,
    hub: &State<ChatHub>,
    channel_session_code: &str,
    body: crate::assets::api::uploader::Body<'_, ChatPost>,
) -> Result<(Status, Json<ChatMessageView>)> {
    limits.chat(player.user.id).await?;
    let channel = channel(channel_session_code)?;
    let input = crate::assets::api::uploader::body(body)?.normalized();
    let view = messages::post(ig.db, &player.user, &channel, &input, ig.real_now).await?;
    hub.written();
    Ok((Status::Created, Json(view)))
}

/// The messages of a channel after a message id, or its latest.
#[utoipa::path(get, path = "/ingame/chat/{channel_session_code}/messages", tag = "ingame", security(("ingame" = [])),
    params(("channel_session_code" = String, Path),
           ("since" = Option<i32>, Query, description = "read after this message id; without it, the latest"),
           ("limit" = Option<u64>, Query, description = "1–30, default 30")),
    responses((status = 200, body = ChatList), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "channel, since or limit")))]
#[get("/chat/<channel_session_code>/messages?<since>&<limit>")]
pub async fn chat_messages(
    ig: Ingame<'_>,
    _player: Player,
    channel_session_code: &str,
    since: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ChatList>> {
    let channel = channel(channel_session_code)?;
    let after = self::since(since)?;
    let window = Window::parse(limit, None)?;
    let rows = messages::read(ig.db, &channel, after, window.limit).await?;
    Ok(Json(ChatList { data: messages::views(ig.db, &rows).await?, limit: window.limit }))
}

/// The messages of a channel as they are said, as server-sent events.
#[utoipa::path(get, path = "/ingame/chat/{channel_session_code}/stream", tag = "ingame", security(("ingame" = [])),
    params(("channel_session_code" = String, Path),
           ("since" = Option<i32>, Query, description = "first replay the messages after this id (at most 100)"),
           ("Last-Event-ID" = Option<i32>, Header, description = "as `since`, sent by a reconnecting client")),
    responses((status = 200, content_type = "text/event-stream",
               description = "`event: message` (data: a ChatMessageView, id: its id); `event: hidden` (data: {\"id\": …})"),
              (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "channel or since"),
              (status = 429, body = crate::error::ErrorBody, description = "the player holds as many streams open on this server as they may: see Retry-After")))]
#[get("/chat/<channel_session_code>/stream?<since>")]
pub async fn chat_stream(
    ig: Ingame<'_>,
    player: Player,
    hub: &State<ChatHub>,
    channel_session_code: &str,
    since: Option<&str>,
    last: LastEventId,
    mut shutdown: Shutdown,
) -> Result<Sse<impl Stream<Item = Vec<u8>> + Send + 'static>> {
    let channel = channel(channel_session_code)?;
    let after = last.0.or(self::since(since)?);
    let slot = hub.open_stream(player.user.id)?;
    let mut events = hub.subscribe().await;
    let db = ig.db.clone();
    let backlog = match after {
        Some(after) => messages::views(&db, &messages::read(&db, &channel, Some(after), REPLAY).await?).await?,
        None => Vec::new(),
    };
    Ok(Sse(rocket::async_stream::stream! {
        let _slot = slot;
        let mut sent = Sent::default();
        let mut out = Vec::new();
        for view in &backlog {
            sent.frame(view, &mut out);
        }
        // Say something at once: the client knows the stream is open.
        out.extend_from_slice(HEARTBEAT_FRAME);
        yield std::mem::take(&mut out);
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.tick().await;
        'stream: loop {
            // Wait for the first event (or the heartbeat), then gather what else arrives within
            // LINGER into the same write.
            let first = tokio::select! {
                event = events.recv() => Some(event),
                _ = heartbeat.tick() => None,
                _ = &mut shutdown => break 'stream,
            };
            let Some(first) = first else {
                yield HEARTBEAT_FRAME.to_vec();
                continue;
            };
            let linger = tokio::time::sleep(LINGER);
            tokio::pin!(linger);
            let mut next = Some(first);
            while let Some(event) = next.take() {
                match event {
                    Ok(event) if event.channel() == channel => {
                        let new = match event.as_ref() {
                            ChatEvent::Message { id, .. } => sent.insert(*id),
                            ChatEvent::Hidden { .. } => true,
                        };
                        if new {
                            out.extend_from_slice(event.frame().as_bytes());
                        }
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        // Fell behind the hub: read what this channel said since a little before
                        // the newest message sent, and send what was not sent.
                        let Ok(views) = catch_up(&db, &channel, sent.resume_from().or(after).unwrap_or(0)).await else {
                            break 'stream;
                        };
                        for view in &views {
                            sent.frame(view, &mut out);
                        }
                    }
                    Err(RecvError::Closed) => break 'stream,
                }
                next = tokio::select! {
                    event = events.recv() => Some(event),
                    _ = &mut linger => None,
                };
            }
            if !out.is_empty() {
                yield std::mem::take(&mut out);
            }
        }
    }))
}

/// The visible messages of `channel` after id `from`, all of them (page by page).
async fn catch_up(db: &DatabaseConnection, channel: &str, from: i32) -> Result<Vec<ChatMessageView>> {
    let mut found = Vec::new();
    let mut after = from;
    loop {
        let rows = messages::read(db, channel, Some(after), REPLAY).await?;
        let full = rows.len() as u64 == REPLAY;
        after = rows.last().map_or(after, |r| r.id);
        found.extend(messages::views(db, &rows).await?);
        if !full {
            return Ok(found);
        }
    }
}

/// The message ids a stream has sent (the latest [`REMEMBER`]), to send none twice.
#[derive(Default)]
struct Sent(BTreeSet<i32>);

impl Sent {
    /// Notes `id` as sent; whether it was new.
    fn insert(&mut self, id: i32) -> bool {
        let new = self.0.insert(id);
        while self.0.len() > REMEMBER {
            self.0.pop_first();
        }
        new
    }

    /// Appends `view`'s frame to `out` unless it was sent.
    fn frame(&mut self, view: &ChatMessageView, out: &mut Vec<u8>) {
        if self.insert(view.id)
            && let Ok(json) = serde_json::to_string(view)
        {
            out.extend_from_slice(message_frame(view.id, &json).as_bytes());
        }
    }

    /// Where a catch-up reads from: a little below the newest id sent (commits out of order).
    fn resume_from(&self) -> Option<i32> {
        self.0.iter().rev().nth(64).or(self.0.first()).copied()
    }
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![chat_post, chat_messages, chat_stream]
}
