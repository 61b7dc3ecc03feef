//! The `Notifier` request guard: what a handler needs to send the mails a change queued — the
//! mailer (the model queues mails with it inside its transaction) and the job queue (the
//! handler pushes them once the transaction has committed).

use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};

use crate::jobs::SendMail;
use crate::mail::{Mailer, Queued};
use crate::queue::Queue;

/// The mailer and the job queue.
pub struct Notifier<'r> {
    /// Renders and stores mails.
    pub mailer: &'r Mailer,
    queue: &'r Queue,
}

impl Notifier<'_> {
    /// Enqueues the delivery of mails whose transaction has committed.
    pub async fn push(&self, mails: Vec<Queued>) {
        for mail in mails {
            SendMail::push(self.queue, mail).await;
        }
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Notifier<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        match (req.rocket().state::<Mailer>(), req.rocket().state::<Queue>()) {
            (Some(mailer), Some(queue)) => Outcome::Success(Notifier { mailer, queue }),
            _ => Outcome::Error((Status::InternalServerError, ())),
        }
    }
}
