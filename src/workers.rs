//! The worker registry: every job type of the application, each run by its own supervised
//! apalis worker inside `vmarket serve` and on its own in `vmarket worker`. Jobs are defined
//! beside their feature (`crate::jobs` for mail, inquiries and the lottery, `crate::payments::
//! jobs` for payments, each feature's `jobs` module); adding one: a [`Job`] impl there, and a line
//! in `JOBS` here. Each gets its own worker, and its pending work is resumed when workers start
//! ([`resume`]).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use apalis::prelude::*;
use apalis_postgres::PostgresStorage;
use apalis_sqlite::SqliteStorage;
use sea_orm::DbErr;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::assets::jobs::{AssetPipeline, UploadSweep};
use crate::jobs::forward_inquiry::ForwardInquiry;
use crate::jobs::lottery::{LotteryClock, PreviewLottery, PublishLottery};
use crate::jobs::send_lottery_results::SendLotteryResults;
use crate::jobs::send_mail::SendMail;
use crate::payments::jobs::payment_sweep::PaymentSweep;
use crate::payments::jobs::reconcile_payment::ReconcilePayment;
use crate::queue::{Job, JobContext, Queue};
use crate::store::jobs::{AvatarOrderSweep, ConvertHousingVideo};

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

/// Every job type. Adding one: a file with a [`Job`] impl beside its feature, and a line here.
const JOBS: &[JobType] = &[
    job_type::<ForwardInquiry>(),
    job_type::<SendMail>(),
    job_type::<PreviewLottery>(),
    job_type::<PublishLottery>(),
    job_type::<LotteryClock>(),
    job_type::<SendLotteryResults>(),
    job_type::<ReconcilePayment>(),
    job_type::<PaymentSweep>(),
    job_type::<AvatarOrderSweep>(),
    job_type::<AssetPipeline>(),
    job_type::<UploadSweep>(),
    job_type::<ConvertHousingVideo>(),
];

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
    let mut tasks: Vec<_> = JOBS.iter().map(|job| (job.spawn)(ctx.clone(), stopped.clone())).collect();
    tasks.extend(crate::jobs::cache_purge::spawn(ctx.clone(), stopped.clone()));
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

/// Re-enqueues every job whose work is still pending in the database (idempotent).
pub async fn resume(ctx: &JobContext) -> Result<(), DbErr> {
    for job in JOBS {
        (job.resume)(ctx).await.map_err(|e| DbErr::Custom(format!("resume {}: {e}", job.queue)))?;
    }
    Ok(())
}
