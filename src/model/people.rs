//! Keywords and artists as clients see them, and the batched lookups that attach them to
//! concepts and worlds without one query per row.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{artist, keyword};
use crate::error::Result;
use crate::i18n::Lang;

/// A keyword (spec §3 World `worldKeywords[].keyword`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeywordView {
    /// Keyword id.
    pub id: i32,
    /// Name in the requested language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

impl KeywordView {
    /// The view of `k` in `lang`.
    pub fn new(k: &keyword::Model, lang: Lang) -> Self {
        Self {
            id: k.id,
            name: lang.pick(&k.name_ja, &k.name_en).to_string(),
            name_ja: k.name_ja.clone(),
            name_en: k.name_en.clone(),
        }
    }
}

/// An artist (spec §3 Artist).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArtistView {
    /// Artist id.
    pub id: i32,
    /// Name in the requested language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
}

impl ArtistView {
    /// The view of `a` in `lang`.
    pub fn new(a: &artist::Model, lang: Lang) -> Self {
        Self {
            id: a.id,
            name: lang.pick(&a.name_ja, &a.name_en).to_string(),
            name_ja: a.name_ja.clone(),
            name_en: a.name_en.clone(),
        }
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
