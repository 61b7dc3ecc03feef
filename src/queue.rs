//! The job queue: where background work is stored and how it is enqueued — apalis 1.0 in the
//! application's own database (SQLite or PostgreSQL, no extra server) — the [`Job`] trait every
//! job implements, and the [`JobContext`] its runs get. Request handlers and features only
//! enqueue; what runs each job type lives beside its feature (`crate::jobs`, `crate::payments::
//! jobs`, …) and `crate::workers` lists them all and runs them.
//!
//! Retries: each run of a job is one apalis task (`max_attempts = 1`). A job that meets a
//! transient failure records it on its own rows, schedules its next run with exponential backoff
//! (`run_after`) under an idempotency key, and fails its task, so the apalis table keeps the error
//! of every attempt and a crash between two runs loses nothing: the workers re-enqueue whatever is
//! still pending when they start ([`Job::resume`]; the key makes that a no-op when the run is
//! already queued).
//!
//! The queue's tables are apalis' own and are created by [`setup`], which whoever opens the
//! database for the application calls after `crate::db::migrate` (`vmarket serve`, `worker`,
//! `migrate`, `seed`, the tests).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::*;
use apalis_postgres::PostgresStorage;
use apalis_sqlite::SqliteStorage;
use sea_orm::sqlx::{PgPool, SqlitePool};
use sea_orm::{DatabaseBackend, DatabaseConnection, DbErr};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::clock::Clock;
use crate::config::Config;
use crate::mail::{Delivery, Mailer};

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

/// Creates or upgrades the job queue's tables in `db`'s database (see [`Queue::setup`]).
pub async fn setup(db: &DatabaseConnection) -> Result<(), DbErr> {
    Queue::for_db(db)?.setup().await
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
        let storage =
            crate::storage::Storage::from_config(&config).map_err(|e| DbErr::Custom(format!("storage: {e}")))?;
        Ok(Self { db, config: Arc::new(config), clock, http, queue, mailer, delivery, storage })
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
/// a once-a-minute job (the lottery's clock, the payment sweep) schedules its next tick.
pub fn next_minute(ctx: &JobContext) -> (i64, Duration) {
    let now = ctx.clock.real_now().timestamp();
    let minute = now.div_euclid(60) + 1;
    (minute, Duration::from_secs((minute * 60 - now).max(0) as u64))
}
