//! Inquiries: `GET /api/v1/inquiry_categories` and `POST /api/v1/inquiry`. A new inquiry is
//! stored and answered at once; forwarding to Slack/Jira is a background job.

use chrono::{DateTime, Utc};
use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::{Route, get, post, routes};
use sea_orm::DatabaseConnection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::db::entities::{inquiry, inquiry_category};
use crate::error::{Error, Result};
use crate::jobs::{ForwardInquiry, Queue};
use crate::model::inquiry::{InquiryCategoryView, InquiryInput, InquiryReceipt};
use crate::types::Lang;
use crate::web::Site;
use crate::web::client_ip::ClientIp;
use crate::web::protect::{FormKey, InquiryLimiter};

/// The body of `GET /inquiry_categories`.
#[derive(Debug, Serialize, ToSchema)]
pub struct InquiryCategories {
    /// Public categories in display order.
    pub inquiry_categories: Vec<InquiryCategoryView>,
}

/// Public inquiry categories.
#[utoipa::path(get, path = "/api/v1/inquiry_categories", tag = "inquiries",
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = InquiryCategories)))]
#[get("/inquiry_categories")]
pub async fn categories(api: Api<'_>) -> Result<Json<InquiryCategories>> {
    let rows = inquiry_category::Model::public(api.db).await?;
    Ok(Json(InquiryCategories {
        inquiry_categories: rows.iter().map(|c| InquiryCategoryView::new(c, api.lang)).collect(),
    }))
}

/// Sends an inquiry. It is stored at once (201) and forwarded to staff in the background.
#[utoipa::path(post, path = "/api/v1/inquiry", tag = "inquiries",
    params(("lang" = Option<String>, Query)),
    request_body = InquiryInput,
    responses((status = 201, body = InquiryReceipt), (status = 400, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[post("/inquiry", data = "<input>")]
pub async fn create(
    api: Api<'_>,
    intake: Intake<'_>,
    input: std::result::Result<Json<InquiryInput>, rocket::serde::json::Error<'_>>,
) -> Result<(Status, Json<InquiryReceipt>)> {
    let input = input.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let row = intake.receive(api.db, &input, api.lang, api.now).await?;
    Ok((Status::Created, Json(InquiryReceipt { id: row.id, status: row.status() })))
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

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(categories, create))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![categories, create]
}
