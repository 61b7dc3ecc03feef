//! A real local HTTP/1.1 server standing in for Slack and Jira in tests: it listens on
//! 127.0.0.1, records every request and answers like the real services (Slack incoming webhook:
//! `200 ok`; Jira `POST /rest/api/2/issue`: `201 {"id","key","self"}`; a shared cache's `PURGE`:
//! `200`), or `503` while "down".

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// `POST`, …
    pub method: String,
    /// The request path.
    pub path: String,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Null` if it is not JSON).
    pub json: Value,
    /// Whether the server answered with success.
    pub answered_ok: bool,
}

impl Recorded {
    /// The value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct State {
    down: AtomicBool,
    issues: AtomicU32,
    requests: Mutex<Vec<Recorded>>,
}

/// The running fake; the accept loop ends with the test's runtime.
#[derive(Clone)]
pub struct FakeRemote {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    state: Arc<State>,
}

impl FakeRemote {
    /// Starts listening on a free port.
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a local port");
        let base = format!("http://{}", listener.local_addr().expect("local addr"));
        let state = Arc::new(State::default());
        let accept_state = state.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = accept_state.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, &state).await;
                });
            }
        });
        Self { base, state }
    }

    /// The Slack incoming-webhook URL.
    pub fn slack_url(&self) -> String {
        format!("{}/services/T000/B000/XXXX", self.base)
    }

    /// Makes every answer `503 Service Unavailable` (`true`) or normal again (`false`).
    pub fn set_down(&self, down: bool) {
        self.state.down.store(down, Ordering::SeqCst);
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().expect("lock").clone()
    }

    /// Requests to `path` that were answered with success.
    pub fn delivered(&self, path_prefix: &str) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.answered_ok && r.path.starts_with(path_prefix)).collect()
    }
}

async fn serve(mut stream: TcpStream, state: &State) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let (method, path) = (first.next().unwrap_or_default().to_string(), first.next().unwrap_or_default().to_string());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    while buf.len() < header_end + length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = &buf[header_end..(header_end + length).min(buf.len())];
    let json = serde_json::from_slice(body).unwrap_or(Value::Null);

    let down = state.down.load(Ordering::SeqCst);
    let (status, content_type, reply) = if down {
        ("503 Service Unavailable", "text/plain", "upstream down".to_string())
    } else if path == "/rest/api/2/issue" && method == "POST" {
        let n = state.issues.fetch_add(1, Ordering::SeqCst) + 1;
        let reply = format!(
            r#"{{"id":"{}","key":"VKT-{n}","self":"{}/rest/api/2/issue/{}"}}"#,
            10000 + n,
            "http://jira",
            10000 + n
        );
        ("201 Created", "application/json", reply)
    } else if method == "PURGE" {
        // A shared cache's answer to a purge (deploy/varnish/default.vcl).
        ("200 OK", "text/plain", "purged".to_string())
    } else if path.starts_with("/services/") && method == "POST" {
        ("200 OK", "text/html", "ok".to_string())
    } else {
        ("404 Not Found", "text/plain", "no_service".to_string())
    };
    state.requests.lock().expect("lock").push(Recorded {
        method,
        path,
        headers,
        json,
        answered_ok: status.starts_with('2'),
    });
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}
