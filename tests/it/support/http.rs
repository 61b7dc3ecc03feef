//! Tiny real HTTP/1.1 servers on loopback for tests that make the app fetch pages: a
//! [`FakeServer`] answering canned responses per path and counting hits, and a [`Canary`]
//! that only counts connections (it must never see one).

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the fake server sends for a request.
pub enum Reply {
    /// These bytes (a whole HTTP response), then close.
    Raw(Vec<u8>),
    /// Nothing at all, holding the connection open.
    Stall,
    /// These bytes (e.g. the head), then nothing more, holding the connection open.
    StallAfter(Vec<u8>),
    /// `head`, then `filler` repeated until `total` bytes or the client goes away.
    Stream {
        /// Status line, headers and the start of the body.
        head: Vec<u8>,
        /// Repeated body bytes.
        filler: Vec<u8>,
        /// Body bytes to send at most.
        total: usize,
    },
}

/// A response with `status`, extra header lines and `body`.
pub fn response(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut out = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    Reply::Raw(bytes)
}

/// A 200 `text/html` page.
pub fn html(body: &str) -> Reply {
    response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], body.as_bytes())
}

/// A 302 redirect to `location`.
pub fn redirect(location: &str) -> Reply {
    response("302 Found", &[("Location", location)], b"")
}

type Handler = dyn Fn(&str) -> Reply + Send + Sync;

/// A loopback HTTP server answering with a handler of the request path.
pub struct FakeServer {
    /// Where it listens (127.0.0.1).
    pub addr: SocketAddr,
    paths: Arc<Mutex<Vec<String>>>,
    streamed: Arc<AtomicUsize>,
}

impl FakeServer {
    /// Starts a server on 127.0.0.1 with a free port.
    pub async fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.expect("bind fake server");
        let addr = listener.local_addr().expect("fake server address");
        let paths = Arc::new(Mutex::new(Vec::new()));
        let streamed = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let (p, s) = (paths.clone(), streamed.clone());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, handler.clone(), p.clone(), s.clone()));
            }
        });
        Self { addr, paths, streamed }
    }

    /// `http://127.0.0.1:{port}{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `127.0.0.1:{port}`, for `link_preview_allowed_hosts`.
    pub fn host_port(&self) -> String {
        self.addr.to_string()
    }

    /// Paths requested so far, in order.
    pub fn paths(&self) -> Vec<String> {
        self.paths.lock().expect("paths").clone()
    }

    /// How often `path` was requested.
    pub fn hits(&self, path: &str) -> usize {
        self.paths().iter().filter(|p| *p == path).count()
    }

    /// Body bytes a [`Reply::Stream`] managed to write before the client left.
    pub fn streamed(&self) -> usize {
        self.streamed.load(Ordering::SeqCst)
    }
}

async fn serve(
    mut stream: TcpStream,
    handler: Arc<Handler>,
    paths: Arc<Mutex<Vec<String>>>,
    streamed: Arc<AtomicUsize>,
) {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&head);
    let path = text.split_whitespace().nth(1).unwrap_or("/").to_string();
    paths.lock().expect("paths").push(path.clone());
    match handler(&path) {
        Reply::Raw(bytes) => {
            let _ = stream.write_all(&bytes).await;
            let _ = stream.shutdown().await;
        }
        Reply::Stall => tokio::time::sleep(Duration::from_secs(30)).await,
        Reply::StallAfter(bytes) => {
            let _ = stream.write_all(&bytes).await;
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
        Reply::Stream { head, filler, total } => {
            if stream.write_all(&head).await.is_err() {
                return;
            }
            let mut sent = 0;
            while sent < total {
                if stream.write_all(&filler).await.is_err() {
                    break;
                }
                sent += filler.len();
                streamed.store(sent, Ordering::SeqCst);
            }
        }
    }
}

/// A listener on every local address (dual-stack `[::]`, else `0.0.0.0`) that counts
/// connections: proof that a refused URL never reached a socket.
pub struct Canary {
    /// The port to aim hostile URLs at.
    pub port: u16,
    hits: Arc<AtomicUsize>,
}

impl Canary {
    /// Starts the canary on a free port.
    pub async fn start() -> Self {
        let listener = match TcpListener::bind((Ipv6Addr::UNSPECIFIED, 0)).await {
            Ok(l) => l,
            Err(_) => TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0)).await.expect("bind canary"),
        };
        let port = listener.local_addr().expect("canary address").port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").await;
            }
        });
        Self { port, hits }
    }

    /// Connections accepted so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    /// Connects once to prove the canary counts, then resets the count.
    pub async fn self_test(&self) {
        for addr in [SocketAddr::from((Ipv4Addr::LOCALHOST, self.port))] {
            TcpStream::connect(addr).await.expect("canary reachable on loopback");
        }
        for _ in 0..100 {
            if self.hits() > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(self.hits(), 1, "the canary counts connections");
        self.hits.store(0, Ordering::SeqCst);
    }
}
