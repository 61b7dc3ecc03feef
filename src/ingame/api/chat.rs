//! Chat (spec §3 "Chat message"): `POST /ingame/chat/{channel_session_code}/messages` (a text or
//! an emote stamp; per-player rate limit, 429 with `Retry-After`), `GET …/messages?since=&limit=`
//! (the channel after a message id, or its latest messages) and `GET …/stream?since=` (the
//! channel live, as server-sent events: `message` events with the message as data and its id as
//! the event id, `hidden` events when staff hide one; a reconnecting client sends
//! `Last-Event-ID` and gets what it missed first).

use std::collections::BTreeSet;
use std::time::Duration;

use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::response::stream::{Event, EventStream};
use rocket::serde::json::Json;
use rocket::{Route, Shutdown, State, get, post, routes};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::forms::ingame::{ChatPost, channel_code};
use crate::ingame::chat::hub::{ChatEvent, ChatHub};
use crate::ingame::chat::messages::{self, ChatMessageView};
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
    limits.chat(player.user.id)?;
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
) -> Result<EventStream![Event + 'static]> {
    let channel = channel(channel_session_code)?;
    let after = last.0.or(self::since(since)?);
    let slot = hub.open_stream(player.user.id)?;
    let mut events = hub.subscribe().await;
    let db = ig.db.clone();
    let backlog = match after {
        Some(after) => messages::views(&db, &messages::read(&db, &channel, Some(after), REPLAY).await?).await?,
        None => Vec::new(),
    };
    Ok(EventStream! {
        let _slot = slot;
        let mut sent: BTreeSet<i32> = BTreeSet::new();
        for view in backlog {
            sent.insert(view.id);
            yield Event::json(&view).event("message").id(view.id.to_string());
        }
        loop {
            let event = tokio::select! {
                event = events.recv() => event,
                _ = &mut shutdown => break,
            };
            match event {
                Ok(event) if event.channel() == channel => match event.as_ref() {
                    ChatEvent::Message { id, json, .. } => {
                        if sent.insert(*id) {
                            yield Event::data(json.clone()).event("message").id(id.to_string());
                        }
                    }
                    ChatEvent::Hidden { id, .. } => {
                        yield Event::data(format!("{{\"id\":{id}}}")).event("hidden");
                    }
                },
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    // Fell behind the hub: read what this channel said since a little before the
                    // newest message sent, and send what was not sent.
                    let from = sent.iter().rev().nth(64).or(sent.first()).copied().or(after).unwrap_or(0);
                    let Ok(rows) = messages::read(&db, &channel, Some(from), REPLAY).await else { break };
                    let Ok(views) = messages::views(&db, &rows).await else { break };
                    for view in views {
                        if sent.insert(view.id) {
                            yield Event::json(&view).event("message").id(view.id.to_string());
                        }
                    }
                }
                Err(RecvError::Closed) => break,
            }
            while sent.len() > REMEMBER {
                sent.pop_first();
            }
        }
    }
    .heartbeat(HEARTBEAT))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![chat_post, chat_messages, chat_stream]
}
