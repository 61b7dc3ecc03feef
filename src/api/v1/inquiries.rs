//! Inquiries: `GET /api/v1/inquiry_categories` and `POST /api/v1/inquiry`. A new inquiry is
//! stored and answered at once; forwarding to Slack/Jira is a background job.

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{Route, get, post, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::db::entities::inquiry_category;
use crate::error::{Error, Result};
use crate::forms::inquiry::{InquiryInput, Intake};
use crate::model::inquiry::{InquiryCategoryView, InquiryReceipt};

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

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(categories, create))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![categories, create]
}
