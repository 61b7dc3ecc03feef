//! The result mails of a published draw (DOMAIN.md "The lottery": publish — statuses change,
//! mails go out), kept out of the publishing transaction:
//!
//! 1. [`mark`]: `publish` stores, in its transaction and next to the statuses, one row of
//!    `lottery_result_mails` per entry the draw decided — "this entry's result is to be mailed"
//!    (unique per run and entry). That is all the publication pays for its mails.
//! 2. [`send_batch`]: the `SendLotteryResults` job then takes the owed rows in batches (by entry
//!    id), renders each mail outside any transaction (to the circle's owner, in their language:
//!    the plans won with world, fee and payment deadline in Japan time, or what comes next; for
//!    an entry the draw left out — its circle suspended, its wishes `incorrect` — that it was
//!    left out and why), and in one short transaction per batch stores the batch's mails and
//!    marks its rows done.
//!
//! Each mail carries the unique key `lottery_result:{run}:{entry}` and is stored with `ON
//! CONFLICT DO NOTHING`, so a crash anywhere — between publication and the job, between a
//! batch's insert and its marks (impossible: one transaction), between a batch and the push of
//! its deliveries — loses nothing (the rows stay owed and workers resume them on start) and
//! never stores a mail twice (a second run of a batch stores nothing and delivers nothing).
//! Owners without a (valid) address get no mail; their rows are marked done all the same.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};

use crate::db::entities::event_entry_application::LotteryRound;
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, lottery_result_mail, lottery_run, mail,
    user, world,
};
use crate::error::{Error, Result};
use crate::lottery::Inputs;
use crate::mail::{MailKind, Mailer, NewMail, Outgoing};
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;
use crate::types::Lang;

/// Rows one statement inserts (3 values each: far below every backend's limit on bound values).
const MARK_CHUNK: usize = 5000;

/// Stores, inside the publishing transaction `txn`, that the result of each of `entries` in run
/// `run_id` is to be mailed; returns how many rows were written.
pub async fn mark(
    txn: &impl ConnectionTrait,
    run_id: i32,
    entries: impl IntoIterator<Item = i32>,
    now: DateTime<Utc>,
) -> Result<usize> {
    let mut entries: Vec<i32> = entries.into_iter().collect();
    entries.sort_unstable();
    entries.dedup();
    for chunk in entries.chunks(MARK_CHUNK) {
        let rows = chunk.iter().map(|&entry_id| lottery_result_mail::ActiveModel {
            run_id: Set(run_id),
            entry_id: Set(entry_id),
            created_at: Set(now),
            done_at: Set(None),
            ..Default::default()
        });
        lottery_result_mail::Entity::insert_many(rows).exec_without_returning(txn).await?;
    }
    Ok(entries.len())
}

/// The runs with result mails still owed (for the workers' start-up).
pub async fn runs_owed(db: &impl ConnectionTrait) -> Result<Vec<i32>> {
    Ok(lottery_result_mail::Entity::find()
        .select_only()
        .column(lottery_result_mail::Column::RunId)
        .filter(lottery_result_mail::Column::DoneAt.is_null())
        .distinct()
        .into_tuple::<i32>()
        .all(db)
        .await?)
}

/// How many result mails of run `run_id` are still owed.
pub async fn owed(db: &impl ConnectionTrait, run_id: i32) -> Result<u64> {
    Ok(lottery_result_mail::Entity::find()
        .filter(lottery_result_mail::Column::RunId.eq(run_id))
        .filter(lottery_result_mail::Column::DoneAt.is_null())
        .count(db)
        .await?)
}

/// What every result mail of one run shares: the run, its event and timeline, the plans and
/// their worlds. Loaded once per job run.
#[derive(Debug, Clone)]
pub struct ResultMails {
    run: lottery_run::Model,
    /// The entries that took part in the draw (from its published inputs): an entry owed a mail
    /// and not among them was left out (its circle suspended).
    drawn: HashSet<i32>,
    timeline: EventWithPhases,
    plans: HashMap<i32, event_entry_plan::Model>,
    worlds: HashMap<i32, world::Model>,
}

/// What one batch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// The last entry of the batch (the next batch starts after it).
    pub last_entry: i32,
    /// Rows of the batch marked done.
    pub entries: usize,
    /// Mails this batch stored (their delivery is to be pushed).
    pub stored: Vec<i32>,
    /// Entries whose owner has no usable address: no mail.
    pub without_address: usize,
}

impl ResultMails {
    /// The shared part of run `run_id`'s result mails.
    pub async fn load(db: &impl ConnectionTrait, run_id: i32) -> Result<Self> {
        let run = lottery_run::Entity::find_by_id(run_id).one(db).await?.ok_or_else(Error::not_found)?;
        let event = event::Entity::find_by_id(run.event_id).one(db).await?.ok_or_else(Error::unknown_permalink)?;
        let timeline = EventWithPhases::load(db, event).await?;
        let plans: HashMap<i32, event_entry_plan::Model> = event_entry_plan::Entity::find()
            .filter(event_entry_plan::Column::EventId.eq(run.event_id))
            .all(db)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        let world_ids: Vec<i32> = plans.values().map(|p| p.world_id).collect();
        let worlds = world::Entity::find()
            .filter(world::Column::Id.is_in(world_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        let inputs = Inputs::parse(run.inputs.as_deref().unwrap_or_default())
            .map_err(|e| Error::Internal(format!("lottery run {run_id}: {e}")))?;
        let drawn = inputs.entries().iter().filter_map(|e| i32::try_from(e.id).ok()).collect();
        Ok(Self { run, drawn, timeline, plans, worlds })
    }

    /// The unique key of the result mail of `entry_id` in this run.
    pub fn key(&self, entry_id: i32) -> String {
        format!("lottery_result:{}:{entry_id}", self.run.id)
    }

    /// Mails the next batch of at most `limit` owed entries after entry `after` (by entry id):
    /// renders their mails, then stores them and marks the rows done in one transaction.
    /// `None` when nothing is owed after `after`.
    pub async fn send_batch<C: ConnectionTrait + TransactionTrait>(
        &self,
        db: &C,
        mailer: &Mailer,
        after: i32,
        limit: u64,
        now: DateTime<Utc>,
    ) -> Result<Option<Batch>> {
        let entry_ids: Vec<i32> = lottery_result_mail::Entity::find()
            .select_only()
            .column(lottery_result_mail::Column::EntryId)
            .filter(lottery_result_mail::Column::RunId.eq(self.run.id))
            .filter(lottery_result_mail::Column::DoneAt.is_null())
            .filter(lottery_result_mail::Column::EntryId.gt(after))
            .order_by_asc(lottery_result_mail::Column::EntryId)
            .limit(limit)
            .into_tuple()
            .all(db)
            .await?;
        let Some(&last_entry) = entry_ids.last() else { return Ok(None) };
        let mails = self.render(db, mailer, &entry_ids, now).await?;
        let without_address = entry_ids.len() - mails.len();
        let txn = crate::db::begin_write(db).await?;
        let stored = mail::Model::insert_unique(&txn, mails, now).await?;
        lottery_result_mail::Entity::update_many()
            .col_expr(lottery_result_mail::Column::DoneAt, Expr::value(now))
            .filter(lottery_result_mail::Column::RunId.eq(self.run.id))
            .filter(lottery_result_mail::Column::EntryId.is_in(entry_ids.iter().copied()))
            .filter(lottery_result_mail::Column::DoneAt.is_null())
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(Some(Batch { last_entry, entries: entry_ids.len(), stored, without_address }))
    }

    /// The result mails of `entry_ids` (one per entry whose circle's owner has a valid address),
    /// rendered at `now`.
    async fn render(
        &self,
        db: &impl ConnectionTrait,
        mailer: &Mailer,
        entry_ids: &[i32],
        now: DateTime<Utc>,
    ) -> Result<Vec<NewMail>> {
        let entries: Vec<(i32, i32)> = event_entry::Entity::find()
            .select_only()
            .columns([event_entry::Column::Id, event_entry::Column::CircleId])
            .filter(event_entry::Column::Id.is_in(entry_ids.iter().copied()))
            .into_tuple()
            .all(db)
            .await?;
        let circles: HashMap<i32, circle::Model> = circle::Entity::find()
            .filter(circle::Column::Id.is_in(entries.iter().map(|(_, c)| *c)))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let owners: HashMap<i32, user::Model> = user::Entity::find()
            .filter(user::Column::Id.is_in(circles.values().filter_map(|c| c.owner_user_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        // What each entry won in this round (a winner keeps `won_round` whatever it does next).
        let mut wins: HashMap<i32, Vec<i32>> = HashMap::new();
        for (entry_id, plan_id) in event_entry_application::Entity::find()
            .select_only()
            .columns([event_entry_application::Column::EntryId, event_entry_application::Column::PlanId])
            .filter(event_entry_application::Column::EntryId.is_in(entry_ids.iter().copied()))
            .filter(event_entry_application::Column::WonRound.eq(self.run.round))
            .order_by_asc(event_entry_application::Column::Choice)
            .into_tuple::<(i32, i32)>()
            .all(db)
            .await?
        {
            wins.entry(entry_id).or_default().push(plan_id);
        }
        let mut mails = Vec::with_capacity(entries.len());
        for (entry_id, circle_id) in entries {
            let Some(circle) = circles.get(&circle_id) else { continue };
            let Some(owner) = circle.owner_user_id.and_then(|id| owners.get(&id)) else { continue };
            let Some(email) = owner.email.as_deref().filter(|e| !e.trim().is_empty()) else { continue };
            let outgoing = if self.drawn.contains(&entry_id) {
                self.outgoing(circle, owner, email, wins.get(&entry_id).map(Vec::as_slice).unwrap_or(&[]))
            } else {
                self.left_out(circle, owner, email)
            };
            match mailer.prepare(&outgoing, Some(self.key(entry_id)), now) {
                Ok(mail) => mails.push(mail),
                // An owner whose stored address is not one gets no mail; the draw still stands.
                Err(Error::Validation(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(mails)
    }

    /// The mail to `owner` about `circle`'s entry, which this run left out: the circle is
    /// suspended, so its wishes were marked `incorrect` and took no part in the draw.
    fn left_out(&self, circle: &circle::Model, owner: &user::Model, email: &str) -> Outgoing {
        let lang = Lang::parse(&owner.lang).unwrap_or_default();
        let event = &self.timeline.event;
        let context = serde_json::json!({
            "recipient_name": owner.name(lang),
            "circle_name": circle.name(lang),
            "event_name": lang.pick(&event.name_ja, &event.name_en),
            "round": self.run.round.as_str(),
            "path": format!("{}/mypage/entry_history/{}/apply", lang.prefix(), event.permalink),
            "contact_path": format!("{}/contact", lang.prefix()),
        });
        Outgoing { to: email.to_string(), lang, kind: MailKind::LotteryIncorrect, context }
    }

    /// The mail to `owner` about `circle`'s entry, which won `won_plans` in this run (none: lost).
    fn outgoing(&self, circle: &circle::Model, owner: &user::Model, email: &str, won_plans: &[i32]) -> Outgoing {
        let lang = Lang::parse(&owner.lang).unwrap_or_default();
        let timeline = &self.timeline;
        let won: Vec<&event_entry_plan::Model> = won_plans.iter().filter_map(|id| self.plans.get(id)).collect();
        let wins: Vec<serde_json::Value> = won
            .iter()
            .map(|p| {
                let world = self.worlds.get(&p.world_id).map(|w| lang.pick(&w.name_ja, &w.name_en)).unwrap_or_default();
                serde_json::json!({
                    "plan": lang.pick(&p.name_ja, &p.name_en),
                    "world": world,
                    "fee": yen(p.fee),
                    "free": p.fee == 0,
                })
            })
            .collect();
        let paying = won.iter().any(|p| p.fee > 0);
        let (deadline, next_draw) = match self.run.round {
            LotteryRound::First => {
                (timeline.at(PhaseType::FirstPaymentEnd), timeline.at(PhaseType::SecondLotteryStart))
            }
            LotteryRound::Second => (timeline.at(PhaseType::SecondPaymentEnd), None),
        };
        let context = serde_json::json!({
            "recipient_name": owner.name(lang),
            "circle_name": circle.name(lang),
            "event_name": lang.pick(&timeline.event.name_ja, &timeline.event.name_en),
            "round": self.run.round.as_str(),
            "wins": wins,
            "deadline": deadline.filter(|_| paying).map(|at| at.to_rfc3339()),
            "second_at": next_draw.map(|at| at.to_rfc3339()),
            "path": format!("{}/mypage/entry_history/{}/apply", lang.prefix(), timeline.event.permalink),
        });
        let kind = if wins.is_empty() { MailKind::LotteryLost } else { MailKind::LotteryWon };
        Outgoing { to: email.to_string(), lang, kind, context }
    }
}

/// `fee` in yen with thousands separators: `8000` → `8,000`.
pub(crate) fn yen(fee: i32) -> String {
    let digits = fee.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if fee < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::yen;

    #[test]
    fn fees_are_grouped_by_thousands() {
        assert_eq!(yen(0), "0");
        assert_eq!(yen(800), "800");
        assert_eq!(yen(8000), "8,000");
        assert_eq!(yen(1_234_567), "1,234,567");
        assert_eq!(yen(-5000), "-5,000");
    }
}
