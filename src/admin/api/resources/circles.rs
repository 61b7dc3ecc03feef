//! `circles`: every circle with its owner and member count. Staff change one thing: its
//! suspension (DOMAIN.md "Circles": a suspended circle keeps its data and is read-only for its
//! members). Suspending takes a reason (`suspension_reason`, 422 without one), which the owner is
//! mailed in their language and sees on the circle's pages; lifting (`is_suspended: false`)
//! clears it and mails the owner too (both on the edit page: no bulk action takes a reason).
//! Each is an audited write through [`circle::Model::set_suspended`], which locks the row as
//! every circle change does.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QuerySelect};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{circle, circle_member, user};
use crate::error::{Error, Result};
use crate::forms::checks;
use crate::jobs::follow_up::FollowUp;
use crate::mail::{MailKind, Outgoing};

/// The resource.
pub struct Circles;

/// A circle as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct CircleRecord {
    /// Circle id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// The thumbnail shown (its largest version).
    pub thumbnail: Option<String>,
    /// The circle's website.
    pub website_link: Option<String>,
    /// Suspended by staff.
    pub is_suspended: bool,
    /// Why (while suspended).
    pub suspension_reason: Option<String>,
    /// The owner's user id.
    pub owner_user_id: Option<i32>,
    /// The owner's handle.
    pub owner_vmarket_id: Option<String>,
    /// Members, the owner included.
    pub member_count: u64,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff change on a circle.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct CircleInput {
    /// Suspend (`true`) or lift the suspension (`false`).
    #[validate(required)]
    pub is_suspended: Option<bool>,
    /// Why, shown and mailed to the owner: required to suspend.
    #[serde(deserialize_with = "blank")]
    #[validate(length(max = 500), custom(function = "checks::clean_text"))]
    pub suspension_reason: Option<String>,
}

impl Resource for Circles {
    type Entity = circle::Entity;
    type Record = CircleRecord;
    type Input = CircleInput;

    const NAME: &'static str = "circles";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["name_ja", "name_en", "is_suspended", "created_at", "updated_at"],
        filter: &["is_suspended", "owner_user_id", "created_at"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    fn reason(input: &CircleInput) -> Option<String> {
        input.suspension_reason.clone().filter(|_| input.is_suspended == Some(true))
    }

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<circle::Model>) -> Result<Vec<CircleRecord>> {
        let ids: Vec<i32> = rows.iter().map(|c| c.id).collect();
        let owner_ids: Vec<i32> = rows.iter().filter_map(|c| c.owner_user_id).collect();
        let owners: HashMap<i32, String> = user::Entity::find()
            .filter(user::Column::Id.is_in(owner_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u.vmarket_id))
            .collect();
        let counts: HashMap<i32, i64> = circle_member::Entity::find()
            .select_only()
            .column(circle_member::Column::CircleId)
            .column_as(circle_member::Column::Id.count(), "members")
            .filter(circle_member::Column::CircleId.is_in(ids))
            .group_by(circle_member::Column::CircleId)
            .into_tuple::<(i32, i64)>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        Ok(rows
            .into_iter()
            .map(|c| CircleRecord {
                owner_vmarket_id: c.owner_user_id.and_then(|id| owners.get(&id).cloned()),
                member_count: counts.get(&c.id).copied().unwrap_or(0).try_into().unwrap_or(0),
                id: c.id,
                name_ja: c.name_ja,
                name_en: c.name_en,
                description_ja: c.description_ja,
                description_en: c.description_en,
                thumbnail: c.thumbnail,
                website_link: c.website_link,
                is_suspended: c.is_suspended,
                suspension_reason: c.suspension_reason,
                owner_user_id: c.owner_user_id,
                created_at: c.created_at,
                updated_at: c.updated_at,
            })
            .collect())
    }

    async fn update(txn: &DatabaseTransaction, row: circle::Model, input: CircleInput, cx: &Cx<'_>) -> Result<()> {
        let reason = match input.is_suspended.unwrap_or(row.is_suspended) {
            true => Some(
                input
                    .suspension_reason
                    .as_deref()
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .ok_or_else(|| Error::invalid("suspension_reason", "validation.required"))?,
            ),
            false => None,
        };
        let (before, after) = circle::Model::set_suspended(txn, row.id, reason, cx.acted_at()).await?;
        if before.is_suspended != after.is_suspended
            && let Some(mail) = suspension_mail(txn, &after).await?
        {
            cx.after_commit([FollowUp::Mail(cx.mailer.queue(txn, &mail, cx.now).await?)]);
        }
        Ok(())
    }
}

/// The mail telling `circle`'s owner it was suspended (and why) or that the suspension was lifted,
/// in their language (none without an owner or an address).
async fn suspension_mail(db: &impl ConnectionTrait, circle: &circle::Model) -> Result<Option<Outgoing>> {
    let owner = match circle.owner_user_id {
        Some(id) => user::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    let Some(owner) = owner else { return Ok(None) };
    let Some((email, lang)) = owner.mail_to() else { return Ok(None) };
    let context = json!({
        "recipient_name": owner.name(lang),
        "circle_name": circle.name(lang),
        "suspended": circle.is_suspended,
        "reason": circle.suspension_reason,
        "path": format!("{}/mypage/circle/{}/members", lang.prefix(), circle.id),
    });
    Ok(Some(Outgoing { to: email.to_string(), lang, kind: MailKind::CircleSuspended, context }))
}
