//! The lottery's background jobs (DOMAIN.md "The lottery": a draw is a job):
//!
//! - [`PreviewLottery`] draws a committed round for staff (`model::lottery::preview`);
//! - [`PublishLottery`] applies the previewed draw (`model::lottery::publish`: statuses, the
//!   published file, and which entries are owed their result mail, in one transaction) and,
//!   once it committed, enqueues [`SendLotteryResults`], which renders and stores the mails in
//!   batches and hands them to delivery;
//! - [`LotteryClock`] runs once a minute: it writes the statuses time has changed
//!   (`model::lottery_clock::sweep`) and moves the automatic rounds (`model::lottery_clock::advance_rounds`:
//!   the first round is committed when the entry window closes, the second when the first
//!   payment window closes, and each is previewed when its lottery window opens).
//!
//! The CLI and the console run the very same code: [`PreviewLottery::run_now`] /
//! [`PublishLottery::run_now`] inline when they want the result at once, or
//! [`PreviewLottery::enqueue`] / [`PublishLottery::enqueue`] for the workers. Running either
//! twice never draws twice: the preview of a round is deterministic (its committed seed and the
//! inputs of the moment) and publishing claims the run once; a second publish is a no-op that
//! says so. Refusals (`lottery_not_committed`, `lottery_not_previewed`, …) end the task with
//! their code rather than failing it: retrying would not change them.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::DbErr;
use serde::{Deserialize, Serialize};

use crate::db::entities::event_entry_application::LotteryRound;
use crate::error::Error;
use crate::jobs::send_lottery_results::SendLotteryResults;
use crate::lottery::Draw;
use crate::model::lottery::{self as runs, Publication};
use crate::model::lottery_clock::{self, ClockStep, Swept};
use crate::queue::{Job, JobContext, Queue, next_minute};

/// A model error as the task's outcome: a refusal is a finished task with its code, anything
/// else fails the task (its error kept in the job table).
fn outcome(e: Error, what: &str) -> Result<String, DbErr> {
    match e {
        Error::Conflict { code } | Error::NotFound { code } => Ok(format!("{what}: refused ({code})")),
        other => Err(DbErr::Custom(format!("{what}: {other}"))),
    }
}

/// Draw the committed `round` of `event_id` for staff; no status changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviewLottery {
    /// The event.
    pub event_id: i32,
    /// Which draw.
    pub round: LotteryRound,
}

impl PreviewLottery {
    /// The job's work, inline: the draw previewed at the clock's `now`.
    pub async fn run_now(self, ctx: &JobContext) -> crate::error::Result<Draw> {
        runs::preview(&ctx.db, self.event_id, self.round, ctx.clock.now()).await
    }

    /// Enqueues a preview requested at `requested_at` (requests within the same second are one).
    pub async fn enqueue(self, queue: &Queue, requested_at: DateTime<Utc>) -> Result<(), DbErr> {
        let key = format!("lottery:{}:{}:preview:{}", self.event_id, self.round.as_str(), requested_at.timestamp());
        queue.push(self, Duration::ZERO, &key).await
    }
}

impl Job for PreviewLottery {
    const QUEUE: &'static str = "lottery_preview";

    async fn run(self, ctx: &JobContext) -> Result<String, DbErr> {
        let what = format!("preview of event {} {} round", self.event_id, self.round.as_str());
        match self.run_now(ctx).await {
            Ok(draw) => Ok(format!(
                "{what}: {} winners of {} applications, result digest {}",
                draw.winners().count(),
                draw.outcomes.len(),
                draw.digest
            )),
            Err(e) => outcome(e, &what),
        }
    }

    /// Nothing to resume: a preview not run is requested again by staff.
    async fn resume(_: &JobContext) -> Result<(), DbErr> {
        Ok(())
    }
}

/// Publish the previewed `round` of `event_id`: statuses change, result mails go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishLottery {
    /// The event.
    pub event_id: i32,
    /// Which draw.
    pub round: LotteryRound,
}

impl PublishLottery {
    /// The job's work, inline: publishes (or finds the round already published) and, once the
    /// publication committed, enqueues the result mails it left owed.
    pub async fn run_now(self, ctx: &JobContext) -> crate::error::Result<Publication> {
        let publication = runs::publish(&ctx.db, self.event_id, self.round, ctx.clock.now()).await?;
        if let Publication::Applied { run_id, .. } = &publication {
            SendLotteryResults::after_publish(&ctx.queue, *run_id).await;
        }
        Ok(publication)
    }

    /// Enqueues a publish requested at `requested_at` (requests within the same second are one;
    /// any later one finds the round published and changes nothing).
    pub async fn enqueue(self, queue: &Queue, requested_at: DateTime<Utc>) -> Result<(), DbErr> {
        let key = format!("lottery:{}:{}:publish:{}", self.event_id, self.round.as_str(), requested_at.timestamp());
        queue.push(self, Duration::ZERO, &key).await
    }
}

impl Job for PublishLottery {
    const QUEUE: &'static str = "lottery_publish";

    async fn run(self, ctx: &JobContext) -> Result<String, DbErr> {
        let what = format!("publish of event {} {} round", self.event_id, self.round.as_str());
        match self.run_now(ctx).await {
            Ok(Publication::Applied { draw, incorrect, result_mails, .. }) => Ok(format!(
                "{what}: {} winners of {} applications, {} incorrect, {} result mails to send",
                draw.winners().count(),
                draw.outcomes.len(),
                incorrect.len(),
                result_mails
            )),
            Ok(Publication::AlreadyPublished) => Ok(format!("{what}: already published; nothing changed")),
            Err(e) => outcome(e, &what),
        }
    }

    /// Nothing to resume: the result mails a publication left owed are `SendLotteryResults`'s,
    /// which resumes them.
    async fn resume(_: &JobContext) -> Result<(), DbErr> {
        Ok(())
    }
}

/// The lottery's minute tick, due at the start of minute `minute` (Unix minutes, real time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LotteryClock {
    /// The minute it is due (its idempotency key): every worker that schedules the same minute
    /// schedules one task.
    pub minute: i64,
}

/// What one tick did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// Statuses written by the sweep.
    pub swept: Swept,
    /// Rounds committed or previewed.
    pub rounds: Vec<ClockStep>,
}

impl LotteryClock {
    /// How often it runs.
    pub const PERIOD_SECS: i64 = 60;

    /// The work of one tick at the clock's `now` (which follows time travel).
    pub async fn tick(ctx: &JobContext) -> crate::error::Result<Tick> {
        let now = ctx.clock.now();
        let swept = lottery_clock::sweep(&ctx.db, now).await?;
        let rounds = lottery_clock::advance_rounds(&ctx.db, now).await?;
        Ok(Tick { swept, rounds })
    }

    /// Schedules the tick of the minute after the current (real) one.
    async fn schedule_next(ctx: &JobContext) -> Result<(), DbErr> {
        let (minute, delay) = next_minute(ctx);
        ctx.queue.push(Self { minute }, delay, &format!("lottery_clock:{minute}")).await
    }
}

impl Job for LotteryClock {
    const QUEUE: &'static str = "lottery_clock";

    async fn run(self, ctx: &JobContext) -> Result<String, DbErr> {
        // The next tick first: an error below must not stop the clock.
        Self::schedule_next(ctx).await?;
        let tick = Self::tick(ctx).await.map_err(|e| DbErr::Custom(format!("lottery clock: {e}")))?;
        let committed = tick.rounds.iter().filter(|s| matches!(s, ClockStep::Committed { .. })).count();
        Ok(format!(
            "lottery clock: {} statuses written, {committed} rounds committed, {} previewed",
            tick.swept.applications,
            tick.rounds.len() - committed
        ))
    }

    /// Runs a tick now (and so keeps the clock going) when workers start.
    async fn resume(ctx: &JobContext) -> Result<(), DbErr> {
        let minute = ctx.clock.real_now().timestamp().div_euclid(Self::PERIOD_SECS);
        ctx.queue.push(Self { minute }, Duration::ZERO, &format!("lottery_clock:{minute}")).await
    }
}
