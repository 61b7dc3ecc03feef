//! [`ChatHub`]: one per node (managed state), it follows the chat tables and fans what is new
//! out to this node's live streams. Streams never poll the database themselves: the hub reads
//! new messages and hides once (every `ingame_chat_poll_ms`, and at once when this node stored
//! a message or hid one) and broadcasts each, serialised once, to every stream; a stream keeps
//! those of its channel. Messages stored by another node arrive with the next poll, so any
//! number of nodes share one chat through the database alone. Out-of-order commits are
//! handled by [`Tail`]. The hub starts with its first stream and stops when the hub is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use sea_orm::DatabaseConnection;
use tokio::sync::{Notify, broadcast, watch};

use crate::error::{Error, Result};
use crate::ingame::chat::tail::Tail;
use crate::ingame::chat::{messages, sse};

/// How long a tail waits for an id below one it has seen before it takes the gap as permanent.
const GRACE: Duration = Duration::from_secs(5);
/// Rows read per statement; the hub reads again at once when it got this many.
const BATCH: u64 = 500;
/// What a player over their stream limit is told to wait (s).
const STREAM_RETRY_SECS: u64 = 10;
/// How long a subscriber waits for a starting hub.
pub const READY_WAIT: Duration = Duration::from_secs(5);
/// Events a slow stream may fall behind by before it must catch up from the database.
const BUFFER: usize = 4096;

/// What the hub passes to streams.
#[derive(Debug)]
pub enum ChatEvent {
    /// A new message: its id, channel, and its event-stream frame (`sse::message_frame`).
    Message {
        /// Its id.
        id: i32,
        /// Its channel.
        channel: String,
        /// The message's frame, formatted once for every stream.
        frame: String,
    },
    /// Staff hid a message of `channel`.
    Hidden {
        /// Its channel.
        channel: String,
        /// The frame saying so (`sse::hidden_frame`).
        frame: String,
    },
}

impl ChatEvent {
    /// The channel the event belongs to.
    pub fn channel(&self) -> &str {
        match self {
            ChatEvent::Message { channel, .. } | ChatEvent::Hidden { channel, .. } => channel,
        }
    }

    /// Its event-stream frame.
    pub fn frame(&self) -> &str {
        match self {
            ChatEvent::Message { frame, .. } | ChatEvent::Hidden { frame, .. } => frame,
        }
    }
}

struct Inner {
    db: DatabaseConnection,
    poll: Duration,
    /// Streams one player may hold open on this node.
    streams_per_player: usize,
    /// Open streams by player.
    open: Mutex<HashMap<i32, usize>>,
    events: broadcast::Sender<Arc<ChatEvent>>,
    wake: Notify,
    started: AtomicBool,
    /// True once the hub has taken its starting point: what commits later, it passes on.
    ready: watch::Sender<bool>,
}

/// This node's chat hub.
#[derive(Clone)]
pub struct ChatHub(Arc<Inner>);

impl ChatHub {
    /// A hub over `db`, polling every `poll` once a stream subscribes, holding at most
    /// `streams_per_player` streams of one player open.
    pub fn new(db: DatabaseConnection, poll: Duration, streams_per_player: usize) -> Self {
        let (events, _) = broadcast::channel(BUFFER);
        Self(Arc::new(Inner {
            db,
            poll: poll.max(Duration::from_millis(10)),
            streams_per_player: streams_per_player.max(1),
            open: Mutex::new(HashMap::new()),
            events,
            wake: Notify::new(),
            started: AtomicBool::new(false),
            ready: watch::channel(false).0,
        }))
    }

    /// Every event from now on. The hub starts with its first subscriber; this returns once
    /// it has taken its starting point (or after [`READY_WAIT`] when the database does not
    /// answer), so that whatever commits after the caller reads the database reaches it.
    pub async fn subscribe(&self) -> broadcast::Receiver<Arc<ChatEvent>> {
        let receiver = self.0.events.subscribe();
        if !self.0.started.swap(true, Ordering::AcqRel) {
            tokio::spawn(run(Arc::downgrade(&self.0)));
        }
        let mut ready = self.0.ready.subscribe();
        let _ = tokio::time::timeout(READY_WAIT, ready.wait_for(|r| *r)).await;
        receiver
    }

    /// A place for one more stream of player `user_id` (429 when they hold as many open on this
    /// node as they may: one token cannot tie up a node's connections). Held for as long as the
    /// stream lives; dropping it gives the place back.
    pub fn open_stream(&self, user_id: i32) -> Result<StreamSlot> {
        let mut open = self.0.open.lock().unwrap_or_else(|e| e.into_inner());
        let held = open.entry(user_id).or_insert(0);
        if *held >= self.0.streams_per_player {
            return Err(Error::RateLimited { retry_after: STREAM_RETRY_SECS });
        }
        *held += 1;
        Ok(StreamSlot { hub: self.0.clone(), user_id })
    }

    /// This node stored a message or a hide: read at once instead of at the next poll.
    pub fn written(&self) {
        self.0.wake.notify_one();
    }
}

/// One open stream of a player (see [`ChatHub::open_stream`]).
pub struct StreamSlot {
    hub: Arc<Inner>,
    user_id: i32,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.hub.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(held) = open.get_mut(&self.user_id) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                open.remove(&self.user_id);
            }
        }
    }
}

/// The hub's loop: start both tails at the tables' heads, then read and broadcast until the hub
/// is dropped. A failed read is logged and tried again at the next poll.
async fn run(hub: Weak<Inner>) {
    let mut tails: Option<(Tail, Tail)> = None;
    loop {
        let Some(inner) = hub.upgrade() else { return };
        let step = async {
            let (messages, hides) = match tails.as_mut() {
                Some(t) => t,
                None => {
                    let started = tails.insert(start(&inner.db).await?);
                    inner.ready.send_replace(true);
                    started
                }
            };
            while read(&inner, messages, hides).await? {}
            Ok::<(), crate::error::Error>(())
        };
        if let Err(e) = step.await {
            tracing::warn!(error = %e, "chat hub: reading new messages failed; trying again");
        }
        let (poll, wake) = (inner.poll, async { inner.wake.notified().await });
        tokio::select! {
            _ = wake => {}
            _ = tokio::time::sleep(poll) => {}
        }
    }
}

async fn start(db: &DatabaseConnection) -> Result<(Tail, Tail)> {
    let now = Instant::now();
    let (floor, seen) = messages::head(db, false).await?;
    let (hide_floor, hides_seen) = messages::head(db, true).await?;
    Ok((Tail::new(floor, seen, GRACE, now), Tail::new(hide_floor, hides_seen, GRACE, now)))
}

/// Reads and broadcasts one batch of each table; whether either was full (read again).
async fn read(inner: &Inner, messages: &mut Tail, hides: &mut Tail) -> Result<bool> {
    let seen: Vec<i32> = messages.seen().collect();
    let rows = messages::after(&inner.db, messages.floor(), &seen, BATCH).await?;
    let full = rows.len() as u64 == BATCH;
    let fresh = messages.fresh(rows.iter().map(|r| r.id), Instant::now());
    let rows: Vec<_> =
        rows.into_iter().filter(|r| r.hidden_at.is_none() && fresh.binary_search(&r.id).is_ok()).collect();
    for view in messages::views(&inner.db, &rows).await? {
        let json = serde_json::to_string(&view).map_err(|e| crate::error::Error::Internal(e.to_string()))?;
        let frame = sse::message_frame(view.id, &json);
        // No stream listening is not an error.
        let _ =
            inner.events.send(Arc::new(ChatEvent::Message { id: view.id, channel: view.channel_session_code, frame }));
    }

    let seen: Vec<i32> = hides.seen().collect();
    let rows = messages::hides_after(&inner.db, hides.floor(), &seen, BATCH).await?;
    let hides_full = rows.len() as u64 == BATCH;
    let fresh = hides.fresh(rows.iter().map(|r| r.id), Instant::now());
    for row in rows.into_iter().filter(|r| fresh.binary_search(&r.id).is_ok()) {
        let frame = sse::hidden_frame(row.message_id);
        let _ = inner.events.send(Arc::new(ChatEvent::Hidden { channel: row.channel, frame }));
    }
    Ok(full || hides_full)
}
