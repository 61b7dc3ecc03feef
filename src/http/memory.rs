//! Gives the heap back after load. glibc's allocator keeps what a burst of requests freed — in
//! each of its per-thread arenas — for reuse, so a server that served 200 connections stays at
//! its peak size long after they left. Once the server has been idle for a whole tick after
//! serving requests, [`ReturnMemory`] asks the allocator to hand its free pages back to the
//! system (`malloc_trim`), off the async workers. It never runs under load, where those pages
//! would be wanted again at once. Elsewhere than glibc it does nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rocket::fairing::{Fairing, Info, Kind};
use rocket::{Data, Orbit, Request, Rocket};

/// How long the server must have served nothing before the heap is trimmed.
const TICK: Duration = Duration::from_secs(3);

/// The fairing: counts requests, and trims the heap when they stop.
#[derive(Debug, Default)]
pub struct ReturnMemory {
    served: Arc<AtomicU64>,
}

#[rocket::async_trait]
impl Fairing for ReturnMemory {
    fn info(&self) -> Info {
        Info { name: "return memory", kind: Kind::Request | Kind::Liftoff }
    }

    async fn on_liftoff(&self, _rocket: &Rocket<Orbit>) {
        let served = Arc::clone(&self.served);
        // Runs as long as the runtime does.
        drop(tokio::spawn(async move {
            // Trimmed once at the start too: seeding and migrations leave freed memory behind.
            let mut trimmed_at = u64::MAX;
            let mut last = served.load(Ordering::Relaxed);
            loop {
                tokio::time::sleep(TICK).await;
                let now = served.load(Ordering::Relaxed);
                if now == last && now != trimmed_at {
                    trimmed_at = now;
                    // A trim walks every arena under its lock: not on an async worker.
                    let _ = tokio::task::spawn_blocking(trim).await;
                }
                last = now;
            }
        }));
    }

    async fn on_request(&self, _req: &mut Request<'_>, _data: &mut Data<'_>) {
        self.served.fetch_add(1, Ordering::Relaxed);
    }
}

/// Returns the allocator's free pages to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: `malloc_trim` only releases memory the allocator holds free; it takes the arenas'
    // locks itself and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
