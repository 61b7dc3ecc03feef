//! Demo entries (`data/entries.json`): plans of the current event (2026Winter) and entries of the
//! demo circles to it in the statuses the entry pages show (paid — with its settled payment, so
//! the demo holds no paid application without one —, won for free, unpaid in either round, lost,
//! declined, incorrect for the suspended circle); plans of the upcoming event
//! open for entry (2027Summer) with a few applied wishes, so that its plans show every rate label
//! (normal, nearly full, over capacity); and entries of the demo circles to 2027Spring written
//! `applied`, which the real lottery then draws (`draws`, [`super::draws`]): its first round, in
//! whose payment window (open when the demo is seeded) the demo exhibitor's and the demo friend's
//! circles have fees to pay right after a fresh `make run`, and whose one-slot kiosk booth, drawn
//! among three circles, gives its second round (which the lottery clock starts when that window
//! closes) a slot to offer. What is already there (by plan name, by event and circle) is left
//! alone.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Deserialize;

use super::data::{self, Reader, Source};
use crate::db::entities::event_entry_plan::ExhibitionCategory;
use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, order, payment_history, user,
};
use crate::error::Result;
use crate::model::entry_status::{LotteryRound, LotteryStatus};
use crate::model::entry_terms::Terms;

/// The file.
const FILE: Source = Source { name: "entries.json", text: include_str!("data/entries.json") };

/// The contents of `entries.json`.
pub struct Entries {
    plans: Vec<PlanSeed>,
    entries: Vec<EntrySeed>,
    /// The draws run over the entries written `applied`, in order (`super::draws`).
    pub(super) draws: Vec<DrawStep>,
}

/// One step of the demo's lottery history, run at seeding time by the real lottery code
/// (`super::draws`), at the moment the event's phases put it.
#[derive(Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub(super) enum DrawStep {
    /// Commit `round` of `event` when its inputs close, preview and publish it an hour into its
    /// lottery window.
    Draw {
        /// An event permalink.
        event: String,
        /// Which round.
        round: LotteryRound,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanSeed {
    key: String,
    /// An event permalink.
    event: String,
    category: ExhibitionCategory,
    name_ja: String,
    name_en: String,
    maximum: i32,
    fee: i32,
    /// A world id of the event.
    world: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntrySeed {
    /// The circle's owner (a handle) and Japanese name (`circles.json`).
    owner: String,
    circle: String,
    event: String,
    is_multiple_win: bool,
    /// Plan keys with their status, first wish first.
    applications: Vec<(String, LotteryStatus)>,
    /// The settled payment of each `paid` application (and of nothing else).
    #[serde(default)]
    payments: Vec<PaymentSeed>,
}

/// A settled payment of a demo application: its attempt (`orders`, captured) and its
/// `payment_histories` row, paid by the circle's owner.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaymentSeed {
    /// The plan key of the `paid` application.
    plan: String,
    /// The attempt's UUID v4 (the receipt's address), hyphenated, lower case.
    transaction: String,
    provider: PaymentType,
    /// The provider's id of the payment.
    reference: String,
    paid_at: DateTime<Utc>,
}

/// Reads `entries.json`: every plan an entry names exists, 1–3 wishes each; every `paid`
/// application has exactly one payment (a UUID v4), and every payment is of a `paid` one.
pub fn load() -> Result<Entries> {
    let mut file = Reader::open(FILE)?;
    let entries = Entries { plans: file.list("plans")?, entries: file.list("entries")?, draws: file.list("draws")? };
    file.finish()?;
    for (i, step) in entries.draws.iter().enumerate() {
        let DrawStep::Draw { event, .. } = step;
        let known = entries.plans.iter().any(|p| &p.event == event);
        data::known(known, FILE.name, "draws", i, "an event with plans")?;
    }
    for (i, e) in entries.entries.iter().enumerate() {
        let known = e.applications.iter().all(|(key, _)| entries.plans.iter().any(|p| &p.key == key));
        data::known(known && (1..=3).contains(&e.applications.len()), FILE.name, "entries", i, "1-3 known plans")?;
        let paid: Vec<&str> =
            e.applications.iter().filter(|(_, s)| *s == LotteryStatus::Paid).map(|(k, _)| k.as_str()).collect();
        let mut settled: Vec<&str> = e.payments.iter().map(|p| p.plan.as_str()).collect();
        settled.sort_unstable();
        let mut expected = paid.clone();
        expected.sort_unstable();
        let v4 = e.payments.iter().all(|p| {
            uuid::Uuid::parse_str(&p.transaction)
                .is_ok_and(|u| u.get_version_num() == 4 && u.hyphenated().to_string() == p.transaction)
        });
        data::known(settled == expected && v4, FILE.name, "entries", i, "one payment (UUID v4) per paid application")?;
    }
    Ok(entries)
}

/// Writes the missing plans and entries (after the circles).
pub async fn seed_entries(db: &impl ConnectionTrait, seed: &Entries, now: DateTime<Utc>) -> Result<()> {
    let mut plan_ids: HashMap<&str, (i32, i32)> = HashMap::new();
    for (i, p) in seed.plans.iter().enumerate() {
        let ev = event::Entity::find().filter(event::Column::Permalink.eq(&p.event)).one(db).await?;
        let Some(ev) = ev else { return Err(data::bad_entry(FILE.name, "plans", i, "unknown event")) };
        let existing = event_entry_plan::Entity::find()
            .filter(event_entry_plan::Column::EventId.eq(ev.id))
            .filter(event_entry_plan::Column::NameJa.eq(&p.name_ja))
            .one(db)
            .await?;
        let id = match existing {
            Some(found) => found.id,
            None => {
                event_entry_plan::ActiveModel {
                    event_id: Set(ev.id),
                    world_id: Set(p.world),
                    exhibition_category: Set(p.category),
                    name_ja: Set(p.name_ja.clone()),
                    name_en: Set(p.name_en.clone()),
                    maximum: Set(p.maximum),
                    fee: Set(p.fee),
                    preview_world_launch_url: Set(Some(format!(
                        "https://vrchat.com/home/launch?worldId=wrld_vmarket_demo_{}",
                        p.world
                    ))),
                    display_order: Set(i32::try_from(i).unwrap_or(0)),
                    created_at: Set(now),
                    updated_at: Set(now),
                    ..Default::default()
                }
                .insert(db)
                .await?
                .id
            }
        };
        plan_ids.insert(p.key.as_str(), (id, p.fee));
    }
    for (i, e) in seed.entries.iter().enumerate() {
        let owner = user::Entity::find().filter(user::Column::VmarketId.eq(&e.owner)).one(db).await?;
        let c = match owner {
            Some(owner) => {
                circle::Entity::find()
                    .filter(circle::Column::OwnerUserId.eq(owner.id))
                    .filter(circle::Column::NameJa.eq(&e.circle))
                    .one(db)
                    .await?
            }
            None => None,
        };
        let Some(c) = c else { return Err(data::bad_entry(FILE.name, "entries", i, "unknown circle")) };
        let ev = event::Entity::find().filter(event::Column::Permalink.eq(&e.event)).one(db).await?;
        let Some(ev) = ev else { return Err(data::bad_entry(FILE.name, "entries", i, "unknown event")) };
        if event_entry::Model::of_circle(db, ev.id, c.id).await?.is_some() {
            continue;
        }
        let mut row = event_entry::ActiveModel {
            event_id: Set(ev.id),
            circle_id: Set(c.id),
            is_multiple_win: Set(e.is_multiple_win),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        // The demo's circles applied through the form: they agreed to the event's terms.
        if let Some(terms) = Terms::of(&ev)
            && let Some(agreement) = terms.agreement(Some(&terms.digest), None, now)?
        {
            agreement.record(&mut row);
        }
        let entry = row.insert(db).await?;
        for (rank, (key, status)) in e.applications.iter().enumerate() {
            let (plan_id, fee) = plan_ids[key.as_str()];
            use LotteryStatus::*;
            let won_round = match status {
                FirstWin | FirstWinUnpaid | Paid | Win | Decline => Some(LotteryRound::First),
                SecondWin | SecondWinUnpaid => Some(LotteryRound::Second),
                _ => None,
            };
            let application = event_entry_application::ActiveModel {
                entry_id: Set(entry.id),
                plan_id: Set(plan_id),
                choice: Set(i32::try_from(rank).unwrap_or(0) + 1),
                lottery_status: Set(*status),
                use_amp: Set(false),
                amp_id: Set(None),
                free_submission: Set(false),
                won_round: Set(won_round),
                fee_at_draw: Set(won_round.map(|_| fee)),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(db)
            .await?;
            if let Some(p) = e.payments.iter().find(|p| &p.plan == key) {
                seed_payment(db, &application, c.owner_user_id, fee, p).await?;
            }
        }
    }
    Ok(())
}

/// The captured attempt and the settled payment of `application`, paid by `payer`.
async fn seed_payment(
    db: &impl ConnectionTrait,
    application: &event_entry_application::Model,
    payer: Option<i32>,
    amount: i32,
    p: &PaymentSeed,
) -> Result<()> {
    let Some(payer) = payer else { return Ok(()) };
    let transaction = p.transaction.clone();
    let attempt = order::ActiveModel {
        application_id: Set(application.id),
        user_id: Set(payer),
        provider: Set(p.provider),
        transaction_uuid: Set(transaction.clone()),
        provider_order_id: Set(Some(p.reference.clone())),
        amount: Set(amount),
        currency: Set("JPY".into()),
        state: Set(OrderState::Captured),
        failure: Set(None),
        reconcile_attempts: Set(0),
        created_at: Set(p.paid_at),
        updated_at: Set(p.paid_at),
        settled_at: Set(Some(p.paid_at)),
        ..Default::default()
    }
    .insert(db)
    .await?;
    payment_history::ActiveModel {
        user_id: Set(payer),
        application_id: Set(application.id),
        order_id: Set(attempt.id),
        transaction_uuid: Set(transaction),
        payment_type: Set(p.provider),
        order_reference: Set(p.reference.clone()),
        amount: Set(amount),
        is_late: Set(false),
        paid_at: Set(p.paid_at),
        created_at: Set(p.paid_at),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}
