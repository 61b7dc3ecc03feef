//! Lottery runs (DOMAIN.md "The lottery"): the database side of the draw of [`crate::lottery`].
//!
//! A run goes `committed` → `preview` → `published`, one per event and round, and records who
//! took each step and when (`created_by_user_id` / `created_at`, `previewed_by_user_id` /
//! `previewed_at`, `published_by_user_id` / `published_at`; no one for the command line and the
//! lottery clock):
//!
//! - [`commit`] creates the run with a fresh seed; only its hash is public (the event page shows
//!   it). The seed stays in `secret_seed` and is never shown before publication.
//! - [`preview`] loads the draw's inputs, draws, and stores the canonical inputs with their
//!   digest, the result digest and the result's summary on the run, for staff; no application
//!   changes. It may run
//!   again until publication (e.g. after a withdrawal): the seed stays the same.
//! - [`publish`] applies the result in one transaction: the run is claimed first by a
//!   conditional update (`state = preview` → `published`), so of two concurrent publishes one
//!   applies and the other finds it done; publishing again changes nothing. Winners become
//!   `first_win` / `second_win` (`win` for a plan without fee) with the round and fee recorded,
//!   losers `first_lost` / `second_lost`, a suspended circle's open applications `incorrect`.
//!   The seed and inputs become public; the published file is stored (`lottery_results`), and
//!   every entry decided (a suspended circle's entry left out included) is marked as owed its
//!   result mail (`lottery_mails`), which a job renders and stores after the commit.
//! - [`verify_published`] recomputes a published run from its published seed and inputs and
//!   compares it with the stored statuses.
//!
//!
//! The inputs of a round are read by `model::lottery_inputs`; the lottery clock (what time
//! changes, the automatic rounds) is `model::lottery_clock`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect, Set, TransactionSession, TransactionTrait,
    TryInsertResult,
};

use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::db::entities::lottery_run::LotteryRunState;
use crate::db::entities::{event, event_entry, event_entry_application, event_entry_plan, lottery_run};
use crate::error::{Error, Result};
use crate::lottery::{self, Draw, Seed};
use crate::model::event::EventWithPhases;
use crate::model::lottery_inputs::{Loaded, inputs_of, timeline_of};
pub use crate::model::lottery_results::{DrawSummary, PublicOutcome, PublicRun, public_runs};
use crate::model::phase::PhaseType;
use crate::model::{lottery_mails, lottery_results};

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

/// The phase at which `round`'s lottery window opens.
fn window_start(round: LotteryRound) -> PhaseType {
    match round {
        LotteryRound::First => PhaseType::FirstLotteryStart,
        LotteryRound::Second => PhaseType::SecondLotteryStart,
    }
}

/// When `round`'s lottery window opens in `timeline`, or 409 `lottery_round_not_scheduled`: an
/// event whose phases have no lottery window for the round (no `second_lottery_start`: a single
/// draw) has no such round to commit or draw.
pub fn ensure_scheduled(timeline: &EventWithPhases, round: LotteryRound) -> Result<DateTime<Utc>> {
    timeline.at(window_start(round)).ok_or(Error::Conflict { code: "lottery_round_not_scheduled" })
}

/// Whether `round` of `timeline` may be drawn (previewed or published) at `now`: from the start
/// of its lottery window on (inside it, or after it when staff publish late), once its inputs
/// are settled — for the first round the entry window is closed (an event whose phases put the
/// draw before the end of entries waits for that end), for the second the first payment window
/// is. Otherwise 409 `lottery_window_not_open` (`lottery_round_not_scheduled` for a round the
/// event does not have). Every path that draws — the console, the jobs, the CLI, the lottery
/// clock — goes through [`preview`] and [`publish`], which check it.
pub fn ensure_draw_window(timeline: &EventWithPhases, round: LotteryRound, now: DateTime<Utc>) -> Result<()> {
    let opens = ensure_scheduled(timeline, round)?;
    let settled = match round {
        LotteryRound::First => !timeline.entry_open(now),
        LotteryRound::Second => timeline.at(PhaseType::FirstPaymentEnd).is_none_or(|end| end <= now),
    };
    if opens <= now && settled { Ok(()) } else { Err(Error::Conflict { code: "lottery_window_not_open" }) }
}

/// What [`commit_with`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commitment {
    /// The round's run: the one this call created, or the one committed before.
    pub run: lottery_run::Model,
    /// Whether this call created it (false: the round was committed already, by an earlier or
    /// a concurrent call, and keeps that seed).
    pub created: bool,
}

/// Commits `event_id`'s `round`: a run with a fresh seed whose hash is public from now on. A
/// round already committed keeps its seed (the run is returned as it is), so committing twice
/// never changes a published commitment. 409 `lottery_round_not_scheduled` for a round the
/// event's phases do not have, `lottery_first_round_unpublished` for a second round before the
/// first is published.
pub async fn commit(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    by_user: Option<i32>,
    now: DateTime<Utc>,
) -> Result<lottery_run::Model> {
    Ok(commit_with(db, event_id, round, Seed::generate(), by_user, now).await?.run)
}

/// [`commit`] with a given `seed` (a fresh one from [`Seed::generate`] everywhere but the demo
/// data, whose draw is reproducible), saying whether this call created the run. The unique key
/// on (event, round) settles a race: the insert does nothing when another commit got there
/// first (waiting for it to commit or roll back on PostgreSQL, without aborting the caller's
/// transaction), and the run read afterwards is the one committed.
pub async fn commit_with(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    seed: Seed,
    by_user: Option<i32>,
    now: DateTime<Utc>,
) -> Result<Commitment> {
    if let Some(run) = run_of(db, event_id, round).await? {
        return Ok(Commitment { run, created: false });
    }
    ensure_scheduled(&timeline_of(db, event_id).await?, round)?;
    if round == LotteryRound::Second {
        let first = run_of(db, event_id, LotteryRound::First).await?;
        if first.is_none_or(|r| r.state != LotteryRunState::Published) {
            return Err(Error::Conflict { code: "lottery_first_round_unpublished" });
        }
    }
    let inserted = lottery_run::Entity::insert(lottery_run::ActiveModel {
        event_id: Set(event_id),
        round: Set(round),
        state: Set(LotteryRunState::Committed),
        seed_hash: Set(seed.hash()),
        seed: Set(None),
        inputs_digest: Set(None),
        result_digest: Set(None),
        created_by_user_id: Set(by_user),
        previewed_by_user_id: Set(None),
        published_by_user_id: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        previewed_at: Set(None),
        published_at: Set(None),
        secret_seed: Set(Some(seed.to_hex())),
        inputs: Set(None),
        ..Default::default()
    })
    .on_conflict_do_nothing_on([lottery_run::Column::EventId, lottery_run::Column::Round])
    .exec_without_returning(db)
    .await?;
    let created = matches!(inserted, TryInsertResult::Inserted(n) if n > 0);
    let run = run_of(db, event_id, round)
        .await?
        .ok_or_else(|| Error::Internal(format!("lottery run of event {event_id} not found after its commit")))?;
    Ok(Commitment { run, created })
}

/// The run's seed (server side only).
fn secret_seed(run: &lottery_run::Model) -> Result<Seed> {
    run.secret_seed
        .as_deref()
        .and_then(|hex| Seed::from_hex(hex).ok())
        .ok_or_else(|| Error::Internal(format!("lottery run {} has no readable seed", run.id)))
}

/// Draws `event_id`'s committed `round` for staff: stores the canonical inputs, the digests and
/// the result's summary ([`DrawSummary`]) on the run and returns the draw; no application
/// changes. Only inside the draw window ([`ensure_draw_window`]); 409 `lottery_not_committed`
/// before a commit, `lottery_published` once the run is published — also when a publication
/// commits while this preview draws: the run is written only while it is not published (a
/// conditional update, which on PostgreSQL waits for a concurrent publication's row lock and
/// then sees its state), so a preview never reverts a publication.
pub async fn preview(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<Draw> {
    preview_by(db, event_id, round, None, now).await
}

/// [`preview`] by the staff member `by_user` (`None`: the command line or the lottery clock),
/// recorded on the run with the time.
pub async fn preview_by(
    db: &impl ConnectionTrait,
    event_id: i32,
    round: LotteryRound,
    by_user: Option<i32>,
    now: DateTime<Utc>,
) -> Result<Draw> {
    let timeline = timeline_of(db, event_id).await?;
    ensure_draw_window(&timeline, round, now)?;
    let run = existing_run(db, event_id, round).await?;
    if run.state == LotteryRunState::Published {
        return Err(Error::Conflict { code: "lottery_published" });
    }
    let seed = secret_seed(&run)?;
    let inputs = inputs_of(db, &timeline, round, now).await?.inputs;
    let draw = lottery::draw(&seed, &inputs);
    let written = lottery_run::Entity::update_many()
        .col_expr(lottery_run::Column::State, Expr::value(LotteryRunState::Preview))
        .col_expr(lottery_run::Column::Inputs, Expr::value(Some(inputs.canonical())))
        .col_expr(lottery_run::Column::InputsDigest, Expr::value(Some(draw.inputs_digest.clone())))
        .col_expr(lottery_run::Column::ResultDigest, Expr::value(Some(draw.digest.clone())))
        .col_expr(lottery_run::Column::Summary, Expr::value(Some(DrawSummary::of(&inputs, &draw).to_json())))
        .col_expr(lottery_run::Column::PreviewedAt, Expr::value(Some(now)))
        .col_expr(lottery_run::Column::PreviewedByUserId, Expr::value(by_user))
        .col_expr(lottery_run::Column::UpdatedAt, Expr::value(now))
        .filter(lottery_run::Column::Id.eq(run.id))
        .filter(lottery_run::Column::State.ne(LotteryRunState::Published))
        .exec(db)
        .await?;
    if written.rows_affected == 0 {
        return Err(Error::Conflict { code: "lottery_published" });
    }
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
        /// The run published.
        run_id: i32,
        /// Entries whose result is now owed a mail (one per entry the draw decided, those of
        /// suspended circles it left out included; see `model::lottery_mails`); enqueue
        /// `jobs::SendLotteryResults` for the run now that the publication committed.
        result_mails: usize,
    },
    /// The run was already published (by an earlier or a concurrent call); nothing changed.
    AlreadyPublished,
}

/// Publishes `event_id`'s previewed `round` (module doc). In the same transaction as the
/// statuses it stores that every entry the draw decided is owed its result mail
/// (`model::lottery_mails::mark`: the mails themselves are rendered and stored afterwards by the
/// `SendLotteryResults` job) and the published file (`model::lottery_results`). The inputs are
/// loaded again inside the transaction; when they differ from the previewed ones (409
/// `lottery_inputs_changed`) staff preview again. Only inside the draw window
/// ([`ensure_draw_window`]: 409 `lottery_window_not_open`); 409 `lottery_not_previewed` before a
/// preview.
/// Background callers go through `jobs::PublishLottery`, which also enqueues the mails.
pub async fn publish<C: TransactionTrait + ConnectionTrait>(
    db: &C,
    event_id: i32,
    round: LotteryRound,
    now: DateTime<Utc>,
) -> Result<Publication> {
    publish_by(db, event_id, round, None, now).await
}

/// [`publish`] by the staff member `by_user` (`None`: the command line or a job), recorded on
/// the run with the time.
pub async fn publish_by<C: TransactionTrait + ConnectionTrait>(
    db: &C,
    event_id: i32,
    round: LotteryRound,
    by_user: Option<i32>,
    now: DateTime<Utc>,
) -> Result<Publication> {
    let timeline = timeline_of(db, event_id).await?;
    ensure_draw_window(&timeline, round, now)?;
    let txn = crate::db::begin_write(db).await?;
    // Claim the run first, by a write: of concurrent publishes the database lets one through
    // (a row lock on PostgreSQL, the write lock on SQLite); the others wait for it and then find
    // nothing in `preview` to claim.
    let claimed = lottery_run::Entity::update_many()
        .col_expr(lottery_run::Column::State, Expr::value(LotteryRunState::Published))
        .col_expr(lottery_run::Column::Seed, Expr::col(lottery_run::Column::SecretSeed))
        .col_expr(lottery_run::Column::PublishedAt, Expr::value(now))
        .col_expr(lottery_run::Column::PublishedByUserId, Expr::value(by_user))
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
    let Loaded { inputs, excluded: incorrect, excluded_entries } = inputs_of(&txn, &timeline, round, now).await?;
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
    // Every entry the draw decided is owed its result mail: those in it, and those it left out
    // (their circle suspended: told so).
    let entries = draw.outcomes.iter().filter_map(|o| i32::try_from(o.entry_id).ok()).chain(excluded_entries);
    let result_mails = lottery_mails::mark(&txn, run.id, entries, now).await?;
    lottery_results::store_file(&txn, &run, &timeline.event.permalink, &draw, now).await?;
    txn.commit().await?;
    Ok(Publication::Applied { draw, incorrect, run_id: run.id, result_mails })
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
