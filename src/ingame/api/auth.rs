//! The game client's sign-in (RFC 8628): `POST /ingame/auth/device` opens a device grant and
//! answers the codes; `POST /ingame/auth/token` polls it and, once the user allowed it on
//! `/mypage/ingame`, answers an in-game token, once. Both take form bodies, as the RFC has it.
//!
//! The token endpoint's refusals are RFC 6749 §5.2 bodies (`error`, `error_description`) that
//! also carry the site's error body (`code`, `message`, `details`), so OAuth libraries and the
//! site's own clients both read them.

use std::io::Cursor;

use rocket::form::Form;
use rocket::http::{ContentType, Header, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::serde::json::Json;
use rocket::{Route, State, post, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::ingame_device_grant;
use crate::error::{Error, Result, request_lang};
use crate::forms::ingame::{DeviceRequest, TokenRequest};
use crate::forms::validate;
use crate::http::Site;
use crate::http::client_ip::ClientIp;
use crate::ingame::limits::IngameLimits;
use crate::ingame::model::session::LIFETIME_DAYS;
use crate::ingame::state::Ingame;

/// The grant type of a device code poll (RFC 8628 §3.4).
pub const DEVICE_GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// A new grant (RFC 8628 §3.2).
#[derive(Debug, Serialize, ToSchema)]
pub struct DeviceAnswer {
    /// The client's secret for polling; keep it to the client.
    pub device_code: String,
    /// What the user types on `verification_uri`: eight letters, shown `BCDF-GHJK`.
    pub user_code: String,
    /// Where the user types it (mypage; signs them in first if needed).
    pub verification_uri: String,
    /// The same page with the code filled in, for a QR code or a link.
    pub verification_uri_complete: String,
    /// Seconds until the codes expire.
    pub expires_in: i64,
    /// Seconds to wait between polls.
    pub interval: i32,
}

/// An issued token (RFC 6749 §5.1).
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenAnswer {
    /// The in-game token: `Authorization: Bearer` on `/ingame` calls, nowhere else.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds it lives (30 days).
    pub expires_in: i64,
    /// Always `ingame`.
    pub scope: &'static str,
}

/// A refusal of the token endpoint (RFC 6749 §5.2, RFC 8628 §3.5), with the site's error body.
#[derive(Debug, Serialize, ToSchema)]
pub struct GrantRefusal {
    /// `authorization_pending`, `slow_down`, `expired_token`, `access_denied`, `invalid_grant`,
    /// `invalid_request` or `unsupported_grant_type`.
    pub error: String,
    /// What it means, in the request's language.
    pub error_description: String,
    /// The same as `error`.
    pub code: String,
    /// The same as `error_description`.
    pub message: String,
    /// Always empty.
    pub details: Vec<crate::error::FieldError>,
}

/// The token endpoint's answer to a failed poll.
pub struct Refused(Error);

impl<'r> Responder<'r, 'static> for Refused {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        let Error::BadRequest { code } = self.0 else { return self.0.respond_to(req) };
        let Some(site) = req.rocket().state::<Site>() else { return Err(Status::InternalServerError) };
        let message = self.0.message(&site.messages, request_lang(req));
        let body = GrantRefusal {
            error: code.to_string(),
            error_description: message.clone(),
            code: code.to_string(),
            message,
            details: Vec::new(),
        };
        let body = serde_json::to_string(&body).map_err(|_| Status::InternalServerError)?;
        Response::build()
            .status(Status::BadRequest)
            .header(ContentType::JSON)
            .header(Header::new("Cache-Control", "no-store"))
            .sized_body(body.len(), Cursor::new(body))
            .ok()
    }
}

/// Opens a device grant for the client `client_id`.
#[utoipa::path(post, path = "/ingame/auth/device", tag = "ingame",
    params(("lang" = Option<String>, Query)),
    request_body(content = DeviceRequest, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, body = DeviceAnswer), (status = 415, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "client_id missing or too long"),
              (status = 429, body = crate::error::ErrorBody, description = "rate_limited, with Retry-After")))]
#[post("/auth/device", data = "<form>")]
pub async fn device(
    ig: Ingame<'_>,
    client: ClientIp,
    limits: &State<IngameLimits>,
    form: Form<DeviceRequest>,
) -> Result<Json<DeviceAnswer>> {
    limits.open(client).await?;
    validate(&*form)?;
    let client_name = form.client_id.as_deref().unwrap_or_default().trim();
    let opened = ingame_device_grant::Model::open(ig.db, client_name, ig.real_now).await?;
    let page = format!("{}/mypage/ingame", ig.site.config.site_url.trim_end_matches('/'));
    let user_code = opened.user_code.display();
    Ok(Json(DeviceAnswer {
        device_code: opened.device_code,
        verification_uri_complete: format!("{page}?code={user_code}"),
        verification_uri: page,
        user_code,
        expires_in: opened.expires_in,
        interval: opened.interval,
    }))
}

/// Polls a device grant: the token once the user allowed it, else why not yet (or never).
#[utoipa::path(post, path = "/ingame/auth/token", tag = "ingame",
    params(("lang" = Option<String>, Query)),
    request_body(content = TokenRequest, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, body = TokenAnswer),
              (status = 400, body = GrantRefusal, description = "authorization_pending, slow_down, expired_token, access_denied, invalid_grant, invalid_request, unsupported_grant_type"),
              (status = 415, body = crate::error::ErrorBody)))]
#[post("/auth/token", data = "<form>")]
pub async fn token(ig: Ingame<'_>, form: Form<TokenRequest>) -> Result<Json<TokenAnswer>, Refused> {
    let grant_type = form.grant_type.as_deref().unwrap_or_default();
    let Some(device) = form.device_code.as_deref().filter(|d| !d.is_empty()) else {
        return Err(Refused(Error::BadRequest { code: "invalid_request" }));
    };
    if grant_type != DEVICE_GRANT_TYPE {
        return Err(Refused(Error::BadRequest { code: "unsupported_grant_type" }));
    }
    let (_, token) = ingame_device_grant::Model::poll(ig.db, device, ig.real_now).await.map_err(Refused)?;
    Ok(Json(TokenAnswer {
        access_token: token,
        token_type: "Bearer",
        expires_in: LIFETIME_DAYS * 24 * 3600,
        scope: "ingame",
    }))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![device, token]
}
