//! A point on an event's timeline (entry start, event open, …).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The type of a point on an event's timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
#[expect(missing_docs, reason = "the variant names are the documented phase types of spec §3")]
pub enum PhaseType {
    None,
    EntryStart,
    EntryEnd,
    FirstLotteryStart,
    FirstLotteryEnd,
    FirstPaymentStart,
    FirstPaymentEnd,
    SecondLotteryStart,
    SecondLotteryEnd,
    SecondPaymentStart,
    SecondPaymentEnd,
    VkettoolsOpen,
    SubmissionStart,
    AutoBuildStart,
    SubmissionEnd,
    VmarketToolsSubmissionEnd,
    InspectionStart,
    InspectionEnd,
    CatalogOpen,
    CompanyCatalogOpen,
    EventOpen,
    EventClose,
    PublicOpen,
    DisplayEntry,
    DisplayFirstLottery,
    DisplayFirstPayment,
    DisplaySecondLottery,
    DisplaySecondPayment,
    DisplaySubmissionStart,
    DisplaySubmissionEnd,
}

/// A row of `event_phases`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_phases")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub phase_type: PhaseType,
    pub phase_timestamp: DateTimeUtc,
    pub is_private: bool,
    pub is_displayable: bool,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
