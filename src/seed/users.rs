//! Demo users (`data/users.json`): the people the demo shows — official streamers (attribute
//! `certificated_streamer`) and the hub's ambassadors — written straight into `users`, with no
//! account to sign in with. Each is found again by its `sub`, `demo-hub-{handle}` (the prefix
//! predates this file; changing it would duplicate the users of existing demo databases), so
//! only missing users are created.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::db::entities::user;
use crate::error::Result;
use crate::model::user::{Role, UserAttribute};

/// The file.
const FILE: Source = Source { name: "users.json", text: include_str!("data/users.json") };

/// One demo user; other files refer to it by `handle` (its `vmarket_id`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserSeed {
    handle: String,
    name_ja: String,
    name_en: String,
    attribute: UserAttribute,
    role: Role,
}

/// Reads `users.json`; handles must be unique.
pub fn load() -> Result<Vec<UserSeed>> {
    let mut file = Reader::open(FILE)?;
    let users: Vec<UserSeed> = file.list("users")?;
    file.finish()?;
    let mut seen = HashSet::new();
    for (i, u) in users.iter().enumerate() {
        if !seen.insert(u.handle.as_str()) {
            return Err(data::bad_entry(FILE.name, "users", i, format_args!("handle `{}` appears twice", u.handle)));
        }
    }
    Ok(users)
}

/// Adds the handles other files may refer to.
pub fn keys(users: &[UserSeed], keys: &mut Keys) {
    keys.users.extend(users.iter().map(|u| u.handle.clone()));
}

/// Writes the missing demo users; returns every demo user's id by handle.
pub async fn seed(db: &impl ConnectionTrait, users: &[UserSeed], now: DateTime<Utc>) -> Result<HashMap<String, i32>> {
    let mut ids = HashMap::new();
    for u in users {
        let sub = format!("demo-hub-{}", u.handle);
        let id = match user::Entity::find().filter(user::Column::Sub.eq(&sub)).one(db).await? {
            Some(found) => found.id,
            None => insert(db, u, sub, now).await?,
        };
        ids.insert(u.handle.clone(), id);
    }
    Ok(ids)
}

async fn insert(db: &impl ConnectionTrait, u: &UserSeed, sub: String, now: DateTime<Utc>) -> Result<i32> {
    let row = user::ActiveModel {
        sub: Set(sub),
        vmarket_id: Set(u.handle.clone()),
        name_ja: Set(u.name_ja.clone()),
        name_en: Set(u.name_en.clone()),
        icon_version: Set(0),
        icon_key: Set(None),
        memo: Set(None),
        score: Set(0),
        role: Set(u.role),
        attribute: Set(u.attribute),
        min_token_generation: Set(0),
        email: Set(None),
        lang: Set("ja".into()),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    Ok(row.insert(db).await?.id)
}
