//! `streamers`: users as the hub sees them, with their attribute (spec §3: a certificated
//! streamer). Event staff certify a user as a streamer or take it back; nothing else about a
//! user changes here (roles are the `users` resource's, for admins). The list shows handles and
//! names only, no email. `filter={"attribute":"certificated_streamer"}` lists the streamers.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::user;
use crate::error::Result;
use crate::model::user::UserAttribute;

/// The resource.
pub struct Streamers;

/// A user as the hub's staff see them.
#[derive(Debug, Clone, Serialize)]
pub struct StreamerRecord {
    /// User id.
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Icon (64 px), if any.
    pub icon: Option<String>,
    /// Their attribute.
    pub attribute: UserAttribute,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

/// What staff change: the attribute.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct StreamerInput {
    /// `certificated_streamer`, or `none` to take it back.
    #[validate(required)]
    pub attribute: Option<UserAttribute>,
}

impl Resource for Streamers {
    type Entity = user::Entity;
    type Record = StreamerRecord;
    type Input = StreamerInput;

    const NAME: &'static str = "streamers";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["vmarket_id", "attribute", "updated_at"],
        filter: &["attribute", "vmarket_id"],
        search: &["vmarket_id", "name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<user::Model>) -> Result<Vec<StreamerRecord>> {
        Ok(rows
            .into_iter()
            .map(|u| StreamerRecord {
                icon: u.icon().small,
                id: u.id,
                vmarket_id: u.vmarket_id,
                name_ja: u.name_ja,
                name_en: u.name_en,
                attribute: u.attribute,
                updated_at: u.updated_at,
            })
            .collect())
    }

    async fn update(txn: &DatabaseTransaction, row: user::Model, input: StreamerInput, cx: &Cx<'_>) -> Result<()> {
        let attribute = input.attribute.unwrap_or(row.attribute);
        if attribute != row.attribute {
            let mut row: user::ActiveModel = row.into();
            row.attribute = Set(attribute);
            row.updated_at = Set(cx.acted_at());
            row.update(txn).await?;
        }
        Ok(())
    }
}
