//! Ambassadors (spec §3 "Ambassador"): the list with its filters, and the client view.

use std::collections::HashMap;

use sea_orm::entity::prelude::*;
use sea_orm::{Condition, ConnectionTrait, PaginatorTrait, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{ambassador, user};
use crate::error::{Error, Result};
use crate::model::hub_user::HubUserView;
use crate::model::pagination::PageRequest;
use crate::types::Lang;

/// Defined with its entity (`db::entities::ambassador`); part of this model's API.
pub use crate::db::entities::ambassador::TeamType;

/// An ambassador (spec §3 "Ambassador").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AmbassadorView {
    /// Ambassador id.
    pub id: i32,
    /// Generation (1st, 2nd…).
    #[serde(rename = "gen")]
    pub generation: i32,
    /// Team.
    pub team_type: TeamType,
    /// No longer active.
    pub is_inactive: bool,
    /// The user.
    pub user: HubUserView,
}

/// Filters of the ambassador list.
#[derive(Debug, Clone, Default)]
pub struct AmbassadorFilter {
    /// Only this team.
    pub team_type: Option<TeamType>,
    /// Only this generation.
    pub generation: Option<i32>,
    /// Only inactive (or only active) ones.
    pub is_inactive: Option<bool>,
}

impl AmbassadorView {
    /// One page of ambassadors matching `filter` (team, then generation, then id) and the total.
    pub async fn page(
        db: &impl ConnectionTrait,
        filter: &AmbassadorFilter,
        page: PageRequest,
        lang: Lang,
    ) -> Result<(Vec<Self>, u64, u64)> {
        let mut cond = Condition::all();
        if let Some(t) = filter.team_type {
            cond = cond.add(ambassador::Column::TeamType.eq(t));
        }
        if let Some(g) = filter.generation {
            cond = cond.add(ambassador::Column::Generation.eq(g));
        }
        if let Some(f) = filter.is_inactive {
            cond = cond.add(ambassador::Column::IsInactive.eq(f));
        }
        let select = ambassador::Entity::find()
            .filter(cond)
            .order_by_asc(ambassador::Column::TeamType)
            .order_by_asc(ambassador::Column::Generation)
            .order_by_asc(ambassador::Column::Id);
        let count = select.clone().count(db).await?;
        let all = ambassador::Entity::find().count(db).await?;
        let rows = select.offset(page.offset()).limit(page.limit).all(db).await?;
        Ok((Self::load(db, rows, lang).await?, count, all))
    }

    /// The ambassador `id`; 404 when unknown.
    pub async fn find(db: &impl ConnectionTrait, id: i32, lang: Lang) -> Result<Self> {
        let a = ambassador::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)?;
        Self::load(db, vec![a], lang).await?.pop().ok_or_else(Error::not_found)
    }

    async fn load(db: &impl ConnectionTrait, rows: Vec<ambassador::Model>, lang: Lang) -> Result<Vec<Self>> {
        let users: HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(rows.iter().map(|a| a.user_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        Ok(rows
            .into_iter()
            .filter_map(|a| {
                Some(Self {
                    id: a.id,
                    generation: a.generation,
                    team_type: a.team_type,
                    is_inactive: a.is_inactive,
                    user: HubUserView::new(users.get(&a.user_id)?, lang),
                })
            })
            .collect())
    }
}
