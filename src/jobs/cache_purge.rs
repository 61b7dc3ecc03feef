//! Telling the shared caches (`cache_purge_urls`) what changed: a background loop in every
//! worker process that reads the data version and the time-travel offset and, when either moved,
//! sends each cache `PURGE` with the surrogate keys to drop (`xkey-purge`; see
//! `crate::http::shared_cache` and `deploy/varnish/default.vcl`).
//!
//! - A write raises the data version from `a` to `b`: the keys `dv-a … dv-(b-1)` go (every copy
//!   made at an older version); more than [`MAX_KEYS`] versions at once purge everything
//!   ([`ALL_KEY`]).
//! - Moving the clock purges everything, and again once every node has read the new offset
//!   (they read it once a second), so no copy rendered at the old clock survives.
//! - Each batch is sent again [`ECHO`] later: a page rendered at the old version while the write
//!   committed may reach the cache after the first purge.
//! - A cache that is down or answers an error keeps its keys and is asked again with backoff
//!   (0.5 s doubling to 30 s); the write itself never waits for a cache. A worker that starts
//!   purges everything once, since it cannot know what changed while none was running.

use std::collections::BTreeSet;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::queue::JobContext;

/// The key every shareable answer carries: purging it empties the cache of this site.
pub const ALL_KEY: &str = "vm";

/// The surrogate key of data version `version`.
pub fn version_key(version: i64) -> String {
    format!("dv-{version}")
}

/// The most version keys one purge names; beyond it everything is purged.
pub const MAX_KEYS: i64 = 64;
/// How long after a purge its keys are purged again.
pub const ECHO: Duration = Duration::from_secs(2);
/// The header naming the keys to purge (the VCL passes it to `xkey.purge`).
pub const PURGE_HEADER: &str = "xkey-purge";
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// One cache's keys still to purge.
#[derive(Debug)]
struct Target {
    url: String,
    pending: BTreeSet<String>,
    due: Instant,
    backoff: Duration,
}

/// What changed between two readings, as the keys to purge.
pub fn keys_between(before: i64, after: i64) -> Vec<String> {
    if after == before {
        return Vec::new();
    }
    if after < before || after - before > MAX_KEYS {
        return vec![ALL_KEY.to_string()];
    }
    (before..after).map(version_key).collect()
}

/// Starts the loop when caches are configured; it ends when `stopped` turns true.
pub fn spawn(ctx: JobContext, stopped: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
    if ctx.config.cache_purge_urls.is_empty() {
        return None;
    }
    Some(tokio::spawn(run(ctx, stopped)))
}

async fn run(ctx: JobContext, mut stopped: watch::Receiver<bool>) {
    let poll = Duration::from_millis(ctx.config.data_version_poll_ms.clamp(50, 250));
    let now = Instant::now();
    let mut targets: Vec<Target> = ctx
        .config
        .cache_purge_urls
        .iter()
        .map(|url| Target {
            url: url.clone(),
            pending: BTreeSet::from([ALL_KEY.to_string()]),
            due: now,
            backoff: FIRST_BACKOFF,
        })
        .collect();
    let mut echoes: Vec<(Instant, Vec<String>)> = Vec::new();
    let mut last: Option<(i64, chrono::Duration)> = None;
    let mut tick = tokio::time::interval(poll);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped.wait_for(|s| *s) => return,
        }
        let read = async {
            let version = crate::db::data_version::read(&ctx.db).await.map_err(|e| e.to_string())?;
            let offset = crate::model::time_travel::offset(&ctx.db).await.map_err(|e| e.to_string())?;
            Ok::<_, String>((version, offset))
        };
        let (version, offset) = match read.await {
            Ok(read) => read,
            Err(e) => {
                tracing::warn!(error = %e, "cache purge: data version not read");
                continue;
            }
        };
        let now = Instant::now();
        let mut keys = Vec::new();
        if let Some((was_version, was_offset)) = last {
            keys = keys_between(was_version, version);
            if offset != was_offset {
                keys = vec![ALL_KEY.to_string()];
                // Once every node follows the new offset (each reads it once a second).
                echoes.push((now + crate::model::time_travel::POLL * 2, keys.clone()));
            }
        }
        last = Some((version, offset));
        if !keys.is_empty() {
            echoes.push((now + ECHO, keys.clone()));
        }
        let (due, later): (Vec<_>, Vec<_>) = echoes.drain(..).partition(|(at, _)| *at <= now);
        echoes = later;
        for batch in due.into_iter().map(|(_, k)| k).chain((!keys.is_empty()).then_some(keys)) {
            for target in &mut targets {
                target.pending.extend(batch.iter().cloned());
            }
        }
        for target in targets.iter_mut().filter(|t| !t.pending.is_empty() && t.due <= now) {
            purge(&ctx.http, target, now).await;
        }
    }
}

/// Sends `target` its pending keys; on failure keeps them and backs off.
async fn purge(http: &reqwest::Client, target: &mut Target, now: Instant) {
    let keys = target.pending.iter().cloned().collect::<Vec<_>>().join(" ");
    let method = reqwest::Method::from_bytes(b"PURGE").unwrap_or(reqwest::Method::DELETE);
    let sent =
        http.request(method, &target.url).header(PURGE_HEADER, &keys).timeout(Duration::from_secs(5)).send().await;
    match sent {
        Ok(res) if res.status().is_success() => {
            tracing::debug!(cache = %target.url, keys = %keys, "shared cache purged");
            target.pending.clear();
            target.backoff = FIRST_BACKOFF;
        }
        failed => {
            let why = match failed {
                Ok(res) => format!("status {}", res.status()),
                Err(e) => e.without_url().to_string(),
            };
            tracing::warn!(cache = %target.url, error = %why, retry_in_ms = target.backoff.as_millis() as u64, "shared cache not purged; will retry");
            target.due = now + target.backoff;
            target.backoff = (target.backoff * 2).min(MAX_BACKOFF);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_purges_the_versions_it_replaced() {
        assert_eq!(keys_between(7, 7), Vec::<String>::new());
        assert_eq!(keys_between(7, 8), vec!["dv-7"]);
        assert_eq!(keys_between(7, 10), vec!["dv-7", "dv-8", "dv-9"]);
        assert_eq!(keys_between(1, 1 + MAX_KEYS + 1), vec![ALL_KEY], "a burst purges everything");
        assert_eq!(keys_between(9, 3), vec![ALL_KEY], "a restored database: anything may have changed");
    }
}
