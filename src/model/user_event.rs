//! User events: hub notifications a signed-in user posts to an event's hub (spec §5 "Hub user
//! event": title, content, start and audience required; the category is always `user_event`).
//! Each belongs to its author; only the author lists, reads, changes or deletes it here.
//! They go public at their publish time, like every hub notification.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{
    Condition, ConnectionTrait, PaginatorTrait, QueryOrder, QuerySelect, Set, TransactionSession, TransactionTrait,
};

use crate::db::entities::{ambassador, hub_notification, hub_notification_tag, hub_tag, user, world};
use crate::error::{Error, Result};
use crate::model::hub_notification::{HubCategory, HubLocale};
use crate::model::pagination::PageRequest;

/// The most tags one user event may carry.
pub const MAX_TAGS: usize = 10;

/// A checked user event, as written by its author, ready to store as a new post or over one.
#[derive(Debug, Clone)]
pub struct NewUserEvent {
    /// Title.
    pub title: String,
    /// Body text.
    pub content: String,
    /// Where to read more or join.
    pub link_url: Option<String>,
    /// Thumbnail URL (a stored upload), `None` to keep the current one.
    pub thumbnail: Option<String>,
    /// When it becomes visible (`None`: at once).
    pub publish_at: Option<DateTime<Utc>>,
    /// When it starts.
    pub start_at: DateTime<Utc>,
    /// When it ends.
    pub end_at: Option<DateTime<Utc>>,
    /// The date shown on cards instead of the start.
    pub display_date: Option<DateTime<Utc>>,
    /// Audience.
    pub locale: HubLocale,
    /// The world it takes place in (a world of the event).
    pub world_id: Option<i32>,
    /// Hub tags (existing tag ids).
    pub hub_tags: Vec<i32>,
}

/// Which references of an input name nothing: `(world unknown, unknown tag ids)`.
pub async fn unknown_references(
    db: &impl ConnectionTrait,
    event_id: i32,
    world_id: Option<i32>,
    tags: &[i32],
) -> Result<(bool, Vec<i32>)> {
    let world_unknown = match world_id {
        None => false,
        Some(id) => world::Entity::find_by_id(id).filter(world::Column::EventId.eq(event_id)).one(db).await?.is_none(),
    };
    let known: Vec<i32> = hub_tag::Entity::find()
        .select_only()
        .column(hub_tag::Column::Id)
        .filter(hub_tag::Column::Id.is_in(tags.iter().copied()))
        .into_tuple()
        .all(db)
        .await?;
    Ok((world_unknown, tags.iter().copied().filter(|t| !known.contains(t)).collect()))
}

/// Which of a user's events a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every one.
    All,
    /// Those not over yet: upcoming or running.
    Open,
    /// Those over: past their end, or past their start when they have no end.
    Closed,
}

/// Where a user event stands at an instant, as its author sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Waiting for its publish time.
    Scheduled,
    /// On the hub, not over yet.
    Published,
    /// Over.
    Ended,
    /// Taken off the hub by staff (`is_public` cleared).
    Hidden,
}

impl hub_notification::Model {
    /// `user_id`'s user events in `event_id`.
    fn own(event_id: i32, user_id: i32) -> Condition {
        Condition::all()
            .add(hub_notification::Column::EventId.eq(event_id))
            .add(hub_notification::Column::UserId.eq(user_id))
            .add(hub_notification::Column::Category.eq(HubCategory::UserEvent))
    }

    /// Whether the event is over at `now`: past its end, or past its start without an end.
    pub fn is_over(&self, now: DateTime<Utc>) -> bool {
        self.end_at.unwrap_or(self.start_at) <= now
    }

    /// Where this user event stands at `now`.
    pub fn standing(&self, now: DateTime<Utc>) -> Standing {
        if !self.is_public {
            Standing::Hidden
        } else if self.is_over(now) {
            Standing::Ended
        } else if self.publish_at > now {
            Standing::Scheduled
        } else {
            Standing::Published
        }
    }

    /// One page of `user_id`'s user events in `event_id` within `scope` at `now`, newest start
    /// first, published or not.
    pub async fn own_page(
        db: &impl ConnectionTrait,
        event_id: i32,
        user_id: i32,
        scope: Scope,
        now: DateTime<Utc>,
        page: PageRequest,
    ) -> Result<(Vec<Self>, u64)> {
        use hub_notification::Column as C;
        // Spelled out both ways: NOT over a NULL end_at would be NULL, not true.
        let scope = match scope {
            Scope::All => Condition::all(),
            Scope::Open => Condition::any()
                .add(C::EndAt.gt(now))
                .add(Condition::all().add(C::EndAt.is_null()).add(C::StartAt.gt(now))),
            Scope::Closed => Condition::any()
                .add(C::EndAt.lte(now))
                .add(Condition::all().add(C::EndAt.is_null()).add(C::StartAt.lte(now))),
        };
        let select = hub_notification::Entity::find()
            .filter(Self::own(event_id, user_id))
            .filter(scope)
            .order_by_desc(hub_notification::Column::StartAt)
            .order_by_desc(hub_notification::Column::Id);
        let count = select.clone().count(db).await?;
        Ok((select.offset(page.offset()).limit(page.limit).all(db).await?, count))
    }

    /// `user_id`'s user event `id` in `event_id`; 404 for anything else (someone else's
    /// notification is as unknown as a missing one).
    pub async fn find_own(db: &impl ConnectionTrait, event_id: i32, user_id: i32, id: i32) -> Result<Self> {
        hub_notification::Entity::find_by_id(id)
            .filter(Self::own(event_id, user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// The ids of this notification's hub tags.
    pub async fn tag_ids(&self, db: &impl ConnectionTrait) -> Result<Vec<i32>> {
        Ok(hub_notification_tag::Entity::find()
            .select_only()
            .column(hub_notification_tag::Column::HubTagId)
            .filter(hub_notification_tag::Column::HubNotificationId.eq(self.id))
            .order_by_asc(hub_notification_tag::Column::Id)
            .into_tuple()
            .all(db)
            .await?)
    }

    /// Posts a user event by `author` in `event_id` at `now`.
    pub async fn create_user_event<C: ConnectionTrait + TransactionTrait>(
        db: &C,
        event_id: i32,
        author: &user::Model,
        input: NewUserEvent,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let by_ambassador = ambassador::Entity::find()
            .filter(ambassador::Column::UserId.eq(author.id))
            .filter(ambassador::Column::IsInactive.eq(false))
            .one(db)
            .await?
            .is_some();
        let txn = crate::db::begin_write(db).await?;
        let row = hub_notification::ActiveModel {
            event_id: Set(event_id),
            category: Set(HubCategory::UserEvent),
            is_official: Set(false),
            by_ambassador: Set(by_ambassador),
            is_certificated_stream: Set(false),
            is_public: Set(true),
            is_strong_recommended: Set(false),
            user_id: Set(Some(author.id)),
            thumbnail: Set(input.thumbnail.clone()),
            created_at: Set(now),
            ..Default::default()
        };
        let row = fill(row, &input, now).insert(&txn).await?;
        set_tags(&txn, row.id, &input.hub_tags).await?;
        txn.commit().await?;
        Ok(row)
    }

    /// Replaces this user event's fields with `input` at `now` (the thumbnail only when a new
    /// one was uploaded).
    pub async fn update_user_event<C: ConnectionTrait + TransactionTrait>(
        self,
        db: &C,
        input: NewUserEvent,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let txn = crate::db::begin_write(db).await?;
        let mut row: hub_notification::ActiveModel = self.into();
        if let Some(t) = &input.thumbnail {
            row.thumbnail = Set(Some(t.clone()));
        }
        let row = fill(row, &input, now).update(&txn).await?;
        set_tags(&txn, row.id, &input.hub_tags).await?;
        txn.commit().await?;
        Ok(row)
    }

    /// Deletes this user event with its tag links.
    pub async fn delete_user_event(self, db: &impl ConnectionTrait) -> Result<()> {
        hub_notification_tag::Entity::delete_many()
            .filter(hub_notification_tag::Column::HubNotificationId.eq(self.id))
            .exec(db)
            .await?;
        hub_notification::Entity::delete_by_id(self.id).exec(db).await?;
        Ok(())
    }
}

/// Sets the author-written fields of `row` from `input`.
fn fill(
    mut row: hub_notification::ActiveModel,
    input: &NewUserEvent,
    now: DateTime<Utc>,
) -> hub_notification::ActiveModel {
    row.title = Set(input.title.clone());
    row.content = Set(input.content.clone());
    row.link_url = Set(input.link_url.clone());
    row.publish_at = Set(input.publish_at.unwrap_or(now));
    row.start_at = Set(input.start_at);
    row.end_at = Set(input.end_at);
    row.display_date = Set(input.display_date);
    row.locale = Set(input.locale);
    row.world_id = Set(input.world_id);
    row.updated_at = Set(now);
    row
}

/// Makes `tags` (in order, without repeats) the tags of notification `id`.
async fn set_tags(db: &impl ConnectionTrait, id: i32, tags: &[i32]) -> Result<()> {
    hub_notification_tag::Entity::delete_many()
        .filter(hub_notification_tag::Column::HubNotificationId.eq(id))
        .exec(db)
        .await?;
    let mut seen = HashSet::new();
    for &tag in tags {
        if !seen.insert(tag) {
            continue;
        }
        hub_notification_tag::ActiveModel { hub_notification_id: Set(id), hub_tag_id: Set(tag), ..Default::default() }
            .insert(db)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    fn event(start: &str, end: Option<&str>, publish: &str, public: bool) -> hub_notification::Model {
        let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap().to_utc();
        hub_notification::Model {
            id: 1,
            event_id: 13,
            title: "t".into(),
            content: "c".into(),
            link_url: None,
            thumbnail: None,
            publish_at: at(publish),
            start_at: at(start),
            end_at: end.map(at),
            display_date: None,
            locale: HubLocale::Jp,
            category: HubCategory::UserEvent,
            is_official: false,
            by_ambassador: false,
            is_certificated_stream: false,
            is_public: public,
            is_strong_recommended: false,
            world_id: None,
            user_id: Some(1),
            created_at: at(publish),
            updated_at: at(publish),
        }
    }

    #[test]
    fn standing_follows_publish_end_and_staff() {
        let now = DateTime::parse_from_rfc3339("2026-12-01T00:00:00Z").unwrap().to_utc();
        let later = "2026-12-20T11:00:00Z";
        assert_eq!(event(later, None, "2026-11-01T00:00:00Z", true).standing(now), Standing::Published);
        assert_eq!(event(later, None, "2026-12-05T00:00:00Z", true).standing(now), Standing::Scheduled);
        assert_eq!(
            event("2026-11-20T11:00:00Z", Some("2026-11-20T13:00:00Z"), "2026-11-01T00:00:00Z", true).standing(now),
            Standing::Ended
        );
        // Without an end it is over once it has started.
        assert_eq!(event("2026-11-30T11:00:00Z", None, "2026-11-01T00:00:00Z", true).standing(now), Standing::Ended);
        assert_eq!(event(later, None, "2026-11-01T00:00:00Z", false).standing(now), Standing::Hidden);
        let running = event("2026-11-30T23:00:00Z", Some("2026-12-01T02:00:00Z"), "2026-11-01T00:00:00Z", true);
        assert_eq!(running.standing(now), Standing::Published);
        assert!(running.is_over(now + Duration::hours(2)));
    }
}
