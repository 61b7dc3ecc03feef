//! An event entry: one circle's application to one event (spec §3 "Event entry"); unique per
//! (event, circle). Its wishes are `event_entry_applications`; its lottery type is derived from
//! them, never stored.

use sea_orm::entity::prelude::*;

/// A row of `event_entries`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_entries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub circle_id: i32,
    /// The circle accepts more than one win (otherwise the lottery gives it at most one).
    pub is_multiple_win: bool,
    /// The SHA-256 (hex) of the event's terms the owner last agreed to (`model::entry_terms`).
    pub terms_digest: Option<String>,
    /// What was shown when they agreed: the documents' kinds and URLs, as JSON.
    pub terms_shown: Option<String>,
    /// When they agreed.
    pub terms_agreed_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
