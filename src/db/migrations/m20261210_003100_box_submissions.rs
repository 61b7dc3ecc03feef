//! Box submissions (issue 31, spec §3 "Box submission", ASSETS.md "The store and conversions"):
//! a user's avatar (one uploaded version of their `avatar` asset) submitted for display with a
//! pose, a face, a name, an author, a website and a comment, reviewed by staff.
//!
//! - `box_submissions`: `status` `not_published → in_review → review_approved → published`, or
//!   `in_review → review_rejected` (with `rejected_reason`) → edited → `in_review` again.
//!   **At most `submission_limit_amount` per user**: each submission takes one of the user's
//!   numbered `slot`s (1…limit), and (user, slot) is unique, so however many requests race the
//!   database stores no more than the limit. A discarded draft frees its slot.
//! - `box_submission_reviews`: every verdict staff gave (approved, or rejected with the reason).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::db::migrations::statements::{fk, index};

/// Creates the tables above.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("box_submissions")
                .col(pk_auto("id"))
                .col(string_len("uuid", 36))
                .col(integer("user_id"))
                .col(integer("slot"))
                .col(integer("asset_id"))
                .col(integer("asset_version_id"))
                .col(integer("pose_id"))
                .col(integer("face_id"))
                .col(string_len("name", 64))
                .col(string_len("author", 64))
                .col(string_len("website", 255))
                .col(text("comment"))
                .col(string_len("status", 24))
                .col(text_null("rejected_reason"))
                .col(timestamp_with_time_zone_null("submitted_at"))
                .col(timestamp_with_time_zone_null("reviewed_at"))
                .col(integer_null("reviewed_by"))
                .col(timestamp_with_time_zone_null("published_at"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("box_submissions", "user_id", "users"))
                .foreign_key(&mut fk("box_submissions", "asset_id", "assets"))
                .foreign_key(&mut fk("box_submissions", "asset_version_id", "asset_versions"))
                .foreign_key(&mut fk("box_submissions", "reviewed_by", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("box_submissions", &["uuid"]).unique().take()).await?;
        m.create_index(index("box_submissions", &["user_id", "slot"]).unique().take()).await?;
        m.create_index(index("box_submissions", &["status"])).await?;
        m.create_table(
            Table::create()
                .table("box_submission_reviews")
                .col(pk_auto("id"))
                .col(integer("submission_id"))
                .col(integer("reviewer_id"))
                .col(string_len("result", 16))
                .col(text_null("rejected_reason"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut fk("box_submission_reviews", "submission_id", "box_submissions"))
                .foreign_key(&mut fk("box_submission_reviews", "reviewer_id", "users"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("box_submission_reviews", &["submission_id"])).await?;
        Ok(())
    }
}
