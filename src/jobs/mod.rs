//! Background work on apalis 1.0, stored in the application's own database (SQLite or
//! PostgreSQL, no extra server). Jobs are serializable structs, one per file; request handlers
//! only enqueue them. Workers run inside `vmarket serve` and on their own in `vmarket worker`.
//!
//! Retries: each run of a job is one apalis task (`max_attempts = 1`). A job that meets a
//! transient failure records it on its own rows, schedules its next run with exponential backoff
//! (`run_after`) under an idempotency key, and fails its task, so the apalis table keeps the error
//! of every attempt and a crash between two runs loses nothing: [`resume`] re-enqueues whatever is
//! still pending when workers start (the key makes that a no-op when the run is already queued).
//!
//! Every job type is listed once, in `JOBS`: each gets its own supervised worker, and its
//! pending work is resumed when workers start.

pub mod forward_inquiry;
pub mod lottery;
pub mod payment_sweep;
pub mod reconcile_payment;
pub mod send_lottery_results;
pub mod send_mail;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::*;
use apalis_postgres::PostgresStorage;
use apalis_sqlite::SqliteStorage;
use sea_orm::sqlx::{PgPool, SqlitePool};
use sea_orm::{DatabaseBackend, DatabaseConnection, DbErr};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::config::Config;
use crate::mail::{Delivery, Mailer, Queued};
pub use forward_inquiry::ForwardInquiry;
pub use lottery::{LotteryClock, PreviewLottery, PublishLottery};
pub use payment_sweep::PaymentSweep;
pub use reconcile_payment::ReconcilePayment;
pub use send_lottery_results::SendLotteryResults;
pub use send_mail::SendMail;

/// A background job: a serializable struct with a stable queue name, what one run does, and how
/// to find the runs still owed after a restart.
pub trait Job: Serialize + DeserializeOwned + Send + Sync + Unpin + 'static {
    /// The queue (apalis `job_type`) its tasks are stored under; never rename it.
    const QUEUE: &'static str;

    /// One run (one apalis task). Failures of the remote side are handled inside (status,
    /// backoff, next run) and summarised in the result; an error fails the task.
    fn run(self, ctx: &JobContext) -> impl Future<Output = Result<String, DbErr>> + Send;

    /// Re-enqueues every run still owed according to the database; idempotent.
    fn resume(ctx: &JobContext) -> impl Future<Output = Result<(), DbErr>> + Send;
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the worker pool needs to know about one job type.
struct JobType {
    queue: &'static str,
    resume: for<'a> fn(&'a JobContext) -> BoxFuture<'a, Result<(), DbErr>>,
    spawn: fn(JobContext, watch::Receiver<bool>) -> JoinHandle<()>,
}

const fn job_type<J: Job>() -> JobType {
    JobType {
        queue: J::QUEUE,
        resume: |ctx| Box::pin(J::resume(ctx)),
        spawn: |ctx, stopped| tokio::spawn(supervise::<J>(ctx, stopped)),
    }
}

/// Every job type. Adding one: a file with a [`Job`] impl, and a line here.
const JOBS: &[JobType] = &[
    job_type::<ForwardInquiry>(),
    job_type::<SendMail>(),
    job_type::<PreviewLottery>(),
    job_type::<PublishLottery>(),
    job_type::<LotteryClock>(),
    job_type::<SendLotteryResults>(),
    job_type::<ReconcilePayment>(),
    job_type::<PaymentSweep>(),
    job_type::<crate::assets::jobs::AssetPipeline>(),
    job_type::<crate::assets::jobs::UploadSweep>(),
];

/// Where jobs are stored: the same database as everything else.
///
/// Backend switch: SQLite uses `apalis-sqlite` (table `Jobs`), PostgreSQL `apalis-postgres`
/// (schema `apalis`). Everything else in this module is one code path.
#[derive(Clone, Debug)]
pub enum Queue {
    /// The embedded SQLite database.
    Sqlite(SqlitePool),
    /// A PostgreSQL database.
    Postgres(PgPool),
}

impl Queue {
    /// The queue living in `db`'s database.
    pub fn for_db(db: &DatabaseConnection) -> Result<Self, DbErr> {
        match db.get_database_backend() {
            DatabaseBackend::Sqlite => Ok(Self::Sqlite(db.get_sqlite_connection_pool().clone())),
            DatabaseBackend::Postgres => Ok(Self::Postgres(db.get_postgres_connection_pool().clone())),
            other => Err(DbErr::Custom(format!("background jobs need SQLite or PostgreSQL, not {other:?}"))),
        }
    }

    /// Creates or upgrades the job tables (apalis' own migrations). SQLite skips apalis'
    /// `setup()` because it would change pragmas (e.g. `synchronous = OFF`) on our pool.
    pub async fn setup(&self) -> Result<(), DbErr> {
        let result = match self {
            Self::Sqlite(pool) => SqliteStorage::migrations().run(pool).await,
            Self::Postgres(pool) => PostgresStorage::migrations().run(pool).await,
        };
        result.map_err(|e| DbErr::Migration(format!("job tables: {e}")))
    }

    /// Enqueues `job` to run after `delay`. A second push with the same `key` is a no-op (on both
    /// backends), so a retry or a resume never schedules the same run twice.
    pub async fn push<J: Job>(&self, job: J, delay: Duration, key: &str) -> Result<(), DbErr> {
        let task = TaskBuilder::new(job).run_after(delay).max_attempts(1).idempotency_key(key).build();
        let result = match self {
            Self::Sqlite(pool) => {
                let config = apalis_sqlite::Config::default().queue(J::QUEUE);
                SqliteStorage::<J>::new(pool).with_config(config).push_task(task).await.map_err(|e| e.to_string())
            }
            Self::Postgres(pool) => {
                let config = apalis_postgres::Config::default().queue(J::QUEUE);
                PostgresStorage::<J>::new(pool).with_config(config).push_task(task).await.map_err(|e| e.to_string())
            }
        };
        match result {
            Ok(()) => Ok(()),
            // SQLite skips a duplicate key (`ON CONFLICT DO NOTHING`), PostgreSQL's insert fails on
            // the unique index: either way the run is already queued.
            Err(_) if self.has_task(J::QUEUE, key).await? => Ok(()),
            Err(e) => Err(DbErr::Custom(format!("enqueue {}: {e}", J::QUEUE))),
        }
    }

    /// Enqueues many runs of `J` (each with its delay and key) at once: one transaction on SQLite,
    /// one statement on PostgreSQL. As with [`Queue::push`], a run whose key is already queued
    /// is skipped (SQLite skips it in the statement; on PostgreSQL a batch with one falls back to
    /// one push per run).
    pub async fn push_many<J: Job + Clone>(&self, jobs: Vec<(J, Duration, String)>) -> Result<(), DbErr> {
        if jobs.is_empty() {
            return Ok(());
        }
        let tasks = || {
            let built: Vec<_> = jobs
                .iter()
                .map(|(job, delay, key)| {
                    TaskBuilder::new(job.clone()).run_after(*delay).max_attempts(1).idempotency_key(key).build()
                })
                .collect();
            futures_util::stream::iter(built)
        };
        let result = match self {
            Self::Sqlite(pool) => {
                let config = apalis_sqlite::Config::default().queue(J::QUEUE);
                SqliteStorage::<J>::new(pool).with_config(config).push_all(tasks()).await.map_err(|e| e.to_string())
            }
            Self::Postgres(pool) => {
                let config = apalis_postgres::Config::default().queue(J::QUEUE);
                PostgresStorage::<J>::new(pool).with_config(config).push_all(tasks()).await.map_err(|e| e.to_string())
            }
        };
        if let Err(e) = result {
            tracing::debug!(queue = J::QUEUE, error = %e, "bulk enqueue refused; enqueuing one by one");
            for (job, delay, key) in jobs {
                self.push(job, delay, &key).await?;
            }
        }
        Ok(())
    }

    /// Whether a task with idempotency key `key` exists in `queue`.
    ///
    /// Backend switch: apalis' table is `Jobs` on SQLite, `apalis.jobs` on PostgreSQL.
    async fn has_task(&self, queue: &str, key: &str) -> Result<bool, DbErr> {
        let found = match self {
            Self::Sqlite(pool) => {
                sea_orm::sqlx::query_scalar::<_, bool>(
                    "SELECT EXISTS (SELECT 1 FROM Jobs WHERE job_type = ?1 AND idempotency_key = ?2)",
                )
                .bind(queue)
                .bind(key)
                .fetch_one(pool)
                .await
            }
            Self::Postgres(pool) => {
                sea_orm::sqlx::query_scalar::<_, bool>(
                    "SELECT EXISTS (SELECT 1 FROM apalis.jobs WHERE job_type = $1 AND idempotency_key = $2)",
                )
                .bind(queue)
                .bind(key)
                .fetch_one(pool)
                .await
            }
        };
        found.map_err(|e| DbErr::Custom(format!("look up job {key}: {e}")))
    }
}

/// What every job handler gets: the database, configuration, clock, HTTP client, queue and mail.
#[derive(Clone, Debug)]
pub struct JobContext {
    /// The database.
    pub db: DatabaseConnection,
    /// The configuration.
    pub config: Arc<Config>,
    /// The application clock (timestamps written by jobs).
    pub clock: Clock,
    /// Outgoing HTTP (Slack, Jira), with timeouts.
    pub http: reqwest::Client,
    /// Where follow-up runs are enqueued.
    pub queue: Queue,
    /// Renders and queues mails (for jobs that send some).
    pub mailer: Mailer,
    /// Delivers mails (SMTP or the outbox).
    pub delivery: Delivery,
    /// The object store (the asset pipeline's files).
    pub storage: crate::storage::Storage,
    /// The image decoder the asset pipeline's pictures share (one budget per process).
    pub images: Arc<crate::http::upload::ImageDecoder>,
}

impl JobContext {
    /// A context over `db`. Needs a Tokio runtime (the SMTP connection pool).
    pub fn new(db: DatabaseConnection, config: Config, clock: Clock) -> Result<Self, DbErr> {
        let queue = Queue::for_db(&db)?;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(config.job_http_timeout_secs.max(1)))
            .user_agent(concat!("vmarket/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| DbErr::Custom(format!("http client: {e}")))?;
        let mailer = Mailer::new(&config).map_err(|e| DbErr::Custom(format!("mail: {e}")))?;
        let delivery = Delivery::new(&config).map_err(|e| DbErr::Custom(format!("mail: {e}")))?;
        let storage = crate::storage::Storage::from_config(&config).map_err(|e| DbErr::Custom(format!("storage: {e}")))?;
        let images = Arc::new(crate::http::upload::ImageDecoder::new(config.image_decode_budget_mib));
        Ok(Self { db, config: Arc::new(config), clock, http, queue, mailer, delivery, storage, images })
    }

    /// The delay before run `attempt + 1` after `attempt` failed runs: `base · 2^(attempt-1)`,
    /// at most six hours.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let base = self.config.job_retry_base_secs;
        let secs = base.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
        Duration::from_secs(secs.min(6 * 3600))
    }
}

/// The minute after the current (real) one, in Unix minutes, and how long until it starts: when
/// a once-a-minute job ([`LotteryClock`], [`PaymentSweep`]) schedules its next tick.
pub fn next_minute(ctx: &JobContext) -> (i64, Duration) {
    let now = ctx.clock.real_now().timestamp();
    let minute = now.div_euclid(60) + 1;
    (minute, Duration::from_secs((minute * 60 - now).max(0) as u64))
}

/// Running workers; [`Workers::stop`] shuts them down gracefully.
pub struct Workers {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// Starts one worker per job type on the current Tokio runtime, after re-enqueuing pending
/// work. A worker that stops on an error (e.g. the database was briefly unreachable) is started
/// again.
pub async fn start(ctx: JobContext) -> Result<Workers, DbErr> {
    resume(&ctx).await?;
    tracing::info!(mail = %ctx.delivery.settings.describe(), "starting background workers");
    let (stop, stopped) = watch::channel(false);
    let tasks = JOBS.iter().map(|job| (job.spawn)(ctx.clone(), stopped.clone())).collect();
    Ok(Workers { stop, tasks })
}

/// The apalis handler of every job type: one run of `job`.
async fn handle<J: Job>(job: J, ctx: Data<JobContext>) -> Result<String, BoxDynError> {
    Ok(job.run(&ctx).await?)
}

/// Runs the worker of job type `J` until `stopped` turns true, restarting it after failures.
async fn supervise<J: Job>(ctx: JobContext, stopped: watch::Receiver<bool>) {
    let poll = Duration::from_millis(ctx.config.job_poll_interval_ms.max(10));
    let mut restarts = 0u32;
    while !*stopped.borrow() {
        let mut until = stopped.clone();
        let signal = async move {
            let _ = until.wait_for(|stop| *stop).await;
            Ok::<(), WorkerError>(())
        };
        let name = format!("{}-{}-{:08x}-{restarts}", J::QUEUE, std::process::id(), rand::random::<u32>());
        // Backend switch: the same worker over either storage.
        let result = match ctx.queue.clone() {
            Queue::Sqlite(pool) => {
                let storage = SqliteStorage::<J>::new(&pool)
                    .with_config(apalis_sqlite::Config::default().queue(J::QUEUE))
                    .poll_with_strategy(Tick::new(poll));
                let worker = WorkerBuilder::new(name).backend(storage).data(ctx.clone()).build(handle::<J>);
                worker.run_until(signal).await
            }
            Queue::Postgres(pool) => {
                let storage = PostgresStorage::<J>::new(&pool)
                    .with_config(apalis_postgres::Config::default().queue(J::QUEUE))
                    .poll_with_strategy(Tick::new(poll));
                let worker = WorkerBuilder::new(name).backend(storage).data(ctx.clone()).build(handle::<J>);
                worker.run_until(signal).await
            }
        };
        if *stopped.borrow() {
            break;
        }
        restarts += 1;
        match result {
            Err(e) => {
                tracing::error!(queue = J::QUEUE, error = %e, restarts, "worker stopped with an error; restarting")
            }
            Ok(()) => tracing::warn!(queue = J::QUEUE, restarts, "worker ended on its own; restarting"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Wakes an idle worker every `period` so that it looks for due jobs (delayed retries).
///
/// apalis' own `IntervalStrategy` re-arms its timer without polling it, which can lose a
/// wake-up and leave a worker parked until its next heartbeat (30 s); this one always polls the
/// re-armed timer, so its waker is registered.
struct Tick {
    period: Duration,
    sleep: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl Tick {
    fn new(period: Duration) -> Self {
        Self { period, sleep: Box::pin(tokio::time::sleep(period)) }
    }
}

impl PollStrategy for Tick {
    fn poll_drive(&mut self, cx: &mut std::task::Context<'_>, _: &PollSnapshot) -> std::task::Poll<Option<()>> {
        let mut fired = false;
        while self.sleep.as_mut().poll(cx).is_ready() {
            fired = true;
            let next = tokio::time::Instant::now() + self.period;
            self.sleep.as_mut().reset(next);
        }
        if fired { std::task::Poll::Ready(Some(())) } else { std::task::Poll::Pending }
    }
}

impl Workers {
    /// Asks every worker to stop and waits for them to finish their current task.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// Work a web request's write leaves for the workers, handed over once its transaction has
/// committed (e.g. by the console's audited writes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowUp {
    /// Deliver a mail stored in the transaction.
    Mail(Queued),
    /// Render and store the result mails a publication of run `.0` left owed.
    LotteryResults(i32),
}

impl FollowUp {
    /// Enqueues the follow-up. A failure is logged, not returned: the work is in the database,
    /// and workers resume it when they start.
    pub async fn push(self, queue: &Queue) {
        match self {
            Self::Mail(mail) => SendMail::push(queue, mail).await,
            Self::LotteryResults(run_id) => SendLotteryResults::after_publish(queue, run_id).await,
        }
    }
}

/// Re-enqueues every job whose work is still pending in the database (idempotent).
pub async fn resume(ctx: &JobContext) -> Result<(), DbErr> {
    for job in JOBS {
        (job.resume)(ctx).await.map_err(|e| DbErr::Custom(format!("resume {}: {e}", job.queue)))?;
    }
    Ok(())
}
