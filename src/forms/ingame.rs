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

/// Longest chat text accepted, in characters.
pub const CHAT_TEXT_MAX: u64 = 200;
/// The farthest a position may lie from the origin on each axis.
pub const POS_MAX: f64 = 1_000_000.0;

/// Where a player stands in the world.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, serde::Serialize, ToSchema)]
pub struct Pos {
    /// East–west.
    pub x: f64,
    /// Up–down.
    pub y: f64,
    /// North–south.
    pub z: f64,
}

/// A position within [`POS_MAX`] of the origin on each axis (`ingame_pos`).
fn pos_in_range(pos: &Pos) -> Result<(), validator::ValidationError> {
    if [pos.x, pos.y, pos.z].iter().all(|v| v.is_finite() && v.abs() <= POS_MAX) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("ingame_pos"))
    }
}

/// `Text` or `Emote_stamp` (`ingame_message_type`).
fn known_message_type(value: &str) -> Result<(), validator::ValidationError> {
    if matches!(value, "Text" | "Emote_stamp") {
        Ok(())
    } else {
        Err(validator::ValidationError::new("ingame_message_type"))
    }
}

/// `POST /ingame/chat/{channel_session_code}/messages`: a text (`message`) or an emote stamp
/// (`emote_id`, an emote the player owns, not blacklisted, that their client can play).
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct ChatPost {
    /// `Text` or `Emote_stamp`.
    #[validate(required(code = "required"), custom(function = "known_message_type"))]
    pub message_type: Option<String>,
    /// The text of a `Text`: 1–200 characters.
    #[validate(length(min = 1, max = CHAT_TEXT_MAX, code = "length_between"), custom(function = "checks::clean_text"))]
    pub message: Option<String>,
    /// The emote of an `Emote_stamp`.
    pub emote_id: Option<i32>,
    /// Where the speaker stands (the origin when absent).
    #[validate(custom(function = "pos_in_range"))]
    pub pos: Option<Pos>,
    /// The client's version, for a stamp (default 1).
    pub version: Option<i32>,
}

impl ChatPost {
    /// The input as checked: the text trimmed, a blank text absent.
    pub fn normalized(mut self) -> Self {
        self.message = self.message.map(|m| m.trim().to_string()).filter(|m| !m.is_empty());
        self
    }
}

impl Input for ChatPost {
    const FIELDS: &'static [&'static str] = &["message_type", "message", "emote_id", "pos", "version"];
}

/// `PUT /ingame/user/presence`: the game client's heartbeat — where the player is and whether
/// others may invite or join them. Sent again at least every few minutes while they play.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct PresenceUpdate {
    /// The channel they are on (1–64 of `A–Z a–z 0–9 . _ : ~ -`).
    #[validate(custom(function = "channel_code"))]
    pub channel_session_code: Option<String>,
    /// The event world they are in.
    pub world_id: Option<i32>,
    /// The https link that takes others to their instance.
    #[validate(custom(function = "checks::http_url"))]
    pub join_url: Option<String>,
    /// They take invitations.
    #[serde(default)]
    pub invitable: bool,
    /// Those they follow may join them (needs `join_url`).
    #[serde(default)]
    pub joinable: bool,
}

impl Input for PresenceUpdate {
    const FIELDS: &'static [&'static str] = &["channel_session_code", "world_id", "join_url", "invitable", "joinable"];
}

/// Longest channel code accepted, in characters.
pub const CHANNEL_MAX: usize = 64;

/// A channel code: 1–64 characters of `A–Z a–z 0–9 . _ : ~ -` (`ingame_channel`).
pub fn channel_code(value: &str) -> Result<(), validator::ValidationError> {
    let ok = (1..=CHANNEL_MAX).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"._:~-".contains(&b));
    if ok { Ok(()) } else { Err(validator::ValidationError::new("ingame_channel")) }
}
