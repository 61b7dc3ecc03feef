//! Lottery runs (DOMAIN.md "The lottery"): the database side of the draw of [`crate::lottery`].
//!
//! A run goes `committed` → `preview` → `published`, one per event and round:
//!
//! - [`commit`] creates the run with a fresh seed; only its hash is public (the event page shows
//!   it). The seed stays in `secret_seed` and is never shown before publication.
//! - [`preview`] loads the draw's inputs, draws, and stores the canonical inputs with their
//!   digest and the result digest on the run, for staff; no application changes. It may run
//!   again until publication (e.g. after a withdrawal): the seed stays the same.
//! - [`publish`] applies the result in one transaction: the run is claimed first by a
//!   conditional update (`state = preview` → `published`), so of two concurrent publishes one
//!   applies and the other finds it done; publishing again changes nothing. Winners become
//!   `first_win` / `second_win` (`win` for a plan without fee) with the round and fee recorded,
//!   losers `first_lost` / `second_lost`, a suspended circle's open applications `incorrect`.
//!   The seed and inputs become public.
//! - [`verify_published`] recomputes a published run from its published seed and inputs and
//!   compares it with the stored statuses.
//!
//! The inputs of a round:
//!
//! - **first**: every plan of the event with its `maximum` (minus slots already held, none in
//!   practice), every entry of a circle that is not suspended with its `applied` wishes.
//! - **second**: every plan with its freed slots — `maximum` minus the wishes that still hold a
//!   slot (`first_win` while its payment window is open, `win`, `paid`, `second_win`); unpaid
//!   and declined wins hold none — and every entry's `first_lost` wishes, except entries
//!   without multiple-win that won in the first round (they keep, paid, declined or lost their
//!   one win).
//!
//! Within an entry the wishes keep their order; in the draw's input they are ranked 1..n
//! among the wishes that take part (a multiple-win entry that won its second wish goes into the
//! second round with its first and third as 1 and 2).

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::lottery_run::LotteryRunState;
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, lottery_run, user, world,
};
use crate::error::{Error, Result};
use crate::lottery::{self, ApplicationInput, Draw, EntryInput, Inputs, PlanInput, Seed};
use crate::mail::{MailKind, Mailer, Outgoing, Queued};
use crate::model::entry_status::effective_status;
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;
use crate::types::Lang;

/// The event with this permalink (public or not: staff draw before an event is shown).
pub async fn event_by_permalink(db: &impl ConnectionTrait, permalink: &str) -> Result<event::Model> {
    event::Entity::find()
        .filter(event::Column::Permalink.eq(permalink))
        .one(db)
        .await?
        .ok_or_else(Error::unknown_permalink)
}

/// The run of `event_id`'s `round`, if committed.
pub async fn run_of(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
) -> Result<Option<lottery_run::Model>> {
    Ok(lottery_run::Entity::find()
        .filter(lottery_run::Column::EventId.eq(event_id))
        .filter(lottery_run::Column::Round.eq(round))
        .one(db)
        .await?)
}

/// The run, or 409 `lottery_not_committed`.
async fn existing_run(db: &impl ConnectionTrait, event_id: i32, round: LotteryRound) -> Result<lottery_run::Model> {
    run_of(db, event_id, round).await?.ok_or(Error::Conflict { code: "lottery_not_committed" })
}

/// Commits `event_id`'s `round`: a run with a fresh seed whose hash is public from now on. A
/// round already committed keeps its seed (the run is returned as it is), so committing twice
/// never changes a published commitment. The unique key on (event, round) settles a race.
pub async fn commit(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    by_user: Option<i32>,
    now: DateTime<Utc>,
) -> Result<lottery_run::Model> {
    if let Some(run) = run_of(db, event_id, round).await? {
        return Ok(run);
    }
    if round == LotteryRound::Second {
        let first = run_of(db, event_id, LotteryRound::First).await?;
        if first.is_none_or(|r| r.state != LotteryRunState::Published) {
            return Err(Error::Conflict { code: "lottery_first_round_unpublished" });
        }
    }
    let seed = Seed::generate();
    let inserted = lottery_run::ActiveModel {
        event_id: Set(event_id),
        round: Set(round),
        state: Set(LotteryRunState::Committed),
        seed_hash: Set(seed.hash()),
        seed: Set(None),
        inputs_digest: Set(None),
        result_digest: Set(None),
        created_by_user_id: Set(by_user),
        created_at: Set(now),
        updated_at: Set(now),
        previewed_at: Set(None),
        published_at: Set(None),
        secret_seed: Set(Some(seed.to_hex())),
        inputs: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await;
    match inserted {
        Ok(run) => Ok(run),
        // Another commit won the race: its seed is the committed one.
        Err(e) => run_of(db, event_id, round).await?.ok_or(Error::Db(e)),
    }
}

/// What the draw reads of an entry.
struct EntryRow {
    id: i32,
    circle_id: i32,
    is_multiple_win: bool,
}

/// What the draw reads of an application.
struct WishRow {
    id: i32,
    entry_id: i32,
    plan_id: i32,
    choice: i32,
    lottery_status: LotteryStatus,
    won_round: Option<LotteryRound>,
}

/// The inputs of `event_id`'s `round` as the database holds them now (module doc), with the
/// applications of suspended circles that the draw leaves out.
pub async fn load_inputs(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<(Inputs, Vec<i32>)> {
    let event = event::Entity::find_by_id(event_id).one(db).await?.ok_or_else(Error::unknown_permalink)?;
    let timeline = EventWithPhases::load(db, event).await?;
    let plans = event_entry_plan::Entity::find().filter(event_entry_plan::Column::EventId.eq(event_id)).all(db).await?;
    // Only the columns the draw needs (as for the applications below).
    let entries: Vec<EntryRow> = event_entry::Entity::find()
        .select_only()
        .columns([event_entry::Column::Id, event_entry::Column::CircleId, event_entry::Column::IsMultipleWin])
        .filter(event_entry::Column::EventId.eq(event_id))
        .into_tuple::<(i32, i32, bool)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(id, circle_id, is_multiple_win)| EntryRow { id, circle_id, is_multiple_win })
        .collect();
    // Subqueries, not lists of ids: an event has tens of thousands of entries, more than a
    // statement may bind on SQLite.
    let entries_of_event = Query::select()
        .column(event_entry::Column::Id)
        .from(event_entry::Entity)
        .and_where(event_entry::Column::EventId.eq(event_id))
        .to_owned();
    let circles_of_event = Query::select()
        .column(event_entry::Column::CircleId)
        .from(event_entry::Entity)
        .and_where(event_entry::Column::EventId.eq(event_id))
        .to_owned();
    let suspended: HashSet<i32> = circle::Entity::find()
        .filter(circle::Column::Id.in_subquery(circles_of_event))
        .filter(circle::Column::IsSuspended.eq(true))
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect();
    // Only the columns the draw needs: a full row per application costs more than the draw.
    use event_entry_application::Column as A;
    let applications: Vec<WishRow> = event_entry_application::Entity::find()
        .select_only()
        .columns([A::Id, A::EntryId, A::PlanId, A::Choice, A::LotteryStatus, A::WonRound])
        .filter(A::EntryId.in_subquery(entries_of_event))
        .into_tuple::<(i32, i32, i32, i32, LotteryStatus, Option<LotteryRound>)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(id, entry_id, plan_id, choice, lottery_status, won_round)| WishRow {
            id,
            entry_id,
            plan_id,
            choice,
            lottery_status,
            won_round,
        })
        .collect();
    let status = |a: &WishRow| effective_status(a.lottery_status, &timeline, now);

    let mut held: HashMap<i32, i64> = HashMap::new();
    for a in &applications {
        if matches!(
            status(a),
            LotteryStatus::FirstWin | LotteryStatus::SecondWin | LotteryStatus::Win | LotteryStatus::Paid
        ) {
            *held.entry(a.plan_id).or_default() += 1;
        }
    }
    let plan_inputs = plans
        .iter()
        .map(|p| PlanInput {
            id: i64::from(p.id),
            capacity: u32::try_from((i64::from(p.maximum) - held.get(&p.id).copied().unwrap_or(0)).max(0)).unwrap_or(0),
        })
        .collect();

    let mut by_entry: HashMap<i32, Vec<&WishRow>> = HashMap::new();
    for a in &applications {
        by_entry.entry(a.entry_id).or_default().push(a);
    }
    let mut excluded = Vec::new();
    let mut entry_inputs = Vec::new();
    for entry in &entries {
        let mut wishes = by_entry.remove(&entry.id).unwrap_or_default();
        wishes.sort_by_key(|a| a.choice);
        let taking: Vec<&WishRow> = match round {
            LotteryRound::First => {
                wishes.iter().copied().filter(|a| a.lottery_status == LotteryStatus::Applied).collect()
            }
            LotteryRound::Second => {
                let won_first = wishes.iter().any(|a| a.won_round == Some(LotteryRound::First));
                if won_first && !entry.is_multiple_win {
                    Vec::new()
                } else {
                    wishes.iter().copied().filter(|a| status(a) == LotteryStatus::FirstLost).collect()
                }
            }
        };
        if taking.is_empty() {
            continue;
        }
        if suspended.contains(&entry.circle_id) {
            excluded.extend(taking.iter().map(|a| a.id));
            continue;
        }
        entry_inputs.push(EntryInput {
            id: i64::from(entry.id),
            multiple_win: entry.is_multiple_win,
            applications: taking
                .iter()
                .enumerate()
                .map(|(rank, a)| ApplicationInput {
                    id: i64::from(a.id),
                    choice: u8::try_from(rank + 1).unwrap_or(u8::MAX),
                    plan_id: i64::from(a.plan_id),
                })
                .collect(),
        });
    }
    let inputs = Inputs::new(plan_inputs, entry_inputs).map_err(|e| Error::Internal(format!("lottery inputs: {e}")))?;
    Ok((inputs, excluded))
}

/// The run's seed (server side only).
fn secret_seed(run: &lottery_run::Model) -> Result<Seed> {
    run.secret_seed
        .as_deref()
        .and_then(|hex| Seed::from_hex(hex).ok())
        .ok_or_else(|| Error::Internal(format!("lottery run {} has no readable seed", run.id)))
}

/// Draws `event_id`'s committed `round` for staff: stores the canonical inputs and the digests
/// on the run and returns the draw; no application changes. 409 `lottery_published` once the
/// run is published.
pub async fn preview(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<Draw> {
    let run = existing_run(db, event_id, round).await?;
    if run.state == LotteryRunState::Published {
        return Err(Error::Conflict { code: "lottery_published" });
    }
    let seed = secret_seed(&run)?;
    let (inputs, _) = load_inputs(db, event_id, round, now).await?;
    let draw = lottery::draw(&seed, &inputs);
    let mut active = run.into_active_model();
    active.state = Set(LotteryRunState::Preview);
    active.inputs = Set(Some(inputs.canonical()));
    active.inputs_digest = Set(Some(draw.inputs_digest.clone()));
    active.result_digest = Set(Some(draw.digest.clone()));
    active.previewed_at = Set(Some(now));
    active.updated_at = Set(now);
    active.update(db).await?;
    Ok(draw)
}

/// What [`publish`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Publication {
    /// This call applied the draw.
    Applied {
        /// The draw applied.
        draw: Draw,
        /// Applications set to `incorrect` (suspended circles).
        incorrect: Vec<i32>,
        /// The result mails queued in the publishing transaction, one per entry the draw decided
        /// (to its circle's owner); push them (`jobs::SendMail::push`) now that it committed.
        mails: Vec<Queued>,
    },
    /// The run was already published (by an earlier or a concurrent call); nothing changed.
    AlreadyPublished,
}

/// Publishes `event_id`'s previewed `round` (module doc) and queues, in the same transaction,
/// the result mail of every entry it decided ([`MailKind::LotteryWon`] / [`MailKind::LotteryLost`],
/// in the owner's language). The inputs are loaded again inside the transaction; when they
/// differ from the previewed ones (409 `lottery_inputs_changed`) staff preview again. 409
/// `lottery_not_previewed` before a preview. Background callers go through
/// `jobs::PublishLottery`, which also pushes the mails.
pub async fn publish<C: TransactionTrait + ConnectionTrait>(
    db: &C,
    mailer: &Mailer,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<Publication> {
    let txn = db.begin().await?;
    // Claim the run first, by a write: of concurrent publishes the database lets one through
    // (a row lock on PostgreSQL, the write lock on SQLite); the others wait for it and then find
    // nothing in `preview` to claim.
    let claimed = lottery_run::Entity::update_many()
        .col_expr(lottery_run::Column::State, Expr::value(LotteryRunState::Published))
        .col_expr(lottery_run::Column::Seed, Expr::col(lottery_run::Column::SecretSeed))
        .col_expr(lottery_run::Column::PublishedAt, Expr::value(now))
        .col_expr(lottery_run::Column::UpdatedAt, Expr::value(now))
        .filter(lottery_run::Column::EventId.eq(event_id))
        .filter(lottery_run::Column::Round.eq(round))
        .filter(lottery_run::Column::State.eq(LotteryRunState::Preview))
        .exec(&txn)
        .await?;
    let run = existing_run(&txn, event_id, round).await?;
    if claimed.rows_affected == 0 {
        return match run.state {
            LotteryRunState::Published => Ok(Publication::AlreadyPublished),
            _ => Err(Error::Conflict { code: "lottery_not_previewed" }),
        };
    }
    let seed = secret_seed(&run)?;
    let (inputs, incorrect) = load_inputs(&txn, event_id, round, now).await?;
    if run.inputs.as_deref() != Some(inputs.canonical().as_str()) {
        return Err(Error::Conflict { code: "lottery_inputs_changed" });
    }
    let draw = lottery::draw(&seed, &inputs);
    let fees: HashMap<i32, i32> = event_entry_plan::Entity::find()
        .filter(event_entry_plan::Column::EventId.eq(event_id))
        .all(&txn)
        .await?
        .into_iter()
        .map(|p| (p.id, p.fee))
        .collect();
    let (won_status, lost_status) = match round {
        LotteryRound::First => (LotteryStatus::FirstWin, LotteryStatus::FirstLost),
        LotteryRound::Second => (LotteryStatus::SecondWin, LotteryStatus::SecondLost),
    };
    let id_of = |id: i64| i32::try_from(id).map_err(|_| Error::Internal(format!("application id {id}")));
    let mut losers = Vec::new();
    // Winners grouped by their plan's fee: one statement per fee (and chunk), not per plan.
    let mut winners_by_fee: HashMap<i32, Vec<i32>> = HashMap::new();
    for o in &draw.outcomes {
        if o.won {
            let fee = fees.get(&id_of(o.plan_id)?).copied().unwrap_or(0);
            winners_by_fee.entry(fee).or_default().push(id_of(o.application_id)?);
        } else {
            losers.push(id_of(o.application_id)?);
        }
    }
    let set_status = |status: LotteryStatus, ids: Vec<i32>| {
        event_entry_application::Entity::update_many()
            .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(status))
            .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
            .filter(event_entry_application::Column::Id.is_in(ids))
    };
    // In chunks: a statement holds at most a few thousand bound ids on every backend.
    for chunk in incorrect.chunks(5000) {
        set_status(LotteryStatus::Incorrect, chunk.to_vec()).exec(&txn).await?;
    }
    // Winners first, by id (one statement per fee and chunk of ids), so that the first round's
    // losers are then every wish still `applied`: each row is written once.
    for (fee, ids) in winners_by_fee {
        let status = if fee == 0 { LotteryStatus::Win } else { won_status };
        for chunk in ids.chunks(5000) {
            set_status(status, chunk.to_vec())
                .col_expr(event_entry_application::Column::WonRound, Expr::value(round))
                .col_expr(event_entry_application::Column::FeeAtDraw, Expr::value(fee))
                .exec(&txn)
                .await?;
        }
    }
    match round {
        // The first draw decided exactly the event's `applied` wishes left after the lines above
        // (its inputs were just checked equal to the previewed ones): one statement makes the
        // rest losers.
        LotteryRound::First => {
            let entries_of_event = Query::select()
                .column(event_entry::Column::Id)
                .from(event_entry::Entity)
                .and_where(event_entry::Column::EventId.eq(event_id))
                .to_owned();
            event_entry_application::Entity::update_many()
                .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(lost_status))
                .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
                .filter(event_entry_application::Column::EntryId.in_subquery(entries_of_event))
                .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::Applied))
                .exec(&txn)
                .await?;
        }
        LotteryRound::Second => {
            for chunk in losers.chunks(5000) {
                set_status(lost_status, chunk.to_vec()).exec(&txn).await?;
            }
        }
    }
    let mails = queue_result_mails(&txn, mailer, event_id, round, &draw, now).await?;
    txn.commit().await?;
    Ok(Publication::Applied { draw, incorrect, mails })
}

/// `fee` in yen with thousands separators: `8000` → `8,000`.
pub fn yen(fee: i32) -> String {
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

/// Queues inside `txn` the result mail of every entry `draw` decided, to its circle's owner in
/// their language: the plans won (world, fee, the payment deadline of the round in Japan time)
/// or, for a loss, what comes next (the second draw and when, or nothing more). Owners without
/// a mail address get none. Links go to the entry's history page.
async fn queue_result_mails(
    txn: &impl ConnectionTrait,
    mailer: &Mailer,
    event_id: i32,
    round: LotteryRound,
    draw: &Draw,
    now: DateTime<Utc>,
) -> Result<Vec<Queued>> {
    let mut by_entry: BTreeMap<i64, Vec<&lottery::Outcome>> = BTreeMap::new();
    for o in &draw.outcomes {
        by_entry.entry(o.entry_id).or_default().push(o);
    }
    if by_entry.is_empty() {
        return Ok(Vec::new());
    }
    let event = event::Entity::find_by_id(event_id).one(txn).await?.ok_or_else(Error::unknown_permalink)?;
    let timeline = EventWithPhases::load(txn, event).await?;
    let circles_of_event = Query::select()
        .column(event_entry::Column::CircleId)
        .from(event_entry::Entity)
        .and_where(event_entry::Column::EventId.eq(event_id))
        .to_owned();
    let entries: HashMap<i32, i32> = event_entry::Entity::find()
        .select_only()
        .columns([event_entry::Column::Id, event_entry::Column::CircleId])
        .filter(event_entry::Column::EventId.eq(event_id))
        .into_tuple::<(i32, i32)>()
        .all(txn)
        .await?
        .into_iter()
        .collect();
    let circles: HashMap<i32, circle::Model> = circle::Entity::find()
        .filter(circle::Column::Id.in_subquery(circles_of_event.clone()))
        .filter(circle::Column::OwnerUserId.is_not_null())
        .all(txn)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    let owners_of_event = Query::select()
        .column(circle::Column::OwnerUserId)
        .from(circle::Entity)
        .and_where(circle::Column::Id.in_subquery(circles_of_event))
        .to_owned();
    let owners: HashMap<i32, user::Model> = user::Entity::find()
        .filter(user::Column::Id.in_subquery(owners_of_event))
        .all(txn)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let plans: HashMap<i64, event_entry_plan::Model> = event_entry_plan::Entity::find()
        .filter(event_entry_plan::Column::EventId.eq(event_id))
        .all(txn)
        .await?
        .into_iter()
        .map(|p| (i64::from(p.id), p))
        .collect();
    let worlds: HashMap<i32, world::Model> = world::Entity::find()
        .filter(world::Column::Id.is_in(plans.values().map(|p| p.world_id).collect::<HashSet<_>>()))
        .all(txn)
        .await?
        .into_iter()
        .map(|w| (w.id, w))
        .collect();
    let (deadline, next_draw) = match round {
        LotteryRound::First => (timeline.at(PhaseType::FirstPaymentEnd), timeline.at(PhaseType::SecondLotteryStart)),
        LotteryRound::Second => (timeline.at(PhaseType::SecondPaymentEnd), None),
    };
    let mut mails = Vec::new();
    for (entry_id, outcomes) in by_entry {
        let circle = i32::try_from(entry_id).ok().and_then(|id| entries.get(&id)).and_then(|c| circles.get(c));
        let Some((circle, owner)) = circle.and_then(|c| Some((c, owners.get(&c.owner_user_id?)?))) else {
            continue;
        };
        let Some(email) = owner.email.as_deref().filter(|e| !e.trim().is_empty()) else { continue };
        let lang = Lang::parse(&owner.lang).unwrap_or_default();
        let wins: Vec<serde_json::Value> = outcomes
            .iter()
            .filter(|o| o.won)
            .filter_map(|o| plans.get(&o.plan_id))
            .map(|p| {
                let world = worlds.get(&p.world_id).map(|w| lang.pick(&w.name_ja, &w.name_en)).unwrap_or_default();
                serde_json::json!({
                    "plan": lang.pick(&p.name_ja, &p.name_en),
                    "world": world,
                    "fee": yen(p.fee),
                    "free": p.fee == 0,
                })
            })
            .collect();
        let paying = outcomes.iter().any(|o| o.won && plans.get(&o.plan_id).is_some_and(|p| p.fee > 0));
        let context = serde_json::json!({
            "recipient_name": owner.name(lang),
            "circle_name": circle.name(lang),
            "event_name": lang.pick(&timeline.event.name_ja, &timeline.event.name_en),
            "round": round.as_str(),
            "wins": wins,
            "deadline": deadline.filter(|_| paying).map(|at| at.to_rfc3339()),
            "second_at": next_draw.map(|at| at.to_rfc3339()),
            "path": format!("{}/mypage/entry_history/{}/apply", lang.prefix(), timeline.event.permalink),
        });
        let kind = if wins.is_empty() { MailKind::LotteryLost } else { MailKind::LotteryWon };
        let outgoing = Outgoing { to: email.to_string(), lang, kind, context };
        match mailer.queue(txn, &outgoing, now).await {
            Ok(queued) => mails.push(queued),
            // An owner whose stored address is not one gets no mail; the draw still stands.
            Err(Error::Validation(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(mails)
}

/// How a published run compares with what it published and what the database shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// The recomputed draw.
    pub draw: Draw,
    /// Applications whose stored outcome (won in this round or not) differs from the draw.
    pub mismatches: Vec<i64>,
}

/// Recomputes `event_id`'s published `round` from its published seed and inputs: an error when
/// the seed does not match the commitment, the inputs their digest or the result its digest
/// (409 `lottery_not_published` before publication); otherwise the draw and the applications
/// whose stored outcome disagrees with it (none for an honest run).
pub async fn verify_published(db: &impl ConnectionTrait, event_id: i32, round: LotteryRound) -> Result<Verification> {
    let run = existing_run(db, event_id, round).await?;
    let (Some(seed), Some(inputs), Some(inputs_digest), Some(result_digest)) =
        (run.seed.as_deref(), run.inputs.as_deref(), run.inputs_digest.as_deref(), run.result_digest.as_deref())
    else {
        return Err(Error::Conflict { code: "lottery_not_published" });
    };
    let draw =
        lottery::verify(&lottery::Published { seed, seed_hash: &run.seed_hash, inputs, inputs_digest, result_digest })
            .map_err(|e| Error::Internal(format!("the published draw does not verify: {e}")))?;
    let ids: Vec<i32> = draw.outcomes.iter().filter_map(|o| i32::try_from(o.application_id).ok()).collect();
    let mut stored: HashMap<i64, bool> = HashMap::new();
    for chunk in ids.chunks(5000) {
        for (id, won_round) in event_entry_application::Entity::find()
            .select_only()
            .columns([event_entry_application::Column::Id, event_entry_application::Column::WonRound])
            .filter(event_entry_application::Column::Id.is_in(chunk.iter().copied()))
            .into_tuple::<(i32, Option<LotteryRound>)>()
            .all(db)
            .await?
        {
            stored.insert(i64::from(id), won_round == Some(round));
        }
    }
    let mismatches = draw
        .outcomes
        .iter()
        .filter(|o| stored.get(&o.application_id) != Some(&o.won))
        .map(|o| o.application_id)
        .collect();
    Ok(Verification { draw, mismatches })
}

/// What [`sweep`] wrote: applications whose stored status time had already changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Rows rewritten (e.g. `first_win` → `first_win_unpaid` after the payment window).
    pub applications: u64,
}

/// Writes to the database the statuses time has changed ([`effective_status`]: a win whose
/// payment window closed unpaid, a loss made final), for every event, with one set-based update
/// per event and stored status. Idempotent (a second run finds nothing to change), and the
/// same result readers already see: views apply [`effective_status`] on read, so a stopped
/// worker never shows a wrong status. Payment (`paid`) ends `first_win` before the window
/// closes, so this only ever touches wins without a settled payment.
pub async fn sweep(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Swept> {
    let mut swept = Swept::default();
    for ev in event::Entity::find().all(db).await? {
        let timeline = EventWithPhases::load(db, ev).await?;
        for stored in
            [LotteryStatus::FirstWin, LotteryStatus::SecondWin, LotteryStatus::FirstLost, LotteryStatus::SecondLost]
        {
            let becomes = effective_status(stored, &timeline, now);
            if becomes == stored {
                continue;
            }
            let entries_of_event = Query::select()
                .column(event_entry::Column::Id)
                .from(event_entry::Entity)
                .and_where(event_entry::Column::EventId.eq(timeline.event.id))
                .to_owned();
            let result = event_entry_application::Entity::update_many()
                .col_expr(event_entry_application::Column::LotteryStatus, Expr::value(becomes))
                .col_expr(event_entry_application::Column::UpdatedAt, Expr::value(now))
                .filter(event_entry_application::Column::EntryId.in_subquery(entries_of_event))
                .filter(event_entry_application::Column::LotteryStatus.eq(stored))
                .exec(db)
                .await?;
            swept.applications += result.rows_affected;
        }
    }
    Ok(swept)
}

/// What [`start_second_rounds`] did for one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecondRoundStarted {
    /// The event.
    pub event_id: i32,
    /// The committed seed's hash (public from now on).
    pub seed_hash: String,
    /// The preview's draw, for staff to publish.
    pub draw: Draw,
}

/// The automatic second round (DOMAIN.md "The lottery"): for every event whose first round is
/// published, whose first payment window has closed and which has a second lottery, commits
/// the second round (its seed hash appears on the event page) and previews it over the freed
/// slots. Publishing stays a staff action (the entry shows `adjusting` until then), as for the
/// first round: the draw is a result staff answer for. A round already previewed or published is
/// left alone (staff may preview it again themselves), so running this again does nothing.
pub async fn start_second_rounds(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Vec<SecondRoundStarted>> {
    let published_first: Vec<i32> = lottery_run::Entity::find()
        .select_only()
        .column(lottery_run::Column::EventId)
        .filter(lottery_run::Column::Round.eq(LotteryRound::First))
        .filter(lottery_run::Column::State.eq(LotteryRunState::Published))
        .into_tuple::<i32>()
        .all(db)
        .await?;
    let mut started = Vec::new();
    for event_id in published_first {
        let Some(ev) = event::Entity::find_by_id(event_id).one(db).await? else { continue };
        let timeline = EventWithPhases::load(db, ev).await?;
        if timeline.at(PhaseType::SecondLotteryStart).is_none() || !timeline.reached(PhaseType::FirstPaymentEnd, now) {
            continue;
        }
        let run = commit(db, event_id, LotteryRound::Second, None, now).await?;
        if run.state != LotteryRunState::Committed {
            continue;
        }
        let draw = preview(db, event_id, LotteryRound::Second, now).await?;
        started.push(SecondRoundStarted { event_id, seed_hash: run.seed_hash, draw });
    }
    Ok(started)
}

/// What anyone may see of a round's draw: its commitment before the draw, and after
/// publication everything needed to recompute it (`vmarket lottery verify --published FILE`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PublicRun {
    /// The event's permalink.
    pub event: String,
    /// `first` or `second`.
    pub round: LotteryRound,
    /// Whether the result is published.
    pub published: bool,
    /// Hex SHA-256 of the seed, committed before the draw.
    pub seed_hash: String,
    /// Hex seed (64 digits), once published.
    pub seed: Option<String>,
    /// The canonical input list (`vmarket lottery inputs v1` text), once published.
    pub inputs: Option<String>,
    /// Hex SHA-256 of `inputs`, once published.
    pub inputs_digest: Option<String>,
    /// The digest of the result, once published.
    pub result_digest: Option<String>,
    /// When the result was published.
    pub published_at: Option<DateTime<Utc>>,
    /// Every application's outcome (`application_id`, `won`), once published.
    pub outcomes: Option<Vec<PublicOutcome>>,
}

/// One application's outcome in a published draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PublicOutcome {
    /// The application.
    pub application_id: i64,
    /// Whether it won a slot.
    pub won: bool,
}

impl PublicRun {
    /// The public side of `run` of the event `permalink`: never the seed before publication.
    /// `with_material` adds the inputs and the recomputed outcomes of a published run (the
    /// download); without it only the commitment and the digests.
    pub fn of(run: &lottery_run::Model, permalink: &str, with_material: bool) -> Result<Self> {
        let published = run.state == LotteryRunState::Published;
        let shown = |value: &Option<String>| if published { value.clone() } else { None };
        let outcomes = match (published && with_material, &run.seed, &run.inputs) {
            (true, Some(seed), Some(inputs)) => {
                let seed = Seed::from_hex(seed).map_err(|e| Error::Internal(format!("lottery run {}: {e}", run.id)))?;
                let inputs =
                    Inputs::parse(inputs).map_err(|e| Error::Internal(format!("lottery run {}: {e}", run.id)))?;
                let draw = lottery::draw(&seed, &inputs);
                Some(
                    draw.outcomes
                        .iter()
                        .map(|o| PublicOutcome { application_id: o.application_id, won: o.won })
                        .collect(),
                )
            }
            _ => None,
        };
        Ok(Self {
            event: permalink.to_string(),
            round: run.round,
            published,
            seed_hash: run.seed_hash.clone(),
            seed: shown(&run.seed),
            inputs: if with_material { shown(&run.inputs) } else { None },
            inputs_digest: shown(&run.inputs_digest),
            result_digest: shown(&run.result_digest),
            published_at: run.published_at.filter(|_| published),
            outcomes,
        })
    }
}

/// The committed runs of `event` as the public sees them (first round first), without the
/// downloadable material.
pub async fn public_runs(db: &impl ConnectionTrait, event: &event::Model) -> Result<Vec<PublicRun>> {
    let mut runs = lottery_run::Entity::find().filter(lottery_run::Column::EventId.eq(event.id)).all(db).await?;
    runs.sort_by_key(|r| r.round.as_str());
    runs.iter().map(|r| PublicRun::of(r, &event.permalink, false)).collect()
}
