//! `vrchat_avatars`: users' VRChat avatars (issue 31), for the staff who answer their owners and
//! watch the converters: status, uploads left, the worker holding a step and until when, why a
//! step failed. Read only: avatars move by their orders, their owners and the converter
//! protocol (`crate::store::api::converter`), never by hand.
//!
//! Filters: `user_id`, `status`; `q` finds a name or a VRChat avatar id.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Serialize;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::{NoInput, Resource};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::vrchat_avatar::{self, VrcAvatarStatus};
use crate::error::Result;

/// The resource.
pub struct VrchatAvatars;

/// An avatar as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct VrchatAvatarRecord {
    /// Id.
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    /// Its owner.
    pub user_id: i32,
    /// The avatar asset and the version converted.
    pub asset_id: i32,
    /// The avatar version converted.
    pub asset_version_id: i32,
    /// Its name on VRChat.
    pub avatar_name: String,
    /// Where it stands.
    pub status: VrcAvatarStatus,
    /// Uploads to VRChat still paid for.
    pub remaining_uploads: i32,
    /// The worker's progress on the step under way, 0–100.
    pub progress: i32,
    /// The worker's note on that step.
    pub progress_note: Option<String>,
    /// The worker holding the step under way, and until when.
    pub worker: Option<String>,
    /// Until when that worker holds it.
    pub lease_until: Option<DateTime<Utc>>,
    /// Steps begun.
    pub attempts: i32,
    /// The converted file's size in bytes, once converted.
    pub result_bytes: Option<i64>,
    /// Its id on VRChat, once uploaded (orders: the avatar it made or converts again).
    pub vrchat_avatar_id: Option<String>,
    /// Why the last step failed: a short code.
    pub failure_code: Option<String>,
    /// … and the worker's words.
    pub failure_message: Option<String>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl Resource for VrchatAvatars {
    type Entity = vrchat_avatar::Entity;
    type Record = VrchatAvatarRecord;
    type Input = NoInput;

    const NAME: &'static str = "vrchat_avatars";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show];
    const COLUMNS: Columns = Columns {
        sort: &["id", "updated_at", "status"],
        filter: &["user_id", "status"],
        search: &["avatar_name", "vrchat_avatar_id"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<vrchat_avatar::Model>,
    ) -> Result<Vec<VrchatAvatarRecord>> {
        Ok(rows
            .into_iter()
            .map(|a| VrchatAvatarRecord {
                id: a.id,
                uuid: a.uuid,
                user_id: a.user_id,
                asset_id: a.asset_id,
                asset_version_id: a.asset_version_id,
                avatar_name: a.avatar_name,
                status: a.status,
                remaining_uploads: a.remaining_uploads,
                progress: a.progress,
                progress_note: a.progress_note,
                worker: a.worker,
                lease_until: a.lease_until,
                attempts: a.attempts,
                result_bytes: a.result_bytes,
                vrchat_avatar_id: a.vrchat_avatar_id,
                failure_code: a.failure_code,
                failure_message: a.failure_message,
                created_at: a.created_at,
                updated_at: a.updated_at,
            })
            .collect())
    }
}
