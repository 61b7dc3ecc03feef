//! A draw's result as it is kept with its run, so that reading it never draws again:
//!
//! - [`DrawSummary`]: what staff check before publishing (entries, applications, winners, and per
//!   plan its slots, wishes and winners), stored as JSON on the run by every preview
//!   (`lottery_runs.summary`);
//! - [`PublicRun`]: what anyone may see of a round — its commitment before the draw, and after
//!   publication everything needed to recompute it. The published file (the public run with the
//!   inputs and every outcome, `GET /api/v1/{event}/lottery_results/{round}`, what `vmarket
//!   lottery verify --published FILE` reads) is serialized once, in the publishing transaction,
//!   and served as stored ([`published_file`]): the same bytes on every read.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::event_entry_application::LotteryRound;
use crate::db::entities::lottery_run::LotteryRunState;
use crate::db::entities::{event, lottery_result_file, lottery_run};
use crate::error::{Error, Result};
use crate::lottery::{self, Draw, Inputs, Seed};

/// One plan in a draw's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// The plan.
    pub plan_id: i32,
    /// Slots this draw could give.
    pub capacity: u32,
    /// Wishes for it in the draw.
    pub wishes: u32,
    /// Wishes that won.
    pub winners: u32,
}

/// A draw's result as staff check it before publishing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawSummary {
    /// Entries in the draw.
    pub entries: usize,
    /// Applications in the draw.
    pub applications: usize,
    /// Applications that won.
    pub winners: usize,
    /// Per plan, in plan id order.
    pub plans: Vec<PlanSummary>,
}

impl DrawSummary {
    /// The summary of `draw` over `inputs`.
    pub fn of(inputs: &Inputs, draw: &Draw) -> Self {
        let mut per_plan: HashMap<i64, (u32, u32)> = HashMap::new();
        for o in &draw.outcomes {
            let counts = per_plan.entry(o.plan_id).or_default();
            counts.0 += 1;
            counts.1 += u32::from(o.won);
        }
        let plans = inputs
            .plans()
            .iter()
            .map(|p| {
                let (wishes, winners) = per_plan.get(&p.id).copied().unwrap_or_default();
                PlanSummary { plan_id: i32::try_from(p.id).unwrap_or_default(), capacity: p.capacity, wishes, winners }
            })
            .collect();
        Self {
            entries: inputs.entries().len(),
            applications: inputs.application_count(),
            winners: draw.winners().count(),
            plans,
        }
    }

    /// The summary stored on `run` by its last preview (`None` before a preview). A run
    /// previewed before summaries were stored gets it recomputed from its seed and inputs.
    pub fn of_run(run: &lottery_run::Model) -> Option<Self> {
        if let Some(stored) = run.summary.as_deref().and_then(|json| serde_json::from_str(json).ok()) {
            return Some(stored);
        }
        let inputs = Inputs::parse(run.inputs.as_deref()?).ok()?;
        let seed = Seed::from_hex(run.secret_seed.as_deref().or(run.seed.as_deref())?).ok()?;
        Some(Self::of(&inputs, &lottery::draw(&seed, &inputs)))
    }

    /// The JSON stored on the run.
    pub fn to_json(&self) -> String {
        // Plain numbers and vectors: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
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
    /// The public side of `run` of the event `permalink`, without the downloadable material:
    /// the commitment, and once published the seed and both digests (never the seed before).
    pub fn of(run: &lottery_run::Model, permalink: &str) -> Self {
        let published = run.state == LotteryRunState::Published;
        let shown = |value: &Option<String>| if published { value.clone() } else { None };
        Self {
            event: permalink.to_string(),
            round: run.round,
            published,
            seed_hash: run.seed_hash.clone(),
            seed: shown(&run.seed),
            inputs: None,
            inputs_digest: shown(&run.inputs_digest),
            result_digest: shown(&run.result_digest),
            published_at: run.published_at.filter(|_| published),
            outcomes: None,
        }
    }

    /// The published file of the published `run`: the public side with the canonical inputs and
    /// every outcome of `draw` (the run's draw), serialized as served. `None` for a run that is
    /// not published.
    pub fn file(run: &lottery_run::Model, permalink: &str, draw: &Draw) -> Option<String> {
        let mut public = Self::of(run, permalink);
        if !public.published {
            return None;
        }
        public.inputs = run.inputs.clone();
        public.outcomes = Some(
            draw.outcomes.iter().map(|o| PublicOutcome { application_id: o.application_id, won: o.won }).collect(),
        );
        // Strings, numbers and booleans only: serializing cannot fail.
        serde_json::to_string(&public).ok()
    }
}

/// The committed runs of `event` as the public sees them (first round first), without the
/// downloadable material.
pub async fn public_runs(db: &impl ConnectionTrait, event: &event::Model) -> Result<Vec<PublicRun>> {
    let mut runs = lottery_run::Entity::find().filter(lottery_run::Column::EventId.eq(event.id)).all(db).await?;
    runs.sort_by_key(|r| r.round.as_str());
    Ok(runs.iter().map(|r| PublicRun::of(r, &event.permalink)).collect())
}

/// Stores the published file of `run` (the event `permalink`'s), whose draw is `draw`, inside
/// the publishing transaction.
pub async fn store_file(
    txn: &impl ConnectionTrait,
    run: &lottery_run::Model,
    permalink: &str,
    draw: &Draw,
    now: DateTime<Utc>,
) -> Result<()> {
    let body = PublicRun::file(run, permalink, draw)
        .ok_or_else(|| Error::Internal(format!("lottery run {} is not published", run.id)))?;
    lottery_result_file::ActiveModel {
        run_id: Set(run.id),
        body: Set(body),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await?;
    Ok(())
}

/// The published file of `run` as stored at publication; `None` before publication. (A run
/// published before files were stored gets its file built from its seed and inputs, as all
/// reads did before.)
pub async fn published_file(
    db: &impl ConnectionTrait,
    run: &lottery_run::Model,
    permalink: &str,
) -> Result<Option<String>> {
    if run.state != LotteryRunState::Published {
        return Ok(None);
    }
    let stored =
        lottery_result_file::Entity::find().filter(lottery_result_file::Column::RunId.eq(run.id)).one(db).await?;
    if let Some(file) = stored {
        return Ok(Some(file.body));
    }
    let broken = |e: String| Error::Internal(format!("lottery run {}: {e}", run.id));
    let seed = Seed::from_hex(run.seed.as_deref().unwrap_or_default()).map_err(|e| broken(e.to_string()))?;
    let inputs = Inputs::parse(run.inputs.as_deref().unwrap_or_default()).map_err(|e| broken(e.to_string()))?;
    Ok(PublicRun::file(run, permalink, &lottery::draw(&seed, &inputs)))
}
