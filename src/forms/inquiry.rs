//! The inquiry write (spec §5 "Inquiry": email, message, inquiryCategoryId and agreement
//! required), shared by `POST /api/v1/inquiry` (a JSON body) and the contact form
//! (`/contact/form`): the input and its checks, and receiving it — rate-limiting the client,
//! checking, storing and enqueuing its forwarding.

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::Validate;

use crate::db::entities::{inquiry, inquiry_category};
use crate::error::{Error, Result};
use crate::forms::{Input, Problems, checks};
use crate::http::Site;
use crate::http::client_ip::ClientIp;
use crate::http::protect::{FormKey, InquiryLimiter};
use crate::jobs::ForwardInquiry;
use crate::model::inquiry::NewInquiry;
use crate::queue::Queue;
use crate::types::Lang;

/// Longest message accepted, in characters.
pub const MESSAGE_MAX: u64 = 4000;
/// Longest optional name accepted, in characters.
pub const NAME_MAX: u64 = 100;

/// What a visitor sends (JSON body of `POST /api/v1/inquiry`, or the contact form).
#[derive(Debug, Clone, Default, Deserialize, Serialize, Validate, ToSchema)]
pub struct InquiryInput {
    /// Reply address.
    #[validate(required(code = "required"), email(code = "email"), custom(function = "checks::clean_text"))]
    pub email: Option<String>,
    /// The question, 1 to 4000 characters.
    #[validate(
        required(code = "required"),
        length(min = 1, max = MESSAGE_MAX, code = "length_between"),
        custom(function = "checks::clean_text")
    )]
    pub message: Option<String>,
    /// One of `GET /api/v1/inquiry_categories`.
    #[validate(required(code = "required"))]
    pub inquiry_category_id: Option<i64>,
    /// Consent to the privacy policy; must be `true`.
    #[validate(required(code = "required"), custom(function = "checks::ticked"))]
    pub agreement: Option<bool>,
    /// Optional name, at most 100 characters.
    #[validate(length(max = NAME_MAX, code = "max_length"), custom(function = "checks::clean_text"))]
    pub name: Option<String>,
}

impl Input for InquiryInput {
    const FIELDS: &'static [&'static str] = &["inquiry_category_id", "email", "name", "message", "agreement"];
}

impl InquiryInput {
    /// Trims the text fields; empty strings count as missing.
    fn normalized(&self) -> Self {
        let clean = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Self {
            email: clean(&self.email),
            message: clean(&self.message),
            name: clean(&self.name),
            inquiry_category_id: self.inquiry_category_id,
            agreement: self.agreement,
        }
    }

    /// Checks the input and that its category exists and is public; every problem is reported
    /// by field.
    pub async fn check(&self, db: &impl ConnectionTrait) -> Result<NewInquiry> {
        let input = self.normalized();
        let mut problems = Problems::of(&input);
        let mut category = None;
        if let Some(id) = input.inquiry_category_id {
            category = match i32::try_from(id) {
                Ok(id) if id > 0 => inquiry_category::Model::find_public(db, id).await?,
                _ => None,
            };
            if category.is_none() {
                problems.fail("inquiry_category_id", "validation.unknown_category");
            }
        }
        problems.into_result()?;
        match (category, input.email, input.message) {
            (Some(category), Some(email), Some(message)) => {
                Ok(NewInquiry { category, email, name: input.name, message })
            }
            // The checks above require all three.
            _ => Err(Error::Validation(Vec::new())),
        }
    }
}

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
        self.limiter.check(self.client).await?;
        let new = input.check(db).await?;
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
