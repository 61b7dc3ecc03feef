//! Demo circles (`data/circles.json`): circles owned by demo users of `users.json` (by handle),
//! with bilingual names and descriptions, a thumbnail under `static/demo/circles/`, members,
//! pending invitations (sent at seed time, so they expire 14 days later) and one suspended
//! circle — so that every circle page has content for the demo accounts. A circle is found
//! again by its owner and Japanese name; only missing circles are written.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::db::entities::{circle, circle_invitation, circle_member};
use crate::error::Result;
use crate::model::circle_invitation::{InvitationStatus, invitation_lifetime};

/// Why the demo's suspended circles are suspended (staff write reasons in Japanese).
pub(super) const SUSPENSION_REASON: &str = "出展ガイドラインに反する内容の確認のため、確認が終わるまで停止しています。";

/// The file.
const FILE: Source = Source { name: "circles.json", text: include_str!("data/circles.json") };

/// The most people a demo circle holds (owner, members and invitations): the default cap.
const CAP: usize = 10;

/// One demo circle.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleSeed {
    /// A handle of `users.json`.
    owner: String,
    name_ja: String,
    name_en: String,
    description_ja: String,
    description_en: String,
    website_link: Option<String>,
    /// A path under `/static/demo/circles/`.
    thumbnail: String,
    /// Handles of `users.json`.
    members: Vec<String>,
    /// Handles of `users.json` with a pending invitation.
    invitations: Vec<String>,
    suspended: bool,
}

/// Reads `circles.json`: within the limits of spec §5 and the member cap, nobody twice in one
/// circle, thumbnails under `/static/demo/circles/`.
pub fn load() -> Result<Vec<CircleSeed>> {
    let mut file = Reader::open(FILE)?;
    let circles: Vec<CircleSeed> = file.list("circles")?;
    file.finish()?;
    for (i, c) in circles.iter().enumerate() {
        let fits = c.name_ja.chars().count() <= 64
            && c.name_en.chars().count() <= 128
            && c.description_ja.chars().count() <= 2048
            && c.description_en.chars().count() <= 2048;
        if !fits {
            return Err(data::bad_entry(FILE.name, "circles", i, "a name or description is over its limit"));
        }
        let people: Vec<&String> = std::iter::once(&c.owner).chain(&c.members).chain(&c.invitations).collect();
        if people.iter().collect::<HashSet<_>>().len() != people.len() || people.len() > CAP {
            let problem = format!("owner, members and invitations must be different people, at most {CAP}");
            return Err(data::bad_entry(FILE.name, "circles", i, problem));
        }
        if !c.thumbnail.starts_with("/static/demo/circles/") {
            return Err(data::bad_entry(FILE.name, "circles", i, "thumbnails live under /static/demo/circles/"));
        }
    }
    Ok(circles)
}

/// Checks that everyone named is a demo user.
pub fn check(circles: &[CircleSeed], keys: &Keys) -> Result<()> {
    for (i, c) in circles.iter().enumerate() {
        for handle in std::iter::once(&c.owner).chain(&c.members).chain(&c.invitations) {
            data::known(keys.users.contains(handle), FILE.name, "circles", i, format_args!("user `{handle}`"))?;
        }
    }
    Ok(())
}

/// Writes the missing demo circles; `users` are the demo users' ids by handle.
pub async fn seed(
    db: &impl ConnectionTrait,
    circles: &[CircleSeed],
    users: &HashMap<String, i32>,
    now: DateTime<Utc>,
) -> Result<()> {
    let id = |handle: &String| {
        users
            .get(handle)
            .copied()
            .ok_or_else(|| data::fail(FILE.name, format_args!("demo user `{handle}` is not written")))
    };
    for c in circles {
        let owner = id(&c.owner)?;
        let existing = circle::Entity::find()
            .filter(circle::Column::OwnerUserId.eq(owner))
            .filter(circle::Column::NameJa.eq(&c.name_ja))
            .one(db)
            .await?;
        if existing.is_some() {
            continue;
        }
        let created = circle::ActiveModel {
            name_ja: Set(c.name_ja.clone()),
            name_en: Set(c.name_en.clone()),
            description_ja: Set(c.description_ja.clone()),
            description_en: Set(c.description_en.clone()),
            thumbnail: Set(Some(c.thumbnail.clone())),
            thumbnail_key: Set(None),
            website_link: Set(c.website_link.clone()),
            is_suspended: Set(c.suspended),
            suspension_reason: Set(c.suspended.then(|| SUSPENSION_REASON.to_string())),
            owner_user_id: Set(Some(owner)),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
        for member in std::iter::once(owner).chain(c.members.iter().map(id).collect::<Result<Vec<_>>>()?) {
            circle_member::ActiveModel {
                circle_id: Set(created.id),
                user_id: Set(member),
                created_at: Set(now),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
        for invitee in &c.invitations {
            circle_invitation::ActiveModel {
                circle_id: Set(created.id),
                user_id: Set(id(invitee)?),
                invited_by_user_id: Set(owner),
                status: Set(InvitationStatus::Pending),
                created_at: Set(now),
                expires_at: Set(now + invitation_lifetime()),
                responded_at: Set(None),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_accounts_have_something_on_every_circle_page() {
        let circles = load().unwrap();
        let owns = |h: &str| circles.iter().filter(|c| c.owner == h).count();
        let joined = |h: &str| circles.iter().filter(|c| c.members.iter().any(|m| m == h)).count();
        let invited = |h: &str| circles.iter().filter(|c| c.invitations.iter().any(|m| m == h)).count();
        for handle in ["kaede_kohaku", "tsukishiro_noa"] {
            assert!(owns(handle) > 0 && joined(handle) > 0 && invited(handle) > 0, "{handle}");
        }
        assert!(circles.iter().any(|c| c.suspended && c.owner == "kaede_kohaku"), "the exhibitor sees a suspension");
    }
}
