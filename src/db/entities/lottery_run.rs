//! A lottery run: one draw of one event's round (DOMAIN.md "The lottery"), unique per (event,
//! round). The SHA-256 of the seed is committed (published) before the draw; the seed itself is
//! stored only once the run is published.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use super::event_entry_application::LotteryRound;

/// A row of `lottery_runs`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "lottery_runs")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub round: LotteryRound,
    pub state: LotteryRunState,
    /// Hex SHA-256 of the 32-byte seed, public from the commitment on.
    pub seed_hash: String,
    /// Hex seed; `None` until published.
    pub seed: Option<String>,
    /// Hex SHA-256 of the ordered input list the draw used.
    pub inputs_digest: Option<String>,
    /// Hex SHA-256 of the drawn result.
    pub result_digest: Option<String>,
    /// The staff member who committed it (`None` from the CLI or the lottery clock, or deleted).
    pub created_by_user_id: Option<i32>,
    /// The staff member who last previewed it (`None` likewise).
    pub previewed_by_user_id: Option<i32>,
    /// The staff member who published it (`None` likewise).
    pub published_by_user_id: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub previewed_at: Option<DateTimeUtc>,
    pub published_at: Option<DateTimeUtc>,
    /// Hex seed from the commitment on: server-side only, copied to `seed` when published.
    pub secret_seed: Option<String>,
    /// The canonical input list (`lottery::Inputs::canonical`), stored at preview, public once
    /// published.
    pub inputs: Option<String>,
    /// The previewed result as staff check it (`model::lottery::DrawSummary`, JSON), written by
    /// every preview; the published one once published.
    #[sea_orm(column_type = "Text", nullable)]
    pub summary: Option<String>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum LotteryRunState {
    /// The seed hash is published; nothing drawn yet.
    Committed,
    /// Drawn for staff to see; no status changed.
    Preview,
    /// Statuses changed, seed and inputs published, mails sent.
    Published,
}
