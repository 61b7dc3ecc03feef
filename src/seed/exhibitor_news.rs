//! Demo exhibitor notifications: the organisers' news around the 2026 events (applications,
//! lotteries, payments, submissions, maintenance), two scheduled after the demo "now" and one
//! unpublished draft. Rows already there (same Japanese title and publish time) are left alone.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use crate::db::entities::{event, exhibitor_notification};
use crate::error::{Error, Result};

/// The demo news, compiled into the binary.
const NEWS: &str = include_str!("exhibitor_news.json");

/// One notification: `[Japanese, English]` pairs and the event's permalink.
#[derive(Deserialize)]
struct NewsSeed {
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

/// Writes the missing demo notifications; returns how many were created.
pub async fn seed(db: &impl ConnectionTrait) -> Result<usize> {
    let news: Vec<NewsSeed> =
        serde_json::from_str(NEWS).map_err(|e| Error::Internal(format!("exhibitor_news.json: {e}")))?;
    let mut created = 0;
    for n in news {
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
        let [label_ja, label_en] = n.label;
        let [title_ja, title_en] = n.title;
        let [description_ja, description_en] = n.body;
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
