//! One ranked wish of an entry (spec §3 "Event entry" `applications`): a plan, its `choice`
//! (1 = first wish), the lottery status and the AMP options.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A row of `event_entry_applications`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_entry_applications")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub entry_id: i32,
    pub plan_id: i32,
    /// 1 = first wish; 1..n without gaps within an entry (unique per entry).
    pub choice: i32,
    /// As stored by the draws, payments and sweeps; read it through the model, which applies
    /// the transitions that time alone makes (`first_win` → `first_win_unpaid`, …).
    pub lottery_status: LotteryStatus,
    pub use_amp: bool,
    pub amp_id: Option<String>,
    pub free_submission: bool,
    /// The round that made it a winner.
    pub won_round: Option<LotteryRound>,
    /// The plan's fee when it won (what a payment charges).
    pub fee_at_draw: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// An application's lottery status: the spec's list (§3 "Lottery statuses"), plus `incorrect`
/// (DOMAIN.md: a suspended circle's open applications are marked so at the next draw).
/// Transitions: DOMAIN.md "Application statuses".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(24))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum LotteryStatus {
    /// Waiting for the first draw.
    Applied,
    /// Won the first draw; to pay in the first payment window.
    FirstWin,
    /// Lost the first draw; takes part in the second.
    FirstLost,
    /// Won the first draw, the first payment window closed unpaid (slot freed).
    FirstWinUnpaid,
    /// Won the second draw; to pay in the second payment window.
    SecondWin,
    /// Lost the second draw (until the second round closes).
    SecondLost,
    /// Won the second draw, the second payment window closed unpaid.
    SecondWinUnpaid,
    /// Lost for good.
    Lost,
    /// Won a slot whose fee is 0 (nothing to pay).
    Win,
    /// Won and paid.
    Paid,
    /// Won and declined (slot freed).
    Decline,
    /// Left out of the draw: the circle was suspended or a rule was broken.
    Incorrect,
}

impl LotteryStatus {
    /// The snake_case name, as stored, sent and used in message keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::FirstWin => "first_win",
            Self::FirstLost => "first_lost",
            Self::FirstWinUnpaid => "first_win_unpaid",
            Self::SecondWin => "second_win",
            Self::SecondLost => "second_lost",
            Self::SecondWinUnpaid => "second_win_unpaid",
            Self::Lost => "lost",
            Self::Win => "win",
            Self::Paid => "paid",
            Self::Decline => "decline",
            Self::Incorrect => "incorrect",
        }
    }
}

/// A lottery round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(8))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum LotteryRound {
    /// The first draw, over every application.
    First,
    /// The second draw: freed slots offered to `first_lost` applications.
    Second,
}

impl LotteryRound {
    /// The snake_case name (`first` / `second`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::First => "first",
            Self::Second => "second",
        }
    }
}
