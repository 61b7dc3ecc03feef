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

/// Longest introduction accepted, in characters.
pub const INTRODUCTION_MAX: u64 = 500;

/// `PUT /ingame/user`: what the player shows others in game; an absent field stays as it is.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct ProfileChange {
    /// Up to 500 characters.
    #[validate(length(max = INTRODUCTION_MAX, code = "max_length"), custom(function = "checks::clean_text"))]
    pub introduction: Option<String>,
    /// One of the user's own avatar assets with an uploaded version; `null` shows none.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>)]
    pub top_page_avatar_id: Option<Option<i32>>,
}

impl Input for ProfileChange {
    const FIELDS: &'static [&'static str] = &["introduction", "top_page_avatar_id"];
}

/// A field that is present (`null` included) as `Some`; an absent one stays `None` by `default`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<i32>>, D::Error> {
    Option::<i32>::deserialize(d).map(Some)
}
