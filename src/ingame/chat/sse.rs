//! Server-sent events as chat streams write them: frames formatted once per message by the hub
//! and copied to every stream, and [`Sse`], the responder of a stream of frame batches. Rocket's
//! own `EventStream` formats every event for every stream and writes each on its own; at a
//! thousand streams that cost the node a core per twenty messages a second (`bench/chat-stream`),
//! so streams send preformatted bytes, several frames per write.

use rocket::futures::{Stream, StreamExt};
use rocket::http::ContentType;
use rocket::request::Request;
use rocket::response::stream::ReaderStream;
use rocket::response::{self, Responder, Response};

/// The frame of a new message: `event: message`, its id, and the message's JSON as data (one
/// line: JSON has no raw newlines).
pub fn message_frame(id: i32, json: &str) -> String {
    format!("event: message\nid: {id}\ndata: {json}\n\n")
}

/// The frame telling a stream that staff hid message `id`.
pub fn hidden_frame(id: i32) -> String {
    format!("event: hidden\ndata: {{\"id\":{id}}}\n\n")
}

/// A comment that keeps idle connections open through proxies.
pub const HEARTBEAT_FRAME: &[u8] = b":\n\n";

/// A `text/event-stream` response of the byte batches `S` yields, each written as it comes.
pub struct Sse<S>(pub S);

impl<'r, S> Responder<'r, 'r> for Sse<S>
where
    S: Stream<Item = Vec<u8>> + Send + 'r,
{
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'r> {
        Response::build()
            .header(ContentType::EventStream)
            .raw_header("Cache-Control", "no-cache")
            .raw_header("X-Accel-Buffering", "no")
            .streamed_body(ReaderStream::from(self.0.map(std::io::Cursor::new)))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_one_event_each() {
        assert_eq!(message_frame(7, r#"{"id":7}"#), "event: message\nid: 7\ndata: {\"id\":7}\n\n");
        assert_eq!(hidden_frame(7), "event: hidden\ndata: {\"id\":7}\n\n");
    }
}
