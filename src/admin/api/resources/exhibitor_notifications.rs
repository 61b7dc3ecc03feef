//! `exhibitor_notifications`: news for exhibitors on their mypage, optionally about one event,
//! visible once public and published.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{Instant, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{event, exhibitor_notification};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct ExhibitorNotifications;

/// A notification as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct ExhibitorNotificationRecord {
    /// Notification id.
    pub id: i32,
    /// The event it is about, if any.
    pub event_id: Option<i32>,
    /// Japanese title.
    pub title_ja: String,
    /// English title.
    pub title_en: String,
    /// Japanese label ("重要").
    pub label_ja: String,
    /// English label ("Important").
    pub label_en: String,
    /// Japanese text.
    pub description_ja: String,
    /// English text.
    pub description_en: String,
    /// When it becomes visible.
    pub published_at: DateTime<Utc>,
    /// Visible at all.
    pub is_public: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for a notification.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct ExhibitorNotificationInput {
    /// The event it is about, if any.
    pub event_id: Option<i32>,
    /// Japanese title.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 256), custom(function = "checks::clean_text"))]
    pub title_ja: Option<String>,
    /// English title.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 256), custom(function = "checks::clean_text"))]
    pub title_en: Option<String>,
    /// Japanese label.
    #[validate(length(max = 32), custom(function = "checks::clean_text"))]
    pub label_ja: String,
    /// English label.
    #[validate(length(max = 32), custom(function = "checks::clean_text"))]
    pub label_en: String,
    /// Japanese text.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 10000), custom(function = "checks::clean_text"))]
    pub description_ja: Option<String>,
    /// English text.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 10000), custom(function = "checks::clean_text"))]
    pub description_en: Option<String>,
    /// When it becomes visible.
    #[validate(required)]
    pub published_at: Option<Instant>,
    /// Visible at all.
    pub is_public: bool,
}

impl Resource for ExhibitorNotifications {
    type Entity = exhibitor_notification::Entity;
    type Record = ExhibitorNotificationRecord;
    type Input = ExhibitorNotificationInput;

    const NAME: &'static str = "exhibitor_notifications";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["published_at", "event_id", "is_public", "title_ja"],
        filter: &["event_id", "is_public", "published_at"],
        search: &["title_ja", "title_en", "description_ja", "description_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<exhibitor_notification::Model>,
    ) -> Result<Vec<ExhibitorNotificationRecord>> {
        Ok(rows
            .into_iter()
            .map(|n| ExhibitorNotificationRecord {
                id: n.id,
                event_id: n.event_id,
                title_ja: n.title_ja,
                title_en: n.title_en,
                label_ja: n.label_ja,
                label_en: n.label_en,
                description_ja: n.description_ja,
                description_en: n.description_en,
                published_at: n.published_at,
                is_public: n.is_public,
                created_at: n.created_at,
                updated_at: n.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: ExhibitorNotificationInput, cx: &Cx<'_>) -> Result<i32> {
        let row = exhibitor_notification::ActiveModel { created_at: Set(cx.acted_at()), ..Default::default() };
        Ok(fill(txn, row, input, cx).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: exhibitor_notification::Model,
        input: ExhibitorNotificationInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input, cx).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: exhibitor_notification::ActiveModel,
    input: ExhibitorNotificationInput,
    cx: &Cx<'_>,
) -> Result<exhibitor_notification::ActiveModel> {
    if let Some(event_id) = input.event_id {
        must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    }
    row.event_id = Set(input.event_id);
    row.title_ja = Set(input.title_ja.unwrap_or_default());
    row.title_en = Set(input.title_en.unwrap_or_default());
    row.label_ja = Set(input.label_ja);
    row.label_en = Set(input.label_en);
    row.description_ja = Set(input.description_ja.unwrap_or_default());
    row.description_en = Set(input.description_en.unwrap_or_default());
    row.published_at = Set(input.published_at.map_or(cx.now, |at| at.0));
    row.is_public = Set(input.is_public);
    row.updated_at = Set(cx.acted_at());
    Ok(row)
}
