//! What settling needs besides the database: the mailer and the queue ([`Outbox`]).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, TransactionTrait};

use crate::error::Result;
use crate::jobs::send_mail::SendMail;
use crate::mail::Mailer;
use crate::model::settlement::{Settlement, settle};
use crate::queue::Queue;

/// What settling needs besides the database: the mailer, which renders the payer's receipt
/// inside the settle transaction, and the queue that delivers it after the commit (and runs the
/// reconciles). The web process has both as managed state; jobs have them in their context.
#[derive(Clone, Copy, Debug)]
pub struct Outbox<'a> {
    /// Renders and stores the receipt mail.
    pub mailer: &'a Mailer,
    /// Background jobs: the receipt's delivery, reconciles.
    pub queue: &'a Queue,
}

impl Outbox<'_> {
    /// Settles attempt `order_id` (see [`payment::settle`]) and sends the receipt it queued.
    pub async fn settle(
        &self,
        db: &(impl ConnectionTrait + TransactionTrait),
        order_id: i32,
        reference: &str,
        now: DateTime<Utc>,
    ) -> Result<Settlement> {
        let done = settle(db, self.mailer, order_id, reference, now).await?;
        if let Some(receipt) = done.receipt {
            SendMail::push(self.queue, receipt).await;
        }
        Ok(done.outcome)
    }
}
