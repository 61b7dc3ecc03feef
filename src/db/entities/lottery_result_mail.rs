//! "The result of this entry in this run is to be mailed": written with the statuses when a
//! draw is published, one per (run, entry) the draw decided (unique); `done_at` is set by the
//! `SendLotteryResults` job once the mail is stored (or the owner has no address).

use sea_orm::entity::prelude::*;

/// A row of `lottery_result_mails`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "lottery_result_mails")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub run_id: i32,
    pub entry_id: i32,
    pub created_at: DateTimeUtc,
    /// When the job stored the mail (or found there was none to send); `None` while owed.
    pub done_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
