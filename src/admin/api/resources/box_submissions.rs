//! `box_submissions`: users' avatars submitted for display in a box (issue 31), for the staff who
//! review them. Staff see the submitted version (its file and the uploader's report through
//! `asset_versions`; the model itself at `GET /admin/api/box_submissions/{id}/file`, which the
//! console draws in 3-D) and decide by setting its status — `PUT {"status": "review_approved" |
//! "review_rejected" | "published", "rejected_reason": "…"}`: `in_review` → `review_approved`,
//! or `review_rejected` with a reason (required); `review_approved` → `published`. Anything else is 409
//! `invalid_transition`. The owner is mailed each verdict in their language; every decision is
//! audited like any console write.
//!
//! Filters: `status`, `user_id`; `q` finds a name or an author.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::json;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::box_submission::{self, BoxStatus};
use crate::db::entities::{asset_version, user};
use crate::error::{Error, Result};
use crate::jobs::follow_up::FollowUp;
use crate::mail::{MailKind, Outgoing};
use crate::store::model::box_submission::{Decision, review};

/// The resource.
pub struct BoxSubmissions;

/// A submission as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct BoxSubmissionRecord {
    /// Id.
    pub id: i32,
    /// Its public id.
    pub uuid: String,
    /// Who submitted it.
    pub user_id: i32,
    /// Where it stands.
    pub status: BoxStatus,
    /// The avatar's name on the box.
    pub name: String,
    /// Its author.
    pub author: String,
    /// Their site (none when not given).
    pub website: Option<String>,
    /// Their comment.
    pub comment: String,
    /// 1–4 (standing, sitting, waving, peace).
    pub pose_id: i32,
    /// 1–4 (smile, calm, wink, surprised).
    pub face_id: i32,
    /// The version submitted (console `asset_versions`: its report and file).
    pub asset_version_id: i32,
    /// Its file's name.
    pub file_name: String,
    /// Why it was last rejected.
    pub rejected_reason: Option<String>,
    /// Sent for review.
    pub submitted_at: Option<DateTime<Utc>>,
    /// Last decided.
    pub reviewed_at: Option<DateTime<Utc>>,
    /// By whom.
    pub reviewed_by: Option<i32>,
    /// Put on display.
    pub published_at: Option<DateTime<Utc>>,
}

/// Staff's decision.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ReviewInput {
    /// `review_approved`, `review_rejected` or `published`.
    pub status: Option<BoxStatus>,
    /// Why (required to reject; the owner reads it), up to 1000 characters.
    #[validate(length(max = 1000, code = "too_long"))]
    pub rejected_reason: Option<String>,
}

impl Resource for BoxSubmissions {
    type Entity = box_submission::Entity;
    type Record = BoxSubmissionRecord;
    type Input = ReviewInput;

    const NAME: &'static str = "box_submissions";
    const AREA: Area = Area::Exhibitors;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["id", "submitted_at", "reviewed_at"],
        filter: &["status", "user_id"],
        search: &["name", "author"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<box_submission::Model>,
    ) -> Result<Vec<BoxSubmissionRecord>> {
        let versions: std::collections::HashMap<i32, asset_version::Model> = asset_version::Entity::find()
            .filter(asset_version::Column::Id.is_in(rows.iter().map(|r| r.asset_version_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|v| (v.id, v))
            .collect();
        Ok(rows
            .into_iter()
            .map(|r| {
                let version = versions.get(&r.asset_version_id);
                BoxSubmissionRecord {
                    file_name: version.map(|v| v.file_name.clone()).unwrap_or_default(),
                    id: r.id,
                    uuid: r.uuid,
                    user_id: r.user_id,
                    status: r.status,
                    name: r.name,
                    author: r.author,
                    website: Some(r.website).filter(|w| !w.is_empty()),
                    comment: r.comment,
                    pose_id: r.pose_id,
                    face_id: r.face_id,
                    asset_version_id: r.asset_version_id,
                    rejected_reason: r.rejected_reason,
                    submitted_at: r.submitted_at,
                    reviewed_at: r.reviewed_at,
                    reviewed_by: r.reviewed_by,
                    published_at: r.published_at,
                }
            })
            .collect())
    }

    /// The model submitted: the version the submission names (the console previews it in 3-D).
    async fn file(row: box_submission::Model, cx: &Cx<'_>) -> Result<asset_version::Model> {
        asset_version::Entity::find_by_id(row.asset_version_id).one(cx.db).await?.ok_or_else(Error::not_found)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: box_submission::Model,
        input: ReviewInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let reason = input.rejected_reason.as_deref().map(str::trim).unwrap_or_default();
        let decision = match input.status {
            Some(BoxStatus::ReviewApproved) => Decision::Approve,
            Some(BoxStatus::Published) => Decision::Publish,
            Some(BoxStatus::ReviewRejected) if reason.is_empty() => {
                return Err(Error::invalid("rejected_reason", "validation.required"));
            }
            Some(BoxStatus::ReviewRejected) => Decision::Reject(reason.to_string()),
            Some(BoxStatus::NotPublished | BoxStatus::InReview) => {
                return Err(Error::invalid("status", "validation.invalid_choice"));
            }
            None => return Err(Error::invalid("status", "validation.required")),
        };
        let decided = review(txn, row.id, &decision, cx.staff.id, cx.now).await?;
        if let Some(mail) = verdict_mail(txn, &decided, &decision).await? {
            cx.after_commit([FollowUp::Mail(cx.mailer.queue(txn, &mail, cx.now).await?)]);
        }
        Ok(())
    }
}

/// The mail telling `row`'s owner staff's `decision`, in their language (none without an
/// address).
async fn verdict_mail(
    db: &impl ConnectionTrait,
    row: &box_submission::Model,
    decision: &Decision,
) -> Result<Option<Outgoing>> {
    let Some(owner) = user::Entity::find_by_id(row.user_id).one(db).await? else { return Ok(None) };
    let Some((email, lang)) = owner.mail_to() else { return Ok(None) };
    let (outcome, reason) = match decision {
        Decision::Approve => ("approved", None),
        Decision::Reject(reason) => ("rejected", Some(reason.as_str())),
        Decision::Publish => ("published", None),
    };
    let context = json!({
        "recipient_name": owner.name(lang),
        "name": row.name,
        "outcome": outcome,
        "reason": reason,
        "path": format!("{}/mypage/box-submissions", lang.prefix()),
    });
    Ok(Some(Outgoing { to: email.to_string(), lang, kind: MailKind::BoxSubmissionReviewed, context }))
}
