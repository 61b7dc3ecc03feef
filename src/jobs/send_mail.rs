//! `SendMail { mail_id, attempt }`: one delivery attempt of a queued mail (see `crate::mail`).
//!
//! An attempt first claims itself on the row (a conditional update: the mail is `pending` and
//! has made exactly `attempt - 1` attempts), which counts it and sets when the next attempt is
//! due should this one never report back. Only then is the message handed to the transport. So
//! each attempt runs at most once, however often its task is delivered, and a mail that is
//! `sent` (or `failed`) is never sent again.
//!
//! The one window left is a crash after the SMTP server accepted the message but before the row
//! says `sent`. We choose to send again rather than risk losing the mail: after the backoff
//! delay, the workers' start-up `resume` runs the next attempt. The copy is byte-for-byte the
//! same message, with the same `Message-ID` and `Date`, so receiving systems can recognise it as
//! a repeat (the outbox even overwrites the same file). Losing a lottery result or a receipt is
//! worse than a rare duplicate.
//!
//! A failed attempt keeps the mail `pending` (the error, with any SMTP secret masked, in
//! `last_error`) and enqueues the next one after `job_retry_base_secs · 2^(attempt-1)` (at most
//! 6 h). After `mail_max_attempts`, or when the server refused the mail for good, it is `failed`
//! and stays in the table for staff.

use std::time::Duration;

use sea_orm::DbErr;
use serde::{Deserialize, Serialize};

use crate::db::entities::mail;
use crate::db::entities::mail::MailStatus;
use crate::mail::{DeliveryError, Queued, build_message};
use crate::queue::{Job, JobContext, Queue};

/// Attempt `attempt` (1-based) to deliver the mail `mail_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendMail {
    /// The row in `mails`.
    pub mail_id: i32,
    /// Which attempt this is, from 1.
    pub attempt: i32,
}

impl SendMail {
    /// The idempotency key of attempt `attempt` for `mail_id`.
    pub fn key(mail_id: i32, attempt: i32) -> String {
        format!("mail:{mail_id}:attempt:{attempt}")
    }

    /// Enqueues attempt `attempt` of the mail after `delay` (a no-op if it is already queued).
    pub async fn enqueue(queue: &Queue, mail_id: i32, attempt: i32, delay: Duration) -> Result<(), DbErr> {
        queue.push(Self { mail_id, attempt }, delay, &Self::key(mail_id, attempt)).await
    }

    /// Enqueues the first delivery attempt of a queued mail. Call it after the mail's
    /// transaction committed. A failure is logged, not returned: the mail is stored, and workers
    /// pick up every pending mail when they start.
    pub async fn push(queue: &Queue, mail: Queued) {
        if let Err(e) = Self::enqueue(queue, mail.id, 1, Duration::ZERO).await {
            tracing::error!(mail_id = mail.id, error = %e, "could not enqueue a mail; workers resume it on start");
        }
    }
}

impl Job for SendMail {
    const QUEUE: &'static str = "send_mail";

    async fn run(self, ctx: &JobContext) -> Result<String, DbErr> {
        deliver(ctx, self).await
    }

    /// Enqueues the next attempt of every pending mail, due when its row says.
    async fn resume(ctx: &JobContext) -> Result<(), DbErr> {
        let now = ctx.clock.now();
        for row in mail::Model::pending(&ctx.db).await? {
            let delay = row.next_attempt_at.and_then(|at| (at - now).to_std().ok()).unwrap_or_default();
            Self::enqueue(&ctx.queue, row.id, row.attempts + 1, delay).await?;
        }
        Ok(())
    }
}

/// Makes one attempt and records its outcome; returns a summary for the task table.
pub async fn deliver(ctx: &JobContext, job: SendMail) -> Result<String, DbErr> {
    let SendMail { mail_id, attempt } = job;
    let delay = ctx.backoff(attempt.max(1) as u32);
    let retry_at = ctx.clock.now() + chrono::Duration::from_std(delay).unwrap_or_default();
    let Some(row) = mail::Model::claim(&ctx.db, mail_id, attempt, retry_at).await? else {
        return Ok(match mail::Model::find(&ctx.db, mail_id).await? {
            None => format!("mail {mail_id} no longer exists"),
            Some(row) if row.status != MailStatus::Pending => format!("mail {mail_id} is already {:?}", row.status),
            Some(row) => format!("mail {mail_id}: attempt {attempt} skipped, {} made so far", row.attempts),
        });
    };
    let settings = &ctx.delivery.settings;
    let outcome = match build_message(&row, &settings.from) {
        Ok(message) => ctx.delivery.transport.send(&row, message).await,
        Err(message) => Err(DeliveryError { permanent: true, message }),
    };
    let failure = match outcome {
        Ok(()) => {
            mail::Model::mark_sent(&ctx.db, mail_id, attempt, ctx.clock.now()).await?;
            tracing::info!(mail_id, attempt, kind = %row.kind, "mail sent");
            return Ok(format!("mail {mail_id}: sent on attempt {attempt}"));
        }
        Err(failure) => failure,
    };
    let error = settings.scrub(&failure.message);
    let give_up = failure.permanent || attempt >= settings.max_attempts as i32;
    mail::Model::record_failure(&ctx.db, mail_id, attempt, &error, (!give_up).then_some(retry_at)).await?;
    if give_up {
        tracing::error!(mail_id, attempt, error = %error, "mail delivery failed for good; left for staff");
        return Ok(format!("mail {mail_id}: gave up after attempt {attempt}: {error}"));
    }
    tracing::warn!(mail_id, attempt, ?delay, error = %error, "mail delivery failed; will retry");
    SendMail::enqueue(&ctx.queue, mail_id, attempt + 1, delay).await?;
    Ok(format!("mail {mail_id}: attempt {attempt} failed, retry in {delay:?}: {error}"))
}
