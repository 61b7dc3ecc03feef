//! The inquiry write, shared by `POST /api/v1/inquiry` and the contact form (`/contact/form`):
//! receiving one means rate-limiting the client, checking the input, storing it and enqueuing
//! its forwarding.

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::db::entities::inquiry;
use crate::error::Result;
use crate::http::Site;
use crate::http::client_ip::ClientIp;
use crate::http::protect::{FormKey, InquiryLimiter};
use crate::jobs::{ForwardInquiry, Queue};
use crate::model::inquiry::InquiryInput;
use crate::types::Lang;

/// What receiving an inquiry needs besides the database: the job queue, the form key (IP
/// hashes), the rate limiter and the client's address.
pub struct Intake<'r> {
    /// Site-wide state.
    pub site: &'r Site,
    /// Where the forwarding job goes.
    pub queue: &'r Queue,
    /// Key for IP hashes and form tokens.
    pub key: &'r FormKey,
    limiter: &'r InquiryLimiter,
    client: ClientIp,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Intake<'r> {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let rocket = req.rocket();
        match (
            rocket.state::<Site>(),
            rocket.state::<Queue>(),
            rocket.state::<FormKey>(),
            rocket.state::<InquiryLimiter>(),
        ) {
            (Some(site), Some(queue), Some(key), Some(limiter)) => {
                Outcome::Success(Intake { site, queue, key, limiter, client: ClientIp::of(req) })
            }
            _ => Outcome::Error((Status::InternalServerError, ())),
        }
    }
}

impl Intake<'_> {
    /// Rate-limits, validates and stores an inquiry, then enqueues its forwarding. If the
    /// enqueue fails, the inquiry is still stored as pending and workers pick it up on start.
    pub async fn receive(
        &self,
        db: &DatabaseConnection,
        input: &InquiryInput,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<inquiry::Model> {
        self.limiter.check(self.client)?;
        let new = input.check(db, &self.site.messages, lang).await?;
        let ip_hash = self.client.0.map(|ip| self.key.ip_hash(ip));
        let row = inquiry::Model::create(db, new, &self.site.config, lang, ip_hash, now).await?;
        if row.is_pending()
            && let Err(e) = ForwardInquiry::enqueue(self.queue, row.id, 1, std::time::Duration::ZERO).await
        {
            tracing::error!(inquiry_id = row.id, error = %e, "could not enqueue forwarding; workers resume it on start");
        }
        Ok(row)
    }
}
