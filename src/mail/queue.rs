//! The mail queue's queries: storing a rendered mail, claiming one delivery attempt, and
//! recording how it went. Delivery itself is `crate::jobs::send_mail`.
//!
//! Every change after the insert is a conditional update on `(status, attempts)`, so two runs
//! of the same attempt can never both go ahead, and a `sent` or `failed` mail is never touched
//! again.

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, QueryOrder};

use crate::db::entities::mail;

/// Defined with its entity (`db::entities::mail`); part of this model's API.
pub use crate::db::entities::mail::MailStatus;

/// A rendered mail, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// The recipient's address.
    pub recipient: String,
    /// `ja` or `en`.
    pub lang: String,
    /// The template name (`crate::mail::MailKind`).
    pub kind: String,
    /// The subject, one line.
    pub subject: String,
    /// The plain-text part.
    pub text_body: String,
    /// The HTML part.
    pub html_body: String,
    /// The `Message-ID` header (`<…@…>`), the same on every attempt.
    pub message_id: String,
    /// Set for a mail that must exist at most once: a second mail with the same key is never
    /// stored ([`mail::Model::insert_unique`]).
    pub dedup_key: Option<String>,
}

/// The row of `new` as a pending mail, due at `now`.
fn pending(new: NewMail, now: DateTime<Utc>) -> mail::ActiveModel {
    mail::ActiveModel {
        recipient: Set(new.recipient),
        lang: Set(new.lang),
        kind: Set(new.kind),
        subject: Set(new.subject),
        text_body: Set(new.text_body),
        html_body: Set(new.html_body),
        message_id: Set(new.message_id),
        status: Set(MailStatus::Pending),
        attempts: Set(0),
        last_error: Set(None),
        created_at: Set(now),
        next_attempt_at: Set(Some(now)),
        sent_at: Set(None),
        dedup_key: Set(new.dedup_key),
        ..Default::default()
    }
}

impl mail::Model {
    /// Stores `new` as a pending mail due at `now`. Works inside the caller's transaction.
    pub async fn insert(db: &impl ConnectionTrait, new: NewMail, now: DateTime<Utc>) -> Result<Self, DbErr> {
        pending(new, now).insert(db).await
    }

    /// Stores `mails` as pending mails due at `now`, in one statement, skipping every mail whose
    /// `dedup_key` is already stored (the unique key decides, also against a concurrent insert):
    /// returns the ids of the mails stored by this call. Works inside the caller's transaction.
    pub async fn insert_unique(
        db: &impl ConnectionTrait,
        mails: Vec<NewMail>,
        now: DateTime<Utc>,
    ) -> Result<Vec<i32>, DbErr> {
        if mails.is_empty() {
            return Ok(Vec::new());
        }
        let rows = mails.into_iter().map(|new| pending(new, now));
        let inserted = mail::Entity::insert_many(rows)
            .on_conflict_do_nothing_on([mail::Column::DedupKey])
            .exec_with_returning_keys(db)
            .await?;
        Ok(match inserted {
            sea_orm::TryInsertResult::Inserted(ids) => ids,
            sea_orm::TryInsertResult::Empty | sea_orm::TryInsertResult::Conflicted => Vec::new(),
        })
    }

    /// The mail `id`, if it exists.
    pub async fn find(db: &impl ConnectionTrait, id: i32) -> Result<Option<Self>, DbErr> {
        mail::Entity::find_by_id(id).one(db).await
    }

    /// Pending mails, oldest first.
    pub async fn pending(db: &impl ConnectionTrait) -> Result<Vec<Self>, DbErr> {
        mail::Entity::find()
            .filter(mail::Column::Status.eq(MailStatus::Pending))
            .order_by_asc(mail::Column::Id)
            .all(db)
            .await
    }

    /// Claims attempt `attempt` (1-based) of the pending mail `id`: counts it and sets when the
    /// next one is due should this one never report back (`retry_at`). Returns the claimed row, or
    /// `None` when the mail is no longer pending or that attempt was already made.
    pub async fn claim(
        db: &impl ConnectionTrait,
        id: i32,
        attempt: i32,
        retry_at: DateTime<Utc>,
    ) -> Result<Option<Self>, DbErr> {
        let claimed = mail::Entity::update_many()
            .col_expr(mail::Column::Attempts, Expr::value(attempt))
            .col_expr(mail::Column::NextAttemptAt, Expr::value(retry_at))
            .filter(mail::Column::Id.eq(id))
            .filter(mail::Column::Status.eq(MailStatus::Pending))
            .filter(mail::Column::Attempts.eq(attempt - 1))
            .exec(db)
            .await?;
        if claimed.rows_affected != 1 {
            return Ok(None);
        }
        Self::find(db, id).await
    }

    /// Records that attempt `attempt` went through: `sent`, never to be sent again.
    pub async fn mark_sent(db: &impl ConnectionTrait, id: i32, attempt: i32, now: DateTime<Utc>) -> Result<(), DbErr> {
        Self::settle(db, id, attempt, |q| {
            q.col_expr(mail::Column::Status, Expr::value(MailStatus::Sent))
                .col_expr(mail::Column::SentAt, Expr::value(now))
                .col_expr(mail::Column::NextAttemptAt, Expr::value(Option::<DateTime<Utc>>::None))
        })
        .await
    }

    /// Records that attempt `attempt` failed with `error`: the mail stays pending with its next
    /// attempt due at `retry_at`, or becomes `failed` when `retry_at` is `None`.
    pub async fn record_failure(
        db: &impl ConnectionTrait,
        id: i32,
        attempt: i32,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
    ) -> Result<(), DbErr> {
        let status = if retry_at.is_some() { MailStatus::Pending } else { MailStatus::Failed };
        Self::settle(db, id, attempt, |q| {
            q.col_expr(mail::Column::Status, Expr::value(status))
                .col_expr(mail::Column::LastError, Expr::value(error.to_string()))
                .col_expr(mail::Column::NextAttemptAt, Expr::value(retry_at))
        })
        .await
    }

    /// Applies `change` to the mail if attempt `attempt` is still its latest and it is pending.
    async fn settle(
        db: &impl ConnectionTrait,
        id: i32,
        attempt: i32,
        change: impl FnOnce(sea_orm::UpdateMany<mail::Entity>) -> sea_orm::UpdateMany<mail::Entity>,
    ) -> Result<(), DbErr> {
        let query = mail::Entity::update_many()
            .filter(mail::Column::Id.eq(id))
            .filter(mail::Column::Status.eq(MailStatus::Pending))
            .filter(mail::Column::Attempts.eq(attempt));
        change(query).exec(db).await?;
        Ok(())
    }
}
