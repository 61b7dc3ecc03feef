//! `lottery_runs`: the draws (DOMAIN.md "The lottery"), one per event and round, and the three
//! steps staff take on them, each a thin call of `model::lottery` in the audited write
//! transaction of the console:
//!
//! - **commit**: `POST {"event_id": …, "round": "first"|"second"}` creates the run with a fresh
//!   secret seed ([`lottery::commit_with`]); only its SHA-256 is shown. Committing a round again
//!   — also by a commit racing this one — is 409 `lottery_already_committed` (the commitment
//!   never changes); a round the event's phases do not have is 409
//!   `lottery_round_not_scheduled`.
//! - **preview**: `PUT /{id} {"state": "preview"}` draws for staff ([`lottery::preview`]; again
//!   until published); no application changes. Preview and publish run only inside the round's
//!   draw window by the site's clock ([`lottery::ensure_draw_window`]: 409
//!   `lottery_window_not_open`).
//! - **publish**: `PUT /{id} {"state": "published"}` applies the previewed draw
//!   ([`lottery::publish`]); once the write committed, the result mails it left owed are
//!   handed to the workers (`jobs::SendLotteryResults`).
//!   Publishing a published run changes nothing and answers 409
//!   `lottery_already_published`, with no audit entry.
//!
//! Preview and publish are edits of the run in the role table (admin and director; qa_tester
//! reads; uc_staff sees nothing). A record shows the state, the seed hash, the seed once
//! published (never before), the digests, who took each step (committed, last previewed,
//! published: a staff member's handle, or none for the command line and the lottery clock) and
//! when, and —
//! once drawn — the result summary: winners per plan, as the last preview stored it (reading a
//! run never draws again).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::lottery_run::{LotteryRound, LotteryRunState};
use crate::db::entities::{event, event_entry_plan, lottery_run, user};
use crate::error::{Error, Result};
use crate::jobs::FollowUp;
use crate::lottery::Seed;
use crate::model::lottery::{self, DrawSummary, Publication};

/// The resource.
pub struct LotteryRuns;

/// One plan in a draw's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanResult {
    /// The plan.
    pub plan_id: i32,
    /// Its Japanese name.
    pub name_ja: String,
    /// Its English name.
    pub name_en: String,
    /// Slots this draw could give.
    pub capacity: u32,
    /// Wishes for it in the draw.
    pub wishes: u32,
    /// Wishes that won.
    pub winners: u32,
}

/// A draw's result, as staff check it before publishing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Entries in the draw.
    pub entries: usize,
    /// Applications in the draw.
    pub applications: usize,
    /// Applications that won.
    pub winners: usize,
    /// Per plan, in plan id order.
    pub plans: Vec<PlanResult>,
}

/// A run as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct LotteryRunRecord {
    /// Run id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// The event's permalink.
    pub event_permalink: String,
    /// First or second draw.
    pub round: LotteryRound,
    /// Committed, preview or published.
    pub state: LotteryRunState,
    /// SHA-256 of the seed (public from the commitment on).
    pub seed_hash: String,
    /// The seed, once published.
    pub seed: Option<String>,
    /// SHA-256 of the draw's inputs.
    pub inputs_digest: Option<String>,
    /// SHA-256 of the result.
    pub result_digest: Option<String>,
    /// Who committed it (`None`: the command line or the lottery clock).
    pub created_by_user_id: Option<i32>,
    /// Their handle.
    pub created_by_vmarket_id: Option<String>,
    /// Who last previewed it (`None`: the command line or the lottery clock).
    pub previewed_by_user_id: Option<i32>,
    /// Their handle.
    pub previewed_by_vmarket_id: Option<String>,
    /// Who published it (`None`: the command line).
    pub published_by_user_id: Option<i32>,
    /// Their handle.
    pub published_by_vmarket_id: Option<String>,
    /// When it was committed.
    pub created_at: DateTime<Utc>,
    /// When it was last drawn for preview.
    pub previewed_at: Option<DateTime<Utc>>,
    /// When it was published.
    pub published_at: Option<DateTime<Utc>>,
    /// The result, once drawn.
    pub summary: Option<Summary>,
}

/// What staff send: the event and round to commit, or the state to move a run to.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct LotteryRunInput {
    /// The event (commit).
    #[validate(required)]
    pub event_id: Option<i32>,
    /// The round (commit).
    #[validate(required)]
    pub round: Option<LotteryRound>,
    /// `preview` or `published` (edit).
    pub state: Option<LotteryRunState>,
}

/// The result of `run`'s draw as its last preview stored it (`None` before a preview), with
/// the plans' names.
fn summary(run: &lottery_run::Model, plans: &HashMap<i32, event_entry_plan::Model>) -> Option<Summary> {
    let stored = DrawSummary::of_run(run)?;
    let plans = stored
        .plans
        .into_iter()
        .map(|p| {
            let plan = plans.get(&p.plan_id);
            PlanResult {
                plan_id: p.plan_id,
                name_ja: plan.map(|p| p.name_ja.clone()).unwrap_or_default(),
                name_en: plan.map(|p| p.name_en.clone()).unwrap_or_default(),
                capacity: p.capacity,
                wishes: p.wishes,
                winners: p.winners,
            }
        })
        .collect();
    Some(Summary { entries: stored.entries, applications: stored.applications, winners: stored.winners, plans })
}

impl Resource for LotteryRuns {
    type Entity = lottery_run::Entity;
    type Record = LotteryRunRecord;
    type Input = LotteryRunInput;

    const NAME: &'static str = "lottery_runs";
    const AREA: Area = Area::Lottery;
    const ACTIONS: &'static [Action] = &[Action::List, Action::Show, Action::Create, Action::Edit];
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "round", "state", "created_at", "previewed_at", "published_at"],
        filter: &["event_id", "round", "state", "created_at"],
        search: &[],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<lottery_run::Model>,
    ) -> Result<Vec<LotteryRunRecord>> {
        let event_ids: Vec<i32> = rows.iter().map(|r| r.event_id).collect();
        let permalinks: HashMap<i32, String> = event::Entity::find()
            .filter(event::Column::Id.is_in(event_ids.clone()))
            .all(db)
            .await?
            .into_iter()
            .map(|e| (e.id, e.permalink))
            .collect();
        let plans: HashMap<i32, event_entry_plan::Model> = event_entry_plan::Entity::find()
            .filter(event_entry_plan::Column::EventId.is_in(event_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        let user_ids: Vec<i32> = rows
            .iter()
            .flat_map(|r| [r.created_by_user_id, r.previewed_by_user_id, r.published_by_user_id])
            .flatten()
            .collect();
        let handles: HashMap<i32, String> = user::Entity::find()
            .filter(user::Column::Id.is_in(user_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u.vmarket_id))
            .collect();
        Ok(rows
            .into_iter()
            .map(|r| LotteryRunRecord {
                summary: summary(&r, &plans),
                event_permalink: permalinks.get(&r.event_id).cloned().unwrap_or_default(),
                created_by_vmarket_id: r.created_by_user_id.and_then(|id| handles.get(&id).cloned()),
                previewed_by_vmarket_id: r.previewed_by_user_id.and_then(|id| handles.get(&id).cloned()),
                published_by_vmarket_id: r.published_by_user_id.and_then(|id| handles.get(&id).cloned()),
                id: r.id,
                event_id: r.event_id,
                round: r.round,
                state: r.state,
                seed_hash: r.seed_hash,
                seed: r.seed,
                inputs_digest: r.inputs_digest,
                result_digest: r.result_digest,
                created_by_user_id: r.created_by_user_id,
                previewed_by_user_id: r.previewed_by_user_id,
                published_by_user_id: r.published_by_user_id,
                created_at: r.created_at,
                previewed_at: r.previewed_at,
                published_at: r.published_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: LotteryRunInput, cx: &Cx<'_>) -> Result<i32> {
        let (Some(event_id), Some(round)) = (input.event_id, input.round) else {
            return Err(Error::invalid("event_id", "validation.required"));
        };
        must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
        let committed = lottery::commit_with(txn, event_id, round, Seed::generate(), Some(cx.staff.id), cx.now).await?;
        if !committed.created {
            // Committed before, or by a commit that raced this one: its seed stays.
            return Err(Error::Conflict { code: "lottery_already_committed" });
        }
        Ok(committed.run.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: lottery_run::Model,
        input: LotteryRunInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        match input.state {
            Some(LotteryRunState::Preview) => {
                lottery::preview_by(txn, row.event_id, row.round, Some(cx.staff.id), cx.now).await?;
                Ok(())
            }
            Some(LotteryRunState::Published) => {
                match lottery::publish_by(txn, row.event_id, row.round, Some(cx.staff.id), cx.now).await? {
                    Publication::Applied { run_id, .. } => {
                        cx.after_commit([FollowUp::LotteryResults(run_id)]);
                        Ok(())
                    }
                    Publication::AlreadyPublished => Err(Error::Conflict { code: "lottery_already_published" }),
                }
            }
            Some(LotteryRunState::Committed) | None => Err(Error::invalid("state", "validation.lottery_state")),
        }
    }
}
