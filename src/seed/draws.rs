//! The demo's lottery history (`draws` in `data/entries.json`), made by the real lottery code at
//! seeding time rather than written as statuses: each round is committed with a seed derived
//! from the event and round (so the demo is the same on every machine and both databases, and
//! its draws can be recomputed by anyone), previewed and published through `model::lottery` at
//! the moments the event's phases put them.
//! The published files verify (`vmarket lottery verify --published`).
//!
//! The seeded draws are history: the result mails they owe are marked done at publication
//! without being rendered, so a demo server mails nobody about them.
//!
//! Seeding again changes nothing: a round already committed is left alone.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionTrait};

use super::entries::{DrawStep, Entries};
use crate::db::entities::lottery_result_mail;
use crate::error::{Error, Result};
use crate::lottery::{Seed, sha256_hex};
use crate::model::entry_status::LotteryRound;
use crate::model::event::EventWithPhases;
use crate::model::lottery::{self, Publication};
use crate::model::phase::PhaseType;

/// The demo seed of `permalink`'s `round`: public by construction (the demo's draws need no
/// secret), the same on every machine.
fn demo_seed(permalink: &str, round: LotteryRound) -> Result<Seed> {
    Seed::from_hex(&sha256_hex(format!("vmarket demo lottery {permalink} {}", round.as_str()).as_bytes()))
        .map_err(|e| Error::Internal(format!("demo seed: {e}")))
}

/// The phase `kind` of `timeline`, which the demo data must have.
fn phase(timeline: &EventWithPhases, kind: PhaseType) -> Result<DateTime<Utc>> {
    timeline.at(kind).ok_or_else(|| Error::Internal(format!("{}: no phase {kind:?}", timeline.event.permalink)))
}

/// Runs every step of `seed.draws` not done yet (after the entries are written).
pub async fn seed_draws<C: ConnectionTrait + TransactionTrait>(db: &C, seed: &Entries) -> Result<()> {
    for step in &seed.draws {
        let DrawStep::Draw { event, round } = step;
        draw(db, event, *round).await?;
    }
    Ok(())
}

/// The event `permalink` with its phases.
async fn timeline(db: &impl ConnectionTrait, permalink: &str) -> Result<EventWithPhases> {
    let found = lottery::event_by_permalink(db, permalink).await?;
    EventWithPhases::load(db, found).await
}

/// Commits `round` of `permalink` when its inputs close (the entry window, or the first payment
/// window for the second round), previews and publishes it an hour into its lottery window, and
/// marks its result mails done.
async fn draw<C: ConnectionTrait + TransactionTrait>(db: &C, permalink: &str, round: LotteryRound) -> Result<()> {
    let timeline = timeline(db, permalink).await?;
    let event_id = timeline.event.id;
    if lottery::run_of(db, event_id, round).await?.is_some() {
        return Ok(());
    }
    let (closes, opens) = match round {
        LotteryRound::First => (PhaseType::EntryEnd, PhaseType::FirstLotteryStart),
        LotteryRound::Second => (PhaseType::FirstPaymentEnd, PhaseType::SecondLotteryStart),
    };
    let committed_at = phase(&timeline, closes)?;
    let drawn_at = phase(&timeline, opens)? + Duration::hours(1);
    lottery::commit_with(db, event_id, round, demo_seed(permalink, round)?, None, committed_at).await?;
    lottery::preview(db, event_id, round, drawn_at).await?;
    let Publication::Applied { run_id, .. } = lottery::publish(db, event_id, round, drawn_at).await? else {
        return Ok(());
    };
    lottery_result_mail::Entity::update_many()
        .col_expr(lottery_result_mail::Column::DoneAt, Expr::value(drawn_at))
        .filter(lottery_result_mail::Column::RunId.eq(run_id))
        .exec(db)
        .await?;
    Ok(())
}
