//! Event entries (DOMAIN.md "Entries and applications"): the rules a circle's entry obeys; the
//! views its owner and members see are in [`crate::model::entry_view`].
//!
//! Rules, each with its own error code: only the circle's owner applies, edits and withdraws (a
//! member gets 403, anyone else 404); never for a suspended circle (409 `circle_suspended`);
//! only while the event's entry window is open by the application clock (409 `entry_closed`);
//! edits and withdrawal only while no draw has decided any wish of the entry (every wish still
//! `applied`: 409 `entry_drawn` — the entry window may open again by the clock or a phase change,
//! and an edit would erase the draw's outcome, a withdrawal the rows its result mail and
//! payments refer to); one entry per event and circle (409 `entry_exists`, held by a unique key, and the circle's
//! row is locked while an entry is written, so a double submit makes one entry); the wishes
//! are 1–3 distinct plans of the event with choices 1..n (checked by
//! [`crate::forms::entry`], plans against the event here: 422); the AMP options change until
//! `submission_end` (409 `amp_closed`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, SqlErr, TransactionSession, TransactionTrait,
};

use crate::db::entities::{circle, circle_member, event, event_entry, event_entry_application, event_entry_plan};
use crate::error::{Error, Invalid, Result};
use crate::model::circle::{Standing, lock};
use crate::model::entry_status::LotteryStatus;
use crate::model::entry_terms::Terms;
use crate::model::event::{EventWithPhases, Window};
use crate::model::pagination::PageRequest;
use crate::model::phase::PhaseType;

/// Most wishes an entry may hold.
pub const MAX_WISHES: usize = 3;

/// The AMP options of one wish.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmpOptions {
    /// The circle uses AMP.
    pub use_amp: bool,
    /// Its AMP id (checked well-formed), if any.
    pub amp_id: Option<String>,
    /// Submission is free.
    pub free_submission: bool,
}

/// One checked wish: which plan, at which rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wish {
    /// 1 = first wish.
    pub choice: i32,
    /// The plan.
    pub plan_id: i32,
    /// Its AMP options.
    pub options: AmpOptions,
}

/// A checked entry: 1–3 wishes ranked 1..n, distinct plans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryChange {
    /// The circle accepts more than one win.
    pub is_multiple_win: bool,
    /// The wishes, by choice.
    pub wishes: Vec<Wish>,
    /// The digest of the terms the owner agrees to, if sent ([`entry_terms`]).
    pub agreed_terms: Option<String>,
}

/// The AMP options of one application, by its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmpUpdate {
    /// The application (of this entry).
    pub application_id: i32,
    /// Its new options.
    pub options: AmpOptions,
}

/// The event `event_id` with its phases, for entries: 404 `unknown_permalink` for an unknown or
/// private event.
pub async fn event_for_entry(db: &impl ConnectionTrait, event_id: i32) -> Result<EventWithPhases> {
    let found = event::Entity::find_by_id(event_id)
        .filter(event::Column::IsPublic.eq(true))
        .one(db)
        .await?
        .ok_or_else(Error::unknown_permalink)?;
    EventWithPhases::load(db, found).await
}

impl EventWithPhases {
    /// Whether entries are accepted at `now`: the entry window is open and staff have not closed
    /// the entry.
    pub fn entry_open(&self, now: DateTime<Utc>) -> bool {
        !self.event.is_entry_closed && self.open_windows(now).iter().any(|(w, _)| *w == Window::Entry)
    }

    /// `entry_closed` (409) unless entries are accepted at `now`.
    pub fn ensure_entry_open(&self, now: DateTime<Utc>) -> Result<()> {
        if self.entry_open(now) { Ok(()) } else { Err(Error::Conflict { code: "entry_closed" }) }
    }

    /// Whether AMP options may change at `now`: until `submission_end` (an event without one:
    /// while it is active).
    pub fn amp_open(&self, now: DateTime<Utc>) -> bool {
        match self.at(PhaseType::SubmissionEnd) {
            Some(end) => now < end,
            None => self.is_active(now),
        }
    }
}

/// Checks every wish's plan against the event: 422 on `applications[i].plan_id` for a plan of
/// another event (or none).
async fn ensure_plans_of(db: &impl ConnectionTrait, event_id: i32, wishes: &[Wish]) -> Result<()> {
    let ids: Vec<i32> = wishes.iter().map(|w| w.plan_id).collect();
    let known: Vec<i32> = event_entry_plan::Entity::find()
        .select_only()
        .column(event_entry_plan::Column::Id)
        .filter(event_entry_plan::Column::EventId.eq(event_id))
        .filter(event_entry_plan::Column::Id.is_in(ids))
        .into_tuple()
        .all(db)
        .await?;
    let wrong: Vec<Invalid> = wishes
        .iter()
        .enumerate()
        .filter(|(_, w)| !known.contains(&w.plan_id))
        .map(|(i, _)| Invalid::new(format!("applications[{i}].plan_id"), "entries.validation.plan_unknown"))
        .collect();
    if wrong.is_empty() { Ok(()) } else { Err(Error::Validation(wrong)) }
}

/// 409 `entry_drawn` once a draw has decided any wish of entry `entry_id` (any not `applied`).
async fn ensure_undrawn(db: &impl ConnectionTrait, entry_id: i32) -> Result<()> {
    let decided = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry_id))
        .filter(event_entry_application::Column::LotteryStatus.ne(LotteryStatus::Applied))
        .count(db)
        .await?;
    if decided == 0 { Ok(()) } else { Err(Error::Conflict { code: "entry_drawn" }) }
}

/// A write that removes an entry's rows: a row still referred to (a result mail owed, a payment
/// attempt — only after a draw, which [`ensure_undrawn`] already refused, or after staff set a
/// drawn wish back to `applied`) is 409 `entry_drawn`, never a 500.
fn removal(e: DbErr) -> Error {
    match e.sql_err() {
        Some(SqlErr::ForeignKeyConstraintViolation(_)) => Error::Conflict { code: "entry_drawn" },
        _ => e.into(),
    }
}

/// Inserts the wishes of entry `entry_id`, all `applied`.
async fn insert_wishes(db: &impl ConnectionTrait, entry_id: i32, wishes: Vec<Wish>, now: DateTime<Utc>) -> Result<()> {
    for wish in wishes {
        event_entry_application::ActiveModel {
            entry_id: Set(entry_id),
            plan_id: Set(wish.plan_id),
            choice: Set(wish.choice),
            lottery_status: Set(LotteryStatus::Applied),
            use_amp: Set(wish.options.use_amp),
            amp_id: Set(wish.options.amp_id),
            free_submission: Set(wish.options.free_submission),
            won_round: Set(None),
            fee_at_draw: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

impl event_entry::Model {
    /// Circle `circle_id`'s entry to event `event_id`, if any.
    pub async fn of_circle(db: &impl ConnectionTrait, event_id: i32, circle_id: i32) -> Result<Option<Self>> {
        Ok(event_entry::Entity::find()
            .filter(event_entry::Column::EventId.eq(event_id))
            .filter(event_entry::Column::CircleId.eq(circle_id))
            .one(db)
            .await?)
    }

    /// The entry `id` with how `user_id` stands in its circle: 404 to anyone outside it.
    pub async fn for_member(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<(Self, Standing)> {
        let found = event_entry::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)?;
        let (_, standing) = circle::Model::for_member(db, found.circle_id, user_id).await?;
        Ok((found, standing))
    }

    /// The entry `id` for its circle's owner: 404 to strangers, 403 to members.
    pub async fn for_owner(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        match Self::for_member(db, id, user_id).await? {
            (found, Standing::Owner) => Ok(found),
            (_, Standing::Member) => Err(Error::Forbidden),
        }
    }

    /// The owner of circle `circle_id` applies to event `event_id` with `change` at `now`.
    pub async fn apply(
        db: &(impl ConnectionTrait + TransactionTrait),
        event_id: i32,
        circle_id: i32,
        owner_id: i32,
        change: EntryChange,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let (txn, found) = lock(db, circle_id).await?;
        match circle::Model::standing(&txn, circle_id, owner_id).await? {
            Some((_, Standing::Owner)) => {}
            Some((_, Standing::Member)) => return Err(Error::Forbidden),
            None => return Err(Error::not_found()),
        }
        found.ensure_writable()?;
        let event = event_for_entry(&txn, event_id).await?;
        event.ensure_entry_open(now)?;
        ensure_plans_of(&txn, event_id, &change.wishes).await?;
        if Self::of_circle(&txn, event_id, circle_id).await?.is_some() {
            return Err(Error::Conflict { code: "entry_exists" });
        }
        let agreement = Terms::agreement_at(&event.event, change.agreed_terms.as_deref(), None, now)?;
        let mut row = event_entry::ActiveModel {
            event_id: Set(event_id),
            circle_id: Set(circle_id),
            is_multiple_win: Set(change.is_multiple_win),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        if let Some(agreement) = agreement {
            agreement.record(&mut row);
        }
        let inserted = row.insert(&txn).await;
        let entry = match inserted {
            Ok(entry) => entry,
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(Error::Conflict { code: "entry_exists" });
            }
            Err(e) => return Err(e.into()),
        };
        insert_wishes(&txn, entry.id, change.wishes, now).await?;
        txn.commit().await?;
        Ok(entry)
    }

    /// The owner replaces the entry's wishes and multiple-win choice (entry window only, before
    /// any draw decided it).
    pub async fn change(
        db: &(impl ConnectionTrait + TransactionTrait),
        id: i32,
        owner_id: i32,
        change: EntryChange,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let circle_id = Self::for_owner(db, id, owner_id).await?.circle_id;
        let (txn, c) = lock(db, circle_id).await?;
        let found = event_entry::Entity::find_by_id(id).one(&txn).await?.ok_or_else(Error::not_found)?;
        c.ensure_writable()?;
        let event = event_for_entry(&txn, found.event_id).await?;
        event.ensure_entry_open(now)?;
        ensure_undrawn(&txn, found.id).await?;
        ensure_plans_of(&txn, found.event_id, &change.wishes).await?;
        // Terms changed since the entry last agreed are agreed to again.
        let agreement =
            Terms::agreement_at(&event.event, change.agreed_terms.as_deref(), found.terms_digest.as_deref(), now)?;
        event_entry_application::Entity::delete_many()
            .filter(event_entry_application::Column::EntryId.eq(found.id))
            .exec(&txn)
            .await
            .map_err(removal)?;
        insert_wishes(&txn, found.id, change.wishes, now).await?;
        let mut row: event_entry::ActiveModel = found.into();
        row.is_multiple_win = Set(change.is_multiple_win);
        row.updated_at = Set(now);
        if let Some(agreement) = agreement {
            agreement.record(&mut row);
        }
        let updated = row.update(&txn).await?;
        txn.commit().await?;
        Ok(updated)
    }

    /// The owner withdraws the entry (entry window only, before any draw decided it): it and its
    /// wishes are deleted.
    pub async fn withdraw(
        db: &(impl ConnectionTrait + TransactionTrait),
        id: i32,
        owner_id: i32,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let circle_id = Self::for_owner(db, id, owner_id).await?.circle_id;
        let (txn, c) = lock(db, circle_id).await?;
        let found = event_entry::Entity::find_by_id(id).one(&txn).await?.ok_or_else(Error::not_found)?;
        c.ensure_writable()?;
        event_for_entry(&txn, found.event_id).await?.ensure_entry_open(now)?;
        ensure_undrawn(&txn, found.id).await?;
        event_entry_application::Entity::delete_many()
            .filter(event_entry_application::Column::EntryId.eq(found.id))
            .exec(&txn)
            .await
            .map_err(removal)?;
        event_entry::Entity::delete_by_id(found.id).exec(&txn).await.map_err(removal)?;
        txn.commit().await?;
        Ok(())
    }

    /// The owner changes the AMP options of some of the entry's applications (until
    /// `submission_end`): 422 on `applications[i].id` for an application of another entry.
    pub async fn update_amp(
        db: &(impl ConnectionTrait + TransactionTrait),
        id: i32,
        owner_id: i32,
        updates: Vec<AmpUpdate>,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let circle_id = Self::for_owner(db, id, owner_id).await?.circle_id;
        let (txn, c) = lock(db, circle_id).await?;
        let found = event_entry::Entity::find_by_id(id).one(&txn).await?.ok_or_else(Error::not_found)?;
        c.ensure_writable()?;
        let event = event_for_entry(&txn, found.event_id).await?;
        if !event.amp_open(now) {
            return Err(Error::Conflict { code: "amp_closed" });
        }
        let mine: HashMap<i32, event_entry_application::Model> = event_entry_application::Entity::find()
            .filter(event_entry_application::Column::EntryId.eq(found.id))
            .all(&txn)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let wrong: Vec<Invalid> = updates
            .iter()
            .enumerate()
            .filter(|(_, u)| !mine.contains_key(&u.application_id))
            .map(|(i, _)| Invalid::new(format!("applications[{i}].id"), "entries.validation.application_unknown"))
            .collect();
        if !wrong.is_empty() {
            return Err(Error::Validation(wrong));
        }
        for update in updates {
            let Some(current) = mine.get(&update.application_id) else { continue };
            let mut row: event_entry_application::ActiveModel = current.clone().into();
            row.use_amp = Set(update.options.use_amp);
            row.amp_id = Set(update.options.amp_id);
            row.free_submission = Set(update.options.free_submission);
            row.updated_at = Set(now);
            row.update(&txn).await?;
        }
        let mut row: event_entry::ActiveModel = found.into();
        row.updated_at = Set(now);
        let updated = row.update(&txn).await?;
        txn.commit().await?;
        Ok(updated)
    }

    /// A page of the entries of every circle `user_id` owns or belongs to (only to event
    /// `event_id` if given), newest first, and how many there are.
    pub async fn visible_page(
        db: &impl ConnectionTrait,
        user_id: i32,
        event_id: Option<i32>,
        req: PageRequest,
    ) -> Result<(Vec<Self>, u64)> {
        let circles = circles_of(db, user_id).await?;
        let mut query = event_entry::Entity::find().filter(event_entry::Column::CircleId.is_in(circles));
        if let Some(event_id) = event_id {
            query = query.filter(event_entry::Column::EventId.eq(event_id));
        }
        let count = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(event_entry::Column::CreatedAt)
            .order_by_desc(event_entry::Column::Id)
            .offset(req.offset())
            .limit(req.limit)
            .all(db)
            .await?;
        Ok((rows, count))
    }
}

/// The ids of the circles `user_id` owns or belongs to.
pub async fn circles_of(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<i32>> {
    let mut ids: Vec<i32> = circle_member::Entity::find()
        .select_only()
        .column(circle_member::Column::CircleId)
        .filter(circle_member::Column::UserId.eq(user_id))
        .into_tuple()
        .all(db)
        .await?;
    let owned: Vec<i32> = circle::Entity::find()
        .select_only()
        .column(circle::Column::Id)
        .filter(circle::Column::OwnerUserId.eq(user_id))
        .into_tuple()
        .all(db)
        .await?;
    ids.extend(owned);
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}
