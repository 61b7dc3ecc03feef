//! The in-game sign-in's inputs (RFC 8628 form bodies): opening a device grant, and polling it.

use rocket::form::FromForm;
use serde::Deserialize;
use utoipa::ToSchema;
use validator::Validate;

use crate::forms::{Input, checks};

/// Longest client name accepted, in characters.
pub const CLIENT_ID_MAX: u64 = 64;

/// `POST /ingame/auth/device` (RFC 8628 §3.1).
#[derive(Debug, Clone, Default, Deserialize, FromForm, Validate, ToSchema)]
pub struct DeviceRequest {
    /// The client's name, shown to the user who confirms (e.g. `vket-client`), 1–64 characters.
    #[validate(
        required(code = "required"),
        length(min = 1, max = CLIENT_ID_MAX, code = "length_between"),
        custom(function = "checks::clean_text")
    )]
    pub client_id: Option<String>,
    /// Ignored: in-game tokens have the one scope `ingame`.
    pub scope: Option<String>,
}

impl Input for DeviceRequest {
    const FIELDS: &'static [&'static str] = &["client_id"];
}

/// `POST /ingame/auth/token` (RFC 8628 §3.4).
#[derive(Debug, Clone, Default, Deserialize, FromForm, ToSchema)]
pub struct TokenRequest {
    /// `urn:ietf:params:oauth:grant-type:device_code`.
    pub grant_type: Option<String>,
    /// The device code of `POST /ingame/auth/device`.
    pub device_code: Option<String>,
    /// The client's name (not checked: the device code is the proof).
    pub client_id: Option<String>,
}
