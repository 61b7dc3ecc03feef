//! `vmarket seed demo`: writes a believable marketplace from the data files in `data/` (JSON,
//! compiled into the binary so it runs from anywhere), one file per kind, each read by the
//! module of the same name:
//!
//! | file | module | what |
//! |---|---|---|
//! | `events.json` | [`events`], [`concepts`] | artists; events with phases, concepts, worlds |
//! | `catalogue.json` | [`catalog`], [`exhibitors`], [`companies`] | item categories, the words circles and items are generated from, companies |
//! | `inquiry_categories.json` | [`inquiry`] | contact form categories |
//! | `redirects.json` | [`redirects`] | slug rules and VRC redirects |
//! | `users.json` | [`users`] | demo users (streamers, ambassadors) |
//! | `hub.json` | [`hub`] | the current event's hub: tags, ambassadors, notifications |
//! | `exhibitor_notifications.json` | [`exhibitor_notifications`] | the organisers' news to exhibitors |
//! | `circles.json` | [`circles`] | demo users' circles, members and pending invitations |
//! | `entries.json` | [`entries`], [`draws`] | the demo events' plans; demo circles' entries in every status, and the draws the real lottery makes of them |
//! | `accounts.json` | [`accounts`] | demo sign-in accounts (one published password; never in production) |
//!
//! Every file is read and its references checked before anything is written, so bad data fails
//! with an error naming the file and the entry ([`data`]). Files refer to each other's rows by
//! stable keys (permalinks, handles, tag and category keys) or by the ids the data sets itself
//! (events, concepts, worlds, categories). What is already there is left alone, so running the
//! seed twice changes nothing.

mod accounts;
mod catalog;
mod catalogue_file;
mod circles;
mod companies;
mod concepts;
mod data;
mod draws;
mod entries;
mod events;
mod exhibitor_notifications;
mod exhibitors;
mod hub;
mod report;
mod slots;
mod users;

pub mod inquiry;
pub mod redirects;

pub use report::{SeedOptions, SeedReport};

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, TransactionSession, TransactionTrait};

use crate::db::reset_sequences;
use crate::error::Result;

/// Every data file, read and cross-checked.
struct Demo {
    events: events::Events,
    catalogue: catalogue_file::Catalogue,
    inquiry: Vec<inquiry::CategorySeed>,
    redirects: redirects::Redirects,
    users: Vec<users::UserSeed>,
    hub: hub::Hub,
    exhibitor_notifications: Vec<exhibitor_notifications::ExhibitorNotificationSeed>,
    circles: Vec<circles::CircleSeed>,
    accounts: accounts::Accounts,
    entries: entries::Entries,
}

impl Demo {
    fn load() -> Result<Self> {
        let demo = Self {
            events: events::load()?,
            catalogue: catalog::load()?,
            inquiry: inquiry::load()?,
            redirects: redirects::load()?,
            users: users::load()?,
            hub: hub::load()?,
            exhibitor_notifications: exhibitor_notifications::load()?,
            circles: circles::load()?,
            accounts: accounts::load()?,
            entries: entries::load()?,
        };
        let mut keys = data::Keys::default();
        demo.events.keys(&mut keys);
        users::keys(&demo.users, &mut keys);
        demo.catalogue.check(&keys)?;
        demo.redirects.check(&keys)?;
        demo.hub.check(&keys)?;
        exhibitor_notifications::check(&demo.exhibitor_notifications, &keys)?;
        circles::check(&demo.circles, &keys)?;
        demo.accounts.check(&keys)?;
        Ok(demo)
    }
}

/// Writes the demo data set with its sign-in accounts; events already present are skipped.
pub async fn demo<C: ConnectionTrait + TransactionTrait>(db: &C, now: DateTime<Utc>) -> Result<SeedReport> {
    demo_with(db, now, SeedOptions { sign_in_accounts: true }).await
}

/// The emails of the demo sign-in accounts (`accounts.json`), written or not.
pub fn demo_account_emails() -> Result<Vec<String>> {
    Ok(accounts::load()?.emails())
}

/// Writes the demo data set, with the sign-in accounts if `options` say so; events already
/// present are skipped.
pub async fn demo_with<C: ConnectionTrait + TransactionTrait>(
    db: &C,
    now: DateTime<Utc>,
    options: SeedOptions,
) -> Result<SeedReport> {
    let demo = Demo::load()?;
    let txn = crate::db::begin_write(db).await?;
    let mut report = events::seed(&txn, &demo.events, now).await?;
    catalog::seed(&txn, &demo.catalogue, now).await?;
    reset_sequences(
        &txn,
        &[
            "events",
            "event_phases",
            "concepts",
            "worlds",
            "keywords",
            "artists",
            "concept_keywords",
            "concept_artists",
            "world_keywords",
            "world_artists",
            "world_areas",
            "posters",
            "circles",
            "catalog_item_category_groups",
            "catalog_item_categories",
        ],
    )
    .await?;
    inquiry::write(&txn, &demo.inquiry).await?;
    redirects::write(&txn, &demo.redirects).await?;
    let users = users::seed(&txn, &demo.users, now).await?;
    hub::seed(&txn, &demo.hub, &users).await?;
    exhibitor_notifications::seed(&txn, &demo.exhibitor_notifications).await?;
    circles::seed(&txn, &demo.circles, &users, now).await?;
    entries::seed_entries(&txn, &demo.entries, now).await?;
    draws::seed_draws(&txn, &demo.entries).await?;
    slots::seed(&txn, now).await?;
    if options.sign_in_accounts {
        report.accounts = accounts::seed(&txn, &demo.accounts, now).await?;
    }
    txn.commit().await?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_data_reads_and_every_reference_resolves() {
        if let Err(e) = Demo::load() {
            panic!("{e}");
        }
    }
}
