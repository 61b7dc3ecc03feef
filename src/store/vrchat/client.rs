//! Calling VRChat's web API (`vrchat_api_base`, `https://api.vrchat.cloud/api/1`; a fake in tests
//! and the demo, `scripts/fakes/vrchat.py`): reading a user's public profile, as the service
//! account whose session cookie is configured (`vrchat_auth_cookie`). VRChat wants a User-Agent
//! naming the client; every call has the configured timeout.

use std::time::Duration;

use serde::Deserialize;

use crate::config::{Config, Secret};

/// A VRChat user id as VRChat writes it: `usr_` and a UUID in lower case, or a legacy
/// 10-character id of letters and digits — nothing else reaches a URL path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VrchatId(String);

impl VrchatId {
    /// Reads an id, or a profile link that ends in one (`https://vrchat.com/home/user/usr_…`).
    /// `None` when it is neither.
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim().trim_end_matches('/');
        let last = raw.rsplit('/').next().unwrap_or(raw);
        let last = last.split(['?', '#']).next().unwrap_or(last);
        let ok = match last.strip_prefix("usr_") {
            Some(uuid) => uuid::Uuid::try_parse(uuid).is_ok_and(|u| u.hyphenated().to_string() == uuid),
            None => last.len() == 10 && last.bytes().all(|b| b.is_ascii_alphanumeric()),
        };
        ok.then(|| Self(last.to_string()))
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A VRChat user's public profile, as far as vmarket reads it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VrchatUser {
    /// `usr_…`.
    pub id: String,
    /// The name shown in VRChat.
    pub display_name: String,
    /// Their bio.
    #[serde(default)]
    pub bio: String,
    /// Their icon (VIP users), or "".
    #[serde(default)]
    pub user_icon: String,
    /// The picture they chose, or "".
    #[serde(default)]
    pub profile_pic_override: String,
    /// Their avatar's thumbnail, or "".
    #[serde(default)]
    pub current_avatar_thumbnail_image_url: String,
}

impl VrchatUser {
    /// The picture that stands for them: their icon, else the picture they chose, else their
    /// avatar's thumbnail (VRChat's own order).
    pub fn icon(&self) -> &str {
        [&self.user_icon, &self.profile_pic_override, &self.current_avatar_thumbnail_image_url]
            .into_iter()
            .find(|s| !s.is_empty())
            .map_or("", |s| s.as_str())
    }
}

/// Why a call did not give a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VrchatError {
    /// VRChat has no such user.
    NotFound,
    /// No answer to trust: the network, a timeout, VRChat refusing our session, anything else.
    Unavailable,
}

/// A client of VRChat's API for the configured service account.
#[derive(Clone)]
pub struct VrchatClient {
    http: reqwest::Client,
    base: String,
    auth_cookie: Secret,
}

impl std::fmt::Debug for VrchatClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VrchatClient").field("base", &self.base).finish_non_exhaustive()
    }
}

impl VrchatClient {
    /// The client `config` describes; `None` without a session cookie (linking is then not
    /// offered).
    pub fn from_config(config: &Config) -> Option<Self> {
        if config.vrchat_auth_cookie.is_empty() {
            return None;
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(config.vrchat_timeout_ms.max(100)))
            .user_agent(concat!("vmarket/", env!("CARGO_PKG_VERSION"), " (account linking)"))
            .build()
            .ok()?;
        Some(Self {
            http,
            base: config.vrchat_api_base.trim_end_matches('/').to_string(),
            auth_cookie: config.vrchat_auth_cookie.clone(),
        })
    }

    /// User `id`'s profile.
    pub async fn user(&self, id: &VrchatId) -> Result<VrchatUser, VrchatError> {
        let url = format!("{}/users/{}", self.base, id.as_str());
        let sent = self
            .http
            .get(&url)
            .header(reqwest::header::COOKIE, format!("auth={}", self.auth_cookie.expose()))
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await;
        let res = match sent {
            Ok(res) => res,
            Err(e) => {
                tracing::warn!(error = %e.without_url(), "VRChat did not answer");
                return Err(VrchatError::Unavailable);
            }
        };
        match res.status().as_u16() {
            200 => {}
            404 => return Err(VrchatError::NotFound),
            status => {
                // 401: the service account's session expired — staff must sign it in again.
                tracing::warn!(status, "VRChat refused a profile read");
                return Err(VrchatError::Unavailable);
            }
        }
        let user: VrchatUser = res.json().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "VRChat's profile was not what we read");
            VrchatError::Unavailable
        })?;
        if user.id != id.as_str() {
            tracing::warn!("VRChat answered another user's profile");
            return Err(VrchatError::Unavailable);
        }
        Ok(user)
    }
}
