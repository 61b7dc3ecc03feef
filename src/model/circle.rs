//! Circles with owners and members (DOMAIN.md "Circles"): the owner's input and its checks
//! (spec §5: name_ja ≤ 64, name_en ≤ 128, descriptions ≤ 2048 characters, an optional http(s)
//! website), the client views (spec §3 Circle), who stands where in a circle, and the owner's and
//! members' changes. Invitations live in [`crate::model::circle_invitation`].
//!
//! Rules: only the owner edits a circle and removes members; a member may leave; the owner can
//! neither leave nor be removed; a suspended circle (staff) changes for nobody (409
//! `circle_suspended`). Every change runs in a transaction that first locks the circle's row
//! ([`lock`]), so the member cap and the one-pending-invitation rule hold under concurrency.

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Query;
use sea_orm::{
    Condition, QueryOrder, QuerySelect, Set, SqliteTransactionMode, TransactionOptions, TransactionSession,
    TransactionTrait,
};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::db::entities::{circle, circle_member, user};
use crate::error::{Error, Result};
use crate::mail::{MailKind, Mailer, Outgoing, Queued};
use crate::model::pagination::PageRequest;
use crate::model::user::IconView;
use crate::types::Lang;

/// Longest Japanese name, in characters.
pub const NAME_JA_MAX: u64 = 64;
/// Longest English name, in characters.
pub const NAME_EN_MAX: u64 = 128;
/// Longest description (each language), in characters.
pub const DESCRIPTION_MAX: u64 = 2048;
/// Longest website link, in characters.
pub const WEBSITE_MAX: u64 = 2048;

/// Thumbnail versions: name and the longest side in pixels (smaller images are not enlarged).
pub const THUMBNAIL_SIZES: [(&str, u32); 3] = [("small", 160), ("medium", 320), ("large", 640)];

/// The storage key of one version of an uploaded thumbnail stored under `key`.
pub fn thumbnail_version_key(key: &str, size: &str) -> String {
    format!("{key}-{size}.png")
}

/// How a user stands in a circle they are part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Owns it: edits it, invites, removes members.
    Owner,
    /// A member: sees it, may leave.
    Member,
}

/// A checked change: every field's new value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircleChange {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// Website, if any.
    pub website_link: Option<String>,
    /// Object-store key of a newly stored thumbnail (see [`THUMBNAIL_SIZES`]); `None` keeps the
    /// current one.
    pub thumbnail_key: Option<String>,
}

/// A user as circles show them: never their email.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct CircleUserView {
    /// User id (what `POST /user/invitation_members/{id}` takes).
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Name in the requested language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Icon URLs.
    pub icon: IconView,
}

impl CircleUserView {
    /// The view of `u` in `lang`.
    pub fn new(u: &user::Model, lang: Lang) -> Self {
        Self {
            id: u.id,
            vmarket_id: u.vmarket_id.clone(),
            name: u.name(lang).to_string(),
            name_ja: u.name_ja.clone(),
            name_en: u.name_en.clone(),
            icon: u.icon(),
        }
    }
}

/// A circle's thumbnail in three versions (spec §3 Circle `thumbnail`); all null without one.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct CircleThumbnailView {
    /// The largest version.
    pub url: Option<String>,
    /// At most 160 px a side.
    pub small: Option<String>,
    /// At most 320 px a side.
    pub medium: Option<String>,
    /// At most 640 px a side.
    pub large: Option<String>,
}

/// A member of a circle (spec §3 Circle `members`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CircleMemberView {
    /// Membership id: the `memberId` of `DELETE /user/circles/{id}/member/{memberId}`.
    pub id: i32,
    /// The member.
    pub user: CircleUserView,
    /// Whether this member is the owner.
    pub is_owner: bool,
    /// When they joined.
    pub joined_at: DateTime<Utc>,
}

/// A circle as its owner and members see it (spec §3 Circle).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CircleDetailView {
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
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// Thumbnail versions.
    pub thumbnail: CircleThumbnailView,
    /// The circle's website.
    pub website_link: Option<String>,
    /// Suspended by staff: read-only for everyone.
    pub is_suspended: bool,
    /// Why staff suspended it (while suspended).
    pub suspension_reason: Option<String>,
    /// The owner.
    pub owner: Option<CircleUserView>,
    /// Every member, the owner first, then by joining.
    pub members: Vec<CircleMemberView>,
    /// How the requesting user stands in it.
    pub standing: Standing,
    /// Members and pending invitations together may not exceed this.
    pub member_cap: u32,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl circle::Model {
    /// The thumbnail versions: an uploaded thumbnail's three sizes, or the one stored picture.
    pub fn thumbnail_view(&self) -> CircleThumbnailView {
        match (&self.thumbnail_key, &self.thumbnail) {
            (Some(key), _) => {
                let url = |size: &str| Some(format!("/media/{}", thumbnail_version_key(key, size)));
                CircleThumbnailView {
                    url: url("large"),
                    small: url("small"),
                    medium: url("medium"),
                    large: url("large"),
                }
            }
            (None, picture) => CircleThumbnailView {
                url: picture.clone(),
                small: picture.clone(),
                medium: picture.clone(),
                large: picture.clone(),
            },
        }
    }

    /// The name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick(&self.name_ja, &self.name_en)
    }

    /// `circle_suspended` (409) for a suspended circle.
    pub fn ensure_writable(&self) -> Result<()> {
        if self.is_suspended { Err(Error::Conflict { code: "circle_suspended" }) } else { Ok(()) }
    }

    /// Staff suspend circle `id` for `reason` (`Some`) or lift its suspension (`None`), on `txn`
    /// (the console's audited transaction): the circle as it was and as it is. The row is locked
    /// first, like every other change of a circle, so an owner's change in flight either lands
    /// before the suspension or is refused after it. Setting what is already set changes nothing
    /// (not even `updated_at`); a suspended circle's reason can be reworded.
    pub async fn set_suspended(
        txn: &impl ConnectionTrait,
        id: i32,
        reason: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<(Self, Self)> {
        let found = circle::Entity::find_by_id(id).lock_exclusive().one(txn).await?.ok_or_else(Error::not_found)?;
        if found.is_suspended == reason.is_some() && found.suspension_reason.as_deref() == reason {
            return Ok((found.clone(), found));
        }
        let before = found.clone();
        let mut row: circle::ActiveModel = found.into();
        row.is_suspended = Set(reason.is_some());
        row.suspension_reason = Set(reason.map(str::to_string));
        row.updated_at = Set(now);
        Ok((before, row.update(txn).await?))
    }

    /// The circle `id` and how `user_id` stands in it; `None` for a circle they are not part
    /// of (or none at all): to them it does not exist.
    pub async fn standing(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Option<(Self, Standing)>> {
        let Some(found) = circle::Entity::find_by_id(id).one(db).await? else { return Ok(None) };
        if found.owner_user_id == Some(user_id) {
            return Ok(Some((found, Standing::Owner)));
        }
        let member = circle_member::Entity::find()
            .filter(circle_member::Column::CircleId.eq(id))
            .filter(circle_member::Column::UserId.eq(user_id))
            .one(db)
            .await?;
        Ok(member.map(|_| (found, Standing::Member)))
    }

    /// The circle `id` for its owner: 404 to strangers, 403 to members.
    pub async fn for_owner(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        match Self::standing(db, id, user_id).await? {
            Some((found, Standing::Owner)) => Ok(found),
            Some((_, Standing::Member)) => Err(Error::Forbidden),
            None => Err(Error::not_found()),
        }
    }

    /// The circle `id` for a member or its owner: 404 to strangers.
    pub async fn for_member(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<(Self, Standing)> {
        Self::standing(db, id, user_id).await?.ok_or_else(Error::not_found)
    }

    /// A page of the circles `user_id` owns, newest first, and how many there are.
    pub async fn owned_page(db: &impl ConnectionTrait, user_id: i32, req: PageRequest) -> Result<(Vec<Self>, u64)> {
        let query = circle::Entity::find().filter(circle::Column::OwnerUserId.eq(user_id));
        let count = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(circle::Column::CreatedAt)
            .order_by_desc(circle::Column::Id)
            .offset(req.offset())
            .limit(req.limit)
            .all(db)
            .await?;
        Ok((rows, count))
    }

    /// A page of the circles `user_id` has joined (not owns), last joined first, and how many.
    pub async fn joined_page(db: &impl ConnectionTrait, user_id: i32, req: PageRequest) -> Result<(Vec<Self>, u64)> {
        let not_owned = Query::select()
            .column(circle::Column::Id)
            .from(circle::Entity)
            .cond_where(
                Condition::any()
                    .add(circle::Column::OwnerUserId.is_null())
                    .add(circle::Column::OwnerUserId.ne(user_id)),
            )
            .to_owned();
        let query = circle_member::Entity::find()
            .filter(circle_member::Column::UserId.eq(user_id))
            .filter(circle_member::Column::CircleId.in_subquery(not_owned));
        let count = query.clone().count(db).await?;
        let memberships = query
            .order_by_desc(circle_member::Column::CreatedAt)
            .order_by_desc(circle_member::Column::Id)
            .offset(req.offset())
            .limit(req.limit)
            .all(db)
            .await?;
        let ids: Vec<i32> = memberships.iter().map(|m| m.circle_id).collect();
        let mut circles = circle::Entity::find().filter(circle::Column::Id.is_in(ids.clone())).all(db).await?;
        circles.sort_by_key(|c| ids.iter().position(|id| *id == c.id));
        Ok((circles, count))
    }

    /// How many members the circle has, its owner included.
    pub async fn member_count(&self, db: &impl ConnectionTrait) -> Result<u64> {
        Ok(circle_member::Entity::find().filter(circle_member::Column::CircleId.eq(self.id)).count(db).await?)
    }

    /// Creates a circle owned by `owner`, who becomes its first member.
    pub async fn create_owned(
        db: &impl TransactionTrait,
        owner: &user::Model,
        change: CircleChange,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let txn = crate::db::begin_write(db).await?;
        let thumbnail =
            change.thumbnail_key.as_deref().map(|key| format!("/media/{}", thumbnail_version_key(key, "large")));
        let created = circle::ActiveModel {
            name_ja: Set(change.name_ja),
            name_en: Set(change.name_en),
            description_ja: Set(change.description_ja),
            description_en: Set(change.description_en),
            thumbnail: Set(thumbnail),
            thumbnail_key: Set(change.thumbnail_key),
            website_link: Set(change.website_link),
            is_suspended: Set(false),
            owner_user_id: Set(Some(owner.id)),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        circle_member::ActiveModel {
            circle_id: Set(created.id),
            user_id: Set(owner.id),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        Ok(created)
    }

    /// Applies the owner's change (a new thumbnail replaces the old one).
    pub async fn change(
        db: &impl TransactionTrait,
        id: i32,
        owner_id: i32,
        change: CircleChange,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let (txn, found) = lock(db, id).await?;
        if found.owner_user_id != Some(owner_id) {
            return Err(Error::Forbidden);
        }
        found.ensure_writable()?;
        let mut row: circle::ActiveModel = found.into();
        row.name_ja = Set(change.name_ja);
        row.name_en = Set(change.name_en);
        row.description_ja = Set(change.description_ja);
        row.description_en = Set(change.description_en);
        row.website_link = Set(change.website_link);
        if let Some(key) = change.thumbnail_key {
            row.thumbnail = Set(Some(format!("/media/{}", thumbnail_version_key(&key, "large"))));
            row.thumbnail_key = Set(Some(key));
        }
        row.updated_at = Set(now);
        let updated = row.update(&txn).await?;
        txn.commit().await?;
        Ok(updated)
    }

    /// The owner removes membership `member_id`; the removed member is mailed. 404 for a
    /// membership of another circle, 409 `owner_cannot_leave` for the owner's own.
    pub async fn remove_member(
        db: &impl TransactionTrait,
        mailer: &Mailer,
        id: i32,
        owner_id: i32,
        member_id: i32,
        now: DateTime<Utc>,
    ) -> Result<Vec<Queued>> {
        let (txn, found) = lock(db, id).await?;
        if found.owner_user_id != Some(owner_id) {
            return Err(Error::Forbidden);
        }
        found.ensure_writable()?;
        let member = circle_member::Entity::find_by_id(member_id)
            .filter(circle_member::Column::CircleId.eq(id))
            .one(&txn)
            .await?
            .ok_or_else(Error::not_found)?;
        if member.user_id == owner_id {
            return Err(Error::Conflict { code: "owner_cannot_leave" });
        }
        circle_member::Entity::delete_by_id(member.id).exec(&txn).await?;
        let removed = user::Entity::find_by_id(member.user_id).one(&txn).await?;
        let mut mails = Vec::new();
        if let Some(removed) = removed {
            let mail = CircleMail {
                kind: MailKind::CircleRemoved,
                to: &removed,
                circle: &found,
                other: None,
                path: "/mypage/circles/joined".into(),
                expires_at: None,
            };
            mails.extend(mail.queue(&txn, mailer, now).await?);
        }
        txn.commit().await?;
        Ok(mails)
    }

    /// `user` leaves the circle; the owner is mailed. 409 `owner_cannot_leave` for the owner.
    pub async fn leave(
        db: &impl TransactionTrait,
        mailer: &Mailer,
        id: i32,
        leaving: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<Vec<Queued>> {
        let (txn, found) = lock(db, id).await?;
        if found.owner_user_id == Some(leaving.id) {
            return Err(Error::Conflict { code: "owner_cannot_leave" });
        }
        let member = circle_member::Entity::find()
            .filter(circle_member::Column::CircleId.eq(id))
            .filter(circle_member::Column::UserId.eq(leaving.id))
            .one(&txn)
            .await?
            .ok_or_else(Error::not_found)?;
        found.ensure_writable()?;
        circle_member::Entity::delete_by_id(member.id).exec(&txn).await?;
        let mut mails = Vec::new();
        if let Some(owner) = owner_of(&txn, &found).await? {
            let mail = CircleMail {
                kind: MailKind::CircleLeft,
                to: &owner,
                circle: &found,
                other: Some(leaving),
                path: format!("/mypage/circle/{}/members", found.id),
                expires_at: None,
            };
            mails.extend(mail.queue(&txn, mailer, now).await?);
        }
        txn.commit().await?;
        Ok(mails)
    }
}

/// Starts a transaction holding the write lock of circle `id` (SQLite: an immediate
/// transaction; PostgreSQL: the row locked `FOR UPDATE`), so that concurrent changes to one
/// circle run one after the other; 404 when there is no such circle.
pub(crate) async fn lock<C: TransactionTrait>(db: &C, id: i32) -> Result<(C::Transaction, circle::Model)> {
    let options = TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..TransactionOptions::default()
    };
    let txn = db.begin_with_options(options).await?;
    let found = circle::Entity::find_by_id(id).lock_exclusive().one(&txn).await?.ok_or_else(Error::not_found)?;
    Ok((txn, found))
}

/// The owner of `c`, if it has one.
pub(crate) async fn owner_of(db: &impl ConnectionTrait, c: &circle::Model) -> Result<Option<user::Model>> {
    match c.owner_user_id {
        Some(id) => Ok(user::Entity::find_by_id(id).one(db).await?),
        None => Ok(None),
    }
}

/// A circle mail to one user, in their language: the circle's name, the other side's name and a
/// link to a page of the site (in their language).
pub(crate) struct CircleMail<'a> {
    /// Which mail.
    pub kind: MailKind,
    /// The recipient (users without an email address get none).
    pub to: &'a user::Model,
    /// The circle.
    pub circle: &'a circle::Model,
    /// The other side (the owner, the invitee, the member who left).
    pub other: Option<&'a user::Model>,
    /// The unprefixed site path the mail links to.
    pub path: String,
    /// When the invitation expires (invitation mails).
    pub expires_at: Option<DateTime<Utc>>,
}

impl CircleMail<'_> {
    /// Queues the mail inside `txn`; push it after the commit.
    pub async fn queue(
        self,
        txn: &impl ConnectionTrait,
        mailer: &Mailer,
        now: DateTime<Utc>,
    ) -> Result<Option<Queued>> {
        let Some((email, lang)) = self.to.mail_to() else { return Ok(None) };
        let context = json!({
            "recipient_name": self.to.name(lang),
            "circle_name": self.circle.name(lang),
            "other_name": self.other.map(|o| o.name(lang)),
            "path": format!("{}{}", lang.prefix(), self.path),
            "expires_at": self.expires_at.map(|at| at.to_rfc3339()),
        });
        let outgoing = Outgoing { to: email.to_string(), lang, kind: self.kind, context };
        Ok(Some(mailer.queue(txn, &outgoing, now).await?))
    }
}

impl CircleDetailView {
    /// Views of `circles` in `lang` for `viewer`, with owners and members in a fixed number of
    /// queries.
    pub async fn load(
        db: &impl ConnectionTrait,
        circles: Vec<circle::Model>,
        viewer: i32,
        member_cap: u32,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let ids: Vec<i32> = circles.iter().map(|c| c.id).collect();
        let memberships = circle_member::Entity::find()
            .filter(circle_member::Column::CircleId.is_in(ids))
            .order_by_asc(circle_member::Column::CreatedAt)
            .order_by_asc(circle_member::Column::Id)
            .all(db)
            .await?;
        let mut user_ids: Vec<i32> = memberships.iter().map(|m| m.user_id).collect();
        user_ids.extend(circles.iter().filter_map(|c| c.owner_user_id));
        let users: std::collections::HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(user_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        Ok(circles
            .into_iter()
            .map(|c| {
                let mut members: Vec<CircleMemberView> = memberships
                    .iter()
                    .filter(|m| m.circle_id == c.id)
                    .filter_map(|m| {
                        users.get(&m.user_id).map(|u| CircleMemberView {
                            id: m.id,
                            user: CircleUserView::new(u, lang),
                            is_owner: c.owner_user_id == Some(m.user_id),
                            joined_at: m.created_at,
                        })
                    })
                    .collect();
                members.sort_by_key(|m| !m.is_owner);
                let standing = if c.owner_user_id == Some(viewer) { Standing::Owner } else { Standing::Member };
                Self {
                    id: c.id,
                    name: c.name(lang).to_string(),
                    description: lang.pick(&c.description_ja, &c.description_en).to_string(),
                    thumbnail: c.thumbnail_view(),
                    owner: c.owner_user_id.and_then(|id| users.get(&id)).map(|u| CircleUserView::new(u, lang)),
                    members,
                    standing,
                    member_cap,
                    name_ja: c.name_ja,
                    name_en: c.name_en,
                    description_ja: c.description_ja,
                    description_en: c.description_en,
                    website_link: c.website_link,
                    is_suspended: c.is_suspended,
                    suspension_reason: c.suspension_reason,
                    created_at: c.created_at,
                    updated_at: c.updated_at,
                }
            })
            .collect())
    }

    /// The view of one circle.
    pub async fn load_one(
        db: &impl ConnectionTrait,
        c: circle::Model,
        viewer: i32,
        member_cap: u32,
        lang: Lang,
    ) -> Result<Self> {
        Self::load(db, vec![c], viewer, member_cap, lang).await?.pop().ok_or_else(Error::not_found)
    }
}
