//! An entry as its circle's owner and members see it (spec §3 "Event entry"): its event, circle,
//! wishes with their shown status and next step, what the viewer may do now, and the terms it
//! agreed to — loaded for many entries in a fixed number of queries.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{circle, event, event_entry, event_entry_application, event_entry_plan};
use crate::error::{Error, Result};
use crate::model::circle::Standing;
use crate::model::entry_decline::declinable;
use crate::model::entry_plan::PlanView;
use crate::model::entry_status::{
    LotteryRound, LotteryStatus, LotteryType, NextStep, effective_status, lottery_type, next_step, shown_status,
};
use crate::model::entry_terms::{self, Terms};
use crate::model::event::EventWithPhases;
use crate::types::{Lang, Localized, localized};

/// The AMP options of an application as clients see them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OptionsView {
    /// The circle uses AMP.
    pub use_amp: bool,
    /// Its AMP id.
    pub amp_id: Option<String>,
    /// Submission is free.
    pub free_submission: bool,
}

/// One wish of an entry (spec §3 "Event entry" `applications`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ApplicationView {
    /// Application id.
    pub id: i32,
    /// 1 = first wish.
    pub choice: i32,
    /// The plan.
    pub plan: PlanView,
    /// The status now (transitions that time makes applied).
    pub lottery_status: LotteryStatus,
    /// AMP options.
    pub options: OptionsView,
    /// The requesting user can pay it now: they own the circle, it won (`first_win` /
    /// `second_win`) with a fee, and its payment window is open (`/payment?application_id=`).
    pub can_pay: bool,
    /// The owner may decline this win now (`PUT …/applications/{id}/decline`): a win to pay
    /// inside its payment window, the circle not suspended.
    pub can_decline: bool,
    /// What comes next and when, if anything dated is ahead (the payment window of a win, the
    /// next draw).
    pub next: Option<NextStep>,
}

/// The circle of an entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntryCircleView {
    /// Circle id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Suspended by staff.
    pub is_suspended: bool,
}

/// The event of an entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntryEventView {
    /// Event id.
    pub id: i32,
    /// URL key.
    pub permalink: String,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

/// An entry as its circle's owner and members see it (spec §3 "Event entry").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntryView {
    /// Entry id.
    pub id: i32,
    /// The event.
    pub event: EntryEventView,
    /// The circle.
    pub circle: EntryCircleView,
    /// How the requesting user stands in the circle (members read only).
    pub standing: Standing,
    /// The circle accepts more than one win.
    pub is_multiple_win: bool,
    /// Derived from the applications and the phase (spec §3 "Entry lottery types").
    pub lottery_type: LotteryType,
    /// The wishes, first wish first.
    pub applications: Vec<ApplicationView>,
    /// The owner may edit or withdraw it now (entry window open, circle not suspended, no wish
    /// decided by a draw).
    pub can_edit: bool,
    /// The owner may change the AMP options now.
    pub can_update_amp: bool,
    /// The version (digest) of the event's terms the owner last agreed to, if any.
    pub terms_digest: Option<String>,
    /// When they agreed to it.
    pub terms_agreed_at: Option<DateTime<Utc>>,
    /// Whether that is the event's current terms (an edit asks again otherwise).
    pub terms_current: bool,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl EntryView {
    /// Views of `entries` for `viewer` in `lang` at `now`, in a fixed number of queries.
    pub async fn load(
        db: &impl ConnectionTrait,
        entries: Vec<event_entry::Model>,
        viewer: i32,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<Self>> {
        let entry_ids: Vec<i32> = entries.iter().map(|e| e.id).collect();
        let apps = event_entry_application::Entity::find()
            .filter(event_entry_application::Column::EntryId.is_in(entry_ids))
            .order_by_asc(event_entry_application::Column::Choice)
            .all(db)
            .await?;
        let plan_ids: Vec<i32> = apps.iter().map(|a| a.plan_id).collect();
        let plans =
            event_entry_plan::Entity::find().filter(event_entry_plan::Column::Id.is_in(plan_ids)).all(db).await?;
        let plans: HashMap<i32, PlanView> =
            PlanView::load(db, plans, lang).await?.into_iter().map(|p| (p.id, p)).collect();
        let circle_ids: Vec<i32> = entries.iter().map(|e| e.circle_id).collect();
        let circles: HashMap<i32, circle::Model> = circle::Entity::find()
            .filter(circle::Column::Id.is_in(circle_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let mut events: HashMap<i32, EventWithPhases> = HashMap::new();
        for e in &entries {
            if !events.contains_key(&e.event_id)
                && let Some(found) = event::Entity::find_by_id(e.event_id).one(db).await?
            {
                events.insert(e.event_id, EventWithPhases::load(db, found).await?);
            }
        }
        Ok(entries
            .into_iter()
            .filter_map(|entry| {
                let c = circles.get(&entry.circle_id)?;
                let ev = events.get(&entry.event_id)?;
                let standing = if c.owner_user_id == Some(viewer) { Standing::Owner } else { Standing::Member };
                let owner_may = standing == Standing::Owner && !c.is_suspended;
                let drawn = apps.iter().any(|a| a.entry_id == entry.id && a.lottery_status != LotteryStatus::Applied);
                let won_first = !entry.is_multiple_win
                    && apps.iter().any(|a| a.entry_id == entry.id && a.won_round == Some(LotteryRound::First));
                let applications: Vec<ApplicationView> = apps
                    .iter()
                    .filter(|a| a.entry_id == entry.id)
                    .filter_map(|a| {
                        let lottery_status = effective_status(a.lottery_status, ev, now);
                        let shown = shown_status(a.lottery_status, won_first, ev, now);
                        let can_pay = standing == Standing::Owner
                            && a.fee_at_draw.is_some_and(|fee| fee > 0)
                            && crate::model::payment::in_payment_window(lottery_status, ev, now);
                        Some(ApplicationView {
                            id: a.id,
                            choice: a.choice,
                            plan: plans.get(&a.plan_id)?.clone(),
                            lottery_status: shown,
                            options: OptionsView {
                                use_amp: a.use_amp,
                                amp_id: a.amp_id.clone(),
                                free_submission: a.free_submission,
                            },
                            can_pay,
                            can_decline: owner_may && declinable(a.lottery_status, ev, now),
                            next: next_step(shown, c.is_suspended, ev, now),
                        })
                    })
                    .collect();
                let statuses: Vec<LotteryStatus> = applications.iter().map(|a| a.lottery_status).collect();
                Some(Self {
                    id: entry.id,
                    event: EntryEventView {
                        id: ev.event.id,
                        permalink: ev.event.permalink.clone(),
                        name: Localized::new(lang, ev.event.name_ja.clone(), ev.event.name_en.clone()),
                    },
                    circle: EntryCircleView {
                        id: c.id,
                        name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()),
                        is_suspended: c.is_suspended,
                    },
                    standing,
                    is_multiple_win: entry.is_multiple_win,
                    lottery_type: lottery_type(&statuses, c.is_suspended, ev, now),
                    applications,
                    can_edit: owner_may && !drawn && ev.entry_open(now),
                    can_update_amp: owner_may && ev.amp_open(now),
                    terms_current: entry_terms::is_current(
                        Terms::of(&ev.event).as_ref(),
                        entry.terms_digest.as_deref(),
                    ),
                    terms_digest: entry.terms_digest,
                    terms_agreed_at: entry.terms_agreed_at,
                    created_at: entry.created_at,
                    updated_at: entry.updated_at,
                })
            })
            .collect())
    }

    /// The view of one entry.
    pub async fn load_one(
        db: &impl ConnectionTrait,
        entry: event_entry::Model,
        viewer: i32,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        Self::load(db, vec![entry], viewer, lang, now).await?.pop().ok_or_else(Error::not_found)
    }
}
