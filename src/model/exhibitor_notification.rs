//! Exhibitor notifications (spec §3 "Exhibitor notification"): the organisers' news for
//! exhibitors, listed on mypage and by `/api/v1/user/exhibitor_notifications`.
//!
//! **Visibility.** A signed-in user sees a notification when `is_public` is set and its
//! `published_at` has passed (by the application clock); anything else is 404 like an unknown
//! id. Opening one records that the user has read it.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{Condition, ConnectionTrait, PaginatorTrait, QueryOrder, QuerySelect, Set};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{event, exhibitor_notification, exhibitor_notification_read};
use crate::error::{Error, Result};
use crate::model::pagination::PageRequest;
use crate::types::{Lang, Localized, localized};

/// The event a notification is about.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NotificationEventView {
    /// Event id.
    pub id: i32,
    /// Event permalink.
    pub permalink: String,
    /// Name in the requested language.
    pub name: String,
}

/// An exhibitor notification as the signed-in user sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExhibitorNotificationView {
    /// Notification id.
    pub id: i32,
    /// Title: `title` in the request's language, `title_ja`, `title_en`.
    #[serde(flatten)]
    pub title: localized::Title,
    /// Label (e.g. "Important"): `label` in the request's language, `label_ja`, `label_en`.
    #[serde(flatten)]
    pub label: localized::Label,
    /// Body text (plain text, line breaks kept): `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// When it was published.
    pub published_at: DateTime<Utc>,
    /// Shown to users (always true in these responses).
    pub is_public: bool,
    /// Whether this user has opened it.
    pub is_read: bool,
    /// The event it is about, if any.
    pub event: Option<NotificationEventView>,
}

/// One page of a user's notifications.
pub struct NotificationPage {
    /// The notifications on this page, newest first.
    pub items: Vec<ExhibitorNotificationView>,
    /// How many the user can see.
    pub count: u64,
    /// How many of those the user has not opened.
    pub unread: u64,
}

impl exhibitor_notification::Model {
    /// Public and published at `now`.
    fn visible(now: DateTime<Utc>) -> Condition {
        Condition::all()
            .add(exhibitor_notification::Column::IsPublic.eq(true))
            .add(exhibitor_notification::Column::PublishedAt.lte(now))
    }

    /// One page of the notifications visible at `now`, newest first, as `user_id` sees them.
    pub async fn page(
        db: &impl ConnectionTrait,
        user_id: i32,
        now: DateTime<Utc>,
        page: PageRequest,
        lang: Lang,
    ) -> Result<NotificationPage> {
        let select = exhibitor_notification::Entity::find()
            .filter(Self::visible(now))
            .order_by_desc(exhibitor_notification::Column::PublishedAt)
            .order_by_desc(exhibitor_notification::Column::Id);
        let count = select.clone().count(db).await?;
        let read =
            select.clone().filter(exhibitor_notification::Column::Id.in_subquery(read_ids(user_id))).count(db).await?;
        let rows = select.offset(page.offset()).limit(page.limit).all(db).await?;
        let items = ExhibitorNotificationView::load(db, rows, user_id, lang).await?;
        Ok(NotificationPage { items, count, unread: count.saturating_sub(read) })
    }

    /// The notification `id` if it is visible at `now`; 404 otherwise.
    pub async fn find_visible(db: &impl ConnectionTrait, id: i32, now: DateTime<Utc>) -> Result<Self> {
        exhibitor_notification::Entity::find_by_id(id)
            .filter(Self::visible(now))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Records that `user_id` opened this notification at `now` (the first time counts).
    pub async fn mark_read(&self, db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<()> {
        use exhibitor_notification_read::Column as C;
        exhibitor_notification_read::Entity::insert(exhibitor_notification_read::ActiveModel {
            user_id: Set(user_id),
            exhibitor_notification_id: Set(self.id),
            read_at: Set(now),
            ..Default::default()
        })
        .on_conflict_do_nothing_on([C::UserId, C::ExhibitorNotificationId])
        .exec_without_returning(db)
        .await?;
        Ok(())
    }
}

/// The ids of the notifications `user_id` has opened, as a subquery.
fn read_ids(user_id: i32) -> sea_orm::sea_query::SelectStatement {
    sea_orm::sea_query::Query::select()
        .column(exhibitor_notification_read::Column::ExhibitorNotificationId)
        .from(exhibitor_notification_read::Entity)
        .and_where(exhibitor_notification_read::Column::UserId.eq(user_id))
        .to_owned()
}

impl ExhibitorNotificationView {
    /// Views of `rows` for `user_id` in `lang`, with read flags and events in two queries.
    pub async fn load(
        db: &impl ConnectionTrait,
        rows: Vec<exhibitor_notification::Model>,
        user_id: i32,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let ids = rows.iter().map(|r| r.id);
        let read: HashSet<i32> = exhibitor_notification_read::Entity::find()
            .select_only()
            .column(exhibitor_notification_read::Column::ExhibitorNotificationId)
            .filter(exhibitor_notification_read::Column::UserId.eq(user_id))
            .filter(exhibitor_notification_read::Column::ExhibitorNotificationId.is_in(ids))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        let events: HashMap<i32, event::Model> = event::Entity::find()
            .filter(event::Column::Id.is_in(rows.iter().filter_map(|r| r.event_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect();
        Ok(rows
            .into_iter()
            .map(|n| Self {
                id: n.id,
                title: Localized::new(lang, n.title_ja, n.title_en),
                label: Localized::new(lang, n.label_ja, n.label_en),
                description: Localized::new(lang, n.description_ja, n.description_en),
                published_at: n.published_at,
                is_public: n.is_public,
                is_read: read.contains(&n.id),
                event: n.event_id.and_then(|id| events.get(&id)).map(|e| NotificationEventView {
                    id: e.id,
                    permalink: e.permalink.clone(),
                    name: lang.pick(&e.name_ja, &e.name_en).to_string(),
                }),
            })
            .collect())
    }

    /// Opens the notification `id` for `user_id` at `now`: 404 unless visible; marks it read.
    pub async fn open(
        db: &impl ConnectionTrait,
        id: i32,
        user_id: i32,
        now: DateTime<Utc>,
        lang: Lang,
    ) -> Result<Self> {
        let n = exhibitor_notification::Model::find_visible(db, id, now).await?;
        n.mark_read(db, user_id, now).await?;
        Self::load(db, vec![n], user_id, lang).await?.pop().ok_or_else(Error::not_found)
    }
}
