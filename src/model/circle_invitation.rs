//! Invitations into circles (DOMAIN.md "Circles"): the owner finds a user by their exact
//! vmarket ID and invites them (`pending`); the invitee approves (becomes a member) or withdraws
//! (declines); the owner cancels; a pending invitation expires 14 days after it was sent, by the
//! application clock. At most one pending invitation per circle and user (a partial unique
//! index holds it), and members plus pending invitations never exceed the member cap. Each step
//! mails the other side. Every change locks the circle first ([`crate::model::circle`]).

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, Func};
use sea_orm::{Condition, QueryOrder, QuerySelect, Set, SqlErr, TransactionSession, TransactionTrait};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::{circle, circle_invitation, circle_member, user};
use crate::error::{Error, Invalid, Result};
use crate::mail::{MailKind, Mailer, Queued};
use crate::model::circle::{CircleMail, CircleThumbnailView, CircleUserView, lock, owner_of};
use crate::model::pagination::PageRequest;
use crate::model::text;
use crate::types::Lang;

/// How long an invitation waits for an answer.
pub fn invitation_lifetime() -> Duration {
    Duration::days(14)
}

/// Defined with its entity; part of this model's API.
pub use crate::db::entities::circle_invitation::InvitationStatus;

/// A circle as an invitee sees it before joining.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CircleSummaryView {
    /// Circle id.
    pub id: i32,
    /// Name in the requested language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Description in the requested language.
    pub description: String,
    /// Thumbnail versions.
    pub thumbnail: CircleThumbnailView,
    /// Suspended by staff: invitations can be neither answered nor changed.
    pub is_suspended: bool,
}

/// An invitation (`GET /user/invitation_circles`, `GET /user/invitation_members/{id}`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CircleInvitationView {
    /// Invitation id: the `{id}` of `/user/invitation_circles/{id}/approval` and `/withdraw`,
    /// and of `/user/invitation_members/{id}/cancel`.
    pub id: i32,
    /// Where it stands now (a pending invitation past `expires_at` is `expired`).
    pub status: InvitationStatus,
    /// The circle.
    pub circle: CircleSummaryView,
    /// The invited user.
    pub user: CircleUserView,
    /// The owner who sent it.
    pub invited_by: Option<CircleUserView>,
    /// When it was sent.
    pub created_at: DateTime<Utc>,
    /// When it expires unless answered.
    pub expires_at: DateTime<Utc>,
    /// When it was answered, taken back or expired.
    pub responded_at: Option<DateTime<Utc>>,
}

/// Where a user found by vmarket ID stands with the circle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchStanding {
    /// May be invited.
    Invitable,
    /// Already a member (or the owner).
    Member,
    /// Has a pending invitation.
    Invited,
}

/// The one user an exact vmarket ID names (`GET /user/invitation_members/{id}/search_user`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserSearchView {
    /// The user; send `user.id` to invite them.
    pub user: CircleUserView,
    /// Whether they can be invited.
    pub standing: SearchStanding,
}

/// What `POST /user/invitation_members/{id}` takes.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct InviteInput {
    /// The `user.id` that `search_user` returned.
    pub user_id: Option<i64>,
}

/// The longest vmarket ID a search takes.
const SEARCH_MAX: usize = 64;

/// The vmarket ID of a search, trimmed and without a leading `@`; a field error when empty, too
/// long or with control characters.
pub fn search_term(raw: Option<&str>) -> Result<String> {
    let term = raw.unwrap_or_default().trim().trim_start_matches('@').trim().to_string();
    match term.chars().count() {
        0 => Err(Error::invalid("vmarket_id", "validation.required")),
        n if n > SEARCH_MAX => {
            Err(Error::Validation(vec![Invalid::new("vmarket_id", "validation.too_long").with("max", SEARCH_MAX)]))
        }
        _ if !text::is_clean(&term) => Err(Error::invalid("vmarket_id", "validation.control_chars")),
        _ => Ok(term),
    }
}

/// The user whose vmarket ID is exactly `term` (whatever its case) and where they stand with
/// circle `c`; `None` when nobody has it. Never a list.
pub async fn search_user(
    db: &impl ConnectionTrait,
    c: &circle::Model,
    term: &str,
    now: DateTime<Utc>,
) -> Result<Option<(user::Model, SearchStanding)>> {
    let found = user::Entity::find()
        .filter(Expr::expr(Func::lower(Expr::col(user::Column::VmarketId))).eq(Expr::val(term.to_lowercase())))
        .one(db)
        .await?;
    let Some(found) = found else { return Ok(None) };
    let standing = if is_member(db, c.id, found.id).await? {
        SearchStanding::Member
    } else if has_pending(db, c.id, found.id, now).await? {
        SearchStanding::Invited
    } else {
        SearchStanding::Invitable
    };
    Ok(Some((found, standing)))
}

async fn is_member(db: &impl ConnectionTrait, circle_id: i32, user_id: i32) -> Result<bool> {
    Ok(circle_member::Entity::find()
        .filter(circle_member::Column::CircleId.eq(circle_id))
        .filter(circle_member::Column::UserId.eq(user_id))
        .count(db)
        .await?
        > 0)
}

async fn has_pending(db: &impl ConnectionTrait, circle_id: i32, user_id: i32, now: DateTime<Utc>) -> Result<bool> {
    Ok(circle_invitation::Entity::find()
        .filter(circle_invitation::Column::CircleId.eq(circle_id))
        .filter(circle_invitation::Column::UserId.eq(user_id))
        .filter(pending_at(now))
        .count(db)
        .await?
        > 0)
}

/// Invitations that are pending at `now` (stored `pending` and not yet expired).
fn pending_at(now: DateTime<Utc>) -> Condition {
    Condition::all()
        .add(circle_invitation::Column::Status.eq(InvitationStatus::Pending))
        .add(circle_invitation::Column::ExpiresAt.gt(now))
}

impl circle_invitation::Model {
    /// Where it stands at `now`: a stored `pending` past its expiry is `expired`.
    pub fn status_at(&self, now: DateTime<Utc>) -> InvitationStatus {
        if self.status == InvitationStatus::Pending && self.expires_at <= now {
            InvitationStatus::Expired
        } else {
            self.status
        }
    }

    /// A page of the invitations waiting for `user_id`, newest first, and how many there are.
    pub async fn pending_for_user(
        db: &impl ConnectionTrait,
        user_id: i32,
        now: DateTime<Utc>,
        req: PageRequest,
    ) -> Result<(Vec<Self>, u64)> {
        let query = circle_invitation::Entity::find()
            .filter(circle_invitation::Column::UserId.eq(user_id))
            .filter(pending_at(now));
        page(query, db, req).await
    }

    /// How many invitations wait for `user_id`.
    pub async fn pending_count_for_user(db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<u64> {
        Ok(circle_invitation::Entity::find()
            .filter(circle_invitation::Column::UserId.eq(user_id))
            .filter(pending_at(now))
            .count(db)
            .await?)
    }

    /// A page of circle `circle_id`'s pending invitations, newest first, and how many there are.
    pub async fn pending_for_circle(
        db: &impl ConnectionTrait,
        circle_id: i32,
        now: DateTime<Utc>,
        req: PageRequest,
    ) -> Result<(Vec<Self>, u64)> {
        let query = circle_invitation::Entity::find()
            .filter(circle_invitation::Column::CircleId.eq(circle_id))
            .filter(pending_at(now));
        page(query, db, req).await
    }

    /// How many pending invitations circle `circle_id` has.
    pub async fn pending_count_for_circle(
        db: &impl ConnectionTrait,
        circle_id: i32,
        now: DateTime<Utc>,
    ) -> Result<u64> {
        Ok(circle_invitation::Entity::find()
            .filter(circle_invitation::Column::CircleId.eq(circle_id))
            .filter(pending_at(now))
            .count(db)
            .await?)
    }

    /// The owner `owner` invites user `invitee_id` into circle `circle_id`; the invitee is
    /// mailed. 404 `user_not_found` for an unknown user; 409 `already_member`,
    /// `already_invited`, `circle_full` (members and pending invitations at `cap`) or
    /// `circle_suspended`.
    pub async fn invite(
        db: &impl TransactionTrait,
        mailer: &Mailer,
        circle_id: i32,
        owner: &user::Model,
        invitee_id: i32,
        cap: u32,
        now: DateTime<Utc>,
    ) -> Result<(Self, Vec<Queued>)> {
        let (txn, c) = lock(db, circle_id).await?;
        if c.owner_user_id != Some(owner.id) {
            return Err(Error::Forbidden);
        }
        c.ensure_writable()?;
        let invitee =
            user::Entity::find_by_id(invitee_id).one(&txn).await?.ok_or(Error::NotFound { code: "user_not_found" })?;
        if is_member(&txn, c.id, invitee.id).await? {
            return Err(Error::Conflict { code: "already_member" });
        }
        // A pending invitation past its time is expired: record it, so that the one-pending
        // index makes room for the new one.
        circle_invitation::Entity::update_many()
            .col_expr(circle_invitation::Column::Status, Expr::value(InvitationStatus::Expired))
            .col_expr(circle_invitation::Column::RespondedAt, Expr::col(circle_invitation::Column::ExpiresAt))
            .filter(circle_invitation::Column::CircleId.eq(c.id))
            .filter(circle_invitation::Column::UserId.eq(invitee.id))
            .filter(circle_invitation::Column::Status.eq(InvitationStatus::Pending))
            .filter(circle_invitation::Column::ExpiresAt.lte(now))
            .exec(&txn)
            .await?;
        if has_pending(&txn, c.id, invitee.id, now).await? {
            return Err(Error::Conflict { code: "already_invited" });
        }
        let taken = c.member_count(&txn).await? + Self::pending_count_for_circle(&txn, c.id, now).await?;
        if taken >= u64::from(cap) {
            return Err(Error::Conflict { code: "circle_full" });
        }
        let row = circle_invitation::ActiveModel {
            circle_id: Set(c.id),
            user_id: Set(invitee.id),
            invited_by_user_id: Set(owner.id),
            status: Set(InvitationStatus::Pending),
            created_at: Set(now),
            expires_at: Set(now + invitation_lifetime()),
            responded_at: Set(None),
            ..Default::default()
        };
        let created = match row.insert(&txn).await {
            Ok(created) => created,
            // The one-pending index is the last word, should anything slip past the lock.
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(Error::Conflict { code: "already_invited" });
            }
            Err(e) => return Err(e.into()),
        };
        let mail = CircleMail {
            kind: MailKind::CircleInvited,
            to: &invitee,
            circle: &c,
            other: Some(owner),
            path: "/mypage/circles/invitations".into(),
            expires_at: Some(created.expires_at),
        };
        let mails = mail.queue(&txn, mailer, now).await?.into_iter().collect();
        txn.commit().await?;
        Ok((created, mails))
    }

    /// The invitation `id` addressed to `user_id`: 404 for anyone else's.
    pub async fn find_for_invitee(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        circle_invitation::Entity::find_by_id(id)
            .filter(circle_invitation::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// The invitee joins: they become a member and the owner is mailed. 409
    /// `invitation_expired`, `invitation_not_pending`, `circle_suspended` or `circle_full`.
    pub async fn approve(
        db: &(impl ConnectionTrait + TransactionTrait),
        mailer: &Mailer,
        id: i32,
        invitee: &user::Model,
        cap: u32,
        now: DateTime<Utc>,
    ) -> Result<(Self, Vec<Queued>)> {
        let (txn, c, invitation) = Self::open_as_invitee(db, id, invitee.id, now).await?;
        if !is_member(&txn, c.id, invitee.id).await? {
            if c.member_count(&txn).await? >= u64::from(cap) {
                return Err(Error::Conflict { code: "circle_full" });
            }
            circle_member::ActiveModel {
                circle_id: Set(c.id),
                user_id: Set(invitee.id),
                created_at: Set(now),
                ..Default::default()
            }
            .insert(&txn)
            .await?;
        }
        let updated = answer(&txn, invitation, InvitationStatus::Approved, now).await?;
        let mails = mail_owner(&txn, mailer, MailKind::CircleApproved, &c, invitee, now).await?;
        txn.commit().await?;
        Ok((updated, mails))
    }

    /// The invitee declines; the owner is mailed. 409 as [`Self::approve`] (but never full).
    pub async fn withdraw(
        db: &(impl ConnectionTrait + TransactionTrait),
        mailer: &Mailer,
        id: i32,
        invitee: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<(Self, Vec<Queued>)> {
        let (txn, c, invitation) = Self::open_as_invitee(db, id, invitee.id, now).await?;
        let updated = answer(&txn, invitation, InvitationStatus::Withdrawn, now).await?;
        let mails = mail_owner(&txn, mailer, MailKind::CircleWithdrawn, &c, invitee, now).await?;
        txn.commit().await?;
        Ok((updated, mails))
    }

    /// The owner takes invitation `id` back; the invitee is mailed. 404 to strangers, 403 to
    /// members, 409 `invitation_expired`, `invitation_not_pending` or `circle_suspended`.
    pub async fn cancel(
        db: &(impl ConnectionTrait + TransactionTrait),
        mailer: &Mailer,
        id: i32,
        owner: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<(Self, Vec<Queued>)> {
        let found = circle_invitation::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)?;
        circle::Model::for_owner(db, found.circle_id, owner.id).await?;
        let (txn, c) = lock(db, found.circle_id).await?;
        let invitation = reread(&txn, id).await?;
        c.ensure_writable()?;
        pending_or_conflict(&invitation, now)?;
        let updated = answer(&txn, invitation, InvitationStatus::Cancelled, now).await?;
        let mut mails = Vec::new();
        if let Some(invitee) = user::Entity::find_by_id(updated.user_id).one(&txn).await? {
            let mail = CircleMail {
                kind: MailKind::CircleCancelled,
                to: &invitee,
                circle: &c,
                other: Some(owner),
                path: "/mypage/circles/invitations".into(),
                expires_at: None,
            };
            mails.extend(mail.queue(&txn, mailer, now).await?);
        }
        txn.commit().await?;
        Ok((updated, mails))
    }

    /// Locks the circle of invitation `id` (addressed to `user_id`, else 404) and checks that it
    /// can be answered: pending and the circle not suspended.
    async fn open_as_invitee<C: ConnectionTrait + TransactionTrait>(
        db: &C,
        id: i32,
        user_id: i32,
        now: DateTime<Utc>,
    ) -> Result<(C::Transaction, circle::Model, Self)> {
        let found = Self::find_for_invitee(db, id, user_id).await?;
        let (txn, c) = lock(db, found.circle_id).await?;
        let invitation = reread(&txn, id).await?;
        pending_or_conflict(&invitation, now)?;
        c.ensure_writable()?;
        Ok((txn, c, invitation))
    }
}

async fn reread(txn: &impl ConnectionTrait, id: i32) -> Result<circle_invitation::Model> {
    circle_invitation::Entity::find_by_id(id).one(txn).await?.ok_or_else(Error::not_found)
}

fn pending_or_conflict(invitation: &circle_invitation::Model, now: DateTime<Utc>) -> Result<()> {
    match invitation.status_at(now) {
        InvitationStatus::Pending => Ok(()),
        InvitationStatus::Expired => Err(Error::Conflict { code: "invitation_expired" }),
        _ => Err(Error::Conflict { code: "invitation_not_pending" }),
    }
}

async fn answer(
    txn: &impl ConnectionTrait,
    invitation: circle_invitation::Model,
    status: InvitationStatus,
    now: DateTime<Utc>,
) -> Result<circle_invitation::Model> {
    let mut row: circle_invitation::ActiveModel = invitation.into();
    row.status = Set(status);
    row.responded_at = Set(Some(now));
    Ok(row.update(txn).await?)
}

async fn mail_owner(
    txn: &impl ConnectionTrait,
    mailer: &Mailer,
    kind: MailKind,
    c: &circle::Model,
    invitee: &user::Model,
    now: DateTime<Utc>,
) -> Result<Vec<Queued>> {
    let Some(owner) = owner_of(txn, c).await? else { return Ok(Vec::new()) };
    let mail = CircleMail {
        kind,
        to: &owner,
        circle: c,
        other: Some(invitee),
        path: format!("/mypage/circle/{}/members", c.id),
        expires_at: None,
    };
    Ok(mail.queue(txn, mailer, now).await?.into_iter().collect())
}

async fn page(
    query: Select<circle_invitation::Entity>,
    db: &impl ConnectionTrait,
    req: PageRequest,
) -> Result<(Vec<circle_invitation::Model>, u64)> {
    let count = query.clone().count(db).await?;
    let rows = query
        .order_by_desc(circle_invitation::Column::CreatedAt)
        .order_by_desc(circle_invitation::Column::Id)
        .offset(req.offset())
        .limit(req.limit)
        .all(db)
        .await?;
    Ok((rows, count))
}

impl CircleInvitationView {
    /// Views of `rows` in `lang` as they stand at `now`, circles and users in a fixed number of
    /// queries.
    pub async fn load(
        db: &impl ConnectionTrait,
        rows: Vec<circle_invitation::Model>,
        now: DateTime<Utc>,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let circles: HashMap<i32, circle::Model> = circle::Entity::find()
            .filter(circle::Column::Id.is_in(rows.iter().map(|r| r.circle_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let user_ids = rows.iter().flat_map(|r| [r.user_id, r.invited_by_user_id]);
        let users: HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(user_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let (Some(c), Some(invitee)) = (circles.get(&r.circle_id), users.get(&r.user_id)) else { continue };
            out.push(Self {
                id: r.id,
                status: r.status_at(now),
                circle: CircleSummaryView {
                    id: c.id,
                    name: c.name(lang).to_string(),
                    name_ja: c.name_ja.clone(),
                    name_en: c.name_en.clone(),
                    description: lang.pick(&c.description_ja, &c.description_en).to_string(),
                    thumbnail: c.thumbnail_view(),
                    is_suspended: c.is_suspended,
                },
                user: CircleUserView::new(invitee, lang),
                invited_by: users.get(&r.invited_by_user_id).map(|u| CircleUserView::new(u, lang)),
                created_at: r.created_at,
                expires_at: r.expires_at,
                responded_at: r.responded_at,
            });
        }
        Ok(out)
    }

    /// The view of one invitation.
    pub async fn load_one(
        db: &impl ConnectionTrait,
        row: circle_invitation::Model,
        now: DateTime<Utc>,
        lang: Lang,
    ) -> Result<Self> {
        Self::load(db, vec![row], now, lang).await?.pop().ok_or_else(Error::not_found)
    }
}
