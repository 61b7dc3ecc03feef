//! In-game people (spec §3 "In-game user"): a player's profile as others see it — names, icon,
//! introduction, top-page avatar, follow counts, and whether the viewer follows them and they
//! the viewer — and following and unfollowing. Following is once per pair (a unique index: a
//! second follow, even at the same instant, changes nothing) and never oneself. Invitations,
//! joining, channels and portals need presence in game, which is not built yet, and are not
//! answered.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    Set, SqlErr,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset, asset_setting, ingame_follow, ingame_profile, user};
use crate::error::{Error, Result};
use crate::forms::ingame::ProfileChange;
use crate::ingame::model::presence::{self, Seen};
use crate::model::user::IconView;
use crate::types::Lang;

/// A player as the viewer sees them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerView {
    /// The user's id.
    pub id: i32,
    /// Their public id on the site.
    pub vmarket_id: String,
    /// Their name in the request's language.
    pub name: String,
    /// Their Japanese name.
    pub name_ja: String,
    /// Their English name.
    pub name_en: String,
    /// Their icon in its sizes (all null without one).
    pub icon: IconView,
    /// What they say about themselves.
    pub introduction: String,
    /// The avatar asset on their top page.
    pub top_page_avatar_id: Option<i32>,
    /// How many they follow.
    pub follow_count: u64,
    /// How many follow them.
    pub follower_count: u64,
    /// Whether the viewer follows them.
    pub follow_status: bool,
    /// Whether they follow the viewer.
    pub follower_status: bool,
    /// Where they are, as the viewer may see it (offline to those they do not follow).
    #[serde(flatten)]
    pub presence: Seen,
    /// When they joined.
    pub created_at: DateTime<Utc>,
    /// When their profile last changed.
    pub updated_at: DateTime<Utc>,
}

/// How many rows of `column` there are per value among `ids`.
async fn counts(db: &impl ConnectionTrait, column: ingame_follow::Column, ids: &[i32]) -> Result<HashMap<i32, u64>> {
    let rows: Vec<(i32, i64)> = ingame_follow::Entity::find()
        .select_only()
        .column(column)
        .column_as(ingame_follow::Column::Id.count(), "n")
        .filter(column.is_in(ids.to_vec()))
        .group_by(column)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().map(|(id, n)| (id, n.max(0) as u64)).collect())
}

/// The ids among `ids` that `column` pairs with `other` (whom the viewer follows, or who follows
/// the viewer).
async fn paired(
    db: &impl ConnectionTrait,
    (fixed, fixed_id): (ingame_follow::Column, i32),
    column: ingame_follow::Column,
    ids: &[i32],
) -> Result<HashSet<i32>> {
    let rows: Vec<i32> = ingame_follow::Entity::find()
        .select_only()
        .column(column)
        .filter(fixed.eq(fixed_id))
        .filter(column.is_in(ids.to_vec()))
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().collect())
}

/// `users` as `viewer` sees them in `lang`, in order, in a fixed number of statements.
pub async fn views(
    db: &impl ConnectionTrait,
    viewer: i32,
    users: &[user::Model],
    lang: Lang,
    now: DateTime<Utc>,
) -> Result<Vec<PlayerView>> {
    let ids: Vec<i32> = users.iter().map(|u| u.id).collect();
    let profiles: HashMap<i32, ingame_profile::Model> = ingame_profile::Entity::find()
        .filter(ingame_profile::Column::UserId.is_in(ids.clone()))
        .all(db)
        .await?
        .into_iter()
        .map(|p| (p.user_id, p))
        .collect();
    let following = counts(db, ingame_follow::Column::FollowerId, &ids).await?;
    let followers = counts(db, ingame_follow::Column::FolloweeId, &ids).await?;
    let followed =
        paired(db, (ingame_follow::Column::FollowerId, viewer), ingame_follow::Column::FolloweeId, &ids).await?;
    let following_me =
        paired(db, (ingame_follow::Column::FolloweeId, viewer), ingame_follow::Column::FollowerId, &ids).await?;
    let mut seen = presence::seen_by(db, viewer, &ids, &following_me, lang, now).await?;
    Ok(users
        .iter()
        .map(|u| {
            let profile = profiles.get(&u.id);
            PlayerView {
                id: u.id,
                vmarket_id: u.vmarket_id.clone(),
                name: lang.pick(&u.name_ja, &u.name_en).to_string(),
                name_ja: u.name_ja.clone(),
                name_en: u.name_en.clone(),
                icon: u.icon(),
                introduction: profile.map(|p| p.introduction.clone()).unwrap_or_default(),
                top_page_avatar_id: profile.and_then(|p| p.top_page_avatar_id),
                follow_count: following.get(&u.id).copied().unwrap_or_default(),
                follower_count: followers.get(&u.id).copied().unwrap_or_default(),
                follow_status: followed.contains(&u.id),
                follower_status: following_me.contains(&u.id),
                presence: seen.remove(&u.id).unwrap_or_default(),
                created_at: u.created_at,
                updated_at: profile.map_or(u.updated_at, |p| p.updated_at.max(u.updated_at)),
            }
        })
        .collect())
}

/// User `id` (404 `unknown_user`).
pub async fn player(db: &impl ConnectionTrait, id: i32) -> Result<user::Model> {
    user::Entity::find_by_id(id).one(db).await?.ok_or(Error::NotFound { code: "unknown_user" })
}

/// `follower` follows `followee` (once: a second follow changes nothing); never oneself (422
/// `cannot_follow_self`), only someone who exists (404 `unknown_user`).
pub async fn follow(db: &impl ConnectionTrait, follower: i32, followee: i32, now: DateTime<Utc>) -> Result<()> {
    if follower == followee {
        return Err(Error::Refused { code: "cannot_follow_self" });
    }
    player(db, followee).await?;
    let row = ingame_follow::ActiveModel {
        follower_id: Set(follower),
        followee_id: Set(followee),
        created_at: Set(now),
        ..Default::default()
    };
    match row.insert(db).await {
        Ok(_) => Ok(()),
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// `follower` stops following `followee` (nothing happens when they did not; 404 `unknown_user`
/// for someone who does not exist).
pub async fn unfollow(db: &impl ConnectionTrait, follower: i32, followee: i32) -> Result<()> {
    player(db, followee).await?;
    ingame_follow::Entity::delete_many()
        .filter(ingame_follow::Column::FollowerId.eq(follower))
        .filter(ingame_follow::Column::FolloweeId.eq(followee))
        .exec(db)
        .await?;
    Ok(())
}

/// Whom `user_id` follows (`followers: false`) or who follows them (`true`), the newest first:
/// a page of users and how many there are.
pub async fn follow_list(
    db: &impl ConnectionTrait,
    user_id: i32,
    followers: bool,
    limit: u64,
    offset: u64,
) -> Result<(Vec<user::Model>, u64)> {
    let (mine, theirs) = if followers {
        (ingame_follow::Column::FolloweeId, ingame_follow::Column::FollowerId)
    } else {
        (ingame_follow::Column::FollowerId, ingame_follow::Column::FolloweeId)
    };
    let query = ingame_follow::Entity::find().filter(mine.eq(user_id));
    let total = query.clone().count(db).await?;
    let ids: Vec<i32> = query
        .select_only()
        .column(theirs)
        .order_by_desc(ingame_follow::Column::CreatedAt)
        .order_by_desc(ingame_follow::Column::Id)
        .offset(offset)
        .limit(limit)
        .into_tuple()
        .all(db)
        .await?;
    let mut found = user::Model::by_ids(db, ids.iter().copied()).await?;
    Ok((ids.iter().filter_map(|id| found.remove(id)).collect(), total))
}

/// Applies `user_id`'s `change`: the avatar must be one of their own avatar assets, not deleted,
/// with an uploaded version (422 `top_page_avatar_id` otherwise).
pub async fn change_profile(
    db: &impl ConnectionTrait,
    user_id: i32,
    change: &ProfileChange,
    now: DateTime<Utc>,
) -> Result<()> {
    if let Some(Some(avatar)) = change.top_page_avatar_id {
        let usable = match asset::Entity::find_by_id(avatar).filter(asset::Column::UserId.eq(user_id)).one(db).await? {
            Some(found) if !found.deleted && found.latest_version_id.is_some() => {
                let setting = asset_setting::Entity::find_by_id(found.asset_setting_id).one(db).await?;
                setting.is_some_and(|s| s.asset_type == AssetType::Avatar)
            }
            _ => false,
        };
        if !usable {
            return Err(Error::invalid("top_page_avatar_id", "validation.ingame_avatar"));
        }
    }
    // Two first changes at once: the second insert meets the unique index and updates instead.
    for _ in 0..2 {
        let existing =
            ingame_profile::Entity::find().filter(ingame_profile::Column::UserId.eq(user_id)).one(db).await?;
        let mut row = match existing {
            Some(found) => ingame_profile::ActiveModel { id: Set(found.id), ..Default::default() },
            None => ingame_profile::ActiveModel {
                user_id: Set(user_id),
                introduction: Set(String::new()),
                top_page_avatar_id: Set(None),
                ..Default::default()
            },
        };
        if let Some(introduction) = &change.introduction {
            row.introduction = Set(introduction.trim().to_string());
        }
        if let Some(avatar) = change.top_page_avatar_id {
            row.top_page_avatar_id = Set(avatar);
        }
        row.updated_at = Set(now);
        match row.save(db).await {
            Ok(_) => return Ok(()),
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Error::Internal("the in-game profile could not be written".into()))
}
