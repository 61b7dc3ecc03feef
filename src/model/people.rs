//! Keywords and artists as clients see them, and the batched lookups that attach them to
//! concepts and worlds without one query per row.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{artist, keyword};
use crate::error::Result;
use crate::types::{Lang, Localized, localized};

/// A keyword (spec §3 World `worldKeywords[].keyword`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeywordView {
    /// Keyword id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

impl KeywordView {
    /// The view of `k` in `lang`.
    pub fn new(k: &keyword::Model, lang: Lang) -> Self {
        Self { id: k.id, name: Localized::new(lang, k.name_ja.clone(), k.name_en.clone()) }
    }
}

/// An artist (spec §3 Artist).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArtistView {
    /// Artist id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

impl ArtistView {
    /// The view of `a` in `lang`.
    pub fn new(a: &artist::Model, lang: Lang) -> Self {
        Self { id: a.id, name: Localized::new(lang, a.name_ja.clone(), a.name_en.clone()) }
    }
}

/// Keywords by id, for the given ids.
pub async fn keywords_by_id(db: &impl ConnectionTrait, ids: Vec<i32>) -> Result<HashMap<i32, keyword::Model>> {
    Ok(keyword::Entity::find()
        .filter(keyword::Column::Id.is_in(ids))
        .order_by_asc(keyword::Column::Id)
        .all(db)
        .await?
        .into_iter()
        .map(|k| (k.id, k))
        .collect())
}

/// Artists by id, for the given ids.
pub async fn artists_by_id(db: &impl ConnectionTrait, ids: Vec<i32>) -> Result<HashMap<i32, artist::Model>> {
    Ok(artist::Entity::find()
        .filter(artist::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|a| (a.id, a))
        .collect())
}
