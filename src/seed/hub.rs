//! The demo hub of the current event (`data/hub.json`, 2026Winter): hub tags, the ambassadors
//! (demo users of `users.json`, by handle) and notifications in all four categories — each one
//! written twice, in Japanese for the `jp` audience and in English for the `global` one. A few
//! run around the demo "now" (2026-11-21) and during the event (12-12 to 12-27); one is not
//! public and one is published later, to show they stay hidden. Skipped when the event already
//! has hub notifications.
//!
//! Derived, not written in the file: `by_ambassador` (the notification's user is an
//! ambassador) and `is_certificated_stream` (an official stream with a user).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::db::entities::{ambassador, event, hub_notification, hub_notification_tag, hub_tag};
use crate::error::Result;
use crate::model::ambassador::TeamType;
use crate::model::hub_notification::{HubCategory, HubLocale};

/// The file.
const FILE: Source = Source { name: "hub.json", text: include_str!("data/hub.json") };

/// The contents of `hub.json`.
pub struct Hub {
    /// The permalink of the hub's event.
    event: String,
    /// When notifications without their own `publish_at` are published.
    publish_at: DateTime<Utc>,
    /// In display order.
    tags: Vec<TagSeed>,
    ambassadors: Vec<AmbassadorSeed>,
    notifications: Vec<NotificationSeed>,
}

/// A hub tag; notifications name it by `key`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TagSeed {
    key: String,
    name_ja: String,
    name_en: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AmbassadorSeed {
    /// A handle of `users.json`.
    user: String,
    generation: i32,
    team: TeamType,
    inactive: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NotificationSeed {
    category: HubCategory,
    #[serde(default)]
    official: bool,
    /// The streamer or ambassador behind it: a handle of `users.json`.
    user: Option<String>,
    world_id: Option<i32>,
    /// Tag keys.
    #[serde(default)]
    tags: Vec<String>,
    /// Pinned to the top (`is_strong_recommended`).
    #[serde(default)]
    recommended: bool,
    #[serde(default = "yes")]
    public: bool,
    publish_at: Option<DateTime<Utc>>,
    start_at: DateTime<Utc>,
    end_at: Option<DateTime<Utc>>,
    thumbnail: String,
    title_ja: String,
    content_ja: String,
    title_en: String,
    content_en: String,
}

fn yes() -> bool {
    true
}

/// Reads `hub.json` and checks the tags the notifications name.
pub fn load() -> Result<Hub> {
    read(FILE)
}

fn read(source: Source) -> Result<Hub> {
    let mut file = Reader::open(source)?;
    let hub = Hub {
        event: file.value("event")?,
        publish_at: file.value("publish_at")?,
        tags: file.list("tags")?,
        ambassadors: file.list("ambassadors")?,
        notifications: file.list("notifications")?,
    };
    file.finish()?;
    let tags: HashSet<&str> = hub.tags.iter().map(|t| t.key.as_str()).collect();
    for (i, n) in hub.notifications.iter().enumerate() {
        for tag in &n.tags {
            data::known(tags.contains(tag.as_str()), source.name, "notifications", i, format_args!("tag `{tag}`"))?;
        }
    }
    Ok(hub)
}

impl Hub {
    /// Checks the event, users and worlds the file names.
    pub fn check(&self, keys: &Keys) -> Result<()> {
        if !keys.events.contains(&self.event) {
            return Err(data::fail(FILE.name, format_args!("event: unknown event `{}`", self.event)));
        }
        for (i, a) in self.ambassadors.iter().enumerate() {
            data::known(keys.users.contains(&a.user), FILE.name, "ambassadors", i, format_args!("user `{}`", a.user))?;
        }
        for (i, n) in self.notifications.iter().enumerate() {
            if let Some(user) = &n.user {
                data::known(keys.users.contains(user), FILE.name, "notifications", i, format_args!("user `{user}`"))?;
            }
            if let Some(world) = n.world_id {
                let ok = keys.worlds.contains(&world);
                data::known(ok, FILE.name, "notifications", i, format_args!("world {world}"))?;
            }
        }
        Ok(())
    }
}

/// Writes the demo hub unless its event is missing or has hub notifications already; `users`
/// are the demo users' ids by handle.
pub async fn seed(db: &impl ConnectionTrait, hub: &Hub, users: &HashMap<String, i32>) -> Result<()> {
    let Some(ev) = event::Entity::find().filter(event::Column::Permalink.eq(&hub.event)).one(db).await? else {
        return Ok(());
    };
    let existing = hub_notification::Entity::find().filter(hub_notification::Column::EventId.eq(ev.id));
    if existing.count(db).await? > 0 {
        return Ok(());
    }
    let tags = seed_tags(db, &hub.tags).await?;
    for a in &hub.ambassadors {
        let user_id = user_id(users, &a.user)?;
        if ambassador::Entity::find().filter(ambassador::Column::UserId.eq(user_id)).one(db).await?.is_none() {
            ambassador::ActiveModel {
                user_id: Set(user_id),
                generation: Set(a.generation),
                team_type: Set(a.team),
                is_inactive: Set(a.inactive),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
    }
    for n in &hub.notifications {
        insert_notification(db, ev.id, hub, n, &tags, users).await?;
    }
    Ok(())
}

/// The id of the demo user with `handle`.
fn user_id(users: &HashMap<String, i32>, handle: &str) -> Result<i32> {
    users.get(handle).copied().ok_or_else(|| data::fail(FILE.name, format_args!("user `{handle}` was not written")))
}

/// Writes notification `n` twice: in Japanese for `jp`, in English for `global`.
async fn insert_notification(
    db: &impl ConnectionTrait,
    event_id: i32,
    hub: &Hub,
    n: &NotificationSeed,
    tags: &HashMap<&str, i32>,
    users: &HashMap<String, i32>,
) -> Result<()> {
    let user_id = n.user.as_deref().map(|handle| user_id(users, handle)).transpose()?;
    let by_ambassador = n.user.as_ref().is_some_and(|u| hub.ambassadors.iter().any(|a| &a.user == u));
    let publish = n.publish_at.unwrap_or(hub.publish_at);
    for (locale, title, content) in
        [(HubLocale::Jp, &n.title_ja, &n.content_ja), (HubLocale::Global, &n.title_en, &n.content_en)]
    {
        let row = hub_notification::ActiveModel {
            event_id: Set(event_id),
            title: Set(title.clone()),
            content: Set(content.clone()),
            link_url: Set(None),
            thumbnail: Set(Some(n.thumbnail.clone())),
            publish_at: Set(publish),
            start_at: Set(n.start_at),
            end_at: Set(n.end_at),
            display_date: Set(None),
            locale: Set(locale),
            category: Set(n.category),
            is_official: Set(n.official),
            by_ambassador: Set(by_ambassador),
            is_certificated_stream: Set(n.category == HubCategory::OfficialStream && user_id.is_some()),
            is_public: Set(n.public),
            is_strong_recommended: Set(n.recommended),
            world_id: Set(n.world_id),
            user_id: Set(user_id),
            created_at: Set(publish),
            updated_at: Set(publish),
            ..Default::default()
        };
        let id = row.insert(db).await?.id;
        for key in &n.tags {
            let tag_id = tags.get(key.as_str()).copied();
            let tag_id = tag_id.ok_or_else(|| data::fail(FILE.name, format_args!("tag `{key}` was not written")))?;
            let link = hub_notification_tag::ActiveModel {
                hub_notification_id: Set(id),
                hub_tag_id: Set(tag_id),
                ..Default::default()
            };
            link.insert(db).await?;
        }
    }
    Ok(())
}

/// The hub tags (found by Japanese name, or created in display order); ids by key.
async fn seed_tags<'a>(db: &impl ConnectionTrait, tags: &'a [TagSeed]) -> Result<HashMap<&'a str, i32>> {
    let mut ids = HashMap::new();
    for (i, t) in tags.iter().enumerate() {
        let id = match hub_tag::Entity::find().filter(hub_tag::Column::NameJa.eq(&t.name_ja)).one(db).await? {
            Some(found) => found.id,
            None => {
                let row = hub_tag::ActiveModel {
                    name_ja: Set(t.name_ja.clone()),
                    name_en: Set(t.name_en.clone()),
                    display_index: Set(i as i32 + 1),
                    ..Default::default()
                };
                row.insert(db).await?.id
            }
        };
        ids.insert(t.key.as_str(), id);
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `hub.json` with one notification, whose fields `notification` replaces.
    fn hub_with(notification: &'static str) -> Result<Hub> {
        let text = format!(
            r#"{{"event": "2026Winter", "publish_at": "2026-11-01T03:00:00Z",
                "tags": [{{"key": "music", "name_ja": "音楽ライブ", "name_en": "Live music"}}],
                "ambassadors": [], "notifications": [{notification}]}}"#
        );
        read(Source { name: "hub.json", text: text.leak() })
    }

    fn error<T>(result: Result<T>) -> String {
        match result {
            Ok(_) => panic!("the data was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_broken_notification_is_named() {
        let good = r#"{"category": "user_event", "start_at": "2026-12-15T12:00:00Z", "thumbnail": "/x.svg",
            "title_ja": "ライブ", "content_ja": "…", "title_en": "Live", "content_en": "…", "tags": ["music"]}"#;
        assert_eq!(hub_with(good).expect("a good notification").notifications.len(), 1);
        let unknown_tag = good.replace(r#"["music"]"#, r#"["musik"]"#).leak();
        let err = error(hub_with(unknown_tag));
        assert!(err.contains("seed data hub.json: notifications[0]: unknown tag `musik`"), "{err}");
        let typo = good.replace("start_at", "starts_at").leak();
        let err = error(hub_with(typo));
        assert!(err.contains(r#"hub.json: notifications[0] (title_ja "ライブ"): unknown field `starts_at`"#), "{err}");
        let bad_category = good.replace("user_event", "party").leak();
        let err = error(hub_with(bad_category));
        assert!(err.contains("notifications[0] (title_ja \"ライブ\"): unknown variant `party`"), "{err}");
    }

    #[test]
    fn references_to_other_files_are_checked() {
        let hub = load().expect("hub.json");
        let err = error(hub.check(&Keys::default()));
        assert!(err.contains("seed data hub.json: event: unknown event `2026Winter`"), "{err}");
    }
}
