//! `vmarket lottery …`: staff commit, preview and publish a round's draw (the model's
//! `lottery` module); `verify` recomputes a published draw — from the database with `--event`,
//! or from the published material alone (seed, the seed hash committed before the draw, the
//! canonical inputs file and the digests) with no database, so that anyone can run it.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::{Args, Subcommand, ValueEnum};

use crate::db::entities::event;
use crate::db::entities::event_entry_application::LotteryRound;
use crate::error::Error;
use crate::i18n::tera::format_jst;
use crate::jobs::{PreviewLottery, PublishLottery};
use crate::lottery::{Published, verify};
use crate::model::event::EventWithPhases;
use crate::model::lottery::{self as runs, PublicRun, Publication};
use crate::model::phase::PhaseType;
use crate::queue::JobContext;

/// `vmarket lottery …`
#[derive(Debug, Subcommand)]
pub enum LotteryAction {
    /// Create the round's run with a fresh seed and publish the seed's hash (idempotent: a
    /// committed round keeps its seed).
    Commit(RoundArgs),
    /// Draw the round for staff: stores and prints the result digest, changes no status. Only
    /// from the start of the round's lottery window on, by the site's clock.
    Preview(RoundArgs),
    /// Apply the previewed draw: statuses change, seed and inputs become public (idempotent).
    /// Only from the start of the round's lottery window on, by the site's clock.
    Publish(RoundArgs),
    /// Recompute a published draw from its seed and inputs and tell whether it matches the
    /// published result: `--event E --round R` reads them from the database; otherwise give
    /// `--seed`, `--seed-hash`, `--inputs FILE`, `--inputs-digest` and `--result-digest`.
    Verify(VerifyArgs),
}

/// Which draw.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Round {
    /// The first draw.
    First,
    /// The second draw (freed slots for `first_lost` wishes).
    Second,
}

impl From<Round> for LotteryRound {
    fn from(round: Round) -> Self {
        match round {
            Round::First => LotteryRound::First,
            Round::Second => LotteryRound::Second,
        }
    }
}

/// The event and round of a draw.
#[derive(Debug, Args)]
pub struct RoundArgs {
    /// The event's permalink.
    #[arg(long)]
    pub event: String,
    /// first or second.
    #[arg(long, value_enum)]
    pub round: Round,
}

/// What `vmarket lottery verify` checks: a published run in the database, or everything the
/// event page publishes.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The event's permalink (read the published run from the database).
    #[arg(long, requires = "round", conflicts_with_all = ["seed", "seed_hash", "inputs", "inputs_digest", "result_digest", "published"])]
    pub event: Option<String>,
    /// The JSON file the event page links to (`/api/v1/{event}/lottery_results/{round}`): seed,
    /// seed hash, inputs, digests and every outcome, checked all together.
    #[arg(long, conflicts_with_all = ["seed", "seed_hash", "inputs", "inputs_digest", "result_digest"])]
    pub published: Option<PathBuf>,
    /// first or second (with `--event`).
    #[arg(long, value_enum, requires = "event")]
    pub round: Option<Round>,
    /// The revealed seed (64 hex digits).
    #[arg(long, required_unless_present_any = ["event", "published"])]
    pub seed: Option<String>,
    /// The seed hash published before the draw.
    #[arg(long, required_unless_present_any = ["event", "published"])]
    pub seed_hash: Option<String>,
    /// The published inputs file (canonical text, `vmarket lottery inputs v1`).
    #[arg(long, required_unless_present_any = ["event", "published"])]
    pub inputs: Option<PathBuf>,
    /// The published digest of the inputs.
    #[arg(long, required_unless_present_any = ["event", "published"])]
    pub inputs_digest: Option<String>,
    /// The published digest of the result.
    #[arg(long, required_unless_present_any = ["event", "published"])]
    pub result_digest: Option<String>,
    /// Also print every application's outcome (`<application id> win|lose`).
    #[arg(long)]
    pub list: bool,
}

/// The message for staff when the model refused to draw `round` of `event` at `now` because of
/// its window (`lottery_window_not_open`, `lottery_round_not_scheduled`): when the window opens,
/// by the site's clock (time travel included); `None` for any other refusal.
async fn window_refusal(
    ctx: &JobContext,
    event: &event::Model,
    round: Round,
    now: DateTime<Utc>,
    error: &Error,
) -> Option<String> {
    let code = match error {
        Error::Conflict { code } => *code,
        _ => return None,
    };
    let name = match round {
        Round::First => "first",
        Round::Second => "second",
    };
    let permalink = &event.permalink;
    match code {
        "lottery_round_not_scheduled" => Some(format!(
            "{permalink} has no {name} lottery (its phases have no {name}_lottery_start): there is no {name} round to \
             draw"
        )),
        "lottery_window_not_open" => {
            let timeline = EventWithPhases::load(&ctx.db, event.clone()).await.ok()?;
            let phase = match round {
                Round::First => PhaseType::FirstLotteryStart,
                Round::Second => PhaseType::SecondLotteryStart,
            };
            let opens = timeline.at(phase)?;
            let travelled = if ctx.clock.travel().is_zero() { "" } else { ", time travel included" };
            let settled = match round {
                Round::First => "and once entries are closed",
                Round::Second => "and once the first payment window is closed",
            };
            Some(format!(
                "the {name} lottery window of {permalink} opens at {} JST ({}); the site's clock says {} JST{travelled}. \
                 Preview and publish the {name} round from then on, {settled} (commit may run before)",
                format_jst(opens, true),
                opens.format("%Y-%m-%dT%H:%M:%SZ"),
                format_jst(now, true),
            ))
        }
        _ => None,
    }
}

/// A model error as the command's one-line message: a window refusal says when the window
/// opens ([`window_refusal`]).
async fn refusal(ctx: &JobContext, event: &event::Model, round: Round, now: DateTime<Utc>, error: Error) -> String {
    match window_refusal(ctx, event, round, now, &error).await {
        Some(message) => message,
        None => error.to_string(),
    }
}

/// Runs a `vmarket lottery` action against the database. Preview and publish run the code of
/// their background jobs inline (`jobs::lottery`), with the context's clock (which follows the
/// site's time-travel offset); the model draws only inside the round's draw window
/// (`model::lottery::ensure_draw_window`), and a refusal says when it opens. The result mails
/// of a publication are handed to the workers.
pub async fn run(ctx: &JobContext, action: LotteryAction) -> Result<(), String> {
    let db = &ctx.db;
    let now = ctx.clock.now();
    let event_of = |permalink: &str| {
        let permalink = permalink.to_string();
        async move { runs::event_by_permalink(db, &permalink).await.map_err(|e| format!("event {permalink:?}: {e}")) }
    };
    match action {
        LotteryAction::Commit(args) => {
            let event = event_of(&args.event).await?;
            let run = match runs::commit(db, event.id, args.round.into(), None, now).await {
                Ok(run) => run,
                Err(e) => return Err(refusal(ctx, &event, args.round, now, e).await),
            };
            println!("committed {} {:?} round: seed hash {}", event.permalink, args.round, run.seed_hash);
        }
        LotteryAction::Preview(args) => {
            let event = event_of(&args.event).await?;
            let job = PreviewLottery { event_id: event.id, round: args.round.into() };
            let draw = match job.run_now(ctx).await {
                Ok(draw) => draw,
                Err(e) => return Err(refusal(ctx, &event, args.round, now, e).await),
            };
            println!(
                "preview of {} {:?} round: {} winners of {} applications; inputs digest {}, result digest {} (no \
                 status changed)",
                event.permalink,
                args.round,
                draw.winners().count(),
                draw.outcomes.len(),
                draw.inputs_digest,
                draw.digest
            );
        }
        LotteryAction::Publish(args) => {
            let event = event_of(&args.event).await?;
            let job = PublishLottery { event_id: event.id, round: args.round.into() };
            let published = match job.run_now(ctx).await {
                Ok(published) => published,
                Err(e) => return Err(refusal(ctx, &event, args.round, now, e).await),
            };
            match published {
                Publication::Applied { draw, incorrect, result_mails, .. } => println!(
                    "published {} {:?} round: {} winners of {} applications, {} incorrect; {} result mails handed to \
                     the workers; seed {}",
                    event.permalink,
                    args.round,
                    draw.winners().count(),
                    draw.outcomes.len(),
                    incorrect.len(),
                    result_mails,
                    runs::run_of(db, event.id, args.round.into())
                        .await
                        .ok()
                        .flatten()
                        .and_then(|r| r.seed)
                        .unwrap_or_default()
                ),
                Publication::AlreadyPublished => {
                    println!("{} {:?} round was already published; nothing changed", event.permalink, args.round)
                }
            }
        }
        LotteryAction::Verify(VerifyArgs { event: Some(permalink), round: Some(round), list, .. }) => {
            let event = event_of(&permalink).await?;
            let checked = runs::verify_published(db, event.id, round.into()).await.map_err(|e| e.to_string())?;
            if list {
                for o in &checked.draw.outcomes {
                    println!("{} {}", o.application_id, if o.won { "win" } else { "lose" });
                }
            }
            if !checked.mismatches.is_empty() {
                return Err(format!(
                    "the draw verifies, but {} applications show another outcome: {:?}",
                    checked.mismatches.len(),
                    checked.mismatches
                ));
            }
            println!(
                "verified {permalink} {round:?} round: the seed matches its commitment, the inputs their digest, the \
                 draw the published result ({} winners of {} applications, result digest {}), and every \
                 application shows its outcome",
                checked.draw.winners().count(),
                checked.draw.outcomes.len(),
                checked.draw.digest
            );
        }
        LotteryAction::Verify(args) => return verify_published(&args),
    }
    Ok(())
}

/// Runs `vmarket lottery verify` on published material; `Err` carries the one-line reason a
/// draw does not verify (the command then exits with a failure).
pub fn verify_published(args: &VerifyArgs) -> Result<(), String> {
    if let Some(path) = &args.published {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let draw = verify_file(&text)?;
        if args.list {
            for o in &draw.outcomes {
                println!("{} {}", o.application_id, if o.won { "win" } else { "lose" });
            }
        }
        println!(
            "verified {}: the seed matches its commitment, the inputs their digest, and the draw gives the published \
             result and every listed outcome ({} winners of {} applications, result digest {})",
            path.display(),
            draw.winners().count(),
            draw.outcomes.len(),
            draw.digest
        );
        return Ok(());
    }
    let given = |value: &Option<String>, name: &str| value.clone().ok_or(format!("--{name} is required"));
    let path = args.inputs.clone().ok_or("--inputs is required")?;
    let inputs = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let draw = verify(&Published {
        seed: &given(&args.seed, "seed")?,
        seed_hash: &given(&args.seed_hash, "seed-hash")?,
        inputs: &inputs,
        inputs_digest: &given(&args.inputs_digest, "inputs-digest")?,
        result_digest: &given(&args.result_digest, "result-digest")?,
    })
    .map_err(|e| format!("does not verify: {e}"))?;
    if args.list {
        for o in &draw.outcomes {
            println!("{} {}", o.application_id, if o.won { "win" } else { "lose" });
        }
    }
    println!(
        "verified: the seed matches its commitment, the inputs their digest, and the draw gives the published \
         result ({} winners of {} applications, result digest {})",
        draw.winners().count(),
        draw.outcomes.len(),
        draw.digest
    );
    Ok(())
}

/// Verifies the JSON file an event page offers for download (a published
/// `model::lottery::PublicRun`): the seed against its commitment, the inputs against their
/// digest, the recomputed draw against the result digest, and every outcome the file lists
/// against the recomputed one. `Err` says what does not hold.
pub fn verify_file(json: &str) -> Result<crate::lottery::Draw, String> {
    let run: PublicRun = serde_json::from_str(json).map_err(|e| format!("not a published lottery file: {e}"))?;
    let missing = |name: &str| format!("the file has no {name}: the draw is not published");
    let draw = verify(&Published {
        seed: run.seed.as_deref().ok_or_else(|| missing("seed"))?,
        seed_hash: &run.seed_hash,
        inputs: run.inputs.as_deref().ok_or_else(|| missing("inputs"))?,
        inputs_digest: run.inputs_digest.as_deref().ok_or_else(|| missing("inputs digest"))?,
        result_digest: run.result_digest.as_deref().ok_or_else(|| missing("result digest"))?,
    })
    .map_err(|e| format!("does not verify: {e}"))?;
    let listed = run.outcomes.ok_or_else(|| missing("outcomes"))?;
    let recomputed: Vec<(i64, bool)> = draw.outcomes.iter().map(|o| (o.application_id, o.won)).collect();
    let listed: Vec<(i64, bool)> = listed.iter().map(|o| (o.application_id, o.won)).collect();
    if listed != recomputed {
        let differ =
            listed.iter().zip(&recomputed).filter(|(a, b)| a != b).count() + listed.len().abs_diff(recomputed.len());
        return Err(format!("does not verify: {differ} listed outcomes differ from the draw"));
    }
    Ok(draw)
}
