//! `ambassadors`: users who promote the event, by generation and team (spec §3 Hub). Staff add
//! a user as an ambassador, move them between teams or mark them inactive.

use std::collections::HashMap;

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::ambassador::{self, TeamType};
use crate::db::entities::user;
use crate::error::Result;

/// The resource.
pub struct Ambassadors;

/// An ambassador as staff see them.
#[derive(Debug, Clone, Serialize)]
pub struct AmbassadorRecord {
    /// Ambassador id.
    pub id: i32,
    /// The user.
    pub user_id: i32,
    /// The user's handle.
    pub vmarket_id: Option<String>,
    /// The user's Japanese name.
    pub name_ja: Option<String>,
    /// Their generation (1 = first).
    pub generation: i32,
    /// Their team.
    pub team_type: TeamType,
    /// No longer active.
    pub is_inactive: bool,
}

/// What staff send for an ambassador.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AmbassadorInput {
    /// The user.
    #[validate(required)]
    pub user_id: Option<i32>,
    /// Their generation.
    #[validate(required, range(min = 1, max = 1000))]
    pub generation: Option<i32>,
    /// Their team.
    #[validate(required)]
    pub team_type: Option<TeamType>,
    /// No longer active.
    pub is_inactive: bool,
}

impl Resource for Ambassadors {
    type Entity = ambassador::Entity;
    type Record = AmbassadorRecord;
    type Input = AmbassadorInput;

    const NAME: &'static str = "ambassadors";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["generation", "team_type", "user_id"],
        filter: &["user_id", "generation", "team_type", "is_inactive"],
        search: &[],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<ambassador::Model>) -> Result<Vec<AmbassadorRecord>> {
        let ids: Vec<i32> = rows.iter().map(|a| a.user_id).collect();
        let users: HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        Ok(rows
            .into_iter()
            .map(|a| {
                let u = users.get(&a.user_id);
                AmbassadorRecord {
                    id: a.id,
                    user_id: a.user_id,
                    vmarket_id: u.map(|u| u.vmarket_id.clone()),
                    name_ja: u.map(|u| u.name_ja.clone()),
                    generation: a.generation,
                    team_type: a.team_type,
                    is_inactive: a.is_inactive,
                }
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: AmbassadorInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: ambassador::Model,
        input: AmbassadorInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: ambassador::ActiveModel,
    input: AmbassadorInput,
) -> Result<ambassador::ActiveModel> {
    let user_id = input.user_id.unwrap_or_default();
    must_exist::<user::Entity, _>(txn, user_id, "user_id").await?;
    row.user_id = Set(user_id);
    row.generation = Set(input.generation.unwrap_or(1));
    row.team_type = Set(input.team_type.unwrap_or(TeamType::JapanTeam));
    row.is_inactive = Set(input.is_inactive);
    Ok(row)
}
