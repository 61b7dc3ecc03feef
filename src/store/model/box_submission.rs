//! Box submissions (`box_submissions`, issue 31): a user's avatar submitted for display, and
//! staff's review of it (ASSETS.md "The store and conversions").
//!
//! - Its owner writes a draft ([`create`], [`change`]) from one of their uploaded `avatar`
//!   assets — the asset's newest uploaded version is what is submitted — sends it for review
//!   ([`submit`]: `not_published` or `review_rejected` → `in_review`) and may discard a draft or
//!   a rejected one ([`discard`]), which frees its place.
//! - Staff decide ([`review`]): `in_review` → `review_approved`, or `review_rejected` with a
//!   reason (each verdict kept in `box_submission_reviews`); `review_approved` → `published`.
//! - **At most the limit per user** (the setting `box_submission_limit`, by default
//!   [`crate::config::settings::DEFAULT_BOX_SUBMISSION_LIMIT`]): each submission takes one of the user's numbered places
//!   (`slot`, 1 to the limit), unique per user; the insert is the check, so parallel creates
//!   never store more. A limit lowered later keeps what users hold and takes no new ones above
//!   it.
//!
//! Every change of status is a compare-and-set on the status it leaves, so two requests (or a
//! staff verdict and an owner's edit) never both apply.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, SqlErr,
    TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::box_submission::{self, BoxStatus};
use crate::db::entities::box_submission_review::{self, ReviewResult};
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};
use crate::forms::box_submission::BoxSubmissionFields;

/// The asset setting whose uploads may be submitted.
pub const SETTING: &str = "avatar";

/// The statuses its owner may still edit, send or discard.
const OWNER_EDITS: [BoxStatus; 2] = [BoxStatus::NotPublished, BoxStatus::ReviewRejected];

/// A box submission as its owner (and the API) sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoxSubmissionView {
    /// Its public id.
    pub uuid: String,
    /// `not_published`, `in_review`, `review_approved`, `published` or `review_rejected`.
    pub status: BoxStatus,
    /// The avatar asset.
    pub asset_id: i32,
    /// The version submitted.
    pub asset_version_id: i32,
    /// Its file's name.
    pub file_name: String,
    /// Whether the version submitted is still the asset's newest upload (else saving again
    /// submits the newer one).
    pub newest: bool,
    /// 1–4.
    pub pose_id: i32,
    /// 1–4.
    pub face_id: i32,
    /// Name.
    pub name: String,
    /// Author.
    pub author: String,
    /// Website ("" when none).
    pub website: String,
    /// Comment.
    pub comment: String,
    /// Why staff last rejected it.
    pub rejected_reason: Option<String>,
    /// When it was last sent for review.
    pub submitted_at: Option<DateTime<Utc>>,
    /// When it went on display.
    pub published_at: Option<DateTime<Utc>>,
    /// Whether its owner may edit, send or discard it now.
    pub editable: bool,
    /// The submitted model's picture (320 px), when its upload made one (spec §3 `thumbnailUrl`).
    pub thumbnail_url: Option<String>,
}

/// A user's submissions with the limit (spec §3 `submissionLimitAmount`, `submissionCount`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoxSubmissionList {
    /// Their submissions, oldest first.
    pub data: Vec<BoxSubmissionView>,
    /// How many they may hold.
    pub submission_limit_amount: i32,
    /// How many they hold.
    pub submission_count: i32,
}

/// Views of `rows` (one query for their versions).
pub async fn views(db: &impl ConnectionTrait, rows: Vec<box_submission::Model>) -> Result<Vec<BoxSubmissionView>> {
    let versions: std::collections::HashMap<i32, asset_version::Model> = asset_version::Entity::find()
        .filter(asset_version::Column::AssetId.is_in(rows.iter().map(|r| r.asset_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    let newest_of = |asset_id: i32| {
        versions
            .values()
            .filter(|v| v.asset_id == asset_id && v.upload_status == asset_version::UploadStatus::Uploaded)
            .map(|v| v.id)
            .max()
    };
    Ok(rows
        .into_iter()
        .map(|r| BoxSubmissionView {
            file_name: versions.get(&r.asset_version_id).map(|v| v.file_name.clone()).unwrap_or_default(),
            thumbnail_url: versions
                .get(&r.asset_version_id)
                .and_then(|v| v.thumbnail_key.as_ref())
                .map(|prefix| format!("/media/{prefix}/320.png")),
            newest: newest_of(r.asset_id) == Some(r.asset_version_id),
            editable: OWNER_EDITS.contains(&r.status),
            uuid: r.uuid,
            status: r.status,
            asset_id: r.asset_id,
            asset_version_id: r.asset_version_id,
            pose_id: r.pose_id,
            face_id: r.face_id,
            name: r.name,
            author: r.author,
            website: r.website,
            comment: r.comment,
            rejected_reason: r.rejected_reason,
            submitted_at: r.submitted_at,
            published_at: r.published_at,
        })
        .collect())
}

/// How many published boxes the public page shows (the newest).
pub const PUBLISHED_SHOWN: u64 = 120;

/// The boxes on display, newest first (at most [`PUBLISHED_SHOWN`]).
pub async fn published(db: &impl ConnectionTrait) -> Result<Vec<box_submission::Model>> {
    Ok(box_submission::Entity::find()
        .filter(box_submission::Column::Status.eq(BoxStatus::Published))
        .order_by_desc(box_submission::Column::PublishedAt)
        .order_by_desc(box_submission::Column::Id)
        .limit(PUBLISHED_SHOWN)
        .all(db)
        .await?)
}

/// `user_id`'s submissions, oldest first.
pub async fn of_user(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<box_submission::Model>> {
    Ok(box_submission::Entity::find()
        .filter(box_submission::Column::UserId.eq(user_id))
        .order_by_asc(box_submission::Column::Id)
        .all(db)
        .await?)
}

/// `user_id`'s list with the `limit` in force.
pub async fn list(db: &impl ConnectionTrait, user_id: i32, limit: i32) -> Result<BoxSubmissionList> {
    let data = views(db, of_user(db, user_id).await?).await?;
    let submission_count = i32::try_from(data.len()).unwrap_or(i32::MAX);
    Ok(BoxSubmissionList { data, submission_limit_amount: limit, submission_count })
}

/// `user_id`'s submission `uuid` (404 for anyone else's).
pub async fn of_owner(db: &impl ConnectionTrait, user_id: i32, uuid: &str) -> Result<box_submission::Model> {
    box_submission::Entity::find()
        .filter(box_submission::Column::Uuid.eq(uuid))
        .filter(box_submission::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)
}

/// The newest uploaded version of `user_id`'s avatar asset `asset_id`: someone else's (or a
/// deleted one) is 404, another kind 422 on `asset_id`, one without a finished upload 409
/// `asset_not_uploaded`.
pub async fn avatar_version(db: &impl ConnectionTrait, user_id: i32, asset_id: i32) -> Result<asset_version::Model> {
    let found = asset::Model::for_owner(db, asset_id, user_id).await?;
    if found.deleted {
        return Err(Error::not_found());
    }
    let setting = asset_setting::Model::by_id(db, found.asset_setting_id).await?;
    if setting.label != SETTING {
        return Err(Error::invalid("asset_id", "validation.not_an_avatar"));
    }
    asset_version::Model::newest_uploaded(db, &found).await
}

/// `user_id`'s avatars with a finished upload, as (asset id, name), newest first: what the form
/// offers.
pub async fn avatars(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<(i32, String)>> {
    let Some(setting) = asset_setting::Entity::find().filter(asset_setting::Column::Label.eq(SETTING)).one(db).await?
    else {
        return Ok(Vec::new());
    };
    let assets = asset::Entity::find()
        .filter(asset::Column::UserId.eq(user_id))
        .filter(asset::Column::AssetSettingId.eq(setting.id))
        .filter(asset::Column::Deleted.eq(false))
        .order_by_desc(asset::Column::Id)
        .all(db)
        .await?;
    let uploaded: std::collections::HashSet<i32> = asset_version::Entity::find()
        .filter(asset_version::Column::AssetId.is_in(assets.iter().map(|a| a.id)))
        .filter(asset_version::Column::UploadStatus.eq(asset_version::UploadStatus::Uploaded))
        .all(db)
        .await?
        .into_iter()
        .map(|v| v.asset_id)
        .collect();
    Ok(assets.into_iter().filter(|a| uploaded.contains(&a.id)).map(|a| (a.id, a.name)).collect())
}

/// A new draft of `user_id` from `fields`. 409 `submission_limit_reached` when they hold `limit`
/// already.
pub async fn create(
    db: &impl ConnectionTrait,
    user_id: i32,
    fields: &BoxSubmissionFields,
    limit: i32,
    now: DateTime<Utc>,
) -> Result<box_submission::Model> {
    let version = avatar_version(db, user_id, fields.asset_id).await?;
    // The free place with the lowest number; a request that loses the race for it tries the
    // next. The unique (user, slot) key is the check: never more than the limit.
    for _ in 0..limit {
        let taken: Vec<i32> = of_user(db, user_id).await?.iter().map(|s| s.slot).collect();
        let Some(slot) = (1..=limit).find(|n| !taken.contains(n)) else {
            break;
        };
        let row = box_submission::ActiveModel {
            uuid: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id),
            slot: Set(slot),
            asset_id: Set(fields.asset_id),
            asset_version_id: Set(version.id),
            pose_id: Set(fields.pose_id),
            face_id: Set(fields.face_id),
            name: Set(fields.name.clone()),
            author: Set(fields.author.clone()),
            website: Set(fields.website.clone()),
            comment: Set(fields.comment.clone()),
            status: Set(BoxStatus::NotPublished),
            rejected_reason: Set(None),
            submitted_at: Set(None),
            reviewed_at: Set(None),
            reviewed_by: Set(None),
            published_at: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        match row.insert(db).await {
            Ok(made) => return Ok(made),
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Error::Conflict { code: "submission_limit_reached" })
}

/// Changes `row` after `fields` (its owner's; the asset's newest upload is submitted). 409
/// `submission_locked` while staff review it or after it was approved.
pub async fn change(
    db: &impl ConnectionTrait,
    row: &box_submission::Model,
    fields: &BoxSubmissionFields,
    now: DateTime<Utc>,
) -> Result<box_submission::Model> {
    let version = avatar_version(db, row.user_id, fields.asset_id).await?;
    let done = box_submission::Entity::update_many()
        .col_expr(box_submission::Column::AssetId, Expr::value(fields.asset_id))
        .col_expr(box_submission::Column::AssetVersionId, Expr::value(version.id))
        .col_expr(box_submission::Column::PoseId, Expr::value(fields.pose_id))
        .col_expr(box_submission::Column::FaceId, Expr::value(fields.face_id))
        .col_expr(box_submission::Column::Name, Expr::value(fields.name.clone()))
        .col_expr(box_submission::Column::Author, Expr::value(fields.author.clone()))
        .col_expr(box_submission::Column::Website, Expr::value(fields.website.clone()))
        .col_expr(box_submission::Column::Comment, Expr::value(fields.comment.clone()))
        .col_expr(box_submission::Column::UpdatedAt, Expr::value(now))
        .filter(box_submission::Column::Id.eq(row.id))
        .filter(box_submission::Column::Status.is_in(OWNER_EDITS))
        .exec(db)
        .await?;
    owner_may(done.rows_affected)?;
    reload(db, row.id).await
}

/// Sends `row` for review (`not_published` or `review_rejected` → `in_review`). 409
/// `submission_locked` otherwise.
pub async fn submit(
    db: &impl ConnectionTrait,
    row: &box_submission::Model,
    now: DateTime<Utc>,
) -> Result<box_submission::Model> {
    let done = box_submission::Entity::update_many()
        .col_expr(box_submission::Column::Status, Expr::value(BoxStatus::InReview))
        .col_expr(box_submission::Column::SubmittedAt, Expr::value(now))
        .col_expr(box_submission::Column::UpdatedAt, Expr::value(now))
        .filter(box_submission::Column::Id.eq(row.id))
        .filter(box_submission::Column::Status.is_in(OWNER_EDITS))
        .exec(db)
        .await?;
    owner_may(done.rows_affected)?;
    reload(db, row.id).await
}

/// Removes `row` (a draft or a rejected one), freeing its place. 409 `submission_locked`
/// otherwise.
pub async fn discard(db: &(impl ConnectionTrait + TransactionTrait), row: &box_submission::Model) -> Result<()> {
    // One transaction: its reviews go with it, or nothing goes (a send that came first wins).
    let txn = crate::db::begin_write(db).await?;
    box_submission_review::Entity::delete_many()
        .filter(box_submission_review::Column::SubmissionId.eq(row.id))
        .exec(&txn)
        .await?;
    let done = box_submission::Entity::delete_many()
        .filter(box_submission::Column::Id.eq(row.id))
        .filter(box_submission::Column::Status.is_in(OWNER_EDITS))
        .exec(&txn)
        .await?;
    if let Err(locked) = owner_may(done.rows_affected) {
        txn.rollback().await?;
        return Err(locked);
    }
    txn.commit().await?;
    Ok(())
}

/// What staff decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// `in_review` → `review_approved`.
    Approve,
    /// `in_review` → `review_rejected`, with the reason its owner reads.
    Reject(String),
    /// `review_approved` → `published`.
    Publish,
}

/// Applies staff member `staff_id`'s `decision` to submission `id` inside `txn` (with the
/// review row). 409 `invalid_transition` when the submission is not where the decision starts.
pub async fn review(
    txn: &impl ConnectionTrait,
    id: i32,
    decision: &Decision,
    staff_id: i32,
    now: DateTime<Utc>,
) -> Result<box_submission::Model> {
    let (from, to) = match decision {
        Decision::Approve => (BoxStatus::InReview, BoxStatus::ReviewApproved),
        Decision::Reject(_) => (BoxStatus::InReview, BoxStatus::ReviewRejected),
        Decision::Publish => (BoxStatus::ReviewApproved, BoxStatus::Published),
    };
    let mut update = box_submission::Entity::update_many()
        .col_expr(box_submission::Column::Status, Expr::value(to))
        .col_expr(box_submission::Column::UpdatedAt, Expr::value(now));
    update = match decision {
        Decision::Publish => update.col_expr(box_submission::Column::PublishedAt, Expr::value(now)),
        Decision::Approve | Decision::Reject(_) => update
            .col_expr(box_submission::Column::ReviewedAt, Expr::value(now))
            .col_expr(box_submission::Column::ReviewedBy, Expr::value(staff_id))
            .col_expr(
                box_submission::Column::RejectedReason,
                Expr::value(match decision {
                    Decision::Reject(reason) => Some(reason.clone()),
                    _ => None,
                }),
            ),
    };
    let done = update
        .filter(box_submission::Column::Id.eq(id))
        .filter(box_submission::Column::Status.eq(from))
        .exec(txn)
        .await?;
    if done.rows_affected == 0 {
        return Err(Error::Conflict { code: "invalid_transition" });
    }
    let result = match decision {
        Decision::Approve => Some((ReviewResult::Approved, None)),
        Decision::Reject(reason) => Some((ReviewResult::Rejected, Some(reason.clone()))),
        Decision::Publish => None,
    };
    if let Some((result, rejected_reason)) = result {
        box_submission_review::ActiveModel {
            submission_id: Set(id),
            reviewer_id: Set(staff_id),
            result: Set(result),
            rejected_reason: Set(rejected_reason),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(txn)
        .await?;
    }
    reload(txn, id).await
}

/// An owner's compare-and-set that changed no row found the submission where its owner may no
/// longer act: 409 `submission_locked`.
fn owner_may(rows_affected: u64) -> Result<()> {
    if rows_affected == 0 { Err(Error::Conflict { code: "submission_locked" }) } else { Ok(()) }
}

async fn reload(db: &impl ConnectionTrait, id: i32) -> Result<box_submission::Model> {
    box_submission::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Error::Internal("a box submission vanished".into()))
}
