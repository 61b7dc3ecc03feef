//! `vmarket seed demo` writes the demo marketplace once; running it again changes nothing, and
//! what it writes is pinned by a fingerprint of the whole seeded database.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, QueryFilter};
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, EntityTrait, PaginatorTrait, Statement};
use sha2::{Digest, Sha256};
use vmarket::db::entities::{
    artist, circle, event, event_entry, event_entry_application, exhibitor_notification, keyword, order,
    payment_history, user, world,
};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::payment::{OrderState, Payable};
use vmarket::model::phase::PhaseType;

use crate::support::{TestApp, default_now};

#[rocket::async_test]
async fn the_demo_seed_is_idempotent() {
    let app = TestApp::new().await;
    let counts = async || {
        (
            event::Entity::find().count(&app.db).await.unwrap(),
            world::Entity::find().count(&app.db).await.unwrap(),
            artist::Entity::find().count(&app.db).await.unwrap(),
            keyword::Entity::find().count(&app.db).await.unwrap(),
            exhibitor_notification::Entity::find().count(&app.db).await.unwrap(),
        )
    };
    let before = counts().await;
    assert_eq!(before.0, 6);
    assert!(before.1 >= 48, "12+ worlds per event, got {}", before.1);
    assert_eq!(before.4, 23, "exhibitor news");
    // Run again three days later: nothing is added, and 2027Summer's phases, placed from the
    // first run's time, stay where they were.
    let later = default_now() + chrono::Duration::days(3);
    let report = vmarket::seed::demo(&app.db, later).await.expect("second seed");
    assert!(report.created.is_empty());
    assert_eq!(report.skipped, ["2025Summer", "2025Winter", "2026Summer", "2026Winter", "2027Summer", "2027Spring"]);
    assert_eq!(counts().await, before);
    let summer = event::Entity::find_by_id(1).one(&app.db).await.unwrap().expect("event 1");
    assert_eq!(summer.permalink, "2025Summer");
    let winter = event::Entity::find_by_id(11).one(&app.db).await.unwrap().expect("event 11");
    assert_eq!(winter.permalink, "2025Winter");
    let open = event::Entity::find_by_id(14).one(&app.db).await.unwrap().expect("event 14");
    let phases = open.phases(&app.db).await.unwrap();
    let at = |kind: PhaseType| phases.iter().find(|p| p.phase_type == kind).map(|p| p.phase_timestamp);
    assert_eq!(open.permalink, "2027Summer");
    assert_eq!(at(PhaseType::EntryStart), Some(default_now() - chrono::Duration::days(1)), "from the first run");
    assert_eq!(at(PhaseType::EntryEnd), Some(default_now() + chrono::Duration::days(14)));
    assert_eq!(at(PhaseType::EventClose), Some(default_now() + chrono::Duration::days(130)));
    let spring = event::Entity::find_by_id(15).one(&app.db).await.unwrap().expect("event 15");
    let phases = spring.phases(&app.db).await.unwrap();
    let at = |kind: PhaseType| phases.iter().find(|p| p.phase_type == kind).map(|p| p.phase_timestamp);
    assert_eq!(spring.permalink, "2027Spring");
    assert_eq!(at(PhaseType::FirstPaymentStart), Some(default_now() - chrono::Duration::days(3)), "from the first run");
    assert_eq!(at(PhaseType::FirstPaymentEnd), Some(default_now() + chrono::Duration::days(14)));
}

/// The owner `owner` and the applications of their circle `circle_ja` in `permalink`.
async fn demo_application(
    app: &TestApp,
    owner: &str,
    circle_ja: &str,
    permalink: &str,
) -> (user::Model, Vec<event_entry_application::Model>) {
    let owner = user::Entity::find().filter(user::Column::VmarketId.eq(owner)).one(&app.db).await.unwrap().unwrap();
    let c = circle::Entity::find()
        .filter(circle::Column::OwnerUserId.eq(owner.id))
        .filter(circle::Column::NameJa.eq(circle_ja))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    let ev = event::Entity::find().filter(event::Column::Permalink.eq(permalink)).one(&app.db).await.unwrap().unwrap();
    let entry = event_entry::Model::of_circle(&app.db, ev.id, c.id).await.unwrap().expect("the entry");
    let apps = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry.id))
        .all(&app.db)
        .await
        .unwrap();
    (owner, apps)
}

/// Right after the seed (`make run`), the demo exhibitor and the demo friend each have a win in
/// 2027Spring to pay, inside its open first payment window, for the fee at the draw; the demo's
/// paid application (2026Winter) has its settled payment, so nothing paid lacks one. Three days
/// later (a second `make run`) the window is still open; once it closes, nothing is payable.
#[rocket::async_test]
async fn the_demo_has_wins_to_pay_right_after_seeding() {
    let app = TestApp::new().await;
    for (owner, circle, fee) in [("kaede_kohaku", "ともしび工房", 9000), ("tsukishiro_noa", "夜更かし天文部", 4500)]
    {
        let (user, apps) = demo_application(&app, owner, circle, "2027Spring").await;
        let won = apps.iter().find(|a| a.lottery_status == LotteryStatus::FirstWin).expect("a first_win");
        for now in [default_now(), default_now() + chrono::Duration::days(3)] {
            let payable = Payable::load(&app.db, won.id, user.id, now).await.expect("payable after the seed");
            assert_eq!(payable.amount, fee);
            assert_eq!(payable.deadline, default_now() + chrono::Duration::days(14));
        }
        let closed = Payable::load(&app.db, won.id, user.id, default_now() + chrono::Duration::days(15)).await;
        assert!(matches!(closed, Err(vmarket::error::Error::Conflict { code: "payment_closed" })), "{closed:?}");
    }
    let (user, apps) = demo_application(&app, "kaede_kohaku", "ともしび工房", "2026Winter").await;
    let paid = apps.iter().find(|a| a.lottery_status == LotteryStatus::Paid).expect("the paid application");
    let payment = payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(paid.id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("its payment");
    assert_eq!((payment.user_id, payment.amount, payment.is_late), (user.id, 8000, false));
    let attempt = order::Entity::find_by_id(payment.order_id).one(&app.db).await.unwrap().expect("its order");
    assert_eq!(
        (attempt.state, attempt.transaction_uuid.as_str()),
        (OrderState::Captured, payment.transaction_uuid.as_str())
    );
    let paid_everywhere = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::Paid))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(paid_everywhere, payment_history::Entity::find().count(&app.db).await.unwrap());
}

/// The demo site, row for row: the same fingerprint on SQLite and PostgreSQL, and after a
/// second seed run. A change to any seeded row (or a new table or column) shows up here.
#[rocket::async_test]
async fn the_demo_seed_writes_the_same_site() {
    let app = TestApp::new().await;
    let first = fingerprint(&app.db).await;
    insta::assert_snapshot!("demo_fingerprint", first);
    // Days later, as a developer re-running `make run` would: the phases placed from the seed
    // time (2027Summer) are not moved, nor anything else.
    vmarket::seed::demo(&app.db, default_now() + chrono::Duration::days(3)).await.expect("second seed");
    assert_eq!(fingerprint(&app.db).await, first, "a second seed run changed the database");
}

/// Tables that are not the demo's: migration bookkeeping, apalis' job tables (on PostgreSQL
/// those live in the `apalis` schema, outside the one listed), and the account service's signing
/// keys (random by nature; the test databases' templates carry one, tests/it/support/db_template.rs).
const NOT_APPLICATION: [&str; 5] = ["seaql_migrations", "_sqlx_migrations", "Jobs", "Workers", "signing_keys"];

/// Columns whose value differs on every run by design, left out of the fingerprint (named, so
/// that nothing else can slip out): password hashes carry a fresh random salt. That the demo
/// accounts' hashes verify the demo password is checked in `demo_accounts.rs`. The data version
/// starts at the database's creation time and rises with every write (`data_version.rs` tests it).
const NOT_REPEATABLE: [(&str, &str); 2] = [("accounts", "password_hash"), ("data_version", "version")];

/// One line per application table, by name: its row count and a SHA-256 over its column names
/// and its rows in primary-key order, every column normalised so that both backends agree
/// (integers as numbers, booleans as true/false, timestamps as RFC 3339 UTC).
async fn fingerprint(db: &DatabaseConnection) -> String {
    let mut lines = Vec::new();
    for table in tables(db).await {
        let columns = columns(db, &table).await;
        let rows = rows(db, &table, &columns).await;
        let mut hash = Sha256::new();
        let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
        hash.update(serde_json::to_string(&names).unwrap());
        for row in &rows {
            hash.update("\n");
            hash.update(serde_json::to_string(&row.iter().map(Cell::json).collect::<Vec<_>>()).unwrap());
        }
        lines.push(format!("{table}: {} rows, sha256 {}", rows.len(), hex::encode(hash.finalize())));
    }
    lines.join("\n")
}

/// A column, its normalised kind and its place in the primary key (0 = not part of it).
struct Column {
    name: String,
    kind: Kind,
    pk: i64,
}

#[derive(Clone, Copy)]
enum Kind {
    Int,
    Text,
    Bool,
    Time,
    Real,
}

impl Kind {
    /// The kind of a declared column type (SQLite's as written in the migration, PostgreSQL's
    /// `information_schema` name). An unknown type fails the test rather than being skipped.
    fn of(declared: &str, table: &str, column: &str) -> Self {
        let t = declared.to_lowercase();
        if t.contains("timestamp") {
            Kind::Time
        } else if t.contains("bool") {
            Kind::Bool
        } else if t.contains("int") {
            Kind::Int
        } else if t.contains("char") || t.contains("text") {
            Kind::Text
        } else if t.contains("double") || t.contains("real") || t.contains("float") {
            Kind::Real
        } else {
            panic!("{table}.{column} has type {declared:?}, which the fingerprint does not normalise yet")
        }
    }
}

/// One normalised value; ordered so rows sort the same on both backends.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Cell {
    Null,
    Int(i64),
    Bool(bool),
    Text(String),
}

impl Cell {
    fn json(&self) -> serde_json::Value {
        match self {
            Cell::Null => serde_json::Value::Null,
            Cell::Int(n) => (*n).into(),
            Cell::Bool(b) => (*b).into(),
            Cell::Text(s) => s.as_str().into(),
        }
    }
}

/// The `(name, type, pk)` rows of a schema query.
async fn schema_rows(db: &DatabaseConnection, sql: &str) -> Vec<(String, String, i64)> {
    let rows = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.expect(sql);
    rows.iter()
        .map(|r| (r.try_get("", "name").unwrap(), r.try_get("", "type").unwrap(), r.try_get("", "pk").unwrap()))
        .collect()
}

/// The application tables, by name.
async fn tables(db: &DatabaseConnection) -> Vec<String> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            "SELECT name, type, 0 AS pk FROM pragma_table_list \
             WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'"
        }
        _ => {
            "SELECT CAST(table_name AS TEXT) AS name, CAST(table_type AS TEXT) AS type, CAST(0 AS BIGINT) AS pk \
             FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        }
    };
    let mut names: Vec<String> = schema_rows(db, sql)
        .await
        .into_iter()
        .map(|(name, ..)| name)
        .filter(|n| !NOT_APPLICATION.contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

/// The columns of `table`, by name.
async fn columns(db: &DatabaseConnection, table: &str) -> Vec<Column> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Sqlite => format!("SELECT name, type, pk FROM pragma_table_info('{table}')"),
        _ => format!(
            "SELECT CAST(c.column_name AS TEXT) AS name, CAST(c.data_type AS TEXT) AS type, \
             CAST(COALESCE((SELECT k.ordinal_position FROM information_schema.key_column_usage k \
               JOIN information_schema.table_constraints t \
                 ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema \
               WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema \
                 AND k.table_name = c.table_name AND k.column_name = c.column_name), 0) AS BIGINT) AS pk \
             FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = '{table}'"
        ),
    };
    let mut columns: Vec<Column> = schema_rows(db, &sql)
        .await
        .into_iter()
        .filter(|(name, ..)| !NOT_REPEATABLE.contains(&(table, name.as_str())))
        .map(|(name, declared, pk)| Column { kind: Kind::of(&declared, table, &name), name, pk })
        .collect();
    columns.sort_by(|a, b| a.name.cmp(&b.name));
    columns
}

/// Every row of `table`, normalised, in primary-key order (then by the whole row).
async fn rows(db: &DatabaseConnection, table: &str, columns: &[Column]) -> Vec<Vec<Cell>> {
    let select: Vec<String> = columns
        .iter()
        .map(|c| match c.kind {
            Kind::Int => format!("CAST(\"{0}\" AS BIGINT) AS \"{0}\"", c.name),
            _ => format!("\"{}\"", c.name),
        })
        .collect();
    let sql = format!("SELECT {} FROM \"{table}\"", select.join(", "));
    let raw = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.expect("rows");
    let mut rows: Vec<Vec<Cell>> = raw
        .iter()
        .map(|r| {
            columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let cell = match c.kind {
                        Kind::Int => r.try_get_by_index::<Option<i64>>(i).map(|v| v.map(Cell::Int)),
                        Kind::Bool => r.try_get_by_index::<Option<bool>>(i).map(|v| v.map(Cell::Bool)),
                        Kind::Text => r.try_get_by_index::<Option<String>>(i).map(|v| v.map(Cell::Text)),
                        Kind::Real => {
                            r.try_get_by_index::<Option<f64>>(i).map(|v| v.map(|v| Cell::Text(format!("{v:?}"))))
                        }
                        Kind::Time => r
                            .try_get_by_index::<Option<DateTime<Utc>>>(i)
                            .map(|v| v.map(|t| Cell::Text(t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)))),
                    };
                    let cell = cell.unwrap_or_else(|e| panic!("{table}.{}: {e}", c.name));
                    cell.unwrap_or(Cell::Null)
                })
                .collect()
        })
        .collect();
    let mut key: Vec<(i64, usize)> =
        columns.iter().enumerate().filter(|(_, c)| c.pk > 0).map(|(i, c)| (c.pk, i)).collect();
    key.sort();
    rows.sort_by(|a, b| {
        let by_key = key.iter().map(|&(_, i)| a[i].cmp(&b[i])).find(|o| o.is_ne());
        by_key.unwrap_or_else(|| a.cmp(b))
    });
    rows
}

/// Every status an entry history can show, across the demo's entries at the moment `now`:
/// (shown application statuses, entry lottery types).
async fn shown(
    app: &TestApp,
    now: DateTime<Utc>,
) -> (std::collections::BTreeSet<String>, std::collections::BTreeSet<String>) {
    use vmarket::model::entry_view::EntryView;
    let entries = event_entry::Entity::find().all(&app.db).await.unwrap();
    let views = EntryView::load(&app.db, entries, 0, vmarket::types::Lang::En, now).await.unwrap();
    let statuses = views.iter().flat_map(|v| v.applications.iter().map(|a| a.lottery_status.as_str().to_string()));
    let types = views.iter().map(|v| v.lottery_type.as_str().to_string());
    (statuses.collect(), types.collect())
}

/// Issue 12 ("entries in every status so the pages show each case"): right after the seed the
/// demo shows every application status but the two of a second payment window (`second_win`,
/// `second_lost`, which turn into `second_win_unpaid` / `lost` when it closes) and every entry
/// lottery type but those of a draw in progress and of a second payment window; the demo's own
/// events reach those as the clock moves (time travel): 2027Summer's first lottery window
/// (`first_lottery`), its close before staff publish (`adjusting`), 2027Spring's second lottery
/// window (`second_lottery`) and, once the lottery clock has committed and previewed 2027Spring's
/// second round and staff have published it, its second payment window (the kiosk booth's slot,
/// left unpaid in the first round, goes to one of its two first-round losers: `second_win`,
/// `second_lost`, `second_win_payment`). 2027Spring's
/// first draw is a real one, made at seeding time — published, its download verifies, every
/// stored outcome agrees, ともしび工房 and 夜更かし天文部 won what README.md says — and owes no
/// result mail.
#[rocket::async_test]
async fn the_demo_shows_every_status_and_lottery_type_and_its_draws_verify() {
    use sea_orm::Iterable;
    use vmarket::model::entry_status::LotteryRound;
    use vmarket::model::{lottery, lottery_clock};
    let app = TestApp::new().await;
    let (statuses, types) = shown(&app, default_now()).await;
    let every: std::collections::BTreeSet<String> = LotteryStatus::iter().map(|s| s.as_str().to_string()).collect();
    let later = ["second_win", "second_lost"];
    let expected: std::collections::BTreeSet<String> =
        every.iter().filter(|s| !later.contains(&s.as_str())).cloned().collect();
    assert_eq!(statuses, expected, "every application status but a second payment window's right after the seed");
    let later_types = ["first_lottery", "second_lottery", "adjusting", "second_win_payment"];
    let all_types = [
        "applied",
        "first_lottery",
        "first_win_payment",
        "first_lost",
        "second_lottery",
        "second_win_payment",
        "adjusting",
        "unpaid",
        "win",
        "win_paid",
        "lost",
        "incorrect",
    ];
    let expected: std::collections::BTreeSet<String> =
        all_types.iter().filter(|t| !later_types.contains(t)).map(|t| t.to_string()).collect();
    assert_eq!(types, expected, "every lottery type but a draw in progress and a second payment window");
    let phase = async |permalink: &str, kind: PhaseType| {
        let ev =
            event::Entity::find().filter(event::Column::Permalink.eq(permalink)).one(&app.db).await.unwrap().unwrap();
        ev.phases(&app.db).await.unwrap().into_iter().find(|p| p.phase_type == kind).unwrap().phase_timestamp
    };
    let hour = chrono::Duration::hours(1);
    for (permalink, kind, shows) in [
        ("2027Summer", PhaseType::FirstLotteryStart, "first_lottery"),
        ("2027Summer", PhaseType::FirstLotteryEnd, "adjusting"),
        ("2027Spring", PhaseType::SecondLotteryStart, "second_lottery"),
    ] {
        let at = phase(permalink, kind).await + hour;
        assert!(shown(&app, at).await.1.contains(shows), "{shows} at {permalink}'s {kind:?}");
    }

    // The seeded draw: published, verifiable from the download, every outcome stored as drawn,
    // the README's wins among them.
    let spring = lottery::event_by_permalink(&app.db, "2027Spring").await.unwrap();
    let verified = async |round: LotteryRound| {
        let res = app.get(&format!("/api/v1/2027Spring/lottery_results/{}", round.as_str())).await;
        assert_eq!(res.status().code, 200, "{round:?}");
        let file = res.into_string().await.unwrap();
        let draw = vmarket::cli::lottery::verify_file(&file).unwrap_or_else(|e| panic!("{round:?}: {e}"));
        assert!(draw.winners().count() > 0, "{round:?}");
        let checked = lottery::verify_published(&app.db, spring.id, round).await.unwrap();
        assert!(checked.mismatches.is_empty(), "{round:?}: {:?}", checked.mismatches);
    };
    verified(LotteryRound::First).await;
    for (owner, circle, plan) in [
        ("kaede_kohaku", "ともしび工房", "さくら並木のホーム ブース"),
        ("tsukishiro_noa", "夜更かし天文部", "ストーブの待合室 アバター展示"),
    ] {
        let (_, apps) = demo_application(&app, owner, circle, "2027Spring").await;
        let won: Vec<_> = apps.iter().filter(|a| a.lottery_status == LotteryStatus::FirstWin).collect();
        assert_eq!(won.len(), 1, "{circle}");
        let plan_of = vmarket::db::entities::event_entry_plan::Entity::find_by_id(won[0].plan_id)
            .one(&app.db)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(plan_of.name_ja, plan, "{circle}");
    }
    assert!(vmarket::model::lottery_mails::runs_owed(&app.db).await.unwrap().is_empty(), "no result mail owed");
    assert_eq!(
        vmarket::db::entities::mail::Entity::find().count(&app.db).await.unwrap(),
        0,
        "the seeded draw mailed nobody"
    );

    // 2027Spring's second round, as the lottery clock and staff run it: committed when the first
    // payment window closes, previewed in its lottery window, published; its file verifies, and
    // its second payment window shows a second-round win to pay.
    let closes = phase("2027Spring", PhaseType::FirstPaymentEnd).await + chrono::Duration::minutes(1);
    lottery_clock::sweep(&app.db, closes).await.unwrap();
    lottery_clock::advance_rounds(&app.db, closes).await.unwrap();
    let drawn = phase("2027Spring", PhaseType::SecondLotteryStart).await + hour;
    lottery_clock::sweep(&app.db, drawn).await.unwrap();
    lottery_clock::advance_rounds(&app.db, drawn).await.unwrap();
    let published = lottery::publish(&app.db, spring.id, LotteryRound::Second, drawn).await.unwrap();
    assert!(matches!(published, lottery::Publication::Applied { .. }), "{published:?}");
    verified(LotteryRound::Second).await;
    let paying = phase("2027Spring", PhaseType::SecondPaymentStart).await + hour;
    let (statuses, types) = shown(&app, paying).await;
    assert!(statuses.contains("second_win") && statuses.contains("second_lost"), "{statuses:?}");
    assert!(types.contains("second_win_payment"), "{types:?}");
}
