//! `SendLotteryResults { run_id, attempt }`: renders and stores the result mails a publication
//! left owed (`model::lottery_mails`), in batches of [`SendLotteryResults::BATCH`] entries, each
//! batch in its own short transaction, then hands their delivery to [`SendMail`] (one bulk
//! enqueue per batch).
//!
//! Idempotent by the database, not by the queue: a batch stores its mails with their unique key
//! (`lottery_result:{run}:{entry}`) and marks its rows done in one transaction, so two runs at
//! once, or a run after a crash, store each mail once and deliver only what they stored. A
//! publication enqueues it once it committed ([`SendLotteryResults::after_publish`]); a failed
//! run enqueues the next attempt with the jobs' backoff (at most [`SendLotteryResults::MAX_ATTEMPTS`]);
//! workers enqueue a run for every run with mails still owed when they start.

use std::time::Duration;

use sea_orm::DbErr;
use serde::{Deserialize, Serialize};

use crate::jobs::send_mail::SendMail;
use crate::model::lottery_mails::{self, ResultMails};
use crate::queue::{Job, JobContext, Queue};

/// Render, store and send the result mails still owed for the published run `run_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendLotteryResults {
    /// The published run.
    pub run_id: i32,
    /// Which attempt this is, from 1.
    pub attempt: u32,
}

/// What one run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    /// Entries whose result mail was owed and is now done.
    pub entries: usize,
    /// Mails stored (and handed to delivery) by this run.
    pub mails: usize,
    /// Entries whose owner has no usable address (no mail).
    pub without_address: usize,
}

impl SendLotteryResults {
    /// Entries per batch (one transaction, one bulk enqueue of deliveries).
    pub const BATCH: u64 = 500;
    /// Attempts before the run is left to the workers' next start.
    pub const MAX_ATTEMPTS: u32 = 8;

    /// Enqueues the first run for `run_id`, after its publication committed. A failure is
    /// logged, not returned: the owed rows are in the database, and workers resume them on start.
    pub async fn after_publish(queue: &Queue, run_id: i32) {
        let job = Self { run_id, attempt: 1 };
        if let Err(e) = queue.push(job, Duration::ZERO, &format!("lottery_results:{run_id}:published")).await {
            tracing::error!(run_id, error = %e, "could not enqueue the result mails; workers resume them on start");
        }
    }

    /// The job's work, inline: every owed result mail of the run, batch after batch.
    pub async fn run_now(self, ctx: &JobContext) -> crate::error::Result<Sent> {
        let shared = ResultMails::load(&ctx.db, self.run_id).await?;
        let mut sent = Sent::default();
        let mut after = 0;
        while let Some(batch) = shared.send_batch(&ctx.db, &ctx.mailer, after, Self::BATCH, ctx.clock.now()).await? {
            after = batch.last_entry;
            sent.entries += batch.entries;
            sent.mails += batch.stored.len();
            sent.without_address += batch.without_address;
            let deliveries = batch
                .stored
                .into_iter()
                .map(|id| (SendMail { mail_id: id, attempt: 1 }, Duration::ZERO, SendMail::key(id, 1)));
            if let Err(e) = ctx.queue.push_many(deliveries.collect()).await {
                // Stored and pending: workers pick every pending mail up when they start.
                tracing::error!(run_id = self.run_id, error = %e, "could not enqueue result mails' delivery");
            }
        }
        Ok(sent)
    }
}

impl Job for SendLotteryResults {
    const QUEUE: &'static str = "lottery_results";

    async fn run(self, ctx: &JobContext) -> Result<String, DbErr> {
        match self.run_now(ctx).await {
            Ok(sent) => Ok(format!(
                "result mails of lottery run {}: {} entries, {} mails stored, {} owners without an address",
                self.run_id, sent.entries, sent.mails, sent.without_address
            )),
            Err(e) => {
                if self.attempt < Self::MAX_ATTEMPTS {
                    let next = Self { attempt: self.attempt + 1, ..self };
                    let key =
                        format!("lottery_results:{}:attempt:{}:{}", self.run_id, next.attempt, uuid::Uuid::new_v4());
                    ctx.queue.push(next, ctx.backoff(self.attempt), &key).await?;
                }
                Err(DbErr::Custom(format!(
                    "result mails of lottery run {} (attempt {}): {e}",
                    self.run_id, self.attempt
                )))
            }
        }
    }

    /// Enqueues a run for every run with result mails still owed (once per minute of real time,
    /// whatever the number of workers starting).
    async fn resume(ctx: &JobContext) -> Result<(), DbErr> {
        let minute = ctx.clock.real_now().timestamp().div_euclid(60);
        let runs = lottery_mails::runs_owed(&ctx.db).await.map_err(|e| DbErr::Custom(e.to_string()))?;
        for run_id in runs {
            ctx.queue
                .push(Self { run_id, attempt: 1 }, Duration::ZERO, &format!("lottery_results:{run_id}:resume:{minute}"))
                .await?;
        }
        Ok(())
    }
}
