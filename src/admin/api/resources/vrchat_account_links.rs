//! `vrchat_account_links`: users' linked VRChat accounts (issue 31), for staff who help with
//! them. Staff read them and may remove one — a user who lost their vmarket account and proves
//! the VRChat account theirs again, an account linked by mistake — which frees the VRChat
//! account for another link; every removal is audited like any console write. Links are made
//! only by their users (the code in the bio).
//!
//! Filters: `user_id`; `q` finds a VRChat id or display name.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::vrchat_account_link;
use crate::error::Result;

/// The resource.
pub struct VrchatAccountLinks;

/// A link as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct VrchatAccountLinkRecord {
    /// Id.
    pub id: i32,
    /// The vmarket user.
    pub user_id: i32,
    /// The VRChat account.
    pub vrchat_id: String,
    /// Its display name.
    pub display_name: String,
    /// Its icon's URL.
    pub user_icon: String,
    /// Its bio when read.
    pub bio: String,
    /// Linked.
    pub linked_at: DateTime<Utc>,
}

/// Nothing is written through the console but removals.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
pub struct NoInput {}

impl Resource for VrchatAccountLinks {
    type Entity = vrchat_account_link::Entity;
    type Record = VrchatAccountLinkRecord;
    type Input = NoInput;

    const NAME: &'static str = "vrchat_account_links";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show, Action::Delete];
    const COLUMNS: Columns = Columns {
        sort: &["id", "linked_at"],
        filter: &["user_id"],
        search: &["vrchat_id", "display_name"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<vrchat_account_link::Model>,
    ) -> Result<Vec<VrchatAccountLinkRecord>> {
        Ok(rows
            .into_iter()
            .map(|l| VrchatAccountLinkRecord {
                id: l.id,
                user_id: l.user_id,
                vrchat_id: l.vrchat_id,
                display_name: l.display_name,
                user_icon: l.user_icon,
                bio: l.bio,
                linked_at: l.linked_at,
            })
            .collect())
    }
}
