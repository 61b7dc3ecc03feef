//! Demo redirects: a few VRC redirects per demo event (world launch shortcuts, the community
//! page, the venue map) and the site-wide slug rules (`/winter`, `/summer`, `/guide`, …). Rows
//! that already exist (same event and key, same slug) are left alone.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::db::entities::{concept, event, redirect_rule, vrc_redirect, world};
use crate::error::Result;
use crate::model::redirect::{NewRedirectRule, NewVrcRedirect};

/// (slug, target, permanent, active).
const RULES: [(&str, &str, bool, bool); 6] = [
    ("winter", "/2026Winter/worlds", false, true),
    ("summer", "/2026Summer/worlds", false, true),
    ("guide", "/access", true, true),
    ("history", "/event_history", true, true),
    ("community", "https://community.example.com/vmarket", false, true),
    // A finished campaign, kept for the record.
    ("halloween", "/2025Winter/worlds", false, false),
];

/// Writes the missing demo redirects; returns how many rows were created.
pub async fn seed(db: &impl ConnectionTrait) -> Result<usize> {
    let mut created = 0;
    for (slug, target, permanent, is_active) in RULES {
        if redirect_rule::Model::by_slug(db, slug).await?.is_none() {
            redirect_rule::Model::create(db, NewRedirectRule { slug, target, permanent, is_active }).await?;
            created += 1;
        }
    }
    for ev in event::Entity::find().all(db).await? {
        for (key, url, ja, en) in event_redirects(db, &ev).await? {
            if vrc_redirect::Model::by_key(db, ev.id, &key).await?.is_none() {
                let new = NewVrcRedirect {
                    event_id: ev.id,
                    url_key: &key,
                    url: &url,
                    description_ja: &ja,
                    description_en: &en,
                };
                vrc_redirect::Model::create(db, new).await?;
                created += 1;
            }
        }
    }
    Ok(created)
}

/// (key, url, description ja, description en) for one event: the community page, the venue
/// map, and a launch shortcut to the first world of each concept that has a launch link.
async fn event_redirects(
    db: &impl ConnectionTrait,
    ev: &event::Model,
) -> Result<Vec<(String, String, String, String)>> {
    let mut rows = vec![
        (
            "community".to_string(),
            format!("https://community.example.com/vmarket/{}", ev.permalink),
            format!("{}の公式コミュニティ（出展者・来場者の交流スペース）", ev.name_ja),
            format!("The official {} community space for exhibitors and visitors", ev.name_en),
        ),
        (
            "venue-map".to_string(),
            format!("https://www.example.com/vmarket/{}/venue-map.pdf", ev.permalink),
            format!("{}の会場マップ（PDF）", ev.name_ja),
            format!("Venue map of {} (PDF)", ev.name_en),
        ),
    ];
    let concepts = concept::Entity::find().filter(concept::Column::EventId.eq(ev.id)).all(db).await?;
    for c in concepts {
        let first = world::Entity::find()
            .filter(world::Column::ConceptId.eq(c.id))
            .filter(world::Column::LaunchLink.is_not_null())
            .all(db)
            .await?
            .into_iter()
            .min_by_key(|w| w.display_order);
        if let Some(w) = first
            && let Some(link) = w.launch_link
        {
            rows.push((
                format!("world-{}", w.id),
                link,
                format!("「{}」へワープ（{}）", w.name_ja, c.name_ja),
                format!("Jump into \"{}\" ({})", w.name_en, c.name_en),
            ));
        }
    }
    Ok(rows)
}
