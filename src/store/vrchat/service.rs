//! The VRChat side's managed state: the API client (none when no service account is configured:
//! linking is then not offered), the limit on profile reads per user (each proof step reads
//! VRChat once; a user cannot make vmarket hammer VRChat), where users edit their bio — and a
//! user's standing as the API and the page both show it ([`Vrchat::state`]).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::http::limit::Limiter;
use crate::store::vrchat::client::VrchatClient;
use crate::store::vrchat::link::{self, ChallengeView, LinkView};

/// Profile reads one user may cause per minute.
pub const READS_PER_MINUTE: u32 = 10;

/// Where a user stands, as the API answers it and `/mypage/vrchat` shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VrchatLink {
    /// Whether this site links VRChat accounts at all.
    pub offered: bool,
    /// The linked account.
    pub link: Option<LinkView>,
    /// A proof under way.
    pub challenge: Option<ChallengeView>,
    /// Where the user edits that account's bio (with a proof under way).
    pub edit_bio_url: Option<String>,
}

/// Managed state of the VRChat side.
pub struct Vrchat {
    client: Option<VrchatClient>,
    reads: Limiter<i32>,
    profile_url: String,
}

impl Vrchat {
    /// As `config` says.
    pub fn new(config: &Config, db: &DatabaseConnection) -> Self {
        Self {
            client: VrchatClient::from_config(config),
            reads: Limiter::per_minute(db, "vrchat_reads", READS_PER_MINUTE),
            profile_url: config.vrchat_profile_url.clone(),
        }
    }

    /// Whether linking is offered.
    pub fn offered(&self) -> bool {
        self.client.is_some()
    }

    /// The client, for one more profile read by `user_id`: 501 when linking is not offered, 429
    /// past the limit.
    pub async fn client_for(&self, user_id: i32) -> Result<&VrchatClient> {
        let client = self.client.as_ref().ok_or(Error::NotImplemented)?;
        self.reads.check(&user_id).await?;
        Ok(client)
    }

    /// Where the owner of VRChat account `vrchat_id` edits their bio.
    pub fn profile_url(&self, vrchat_id: &str) -> String {
        self.profile_url.replace("{id}", vrchat_id)
    }

    /// Where `user_id` stands at `now`: linked, proving (with where to edit the bio), or neither.
    pub async fn state(&self, db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<VrchatLink> {
        let state = link::state(db, user_id, now).await?;
        Ok(VrchatLink {
            offered: self.offered(),
            edit_bio_url: state.challenge.as_ref().map(|c| self.profile_url(&c.vrchat_id)),
            link: state.link,
            challenge: state.challenge,
        })
    }
}
