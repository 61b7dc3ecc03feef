//! The render cache (DOMAIN.md "Caching public pages"): anonymous GETs of public pages and public
//! API lists are answered from memory, keyed on everything their output depends on — the path
//! and query as handled, the language, the data version ([`crate::db::data_version`]), the phase
//! state under the clock (how many of the event tree's moments have passed), and, while staff
//! have moved the clock, the travelled minute the banner shows (pages that embed the server time,
//! such as the top page's countdown, key on the second instead).
//!
//! - Only routes wrapped with [`cached`] take part, and only for `GET`/`HEAD` requests carrying
//!   neither `Authorization` nor the token cookie: a signed-in visitor is always rendered for, and
//!   what was rendered for them is never stored.
//! - Only `200` answers without a `Set-Cookie` are stored (checked after the route, with the
//!   cookies it set in the response).
//! - Stored answers carry a strong `ETag` (`304` on `If-None-Match`) and are sent gzip- or
//!   br-compressed when the client accepts it (each compressed once, on first demand).
//! - Every answer of a cached route says `Vary: Accept-Encoding, Authorization, Cookie`.
//! - Memory is bounded (`render_cache_mib`): the oldest entries go first, and entries of an older
//!   data version are dropped as soon as a newer one is stored.
//!
//! The [`Freshness`] fairing keeps the version current: it polls it
//! ([`crate::db::data_version::Watch`]) and, after any request with another method than
//! `GET`/`HEAD`/`OPTIONS`, makes the next request read it again, so a write shows on the very next
//! request of the node that wrote and within `data_version_poll_ms` everywhere else.

use std::collections::{HashMap, VecDeque};
use std::io::{Cursor, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use rocket::fairing::{Fairing, Info, Kind as FairingKind};
use rocket::http::{Header, Method, Status};
use rocket::route::{Handler, Outcome, Route};
use rocket::{Data, Orbit, Request, Response, Rocket};
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::db::data_version::Watch;
use crate::http::snapshot::Snapshot;

/// The `Vary` of every answer of a cached route.
pub const VARY: &str = "Accept-Encoding, Authorization, Cookie";

/// Bodies shorter than this are never compressed.
const COMPRESS_FROM: usize = 512;

/// What a cached route's output depends on besides its URI, language and the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clocked {
    /// Only the phase state: the clock's moments passed.
    Phases,
    /// The server time to the second as well (the page embeds "now").
    Seconds,
}

/// The cache: managed state.
#[derive(Debug)]
pub struct RenderCache {
    enabled: bool,
    budget: usize,
    token_cookie: &'static str,
    store: Mutex<Store>,
    bytes: AtomicUsize,
}

#[derive(Debug, Default)]
struct Store {
    map: HashMap<Key, Arc<Entry>>,
    order: VecDeque<Key>,
    newest_version: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    version: i64,
    epoch: usize,
    travelled: bool,
    clock: i64,
    lang: &'static str,
    target: String,
}

impl Key {
    fn size(&self) -> usize {
        std::mem::size_of::<Self>() + self.target.len()
    }
}

/// One stored answer.
#[derive(Debug)]
struct Entry {
    headers: Vec<(String, String)>,
    body: Bytes,
    tag: String,
    gzip: OnceLock<Bytes>,
    br: OnceLock<Bytes>,
}

/// A content coding the client accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Identity,
    Gzip,
    Br,
}

impl Coding {
    /// The best coding `accept` (an `Accept-Encoding` value) allows: br, then gzip.
    fn pick(accept: Option<&str>) -> Self {
        let Some(accept) = accept else { return Self::Identity };
        let allows = |name: &str| {
            accept.split(',').any(|part| {
                let mut it = part.split(';');
                let token = it.next().unwrap_or("").trim();
                let q = it
                    .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()))
                    .unwrap_or(1.0);
                token.eq_ignore_ascii_case(name) && q > 0.0
            })
        };
        if allows("br") {
            Self::Br
        } else if allows("gzip") {
            Self::Gzip
        } else {
            Self::Identity
        }
    }
}

impl Entry {
    fn new(headers: Vec<(String, String)>, body: Vec<u8>) -> Self {
        let digest = Sha256::digest(&body);
        Self {
            headers,
            tag: hex::encode(&digest[..12]),
            body: Bytes::from(body),
            gzip: OnceLock::new(),
            br: OnceLock::new(),
        }
    }

    fn size(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.body.len()
            + self.headers.iter().map(|(n, v)| n.len() + v.len()).sum::<usize>()
            + self.tag.len()
    }

    /// The body in `coding`, and how many bytes were added to the entry to make it.
    fn encoded(&self, coding: Coding) -> (Bytes, usize) {
        if self.body.len() < COMPRESS_FROM {
            return (self.body.clone(), 0);
        }
        let mut made = 0;
        let body = match coding {
            Coding::Identity => self.body.clone(),
            Coding::Gzip => self
                .gzip
                .get_or_init(|| {
                    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
                    let out = enc.write_all(&self.body).and_then(|()| enc.finish()).unwrap_or_default();
                    made = out.len();
                    Bytes::from(out)
                })
                .clone(),
            Coding::Br => self
                .br
                .get_or_init(|| {
                    let mut out = Vec::new();
                    {
                        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 6, 22);
                        let _ = enc.write_all(&self.body);
                    }
                    made = out.len();
                    Bytes::from(out)
                })
                .clone(),
        };
        (body, made)
    }

    /// The ETag of the body in `coding`.
    fn etag(&self, coding: Coding) -> String {
        match coding {
            _ if self.body.len() < COMPRESS_FROM => format!("\"{}\"", self.tag),
            Coding::Identity => format!("\"{}\"", self.tag),
            Coding::Gzip => format!("\"{}-gzip\"", self.tag),
            Coding::Br => format!("\"{}-br\"", self.tag),
        }
    }

    /// Whether `if_none_match` names this content (in any coding: a weak comparison).
    fn matches(&self, if_none_match: &str) -> bool {
        if_none_match.split(',').map(str::trim).any(|t| {
            let t = t.strip_prefix("W/").unwrap_or(t).trim_matches('"');
            t == "*" || t == self.tag || t.strip_prefix(self.tag.as_str()).is_some_and(|rest| rest.starts_with('-'))
        })
    }
}

impl RenderCache {
    /// A cache holding at most `mib` MiB, on when `enabled`; requests with the cookie
    /// `token_cookie` (the sign-in token) are never served from it.
    pub fn new(enabled: bool, mib: u32, token_cookie: &'static str) -> Self {
        Self {
            enabled,
            budget: mib as usize * 1024 * 1024,
            token_cookie,
            store: Mutex::new(Store::default()),
            bytes: AtomicUsize::new(0),
        }
    }

    /// Whether the cache is on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// How many bytes the entries hold now.
    pub fn held_bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Whether `req` may be answered from (and stored in) the cache: a `GET`/`HEAD` without any
    /// credential.
    fn anonymous(&self, req: &Request<'_>) -> bool {
        matches!(req.method(), Method::Get | Method::Head)
            && !req.headers().contains("Authorization")
            && req.cookies().get(self.token_cookie).is_none()
    }

    fn get(&self, key: &Key) -> Option<Arc<Entry>> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner).map.get(key).cloned()
    }

    fn put(&self, key: Key, entry: Arc<Entry>) {
        let size = key.size() + entry.size();
        if size > self.budget {
            return;
        }
        let mut store = self.store.lock().unwrap_or_else(PoisonError::into_inner);
        if key.version < store.newest_version {
            return;
        }
        if key.version > store.newest_version {
            store.newest_version = key.version;
            let newest = key.version;
            let stale: Vec<Key> = store.map.keys().filter(|k| k.version < newest).cloned().collect();
            for k in stale {
                self.forget(&mut store, &k);
            }
            store.order.retain(|k| k.version >= newest);
        }
        if let Some(old) = store.map.insert(key.clone(), entry) {
            self.bytes.fetch_sub(key.size() + old.size(), Ordering::Relaxed);
        } else {
            store.order.push_back(key);
        }
        self.bytes.fetch_add(size, Ordering::Relaxed);
        while self.bytes.load(Ordering::Relaxed) > self.budget {
            let Some(oldest) = store.order.pop_front() else { break };
            self.forget(&mut store, &oldest);
        }
    }

    fn forget(&self, store: &mut Store, key: &Key) {
        if let Some(old) = store.map.remove(key) {
            let extra = old.gzip.get().map_or(0, Bytes::len) + old.br.get().map_or(0, Bytes::len);
            self.bytes.fetch_sub(key.size() + old.size() + extra, Ordering::Relaxed);
        }
    }

    /// Writes `entry` as the answer to `req` into `res`: `304` when the client has it, else the
    /// body in the best coding it accepts.
    fn answer(&self, entry: &Entry, req: &Request<'_>, res: &mut Response<'_>) {
        let coding = Coding::pick(req.headers().get_one("Accept-Encoding"));
        res.set_header(Header::new("Vary", VARY));
        if req.headers().get("If-None-Match").any(|v| entry.matches(v)) {
            res.set_status(Status::NotModified);
            res.set_header(Header::new("ETag", entry.etag(coding)));
            res.set_sized_body(0, Cursor::new(Bytes::new()));
            for (name, value) in &entry.headers {
                if name.eq_ignore_ascii_case("Content-Type") {
                    continue;
                }
                res.set_header(Header::new(name.clone(), value.clone()));
            }
            return;
        }
        let (body, made) = entry.encoded(coding);
        if made > 0 {
            self.bytes.fetch_add(made, Ordering::Relaxed);
        }
        res.set_status(Status::Ok);
        for (name, value) in &entry.headers {
            res.set_header(Header::new(name.clone(), value.clone()));
        }
        res.set_header(Header::new("ETag", entry.etag(coding)));
        let encoding = match coding {
            _ if entry.body.len() < COMPRESS_FROM => None,
            Coding::Identity => None,
            Coding::Gzip => Some("gzip"),
            Coding::Br => Some("br"),
        };
        if let Some(encoding) = encoding {
            res.set_header(Header::new("Content-Encoding", encoding));
        }
        let len = body.len();
        res.set_sized_body(len, Cursor::new(body));
        // In one write rather than Rocket's default 4 KiB chunks.
        res.set_max_chunk_size(len.max(4096));
    }
}

/// The key of a request to a cached route, computed once per request; `None` when the request
/// may not use the cache.
struct PendingKey(Mutex<Option<Key>>);

async fn key_of(req: &Request<'_>, clocked: Clocked, lang: LangOf) -> Option<Key> {
    let snapshot = Snapshot::of(req).await?;
    let clock = req.rocket().state::<Clock>()?;
    let now = clock.now();
    let travelled = clock.travelled_now().is_some();
    let clock_part = match (clocked, travelled) {
        (Clocked::Seconds, _) => now.timestamp(),
        (Clocked::Phases, true) => now.timestamp().div_euclid(60),
        (Clocked::Phases, false) => 0,
    };
    let lang = lang(req);
    let uri = req.uri();
    let target = match uri.query() {
        Some(q) => format!("{}?{}", uri.path(), q),
        None => uri.path().to_string(),
    };
    Some(Key { version: snapshot.version, epoch: snapshot.tree.epoch(now), travelled, clock: clock_part, lang, target })
}

/// The language a request is answered in, when the handled URI does not say it (pages: the
/// locale routing strips the `/en` prefix before routing); `""` when it does (the API's `lang`).
pub type LangOf = fn(&Request<'_>) -> &'static str;

/// A route handler that answers from the cache when it can.
#[derive(Clone)]
struct CachedHandler {
    inner: Box<dyn Handler>,
    clocked: Clocked,
    lang: LangOf,
}

#[rocket::async_trait]
impl Handler for CachedHandler {
    async fn handle<'r>(&self, req: &'r Request<'_>, data: Data<'r>) -> Outcome<'r> {
        let Some(cache) = req.rocket().state::<RenderCache>().filter(|c| c.enabled && c.anonymous(req)) else {
            return with_vary(self.inner.handle(req, data).await);
        };
        if let Some(key) = key_of(req, self.clocked, self.lang).await {
            if let Some(entry) = cache.get(&key) {
                let mut res = Response::new();
                cache.answer(&entry, req, &mut res);
                return Outcome::Success(res);
            }
            *req.local_cache(|| PendingKey(Mutex::new(None))).0.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(key);
        }
        with_vary(self.inner.handle(req, data).await)
    }
}

fn with_vary(outcome: Outcome<'_>) -> Outcome<'_> {
    match outcome {
        Outcome::Success(mut res) => {
            res.set_header(Header::new("Vary", VARY));
            Outcome::Success(res)
        }
        other => other,
    }
}

/// `routes` answering from the render cache; `clocked` says what of the clock their output
/// shows, `lang` which language a request is answered in.
pub fn cached(routes: Vec<Route>, clocked: Clocked, lang: LangOf) -> Vec<Route> {
    routes
        .into_iter()
        .map(|mut route| {
            route.handler = Box::new(CachedHandler { inner: route.handler, clocked, lang });
            route
        })
        .collect()
}

/// The fairing that stores what cached routes rendered, keeps the data version fresh after
/// writes, and starts the version poller. Attach it before the fairings that add per-request
/// headers (the locale cookie), so that only what the route itself answered is stored.
pub struct Freshness;

#[rocket::async_trait]
impl Fairing for Freshness {
    fn info(&self) -> Info {
        Info { name: "render cache", kind: FairingKind::Response | FairingKind::Liftoff }
    }

    async fn on_liftoff(&self, rocket: &Rocket<Orbit>) {
        if let Some(watch) = rocket.state::<Watch>() {
            // Runs as long as the runtime does.
            drop(watch.spawn_poller());
        }
    }

    async fn on_response<'r>(&self, req: &'r Request<'_>, res: &mut Response<'r>) {
        if !matches!(req.method(), Method::Get | Method::Head | Method::Options)
            && let Some(watch) = req.rocket().state::<Watch>()
        {
            watch.written();
        }
        let pending = req.local_cache(|| PendingKey(Mutex::new(None)));
        let Some(key) = pending.0.lock().unwrap_or_else(PoisonError::into_inner).take() else { return };
        let Some(cache) = req.rocket().state::<RenderCache>() else { return };
        if res.status() != Status::Ok || res.headers().contains("Set-Cookie") {
            return;
        }
        let Ok(body) = res.body_mut().to_bytes().await else {
            res.set_status(Status::InternalServerError);
            return;
        };
        let headers = res
            .headers()
            .iter()
            .filter(|h| !["Content-Length", "Vary", "ETag", "Content-Encoding"].iter().any(|n| h.name() == *n))
            .map(|h| (h.name().to_string(), h.value().to_string()))
            .collect();
        let entry = Arc::new(Entry::new(headers, body));
        cache.answer(&entry, req, res);
        cache.put(key, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codings_follow_accept_encoding() {
        assert_eq!(Coding::pick(None), Coding::Identity);
        assert_eq!(Coding::pick(Some("gzip, deflate, br")), Coding::Br);
        assert_eq!(Coding::pick(Some("gzip")), Coding::Gzip);
        assert_eq!(Coding::pick(Some("br;q=0, gzip;q=0.5")), Coding::Gzip);
        assert_eq!(Coding::pick(Some("identity")), Coding::Identity);
    }

    #[test]
    fn etags_match_in_any_coding() {
        let e = Entry::new(Vec::new(), vec![b'x'; 2000]);
        assert!(e.matches(&e.etag(Coding::Identity)));
        assert!(e.matches(&format!("W/{}", e.etag(Coding::Gzip))));
        assert!(e.matches("\"nope\", *"));
        assert!(!e.matches("\"nope\""));
    }

    #[test]
    fn memory_stays_within_the_budget_and_old_versions_go() {
        let cache = RenderCache::new(true, 1, "t");
        let key = |version: i64, n: usize| Key {
            version,
            epoch: 0,
            travelled: false,
            clock: 0,
            lang: "ja",
            target: format!("/p{n}"),
        };
        for n in 0..40 {
            cache.put(key(1, n), Arc::new(Entry::new(Vec::new(), vec![0; 100_000])));
        }
        assert!(cache.held_bytes() <= 1024 * 1024, "held {}", cache.held_bytes());
        assert!(cache.get(&key(1, 39)).is_some(), "the newest stays");
        assert!(cache.get(&key(1, 0)).is_none(), "the oldest went");
        cache.put(key(2, 0), Arc::new(Entry::new(Vec::new(), vec![0; 10])));
        assert!(cache.get(&key(1, 39)).is_none(), "an older version goes once a newer one is stored");
        assert!(cache.get(&key(2, 0)).is_some());
    }
}
