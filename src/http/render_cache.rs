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
//! - Memory is bounded (`render_cache_mib`): the oldest entries go first, entries of an older
//!   data version are dropped as soon as a newer one is stored, and an answer keyed to the clock
//!   (the second, or the travelled minute) replaces the answer of the same page at an earlier
//!   one — no request asks for a past second again, so the top page holds one entry, not one per
//!   second of traffic.
//!
//! The [`Freshness`] fairing keeps the version current: it polls it
//! ([`crate::db::data_version::Watch`]) and, after any request with another method than
//! `GET`/`HEAD`/`OPTIONS`, makes the next request read it again, so a write shows on the very next
//! request of the node that wrote and within `data_version_poll_ms` everywhere else.

use std::collections::{HashMap, VecDeque};
use std::io::{Cursor, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use bytes::Bytes;
use rocket::fairing::{Fairing, Info, Kind as FairingKind};
use rocket::http::{Header, Method, Status};
use rocket::route::{Handler, Outcome, Route};
use rocket::{Data, Orbit, Request, Response, Rocket};
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::db::data_version::Watch;
use crate::http::snapshot::Snapshot;

/// The `Vary` of every answer of a cached route: the language is in the path, and a request
/// with a credential is never answered from a shared copy (`crate::http::shared_cache`).
pub const VARY: &str = "Accept-Encoding";

/// Marks a request a cached route answered (not forwarded) without any credential, with what of
/// the clock its output shows: a shared cache may keep the answer (`crate::http::shared_cache`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Shareable(pub Option<Clocked>);

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
    store: RwLock<Store>,
    bytes: AtomicUsize,
}

#[derive(Debug, Default)]
struct Store {
    /// Each page's answer, with the clock value (second or minute, else 0) it was made for.
    map: HashMap<Key, (i64, Arc<Entry>)>,
    order: VecDeque<Key>,
    newest_version: i64,
}

/// What an answer depends on, but the clock value ([`Pending::clock`]): one entry per key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    version: i64,
    epoch: usize,
    travelled: bool,
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
    /// The quoted `ETag` of the body in each coding (identity, gzip, br).
    etags: [String; 3],
    gzip: OnceLock<Bytes>,
    br: OnceLock<Bytes>,
    /// Whether the store holds it (changed only under the store's write lock).
    stored: AtomicBool,
    /// The bytes of its compressed copies counted in [`RenderCache::held_bytes`] (changed only
    /// under the store's write lock): a copy made after the entry left the store is not counted.
    copies: AtomicUsize,
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
        let tag = body_tag(&body);
        let etags = if body.len() < COMPRESS_FROM {
            [0; 3].map(|_| format!("\"{tag}\""))
        } else {
            [format!("\"{tag}\""), format!("\"{tag}-gzip\""), format!("\"{tag}-br\"")]
        };
        Self {
            headers,
            tag,
            etags,
            body: Bytes::from(body),
            gzip: OnceLock::new(),
            br: OnceLock::new(),
            stored: AtomicBool::new(false),
            copies: AtomicUsize::new(0),
        }
    }

    fn size(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.body.len()
            + self.headers.iter().map(|(n, v)| n.len() + v.len()).sum::<usize>()
            + self.tag.len()
            + self.etags.iter().map(String::len).sum::<usize>()
    }

    /// The bytes it is counted for: [`Entry::size`] and the compressed copies made while stored.
    fn counted(&self) -> usize {
        self.size() + self.copies.load(Ordering::Relaxed)
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
    fn etag(&self, coding: Coding) -> &str {
        let i = match coding {
            Coding::Identity => 0,
            Coding::Gzip => 1,
            Coding::Br => 2,
        };
        self.etags.get(i).map_or("", String::as_str)
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
            store: RwLock::new(Store::default()),
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
    pub fn anonymous(&self, req: &Request<'_>) -> bool {
        matches!(req.method(), Method::Get | Method::Head)
            && !req.headers().contains("Authorization")
            && req.cookies().get(self.token_cookie).is_none()
    }

    fn get(&self, key: &Key, clock: i64) -> Option<Arc<Entry>> {
        let store = self.store.read().unwrap_or_else(PoisonError::into_inner);
        store.map.get(key).filter(|(at, _)| *at == clock).map(|(_, e)| e.clone())
    }

    /// Stores `entry` as the answer of `key` at `clock`, in place of any answer of `key` at
    /// another clock value.
    fn put(&self, key: Key, clock: i64, entry: Arc<Entry>) {
        let size = key.size() + entry.size();
        if size > self.budget {
            return;
        }
        let mut store = self.store.write().unwrap_or_else(PoisonError::into_inner);
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
        entry.stored.store(true, Ordering::Relaxed);
        if let Some((_, old)) = store.map.insert(key.clone(), (clock, entry)) {
            old.stored.store(false, Ordering::Relaxed);
            self.bytes.fetch_sub(key.size() + old.counted(), Ordering::Relaxed);
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
        if let Some((_, old)) = store.map.remove(key) {
            old.stored.store(false, Ordering::Relaxed);
            self.bytes.fetch_sub(key.size() + old.counted(), Ordering::Relaxed);
        }
    }

    /// Counts a compressed copy of `made` bytes just made of `entry`, if the store still holds
    /// it (under the write lock, as the store's removals: a copy of an entry already replaced or
    /// evicted, which another request was still answering with, must not stay counted).
    fn count_copy(&self, entry: &Entry, made: usize) {
        let _store = self.store.write().unwrap_or_else(PoisonError::into_inner);
        if entry.stored.load(Ordering::Relaxed) {
            entry.copies.fetch_add(made, Ordering::Relaxed);
            self.bytes.fetch_add(made, Ordering::Relaxed);
        }
    }

    /// Writes `entry` as the answer to `req` into `res`: `304` when the client has it, else the
    /// body in the best coding it accepts. The headers borrow from `entry` (no copy per answer).
    fn answer<'r>(&self, entry: &'r Entry, req: &'r Request<'_>, res: &mut Response<'r>) {
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
                res.set_header(Header::new(name.as_str(), value.as_str()));
            }
            return;
        }
        let (body, made) = entry.encoded(coding);
        if made > 0 {
            self.count_copy(entry, made);
        }
        res.set_status(Status::Ok);
        for (name, value) in &entry.headers {
            res.set_header(Header::new(name.as_str(), value.as_str()));
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

/// The entry a request is answered with, held for the request's life so that the answer's
/// headers can borrow from it.
struct Answered(OnceLock<Arc<Entry>>);

/// `entry`, held by `req` for as long as the request lives.
fn hold<'r>(req: &'r Request<'_>, entry: Arc<Entry>) -> &'r Entry {
    let slot = req.local_cache(|| Answered(OnceLock::new()));
    slot.0.get_or_init(|| entry)
}

/// The key of a request to a cached route and the clock value it is answered at, computed once
/// per request.
struct Pending {
    key: Key,
    clock: i64,
}

/// The [`Pending`] key of a request that may be stored; `None` when the request may not use the
/// cache.
struct PendingKey(Mutex<Option<Pending>>);

async fn key_of(req: &Request<'_>, clocked: Clocked, lang: LangOf) -> Option<Pending> {
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
    let key = Key { version: snapshot.version, epoch: snapshot.tree.epoch(now), travelled, lang, target };
    Some(Pending { key, clock: clock_part })
}

/// The language a request is answered in, when the handled URI does not say it (pages: the
/// locale routing strips the `/en` prefix before routing); `""` when it does (the API's `lang`).
pub type LangOf = fn(&Request<'_>) -> &'static str;

/// The strong entity tag of `body`, unquoted: the first 96 bits of its SHA-256, in hex.
pub fn body_tag(body: &[u8]) -> String {
    hex::encode(&Sha256::digest(body)[..12])
}

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
            return self.answered(req, self.inner.handle(req, data).await);
        };
        if let Some(key) = key_of(req, self.clocked, self.lang).await {
            if let Some(entry) = cache.get(&key.key, key.clock) {
                let mut res = Response::new();
                cache.answer(hold(req, entry), req, &mut res);
                return self.answered(req, Outcome::Success(res));
            }
            *req.local_cache(|| PendingKey(Mutex::new(None))).0.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(key);
        }
        self.answered(req, self.inner.handle(req, data).await)
    }
}

impl CachedHandler {
    /// `outcome` with the route's `Vary`; an answer (not a forward) is marked for the shared
    /// cache policy.
    fn answered<'r>(&self, req: &'r Request<'_>, outcome: Outcome<'r>) -> Outcome<'r> {
        match outcome {
            Outcome::Success(mut res) => {
                if req.rocket().state::<RenderCache>().is_some_and(|cache| cache.anonymous(req)) {
                    req.local_cache(|| Shareable(Some(self.clocked)));
                }
                res.set_header(Header::new("Vary", VARY));
                Outcome::Success(res)
            }
            other => other,
        }
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
        let Some(Pending { key, clock }) = pending.0.lock().unwrap_or_else(PoisonError::into_inner).take() else {
            return;
        };
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
        cache.put(key, clock, entry.clone());
        cache.answer(hold(req, entry), req, res);
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
        assert!(e.matches(e.etag(Coding::Identity)));
        assert!(e.matches(&format!("W/{}", e.etag(Coding::Gzip))));
        assert!(e.matches("\"nope\", *"));
        assert!(!e.matches("\"nope\""));
    }

    #[test]
    fn memory_stays_within_the_budget_and_old_versions_go() {
        let cache = RenderCache::new(true, 1, "t");
        let key =
            |version: i64, n: usize| Key { version, epoch: 0, travelled: false, lang: "ja", target: format!("/p{n}") };
        for n in 0..40 {
            cache.put(key(1, n), 0, Arc::new(Entry::new(Vec::new(), vec![0; 100_000])));
        }
        assert!(cache.held_bytes() <= 1024 * 1024, "held {}", cache.held_bytes());
        assert!(cache.get(&key(1, 39), 0).is_some(), "the newest stays");
        assert!(cache.get(&key(1, 0), 0).is_none(), "the oldest went");
        cache.put(key(2, 0), 0, Arc::new(Entry::new(Vec::new(), vec![0; 10])));
        assert!(cache.get(&key(1, 39), 0).is_none(), "an older version goes once a newer one is stored");
        assert!(cache.get(&key(2, 0), 0).is_some());
    }

    #[test]
    fn a_page_keyed_to_the_second_holds_one_entry() {
        let cache = RenderCache::new(true, 32, "t");
        let key = Key { version: 1, epoch: 0, travelled: false, lang: "ja", target: "/".into() };
        let body = |second: i64| Arc::new(Entry::new(Vec::new(), format!("{second:>1000}").into_bytes()));
        cache.put(key.clone(), 100, body(100));
        let one = cache.held_bytes();
        let first = cache.get(&key, 100).unwrap();
        let gzip = first.encoded(Coding::Gzip).1;
        cache.count_copy(&first, gzip);
        assert_eq!(cache.held_bytes(), one + gzip);
        for second in 101..200 {
            cache.put(key.clone(), second, body(second));
        }
        assert_eq!(cache.held_bytes(), one, "the answer of the past second went, its gzip copy too");
        assert!(cache.get(&key, 199).is_some());
        assert!(cache.get(&key, 198).is_none(), "a past second is not answered");
        assert_eq!(cache.store.read().unwrap().order.len(), 1);
    }

    #[test]
    fn a_copy_made_after_the_entry_left_is_not_counted() {
        let cache = RenderCache::new(true, 32, "t");
        let key = Key { version: 1, epoch: 0, travelled: false, lang: "ja", target: "/".into() };
        let entry = |n: u8| Arc::new(Entry::new(Vec::new(), vec![n; 5000]));
        let old = entry(1);
        cache.put(key.clone(), 1, old.clone());
        cache.put(key.clone(), 2, entry(2));
        let held = cache.held_bytes();
        // A request that got `old` before it was replaced compresses it now.
        let made = old.encoded(Coding::Br).1;
        assert!(made > 0);
        cache.count_copy(&old, made);
        assert_eq!(cache.held_bytes(), held, "nothing will ever subtract it");
        cache.put(Key { version: 2, ..key }, 0, entry(3));
        assert_eq!(
            cache.held_bytes(),
            cache.store.read().unwrap().map.iter().map(|(k, (_, e))| k.size() + e.counted()).sum::<usize>()
        );
    }
}
