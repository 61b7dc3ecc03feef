//! The public hub's notifications (spec §3 "Hub"), with their tags, world and user: the
//! visibility rule, filters with time windows and the keyword search, and the client view. The
//! hub's other models: `hub_tag`, `hub_user`, `ambassador`, `streamer`; the notifications held in
//! memory: `hub_memory`.
//!
//! **Visibility.** A notification is seen by the public only when `is_public` is set and its
//! `publish_at` has passed (by the application clock). Everything here applies that rule; a
//! hidden notification is 404 like an unknown one.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Query;
use sea_orm::{Condition, ConnectionTrait, DatabaseBackend, Order, PaginatorTrait, QueryOrder, QuerySelect, Select};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{hub_notification, hub_notification_tag, hub_tag, user, world};
use crate::error::{Error, Result};
use crate::model::hub_tag::HubTagView;
use crate::model::hub_user::HubUserView;
use crate::model::pagination::PageRequest;
use crate::model::search;
use crate::model::tree::Tree;
use crate::types::{Lang, Localized, localized};

/// Defined with its entity (`db::entities::hub_notification`); part of this model's API.
pub use crate::db::entities::hub_notification::{HubCategory, HubLocale};

impl HubLocale {
    /// The audience of pages in `lang`.
    pub fn of(lang: Lang) -> Self {
        match lang {
            Lang::Ja => Self::Jp,
            Lang::En => Self::Global,
        }
    }
}

impl HubCategory {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OfficialStream => "official_stream",
            Self::EventInMetaverse => "event_in_metaverse",
            Self::Campaign => "campaign",
            Self::UserEvent => "user_event",
        }
    }
}

/// Filters of notification lists. Time bounds are inclusive on `*_from` and exclusive on `*_to`.
#[derive(Debug, Clone, Default)]
pub struct HubFilter {
    /// Any of these categories (all when empty).
    pub categories: Vec<HubCategory>,
    /// Only this audience.
    pub locale: Option<HubLocale>,
    /// Only notifications with this tag.
    pub hub_tag_id: Option<i32>,
    /// Only notifications held in this world.
    pub world_id: Option<i32>,
    /// Only notifications of this user (streamer or ambassador).
    pub user_id: Option<i32>,
    /// Words that must all appear in the title or content.
    pub keyword: Option<String>,
    /// Only official (or only unofficial) notifications.
    pub is_official: Option<bool>,
    /// Only ambassadors' (or only non-ambassadors') notifications.
    pub by_ambassador: Option<bool>,
    /// Starting at or after.
    pub start_from: Option<DateTime<Utc>>,
    /// Starting before.
    pub start_to: Option<DateTime<Utc>>,
    /// Ending at or after.
    pub end_from: Option<DateTime<Utc>>,
    /// Ending before.
    pub end_to: Option<DateTime<Utc>>,
    /// Live at this instant: started, and not yet ended.
    pub live_at: Option<DateTime<Utc>>,
}

/// One page of notifications.
pub struct HubPage {
    /// The notifications on this page.
    pub items: Vec<hub_notification::Model>,
    /// How many match.
    pub count: u64,
    /// How many the event's hub shows in all.
    pub all: u64,
}

impl hub_notification::Model {
    /// Public and published at `now`, in `event_id`.
    pub(crate) fn visible(event_id: i32, now: DateTime<Utc>) -> Condition {
        Condition::all()
            .add(hub_notification::Column::EventId.eq(event_id))
            .add(hub_notification::Column::IsPublic.eq(true))
            .add(hub_notification::Column::PublishAt.lte(now))
    }

    /// Whether the public sees this notification at `now`.
    pub fn is_visible(&self, now: DateTime<Utc>) -> bool {
        self.is_public && self.publish_at <= now
    }

    /// Whether it is running at `now`.
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.start_at <= now && self.end_at.is_some_and(|end| now < end)
    }

    /// The visible notifications of `event_id` matching `filter`: strongly recommended first,
    /// then by start, newest first.
    pub fn filtered(
        backend: DatabaseBackend,
        event_id: i32,
        now: DateTime<Utc>,
        filter: &HubFilter,
    ) -> Select<hub_notification::Entity> {
        use hub_notification::Column as C;
        let mut cond = Self::visible(event_id, now);
        if !filter.categories.is_empty() {
            cond = cond.add(C::Category.is_in(filter.categories.iter().copied()));
        }
        if let Some(l) = filter.locale {
            cond = cond.add(C::Locale.eq(l));
        }
        if let Some(tag) = filter.hub_tag_id {
            cond = cond.add(
                C::Id.in_subquery(
                    Query::select()
                        .column(hub_notification_tag::Column::HubNotificationId)
                        .from(hub_notification_tag::Entity)
                        .and_where(hub_notification_tag::Column::HubTagId.eq(tag))
                        .to_owned(),
                ),
            );
        }
        if let Some(w) = filter.world_id {
            cond = cond.add(C::WorldId.eq(w));
        }
        if let Some(u) = filter.user_id {
            cond = cond.add(C::UserId.eq(u));
        }
        if let Some(f) = filter.is_official {
            cond = cond.add(C::IsOfficial.eq(f));
        }
        if let Some(f) = filter.by_ambassador {
            cond = cond.add(C::ByAmbassador.eq(f));
        }
        if let Some(t) = filter.start_from {
            cond = cond.add(C::StartAt.gte(t));
        }
        if let Some(t) = filter.start_to {
            cond = cond.add(C::StartAt.lt(t));
        }
        if let Some(t) = filter.end_from {
            cond = cond.add(C::EndAt.gte(t));
        }
        if let Some(t) = filter.end_to {
            cond = cond.add(C::EndAt.lt(t));
        }
        if let Some(t) = filter.live_at {
            cond = cond.add(C::StartAt.lte(t)).add(C::EndAt.gt(t));
        }
        let keyword = filter.keyword.as_deref().unwrap_or("");
        if let Some(m) = search::matches(backend, search::HUB_NOTIFICATIONS, keyword) {
            cond = cond.add(m);
        }
        let mut select = hub_notification::Entity::find().filter(cond);
        if let Some(rank) = search::name_rank(backend, search::HUB_NOTIFICATIONS, keyword) {
            select = select.order_by(rank, Order::Asc);
        }
        if filter.live_at.is_some() {
            // What is on now: whatever ends soonest first.
            return select.order_by_asc(C::EndAt).order_by_asc(C::Id);
        }
        select.order_by_desc(C::IsStrongRecommended).order_by_desc(C::StartAt).order_by_desc(C::Id)
    }

    /// One page of the visible notifications of `event_id` matching `filter`.
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        now: DateTime<Utc>,
        filter: &HubFilter,
        page: PageRequest,
    ) -> Result<HubPage> {
        let select = Self::filtered(db.get_database_backend(), event_id, now, filter);
        let count = select.clone().count(db).await?;
        let all = hub_notification::Entity::find().filter(Self::visible(event_id, now)).count(db).await?;
        let items = select.offset(page.offset()).limit(page.limit).all(db).await?;
        Ok(HubPage { items, count, all })
    }

    /// [`Self::page`], with the unfiltered count taken from the event tree, and the filtered count
    /// from the page itself when it is the last one ([`PageRequest::count_from_rows`]): one or
    /// two statements less.
    pub async fn page_in(
        db: &impl ConnectionTrait,
        tree: &Tree,
        event_id: i32,
        now: DateTime<Utc>,
        filter: &HubFilter,
        page: PageRequest,
    ) -> Result<HubPage> {
        let select = Self::filtered(db.get_database_backend(), event_id, now, filter);
        let items = select.clone().offset(page.offset()).limit(page.limit).all(db).await?;
        let count = match page.count_from_rows(items.len()) {
            Some(count) => count,
            None => select.count(db).await?,
        };
        Ok(HubPage { items, count, all: tree.hub_published_count(event_id, now) })
    }

    /// The notification `id` of `event_id` if the public sees it at `now`; 404 otherwise.
    pub async fn find_visible(db: &impl ConnectionTrait, event_id: i32, id: i32, now: DateTime<Utc>) -> Result<Self> {
        hub_notification::Entity::find_by_id(id)
            .filter(Self::visible(event_id, now))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }
}

/// The world a notification takes place in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HubWorldView {
    /// World id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Key image.
    pub image: Option<String>,
}

/// A hub notification as clients see it (spec §3 "Hub notification").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HubNotificationView {
    /// Notification id.
    pub id: i32,
    /// The event it belongs to.
    pub event_id: i32,
    /// Title (in the notification's own language, see `locale`).
    pub title: String,
    /// Body text.
    pub content: String,
    /// Where to read more or watch.
    pub link_url: Option<String>,
    /// Thumbnail.
    pub thumbnail: Option<String>,
    /// When it became visible.
    pub publish_at: DateTime<Utc>,
    /// When it starts.
    pub start_at: DateTime<Utc>,
    /// When it ends, if it has an end.
    pub end_at: Option<DateTime<Utc>>,
    /// The date shown on cards, if not the start.
    pub display_date: Option<DateTime<Utc>>,
    /// Audience: jp or global.
    pub locale: HubLocale,
    /// What it is about.
    pub category: HubCategory,
    /// Posted by the organisers.
    pub is_official: bool,
    /// Posted by an ambassador.
    pub by_ambassador: bool,
    /// A stream by an official streamer.
    pub is_certificated_stream: bool,
    /// Shown to the public (always true in public responses).
    pub is_public: bool,
    /// Pinned first.
    pub is_strong_recommended: bool,
    /// Running at the time of the request.
    pub is_live: bool,
    /// Its tags.
    pub hub_tags: Vec<HubTagView>,
    /// The world it takes place in.
    pub world: Option<HubWorldView>,
    /// The streamer, ambassador or organiser behind it.
    pub user: Option<HubUserView>,
}

impl HubNotificationView {
    /// The view of `n` in `lang` at `now`, with its tags, world and user already looked up.
    pub(crate) fn assemble(
        n: hub_notification::Model,
        hub_tags: Vec<HubTagView>,
        world: Option<&world::Model>,
        user: Option<&user::Model>,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Self {
        Self {
            id: n.id,
            event_id: n.event_id,
            is_live: n.is_live(now),
            hub_tags,
            world: world.map(|w| HubWorldView {
                id: w.id,
                name: Localized::new(lang, w.name_ja.clone(), w.name_en.clone()),
                image: w.image.clone(),
            }),
            user: user.map(|u| HubUserView::new(u, lang)),
            title: n.title,
            content: n.content,
            link_url: n.link_url,
            thumbnail: n.thumbnail,
            publish_at: n.publish_at,
            start_at: n.start_at,
            end_at: n.end_at,
            display_date: n.display_date,
            locale: n.locale,
            category: n.category,
            is_official: n.is_official,
            by_ambassador: n.by_ambassador,
            is_certificated_stream: n.is_certificated_stream,
            is_public: n.is_public,
            is_strong_recommended: n.is_strong_recommended,
        }
    }

    /// Views of `items` in `lang` at `now`, with tags, worlds and users in four queries.
    pub async fn load(
        db: &impl ConnectionTrait,
        items: Vec<hub_notification::Model>,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Self>> {
        let links = hub_notification_tag::Entity::find()
            .filter(hub_notification_tag::Column::HubNotificationId.is_in(items.iter().map(|i| i.id)))
            .order_by_asc(hub_notification_tag::Column::Id)
            .all(db)
            .await?;
        let tags: HashMap<i32, hub_tag::Model> = hub_tag::Entity::find()
            .filter(hub_tag::Column::Id.is_in(links.iter().map(|l| l.hub_tag_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|t| (t.id, t))
            .collect();
        let mut by_item: HashMap<i32, Vec<HubTagView>> = HashMap::new();
        for l in &links {
            if let Some(t) = tags.get(&l.hub_tag_id) {
                by_item.entry(l.hub_notification_id).or_default().push(HubTagView::new(t, lang));
            }
        }
        let worlds: HashMap<i32, world::Model> = world::Entity::find()
            .filter(world::Column::Id.is_in(items.iter().filter_map(|i| i.world_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        let users: HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(items.iter().filter_map(|i| i.user_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        Ok(items
            .into_iter()
            .map(|n| {
                let tags = by_item.remove(&n.id).unwrap_or_default();
                let world = n.world_id.and_then(|id| worlds.get(&id));
                let user = n.user_id.and_then(|id| users.get(&id));
                Self::assemble(n, tags, world, user, lang, now)
            })
            .collect())
    }

    /// [`Self::load`] with tags and worlds from the event tree: two statements (tag links,
    /// users), whatever the number of items.
    pub async fn load_with_tree(
        db: &impl ConnectionTrait,
        tree: &Tree,
        items: Vec<hub_notification::Model>,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Self>> {
        if items.iter().filter_map(|i| i.world_id).any(|w| tree.world_by_id(w).is_none()) {
            return Self::load(db, items, lang, now).await;
        }
        let links = if items.is_empty() {
            Vec::new()
        } else {
            hub_notification_tag::Entity::find()
                .filter(hub_notification_tag::Column::HubNotificationId.is_in(items.iter().map(|i| i.id)))
                .order_by_asc(hub_notification_tag::Column::Id)
                .all(db)
                .await?
        };
        let tags: HashMap<i32, &hub_tag::Model> = tree.hub_tags.iter().map(|t| (t.id, t)).collect();
        let mut by_item: HashMap<i32, Vec<HubTagView>> = HashMap::new();
        for l in &links {
            if let Some(t) = tags.get(&l.hub_tag_id) {
                by_item.entry(l.hub_notification_id).or_default().push(HubTagView::new(t, lang));
            }
        }
        let users = user::Model::by_ids(db, items.iter().filter_map(|i| i.user_id)).await?;
        Ok(items
            .into_iter()
            .map(|n| {
                let tags = by_item.remove(&n.id).unwrap_or_default();
                let world = n.world_id.and_then(|id| tree.world_by_id(id));
                let user = n.user_id.and_then(|id| users.get(&id));
                Self::assemble(n, tags, world, user, lang, now)
            })
            .collect())
    }

    /// The view of one notification.
    pub async fn load_one(
        db: &impl ConnectionTrait,
        item: hub_notification::Model,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        Self::load(db, vec![item], lang, now).await?.pop().ok_or_else(Error::not_found)
    }
}
