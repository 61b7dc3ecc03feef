//! What a shared HTTP cache in front of the nodes (Varnish, a CDN) may keep (ARCHITECTURE.md
//! "Operating and scaling"; README "Running at scale").
//!
//! Every dynamic answer gets a `Cache-Control` from the [`CachePolicy`] fairing, unless its route
//! set one itself (static files, media, downloads):
//!
//! - **Shareable**: a `200` (or `304`) of a route wrapped with
//!   [`crate::http::render_cache::cached`], asked without any credential (no `Authorization`,
//!   no sign-in cookie) and answered without a `Set-Cookie`:
//!   `public, max-age=…, s-maxage=…, stale-while-revalidate=…`, a strong `ETag`,
//!   `Vary: Accept-Encoding` (the language is in the path; the answer differs by nothing else a
//!   cache may see — a request with the sign-in cookie or the manual-locale cookie must bypass
//!   the cache, as the VCL does) and the surrogate keys [`SURROGATE_HEADER`]:
//!   `vm dv-<data version> event-<current event>`.
//! - **Everything else**: `private, no-store` — signed-in answers, forms with their cookies,
//!   errors, redirects, the account service.
//!
//! `s-maxage` is cut to the next moment of the event tree (a phase opening changes pages without
//! a write), to one second for pages that show the time, and to the next minute while staff have
//! moved the clock. Writes do not wait for it: [`crate::jobs::cache_purge`] tells the caches to
//! drop the keys of older data versions.

use std::io::Cursor;

use chrono::{DateTime, Utc};
use rocket::fairing::{Fairing, Info, Kind};
use rocket::http::{Header, Status};
use rocket::{Request, Response};

use crate::clock::Clock;
use crate::config::Config;
use crate::http::render_cache::{Clocked, Shareable, body_tag};
use crate::http::snapshot::Snapshot;
pub use crate::jobs::cache_purge::{ALL_KEY, version_key};

/// The header carrying an answer's surrogate keys (Varnish's xkey reads it; the VCL removes it
/// before the answer leaves the cache).
pub const SURROGATE_HEADER: &str = "xkey";
/// `Cache-Control` of everything that is not shareable.
pub const PRIVATE: &str = "private, no-store";
/// `Vary` of shareable answers.
pub use crate::http::render_cache::VARY;

/// The surrogate key of the event with this permalink.
pub fn event_key(permalink: &str) -> String {
    let safe: String = permalink.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).collect();
    format!("event-{safe}")
}

/// The lifetimes of shareable answers (from the configuration), and the fairing that writes
/// every answer's caching headers.
#[derive(Debug, Clone, Copy)]
pub struct CachePolicy {
    max_age: u32,
    s_maxage: u32,
    stale: u32,
}

impl CachePolicy {
    /// The policy of `config`.
    pub fn new(config: &Config) -> Self {
        Self {
            max_age: config.cache_max_age_secs,
            s_maxage: config.cache_s_maxage_secs,
            stale: config.cache_stale_while_revalidate_secs,
        }
    }

    /// The `Cache-Control` of a shareable answer made at `now`, given what of the clock it shows,
    /// the next moment of the event tree and whether the clock has been moved.
    pub fn public(&self, now: DateTime<Utc>, clocked: Clocked, next: Option<DateTime<Utc>>, travelled: bool) -> String {
        let mut shared = i64::from(self.s_maxage);
        let mut stale = i64::from(self.stale);
        if clocked == Clocked::Seconds {
            shared = shared.min(1);
            stale = stale.min(1);
        }
        if travelled {
            shared = shared.min(60 - now.timestamp().rem_euclid(60));
        }
        if let Some(next) = next {
            let until = (next - now).num_seconds().max(0);
            shared = shared.min(until);
            stale = stale.min(until);
        }
        let browser = i64::from(self.max_age).min(shared);
        format!("public, max-age={browser}, s-maxage={shared}, stale-while-revalidate={stale}")
    }
}

#[rocket::async_trait]
impl Fairing for CachePolicy {
    fn info(&self) -> Info {
        Info { name: "cache policy", kind: Kind::Response }
    }

    async fn on_response<'r>(&self, req: &'r Request<'_>, res: &mut Response<'r>) {
        if res.headers().contains("Cache-Control") {
            return;
        }
        let clocked = req.local_cache(Shareable::default).0;
        // The mark is set only for requests without a credential.
        let shareable =
            matches!(res.status(), Status::Ok | Status::NotModified) && !res.headers().contains("Set-Cookie");
        let (Some(clocked), true) = (clocked, shareable) else {
            res.set_header(Header::new("Cache-Control", PRIVATE));
            return;
        };
        let (Some(snapshot), Some(clock)) = (Snapshot::of(req).await, req.rocket().state::<Clock>()) else {
            res.set_header(Header::new("Cache-Control", PRIVATE));
            return;
        };
        let now = clock.now();
        let travelled = clock.travelled_now().is_some();
        let control = self.public(now, clocked, snapshot.tree.next_moment(now), travelled);
        let mut keys = vec![ALL_KEY.to_string(), version_key(snapshot.version)];
        keys.extend(snapshot.tree.current(now).map(|e| event_key(&e.event.permalink)));
        res.set_header(Header::new("Cache-Control", control));
        res.set_header(Header::new(SURROGATE_HEADER, keys.join(" ")));
        res.set_header(Header::new("Vary", VARY));
        if res.status() == Status::Ok && !res.headers().contains("ETag") {
            // The render cache is off: tag the body here.
            let Ok(body) = res.body_mut().to_bytes().await else {
                res.set_status(Status::InternalServerError);
                return;
            };
            // The tag the render cache gives the same bytes.
            let tag = format!("\"{}\"", body_tag(&body));
            if req
                .headers()
                .get("If-None-Match")
                .any(|v| v.split(',').any(|t| t.trim().trim_start_matches("W/") == tag))
            {
                res.set_status(Status::NotModified);
                res.set_sized_body(0, Cursor::new(Vec::new()));
            } else {
                res.set_sized_body(body.len(), Cursor::new(body));
            }
            res.set_header(Header::new("ETag", tag));
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    fn policy() -> CachePolicy {
        CachePolicy { max_age: 0, s_maxage: 60, stale: 30 }
    }

    #[test]
    fn lifetimes_are_cut_to_the_next_moment_and_the_clock() {
        let now = Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 45).unwrap();
        let p = policy();
        assert_eq!(
            p.public(now, Clocked::Phases, None, false),
            "public, max-age=0, s-maxage=60, stale-while-revalidate=30"
        );
        assert_eq!(
            p.public(now, Clocked::Phases, Some(now + Duration::seconds(20)), false),
            "public, max-age=0, s-maxage=20, stale-while-revalidate=20",
            "a phase opening in 20 s"
        );
        assert_eq!(
            p.public(now, Clocked::Seconds, None, false),
            "public, max-age=0, s-maxage=1, stale-while-revalidate=1"
        );
        assert_eq!(
            p.public(now, Clocked::Phases, None, true),
            "public, max-age=0, s-maxage=15, stale-while-revalidate=30",
            "the travelled minute ends in 15 s"
        );
        let browsers = CachePolicy { max_age: 300, ..policy() };
        assert!(
            browsers.public(now, Clocked::Phases, None, false).starts_with("public, max-age=60,"),
            "never past s-maxage"
        );
    }

    #[test]
    fn keys_carry_only_safe_characters() {
        assert_eq!(version_key(42), "dv-42");
        assert_eq!(event_key("2026Winter"), "event-2026Winter");
        assert_eq!(event_key("a b\r\nxkey: x"), "event-abxkeyx");
    }
}
