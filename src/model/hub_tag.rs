//! Hub tags (spec §3 "Hub"): the client view.

use sea_orm::entity::prelude::*;
use sea_orm::{ConnectionTrait, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::hub_tag;
use crate::error::{Error, Result};
use crate::types::{Lang, Localized, localized};

/// A hub tag.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HubTagView {
    /// Tag id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

impl HubTagView {
    /// The view of `t` in `lang`.
    pub fn new(t: &hub_tag::Model, lang: Lang) -> Self {
        Self { id: t.id, name: Localized::new(lang, t.name_ja.clone(), t.name_en.clone()) }
    }

    /// Every tag in display order.
    pub async fn all(db: &impl ConnectionTrait, lang: Lang) -> Result<Vec<Self>> {
        Ok(hub_tag::Entity::find()
            .order_by_asc(hub_tag::Column::DisplayIndex)
            .order_by_asc(hub_tag::Column::Id)
            .all(db)
            .await?
            .iter()
            .map(|t| Self::new(t, lang))
            .collect())
    }

    /// The tag `id`; 404 when unknown.
    pub async fn find(db: &impl ConnectionTrait, id: i32, lang: Lang) -> Result<Self> {
        let t = hub_tag::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)?;
        Ok(Self::new(&t, lang))
    }
}
