//! Presence in game (spec §3 "In-game user": `invitable`, `joinable`, `same_position_channel`,
//! `world_portal`, `join_url`): the game client says where its player is (a heartbeat at least
//! every [`STALE_SECS`]) and whether others may invite or join them; the in-game user views
//! answer from it.
//!
//! Privacy: where a player is shows only to those they follow — a stranger, or someone they do
//! not follow back, sees them as not online (all false, null). A player who stops sending
//! heartbeats (or leaves) drops out after [`STALE_SECS`]. The portal list holds the players the
//! viewer follows who can be joined by the viewer, the latest heartbeat first, at most
//! [`PORTAL_MAX`].

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, SqlErr,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{ingame_follow, ingame_presence, world};
use crate::error::{Error, Invalid, Result};
use crate::forms::Problems;
use crate::forms::ingame::PresenceUpdate;
use crate::types::Lang;

/// A heartbeat older than this many seconds is offline.
pub const STALE_SECS: i64 = 180;
/// The portal list's length at most (spec §5).
pub const PORTAL_MAX: u64 = 6;

/// The world a player is in, as a portal to it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct WorldPortal {
    /// The world's id.
    pub world_id: i32,
    /// Its name in the request's language.
    pub name: String,
    /// The world's own launch link.
    pub launch_link: Option<String>,
}

/// Where a player is, as one viewer may see it.
#[derive(Debug, Clone, Default, Serialize, ToSchema, PartialEq, Eq)]
pub struct Seen {
    /// Online and taking invitations.
    pub invitable: bool,
    /// Online and joinable by the viewer.
    pub joinable: bool,
    /// Online on the viewer's channel.
    pub same_position_channel: bool,
    /// The world they are in.
    pub world_portal: Option<WorldPortal>,
    /// The link that takes the viewer to them (when joinable).
    pub join_url: Option<String>,
}

/// Stores `user_id`'s heartbeat `input` (422: a world that does not exist, joinable without a
/// join link).
pub async fn beat(db: &impl ConnectionTrait, user_id: i32, input: &PresenceUpdate, now: DateTime<Utc>) -> Result<()> {
    let mut found = Problems::of(input);
    if let Some(id) = input.world_id
        && world::Entity::find_by_id(id).one(db).await?.is_none()
    {
        found.add(Invalid::new("world_id", "validation.ingame_world_unknown"));
    }
    if input.joinable && input.join_url.is_none() && !found.has("join_url") {
        found.fail("join_url", "validation.ingame_join_url_needed");
    }
    found.into_result()?;
    // Two first heartbeats at once: the second insert meets the unique index and updates.
    for _ in 0..2 {
        let existing =
            ingame_presence::Entity::find().filter(ingame_presence::Column::UserId.eq(user_id)).one(db).await?;
        let mut row = match existing {
            Some(found) => ingame_presence::ActiveModel { id: Set(found.id), ..Default::default() },
            None => ingame_presence::ActiveModel { user_id: Set(user_id), ..Default::default() },
        };
        row.channel = Set(input.channel_session_code.clone());
        row.world_id = Set(input.world_id);
        row.join_url = Set(input.join_url.clone());
        row.invitable = Set(input.invitable);
        row.joinable = Set(input.joinable);
        row.updated_at = Set(now);
        match row.save(db).await {
            Ok(_) => return Ok(()),
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Error::Internal("the presence could not be written".into()))
}

/// `user_id` left the game: offline at once.
pub async fn leave(db: &impl ConnectionTrait, user_id: i32) -> Result<()> {
    ingame_presence::Entity::delete_many().filter(ingame_presence::Column::UserId.eq(user_id)).exec(db).await?;
    Ok(())
}

/// The live presences of `ids` (heartbeat within [`STALE_SECS`] of `now`), by user.
async fn live(
    db: &impl ConnectionTrait,
    ids: &[i32],
    now: DateTime<Utc>,
) -> Result<HashMap<i32, ingame_presence::Model>> {
    Ok(ingame_presence::Entity::find()
        .filter(ingame_presence::Column::UserId.is_in(ids.to_vec()))
        .filter(ingame_presence::Column::UpdatedAt.gt(now - Duration::seconds(STALE_SECS)))
        .all(db)
        .await?
        .into_iter()
        .map(|p| (p.user_id, p))
        .collect())
}

/// What `viewer` may see of where each of `ids` is, given which of them follow the viewer
/// (`follow_viewer`): the others are seen as offline.
pub async fn seen_by(
    db: &impl ConnectionTrait,
    viewer: i32,
    ids: &[i32],
    follow_viewer: &std::collections::HashSet<i32>,
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<HashMap<i32, Seen>> {
    let shown: Vec<i32> = ids.iter().copied().filter(|id| follow_viewer.contains(id) && *id != viewer).collect();
    if shown.is_empty() {
        return Ok(HashMap::new());
    }
    let mut lookup = shown.clone();
    lookup.push(viewer);
    let presences = live(db, &lookup, now).await?;
    let own_channel = presences.get(&viewer).and_then(|p| p.channel.clone());
    let world_ids: Vec<i32> = presences.values().filter_map(|p| p.world_id).collect();
    let worlds: HashMap<i32, world::Model> = if world_ids.is_empty() {
        HashMap::new()
    } else {
        world::Entity::find()
            .filter(world::Column::Id.is_in(world_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect()
    };
    Ok(shown
        .iter()
        .filter_map(|id| {
            let p = presences.get(id)?;
            let joinable = p.joinable && p.join_url.is_some();
            Some((
                *id,
                Seen {
                    invitable: p.invitable,
                    joinable,
                    same_position_channel: p.channel.is_some() && p.channel == own_channel,
                    world_portal: p.world_id.and_then(|w| worlds.get(&w)).map(|w| WorldPortal {
                        world_id: w.id,
                        name: lang.pick(&w.name_ja, &w.name_en).to_string(),
                        launch_link: w.launch_link.clone(),
                    }),
                    join_url: if joinable { p.join_url.clone() } else { None },
                },
            ))
        })
        .collect())
}

/// The players `viewer` follows who follow the viewer and can be joined now, the latest
/// heartbeat first, at most [`PORTAL_MAX`]: their ids.
pub async fn portal(db: &impl ConnectionTrait, viewer: i32, now: DateTime<Utc>) -> Result<Vec<i32>> {
    let followed = Query::select()
        .column(ingame_follow::Column::FolloweeId)
        .from(ingame_follow::Entity)
        .and_where(ingame_follow::Column::FollowerId.eq(viewer))
        .to_owned();
    let following_back = Query::select()
        .column(ingame_follow::Column::FollowerId)
        .from(ingame_follow::Entity)
        .and_where(ingame_follow::Column::FolloweeId.eq(viewer))
        .and_where(ingame_follow::Column::FollowerId.in_subquery(followed))
        .to_owned();
    Ok(ingame_presence::Entity::find()
        .select_only()
        .column(ingame_presence::Column::UserId)
        .filter(ingame_presence::Column::UserId.in_subquery(following_back))
        .filter(ingame_presence::Column::Joinable.eq(true))
        .filter(ingame_presence::Column::JoinUrl.is_not_null())
        .filter(ingame_presence::Column::UpdatedAt.gt(now - Duration::seconds(STALE_SECS)))
        .order_by_desc(ingame_presence::Column::UpdatedAt)
        .order_by_asc(ingame_presence::Column::UserId)
        .limit(PORTAL_MAX)
        .into_tuple()
        .all(db)
        .await?)
}
