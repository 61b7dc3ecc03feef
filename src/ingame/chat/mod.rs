//! In-game chat (issue 30 item 4, spec §3 "Chat message"): players post texts and emote stamps
//! to a channel (the game's `channel_session_code`) and read it as a list or a live stream
//! (server-sent events); staff hide messages and bar players from chat.
//!
//! - [`messages`]: the messages, their view, hiding and the blacklist (queries and rules);
//! - [`hub`]: the node's [`hub::ChatHub`], which reads what is new once and fans it out to the
//!   node's streams;
//! - [`sse`]: the event-stream frames and their responder;
//! - [`tail`]: following a table by id through out-of-order commits (pure).

pub mod hub;
pub mod messages;
pub mod sse;
pub mod tail;
