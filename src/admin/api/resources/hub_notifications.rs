//! `hub_notifications`: the hub's official streams, metaverse events, campaigns and the user
//! events visitors post (staff moderate those: public / strongly recommended, as bulk actions
//! too). Tags are edited as a list of hub tag ids.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, Instant, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{event, hub_notification, hub_notification_tag};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;
use crate::model::hub_notification::{HubCategory, HubLocale};
use crate::model::user_event::{MAX_TAGS, unknown_references};

/// The resource.
pub struct HubNotifications;

/// A hub notification as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct HubNotificationRecord {
    /// Notification id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// Title.
    pub title: String,
    /// Text.
    pub content: String,
    /// Where to read more or join.
    pub link_url: Option<String>,
    /// Thumbnail (uploads come later; read-only here).
    pub thumbnail: Option<String>,
    /// When it becomes visible.
    pub publish_at: DateTime<Utc>,
    /// When it starts.
    pub start_at: DateTime<Utc>,
    /// When it ends.
    pub end_at: Option<DateTime<Utc>>,
    /// The date cards show instead of the start.
    pub display_date: Option<DateTime<Utc>>,
    /// Audience.
    pub locale: HubLocale,
    /// Kind.
    pub category: HubCategory,
    /// Official.
    pub is_official: bool,
    /// Posted by an ambassador.
    pub by_ambassador: bool,
    /// A certificated streamer's stream.
    pub is_certificated_stream: bool,
    /// Visible to the public.
    pub is_public: bool,
    /// Strongly recommended (featured).
    pub is_strong_recommended: bool,
    /// The world it takes place in.
    pub world_id: Option<i32>,
    /// Its author, for user events.
    pub user_id: Option<i32>,
    /// Hub tag ids.
    pub hub_tag_ids: Vec<i32>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a hub notification.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct HubNotificationInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// Title.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 256), custom(function = "checks::clean_text"))]
    pub title: Option<String>,
    /// Text.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 4096), custom(function = "checks::clean_text"))]
    pub content: Option<String>,
    /// Where to read more or join (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub link_url: Option<String>,
    /// Thumbnail (an uploaded picture's address).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub thumbnail: Option<String>,
    /// When it becomes visible.
    #[validate(required)]
    pub publish_at: Option<Instant>,
    /// When it starts.
    #[validate(required)]
    pub start_at: Option<Instant>,
    /// When it ends.
    pub end_at: Option<Instant>,
    /// The date cards show instead of the start.
    pub display_date: Option<Instant>,
    /// Audience.
    #[validate(required)]
    pub locale: Option<HubLocale>,
    /// Kind.
    #[validate(required)]
    pub category: Option<HubCategory>,
    /// Official.
    pub is_official: bool,
    /// Posted by an ambassador.
    pub by_ambassador: bool,
    /// A certificated streamer's stream.
    pub is_certificated_stream: bool,
    /// Visible to the public.
    pub is_public: bool,
    /// Strongly recommended.
    pub is_strong_recommended: bool,
    /// The world it takes place in (one of the event's).
    pub world_id: Option<i32>,
    /// Hub tag ids.
    #[validate(length(max = 10))]
    pub hub_tag_ids: Vec<i32>,
}

impl Resource for HubNotifications {
    type Entity = hub_notification::Entity;
    type Record = HubNotificationRecord;
    type Input = HubNotificationInput;

    const NAME: &'static str = "hub_notifications";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["publish_at", "start_at", "event_id", "category", "title", "is_public", "is_strong_recommended"],
        filter: &[
            "event_id",
            "category",
            "locale",
            "is_public",
            "is_strong_recommended",
            "is_official",
            "user_id",
            "world_id",
            "start_at",
            "publish_at",
        ],
        search: &["title", "content"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[ImageSlot::thumbnail("thumbnail")];

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<hub_notification::Model>,
    ) -> Result<Vec<HubNotificationRecord>> {
        let ids: Vec<i32> = rows.iter().map(|n| n.id).collect();
        let mut tags: HashMap<i32, Vec<i32>> = HashMap::new();
        for link in hub_notification_tag::Entity::find()
            .filter(hub_notification_tag::Column::HubNotificationId.is_in(ids))
            .all(db)
            .await?
        {
            tags.entry(link.hub_notification_id).or_default().push(link.hub_tag_id);
        }
        Ok(rows
            .into_iter()
            .map(|n| HubNotificationRecord {
                hub_tag_ids: tags.remove(&n.id).unwrap_or_default(),
                id: n.id,
                event_id: n.event_id,
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
                world_id: n.world_id,
                user_id: n.user_id,
                created_at: n.created_at,
                updated_at: n.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: HubNotificationInput, cx: &Cx<'_>) -> Result<i32> {
        let row =
            hub_notification::ActiveModel { user_id: Set(None), created_at: Set(cx.acted_at()), ..Default::default() };
        let tags = input.hub_tag_ids.clone();
        let saved = fill(txn, row, input, cx).await?.insert(txn).await?;
        replace_tags(txn, saved.id, tags).await?;
        Ok(saved.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: hub_notification::Model,
        input: HubNotificationInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let id = row.id;
        let tags = input.hub_tag_ids.clone();
        fill(txn, row.into(), input, cx).await?.update(txn).await?;
        replace_tags(txn, id, tags).await
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: hub_notification::ActiveModel,
    input: HubNotificationInput,
    cx: &Cx<'_>,
) -> Result<hub_notification::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    let (world_unknown, unknown_tags) = unknown_references(txn, event_id, input.world_id, &input.hub_tag_ids).await?;
    let start_at = input.start_at.map(|at| at.0).unwrap_or(cx.now);
    let end_at = input.end_at.map(|at| at.0);
    let mut problems = Vec::new();
    if end_at.is_some_and(|end| end <= start_at) {
        problems.push(Invalid::new("end_at", "validation.time_range"));
    }
    if let Some(tag) = unknown_tags.first() {
        problems.push(Invalid::new("hub_tag_ids", "validation.unknown_tag").with("id", tag));
    }
    if world_unknown {
        problems.push(Invalid::new("world_id", "validation.unknown_world"));
    }
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    debug_assert!(input.hub_tag_ids.len() <= MAX_TAGS);
    row.event_id = Set(event_id);
    row.title = Set(input.title.unwrap_or_default());
    row.content = Set(input.content.unwrap_or_default());
    row.link_url = Set(input.link_url);
    row.thumbnail = Set(input.thumbnail);
    row.publish_at = Set(input.publish_at.map_or(cx.now, |at| at.0));
    row.start_at = Set(start_at);
    row.end_at = Set(end_at);
    row.display_date = Set(input.display_date.map(|at| at.0));
    row.locale = Set(input.locale.unwrap_or(HubLocale::Jp));
    row.category = Set(input.category.unwrap_or(HubCategory::EventInMetaverse));
    row.is_official = Set(input.is_official);
    row.by_ambassador = Set(input.by_ambassador);
    row.is_certificated_stream = Set(input.is_certificated_stream);
    row.is_public = Set(input.is_public);
    row.is_strong_recommended = Set(input.is_strong_recommended);
    row.world_id = Set(input.world_id);
    row.updated_at = Set(cx.acted_at());
    Ok(row)
}

/// Makes the notification's tags exactly `tags`.
async fn replace_tags(txn: &DatabaseTransaction, id: i32, mut tags: Vec<i32>) -> Result<()> {
    tags.sort_unstable();
    tags.dedup();
    hub_notification_tag::Entity::delete_many()
        .filter(hub_notification_tag::Column::HubNotificationId.eq(id))
        .exec(txn)
        .await?;
    for tag in tags {
        hub_notification_tag::ActiveModel { hub_notification_id: Set(id), hub_tag_id: Set(tag), ..Default::default() }
            .insert(txn)
            .await?;
    }
    Ok(())
}
