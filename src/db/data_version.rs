//! The data version (DOMAIN.md "Caching public pages"): one number, in the one row of
//! `data_version`, that every committed write to a table public output depends on raises. Nodes
//! key what they keep in memory (the render cache, the event tree) on it, so a write through any
//! node, a worker, the console or the CLI reaches every node.
//!
//! The version is raised by triggers that [`install`] puts on **every table not in
//! [`EXCLUDED`]**, after the migrations ran (`db::migrate`), idempotently: a table a later
//! migration adds is covered without anyone remembering to. `tests/it/data_version.rs` fails when
//! a table is neither covered nor excluded with a reason.
//!
//! - SQLite: `AFTER INSERT / UPDATE / DELETE` row triggers. SQLite has one writer at a time, so
//!   the extra row update cannot deadlock.
//! - PostgreSQL: a `DEFERRABLE INITIALLY DEFERRED` constraint trigger per table: the version row
//!   is locked last, at commit, after every other lock the transaction holds, so two writers can
//!   only wait for each other's commit and never deadlock on it. The row is raised once per
//!   transaction (a transaction-local setting remembers it), however many rows it wrote.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, Statement};

/// The table holding the version.
pub const TABLE: &str = "data_version";

/// Tables whose writes never change what anonymous visitors are shown, each with the reason.
/// Everything else raises the version. Keep a table here only when no public page or public list
/// reads it: a missing entry costs cache misses, a wrong one shows stale pages.
pub const EXCLUDED: &[(&str, &str)] = &[
    ("data_version", "the version itself"),
    ("seaql_migrations", "migration bookkeeping"),
    ("Jobs", "apalis' job queue (SQLite; on PostgreSQL it lives in the `apalis` schema): background work, never shown"),
    ("Workers", "apalis' worker registry (SQLite): never shown"),
    ("_sqlx_migrations", "the job queue's migration bookkeeping (SQLite; set up by `queue::setup` after ours)"),
    ("mails", "the outgoing mail queue: private, and written on every delivery attempt"),
    ("sign_in_states", "pending sign-ins (state, PKCE verifier): private, written on every sign-in"),
    ("accounts", "the built-in account service's credentials: private; public names live in `users`"),
    ("account_sessions", "the account service's sessions: private, written on every sign-in"),
    ("account_codes", "the account service's single-use codes: private, written on every sign-in"),
    ("account_password_resets", "the account service's password-reset tokens: private"),
    ("signing_keys", "token signing keys: private"),
    ("rate_limits", "the shared rate limiters' state: private, written on every limited request"),
    ("temporary_scenes", "the booth maker's autosaved drafts: private to their owner, written every few seconds"),
    ("housing_videos", "users' housing videos and their conversion: private to their owner (mypage) and staff"),
    (
        "store_purchases",
        "who bought which store item: private to buyer, seller and staff (an item's count lives on `store_items`)",
    ),
    ("box_submission_reviews", "staff's verdicts on box submissions: private to the submitter and staff"),
    (
        "store_orders",
        "buyers' attempts to pay for store items: private to the buyer and staff, written on every payment step",
    ),
    ("link_previews", "the link-preview cache of `/api/ogp`, which the render cache never serves"),
    ("inquiries", "messages to staff and their forwarding state: private"),
    ("audit_log", "the staff console's audit trail: staff only"),
    ("exhibitor_notification_reads", "per-user read marks of exhibitor news (mypage): private"),
    ("exhibitor_notifications", "exhibitor news, shown only on mypage and in the user API"),
    ("circle_members", "who belongs to a circle: shown only to its members (mypage, user API)"),
    ("circle_invitations", "invitations: shown only to the circle's owner and the invitee"),
    (
        "event_entries",
        "entries: shown only to their circle (mypage, user API); the public draw record is `lottery_runs`",
    ),
    ("event_entry_applications", "applications and their lottery statuses: private like their entry"),
    ("orders", "payment attempts: private to the payer"),
    ("payment_histories", "settled payments: private to the payer"),
    ("payment_webhook_events", "payment provider events already processed: bookkeeping"),
    (
        "lottery_result_mails",
        "which entries of a published draw are owed their result mail: bookkeeping of the mail job, read by no public \
         page (a publication writes one row per entry, every mail batch updates them); the public draw record is \
         `lottery_runs` and its download `lottery_result_files`, both covered",
    ),
    ("asset_rule_sets", "the uploader's rule sets: shown to staff, and to an asset's owner in its report"),
    ("asset_settings", "the upload kinds: read by the uploader API and the console, never by a cached page"),
    ("assets", "uploaded assets: shown only to their owner (mypage, uploader API) and staff"),
    ("asset_versions", "asset versions and their pipeline status: private like their asset, written at every step"),
    ("asset_uploads", "multipart uploads in progress: private, written on every completion"),
    ("asset_upload_parts", "the parts a local store received: private, written on every part"),
    ("asset_temporary_uploads", "one-shot small uploads: private"),
    ("asset_download_tokens", "download tokens of asset versions: private"),
    ("ingame_device_grants", "the game client's pending sign-ins: private, written on every poll"),
    ("ingame_sessions", "in-game tokens: shown only to their user on mypage"),
    ("ingame_profiles", "in-game introductions and avatars: answered by the in-game API only"),
    ("ingame_follows", "who follows whom in game: answered by the in-game API only"),
    ("ingame_emotes", "emotes: answered by the in-game API and the console only"),
    ("ingame_emote_pallets", "players' emote pallets: answered by the in-game API only"),
    ("ingame_chat_messages", "in-game chat: answered by the in-game API and the console only, written every message"),
    ("ingame_chat_hides", "staff hiding chat messages: read by the chat hubs only"),
    ("ingame_chat_blocks", "the chat blacklist: read by the in-game API and the console only"),
    ("ingame_presences", "where players are in game: answered by the in-game API only, written every heartbeat"),
    (
        "time_travel",
        "the clock offset: every node copies it into its clock, and the phase state under the clock is part of \
         the render cache's key",
    ),
];

/// Covered tables whose inserts alone never change public output, each with the reason: their
/// updates and deletes raise the version, their inserts do not.
pub const SILENT_INSERTS: &[(&str, &str)] = &[(
    "users",
    "a new user (every first sign-in inserts one) is on no public page until a public row names them, and \
     that row's own write raises the version",
)];

/// The row events of `table` that raise the version.
fn events_of(table: &str) -> &'static [(&'static str, &'static str)] {
    if SILENT_INSERTS.iter().any(|(t, _)| *t == table) {
        &[("au", "UPDATE"), ("ad", "DELETE")]
    } else {
        &[("ai", "INSERT"), ("au", "UPDATE"), ("ad", "DELETE")]
    }
}

/// The name of the trigger (PostgreSQL) or trigger prefix (SQLite) on `table`.
fn trigger_name(table: &str) -> String {
    format!("{table}_data_version")
}

/// The current version.
pub async fn read(db: &impl ConnectionTrait) -> Result<i64, DbErr> {
    let sql = format!("SELECT version FROM {TABLE} WHERE id = 1");
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("the row of {TABLE}")))?;
    row.try_get_by_index::<i64>(0)
}

/// Why `table` does not raise the version, if it does not: it is in [`EXCLUDED`], or it is a
/// search index SQLite keeps for a covered table (an FTS5 table or one of its shadow tables,
/// written by the triggers of the table it indexes).
pub fn exclusion(table: &str, virtual_tables: &[String]) -> Option<String> {
    if let Some((_, why)) = EXCLUDED.iter().find(|(name, _)| *name == table) {
        return Some((*why).to_string());
    }
    virtual_tables
        .iter()
        .find(|vt| table == vt.as_str() || table.strip_prefix(vt.as_str()).is_some_and(|rest| rest.starts_with('_')))
        .map(|vt| format!("the search index {vt}, written only by the triggers of the table it indexes"))
}

/// The tables of the application's schema, and those of them that are SQLite virtual tables.
pub async fn tables(db: &impl ConnectionTrait) -> Result<(Vec<String>, Vec<String>), DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Sqlite => {
            "SELECT name, CASE WHEN sql LIKE 'CREATE VIRTUAL TABLE%' THEN 1 ELSE 0 END AS virtual \
             FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        }
        DatabaseBackend::Postgres => {
            "SELECT CAST(table_name AS TEXT) AS name, 0 AS virtual FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        }
        other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
    };
    let rows = db.query_all_raw(Statement::from_string(backend, sql)).await?;
    let mut all = Vec::new();
    let mut virtual_tables = Vec::new();
    for row in rows {
        let name: String = row.try_get_by_index(0)?;
        let is_virtual: i32 = row.try_get_by_index(1)?;
        if is_virtual == 1 {
            virtual_tables.push(name.clone());
        }
        all.push(name);
    }
    Ok((all, virtual_tables))
}

/// The tables that raise the version now (have its trigger).
pub async fn covered(db: &impl ConnectionTrait) -> Result<Vec<String>, DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Sqlite => {
            "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_data\\_version\\_a_' \
             ESCAPE '\\' ORDER BY tbl_name"
        }
        DatabaseBackend::Postgres => {
            "SELECT DISTINCT CAST(c.relname AS TEXT) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() AND t.tgname LIKE '%\\_data\\_version' ORDER BY 1"
        }
        other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
    };
    let rows = db.query_all_raw(Statement::from_string(backend, sql)).await?;
    rows.into_iter().map(|r| r.try_get_by_index::<String>(0)).collect()
}

/// Puts the version trigger on every table that is not excluded and lacks it, and takes it off
/// every excluded table that has it (a database migrated before the table was excluded). Safe
/// to run any number of times (it runs after every `db::migrate`).
pub async fn install(db: &impl ConnectionTrait) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let (all, virtual_tables) = tables(db).await?;
    let have = covered(db).await?;
    for table in have.iter().filter(|t| exclusion(t, &virtual_tables).is_some()) {
        let name = trigger_name(table);
        match backend {
            DatabaseBackend::Sqlite => {
                for suffix in ["ai", "au", "ad"] {
                    db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS \"{name}_{suffix}\"")).await?;
                }
            }
            DatabaseBackend::Postgres => {
                db.execute_unprepared(&format!("DROP TRIGGER IF EXISTS \"{name}\" ON \"{table}\"")).await?;
            }
            other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
        }
    }
    let missing: Vec<&String> =
        all.iter().filter(|t| exclusion(t, &virtual_tables).is_none() && !have.contains(t)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let bump = format!("UPDATE {TABLE} SET version = version + 1 WHERE id = 1");
    match backend {
        DatabaseBackend::Sqlite => {
            for table in missing {
                for (suffix, event) in events_of(table) {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER IF NOT EXISTS \"{name}_{suffix}\" AFTER {event} ON \"{table}\" \
                         BEGIN {bump}; END",
                        name = trigger_name(table)
                    ))
                    .await?;
                }
            }
        }
        DatabaseBackend::Postgres => {
            db.execute_unprepared(&format!(
                "CREATE OR REPLACE FUNCTION vmarket_bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN \
                   IF current_setting('vmarket.data_version_raised', true) IS DISTINCT FROM 'on' THEN \
                     {bump}; \
                     PERFORM set_config('vmarket.data_version_raised', 'on', true); \
                   END IF; \
                   RETURN NULL; \
                 END $$"
            ))
            .await?;
            for table in missing {
                let events: Vec<&str> = events_of(table).iter().map(|(_, e)| *e).collect();
                db.execute_unprepared(&format!(
                    "CREATE CONSTRAINT TRIGGER \"{name}\" AFTER {events} ON \"{table}\" \
                     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vmarket_bump_data_version()",
                    name = trigger_name(table),
                    events = events.join(" OR ")
                ))
                .await?;
            }
        }
        other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
    }
    Ok(())
}

/// What one node knows of the version: the last value read, refreshed by a poller every
/// `poll` (a second node sees a write within that), and read again at once after this node
/// served a request that may have written ([`Watch::written`]), so the node that wrote sees the
/// write on the very next request. A `poll` of zero reads the version on every request instead.
#[derive(Clone, Debug)]
pub struct Watch(Arc<WatchInner>);

#[derive(Debug)]
struct WatchInner {
    db: DatabaseConnection,
    poll: Duration,
    /// The highest version read so far.
    version: AtomicI64,
    /// How many possible writes this node has served.
    writes: AtomicU64,
    /// How many of them the stored version is known to include.
    seen: AtomicU64,
}

impl Watch {
    /// A watch over `db`'s version, polled every `poll` once [`Watch::spawn_poller`] runs.
    pub fn new(db: DatabaseConnection, poll: Duration) -> Self {
        Self(Arc::new(WatchInner {
            db,
            poll,
            version: AtomicI64::new(i64::MIN),
            writes: AtomicU64::new(1),
            seen: AtomicU64::new(0),
        }))
    }

    /// The version to key on for a request starting now.
    pub async fn current(&self) -> Result<i64, DbErr> {
        let writes = self.0.writes.load(Ordering::Acquire);
        if self.0.poll.is_zero() || self.0.seen.load(Ordering::Acquire) != writes {
            let read = read(&self.0.db).await?;
            let before = self.0.version.fetch_max(read, Ordering::AcqRel);
            self.0.seen.fetch_max(writes, Ordering::AcqRel);
            return Ok(before.max(read));
        }
        Ok(self.0.version.load(Ordering::Acquire))
    }

    /// This node served a request that may have written: read the version again before the
    /// next use.
    pub fn written(&self) {
        self.0.writes.fetch_add(1, Ordering::AcqRel);
    }

    /// Reads the version every `poll` until the runtime stops (nothing when `poll` is zero: each
    /// request reads it). A failed read keeps the last version.
    pub fn spawn_poller(&self) -> Option<tokio::task::JoinHandle<()>> {
        if self.0.poll.is_zero() {
            return None;
        }
        let watch = self.clone();
        Some(tokio::spawn(async move {
            let mut tick = tokio::time::interval(watch.0.poll);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                match read(&watch.0.db).await {
                    Ok(v) => {
                        watch.0.version.fetch_max(v, Ordering::AcqRel);
                    }
                    Err(e) => tracing::warn!(error = %e, "data version not read; keeping the last one"),
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::exclusion;

    #[test]
    fn search_index_tables_follow_their_virtual_table() {
        let vts = vec!["catalog_items_fts".to_string()];
        assert!(exclusion("catalog_items_fts", &vts).is_some());
        assert!(exclusion("catalog_items_fts_data", &vts).is_some());
        assert!(exclusion("catalog_items", &vts).is_none(), "the indexed table itself is covered");
        assert!(exclusion("mails", &[]).is_some());
        assert!(exclusion("worlds", &[]).is_none());
    }
}
