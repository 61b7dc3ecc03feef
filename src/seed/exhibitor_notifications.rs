//! Demo exhibitor notifications (`data/exhibitor_notifications.json`): the organisers' news around the
//! 2026 events (applications, lotteries, payments, submissions, maintenance), two scheduled
//! after the demo "now" and one unpublished draft. Rows already there (same Japanese title and
//! publish time) are left alone.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::db::entities::{event, exhibitor_notification};
use crate::error::Result;

/// The file.
const FILE: Source =
    Source { name: "exhibitor_notifications.json", text: include_str!("data/exhibitor_notifications.json") };

/// One notification: `[Japanese, English]` pairs and the event's permalink.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExhibitorNotificationSeed {
    event: Option<String>,
    at: DateTime<Utc>,
    #[serde(default = "public")]
    public: bool,
    label: [String; 2],
    title: [String; 2],
    body: [String; 2],
}

fn public() -> bool {
    true
}

/// Reads `exhibitor_notifications.json`.
pub fn load() -> Result<Vec<ExhibitorNotificationSeed>> {
    let mut file = Reader::open(FILE)?;
    let notifications = file.list("notifications")?;
    file.finish()?;
    Ok(notifications)
}

/// Checks the events the notifications name.
pub fn check(notifications: &[ExhibitorNotificationSeed], keys: &Keys) -> Result<()> {
    for (i, n) in notifications.iter().enumerate() {
        if let Some(event) = &n.event {
            data::known(keys.events.contains(event), FILE.name, "notifications", i, format_args!("event `{event}`"))?;
        }
    }
    Ok(())
}

/// Writes the missing demo notifications (those of an event that is not there are skipped);
/// returns how many were created.
pub async fn seed(db: &impl ConnectionTrait, notifications: &[ExhibitorNotificationSeed]) -> Result<usize> {
    let mut created = 0;
    for n in notifications {
        let exists = exhibitor_notification::Entity::find()
            .filter(exhibitor_notification::Column::TitleJa.eq(&n.title[0]))
            .filter(exhibitor_notification::Column::PublishedAt.eq(n.at))
            .one(db)
            .await?
            .is_some();
        if exists {
            continue;
        }
        let event_id = match &n.event {
            None => None,
            Some(permalink) => {
                match event::Entity::find().filter(event::Column::Permalink.eq(permalink)).one(db).await? {
                    Some(e) => Some(e.id),
                    None => continue,
                }
            }
        };
        let [label_ja, label_en] = n.label.clone();
        let [title_ja, title_en] = n.title.clone();
        let [description_ja, description_en] = n.body.clone();
        exhibitor_notification::ActiveModel {
            event_id: Set(event_id),
            title_ja: Set(title_ja),
            title_en: Set(title_en),
            label_ja: Set(label_ja),
            label_en: Set(label_en),
            description_ja: Set(description_ja),
            description_en: Set(description_en),
            published_at: Set(n.at),
            is_public: Set(n.public),
            created_at: Set(n.at),
            updated_at: Set(n.at),
            ..Default::default()
        }
        .insert(db)
        .await?;
        created += 1;
    }
    Ok(created)
}
