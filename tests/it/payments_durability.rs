//! Durability of payments (issue 13, run by `bench/payments-durability`): the real `vmarket`
//! binary (this build's, debug or release) serves over HTTP against localstripe while many
//! payers pay at once through the API, and is killed with SIGKILL several times in the middle of
//! it, then restarted. Afterwards:
//!
//! - every payment a client saw acknowledged (a 200 from `capture`, or the payment listed by
//!   `payment_histories`) is stored as it was acknowledged;
//! - nothing is half-written: an order is `captured` exactly when it has its payment, an
//!   application is `paid` exactly when it has a payment (not late), every payment has its
//!   captured order, its application and exactly one receipt mail, and no application has two;
//! - Stripe charged each application at most once, and every charge is a stored payment (after
//!   the restarted workers' reconcile);
//! - SQLite: `PRAGMA integrity_check` is `ok`, `PRAGMA foreign_key_check` finds nothing, and the
//!   connection runs with `synchronous = FULL`; PostgreSQL: `amcheck` verifies every B-tree index
//!   of the schema (when the extension can be created).
//!
//! Sizes: `VMARKET_BENCH_PAYMENTS` payers (default 60), `VMARKET_BENCH_KILLS` kills (default 3),
//! `VMARKET_BENCH_CONCURRENCY` payers at once (default 16). Prints `BENCH key=value` lines.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration as StdDuration, Instant};

use chrono::{Duration, Utc};
use rocket::futures::StreamExt;
use rocket::futures::stream;
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, Statement};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use vmarket::db::entities::{
    circle, event_entry, event_entry_application, event_entry_plan, mail, order, payment_history,
};
use vmarket::model::circle::CircleChange;
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::{LotteryRound, LotteryStatus};
use vmarket::model::lottery;
use vmarket::model::payment::OrderState;
use vmarket::model::phase::PhaseType;

use crate::support::TestApp;
use crate::support::localstripe::{LocalStripe, SECRET_KEY};
use crate::support::smtp_sink::free_port;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The server process under test: started, killed with SIGKILL, started again.
struct Server {
    cmd_env: Vec<(String, String)>,
    log: PathBuf,
    child: Option<Child>,
    starts: usize,
}

impl Server {
    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).expect("server log");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_vmarket"));
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("ROCKET_")) {
            cmd.env_remove(key);
        }
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("serve")
            .envs(self.cmd_env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log);
        self.child = Some(cmd.spawn().expect("the vmarket binary starts"));
        self.starts += 1;
    }

    /// SIGKILL (no shutdown, no flush), then wait for the process to be gone.
    fn kill_dash_nine(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
        }
    }

    fn tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

/// Waits until the server at `base` answers (or panics with its log).
async fn wait_up(http: &reqwest::Client, base: &str, server: &Mutex<Server>) {
    let deadline = Instant::now() + StdDuration::from_secs(120);
    loop {
        if let Ok(res) = http.get(format!("{base}/_ah/warmup")).send().await
            && res.status().is_success()
        {
            return;
        }
        if Instant::now() > deadline {
            panic!("the server did not come up within 120 s:\n{}", server.lock().await.tail());
        }
        tokio::time::sleep(StdDuration::from_millis(100)).await;
    }
}

/// What a payer was told: the payment `id` of application `application_id`, attempt `transaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ack {
    application_id: i32,
    payment_id: i64,
    transaction: String,
    amount: i64,
}

/// One payer paying their application like a browser would, again after every interruption
/// (a reload and another click on "pay"): `pre_order`, a card from Stripe (as Stripe.js makes
/// it), `capture`. Returns what they were told, or why they stopped.
async fn pay(
    http: &reqwest::Client,
    base: &str,
    stripe: &LocalStripe,
    token: &str,
    application_id: i32,
    in_flight: &AtomicUsize,
) -> Result<Ack, String> {
    let call = |path: &str, body: Value| {
        let req = http.post(format!("{base}{path}")).bearer_auth(token).json(&body);
        async move {
            in_flight.fetch_add(1, Ordering::SeqCst);
            let res = req.send().await;
            in_flight.fetch_sub(1, Ordering::SeqCst);
            let res = res.map_err(|_| None)?;
            let status = res.status().as_u16();
            let body: Value = res.json().await.map_err(|_| None)?;
            Ok::<(u16, Value), Option<String>>((status, body))
        }
    };
    for _ in 0..40 {
        let opened =
            call("/api/v1/user/payment/pre_order", json!({"application_id": application_id, "payment_type": "stripe"}))
                .await;
        let transaction = match opened {
            Ok((200, body)) => body["transaction_uuid"].as_str().unwrap_or_default().to_string(),
            Ok((409, body)) if body["code"] == "already_paid" => {
                // Paid meanwhile (a capture cut short, then the reconcile): the history says so.
                let res =
                    http.get(format!("{base}/api/v1/user/payment_histories?limit=100")).bearer_auth(token).send().await;
                let Ok(res) = res else { continue };
                let Ok(list) = res.json::<Value>().await else { continue };
                let found = list["data"].as_array().and_then(|d| {
                    d.iter().find(|p| p["application_id"].as_i64() == Some(i64::from(application_id))).cloned()
                });
                return match found {
                    Some(p) => Ok(ack(application_id, &p)),
                    None => Err(format!("application {application_id}: already paid but not in the history")),
                };
            }
            Ok((502, _)) | Err(None) => {
                tokio::time::sleep(StdDuration::from_millis(200)).await;
                continue;
            }
            Ok((status, body)) => return Err(format!("pre_order {application_id}: {status} {body}")),
            Err(Some(e)) => return Err(e),
        };
        let card = stripe.card("4242424242424242").await;
        match call("/api/v1/user/payment/capture", json!({"transaction_uuid": transaction, "payment_method": card}))
            .await
        {
            Ok((200, body)) => return Ok(ack(application_id, &body)),
            Ok((502, _)) | Ok((409, _)) | Err(None) => {
                tokio::time::sleep(StdDuration::from_millis(200)).await;
            }
            Ok((status, body)) => return Err(format!("capture {application_id}: {status} {body}")),
            Err(Some(e)) => return Err(e),
        }
    }
    Err(format!("application {application_id}: no answer after 40 tries"))
}

fn ack(application_id: i32, payment: &Value) -> Ack {
    Ack {
        application_id,
        payment_id: payment["id"].as_i64().unwrap_or_default(),
        transaction: payment["transaction_uuid"].as_str().unwrap_or_default().to_string(),
        amount: payment["amount"].as_i64().unwrap_or_default(),
    }
}

/// Every PaymentIntent localstripe holds.
async fn intents(stripe: &LocalStripe) -> Vec<Value> {
    let http = reqwest::Client::new();
    let mut all = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut url = format!("{}/v1/payment_intents?limit=100", stripe.base);
        if let Some(last) = &after {
            url.push_str(&format!("&starting_after={last}"));
        }
        let page: Value = http.get(url).bearer_auth(SECRET_KEY).send().await.unwrap().json().await.unwrap();
        let data = page["data"].as_array().cloned().unwrap_or_default();
        after = data.last().and_then(|pi| pi["id"].as_str()).map(str::to_string);
        all.extend(data);
        if page["has_more"] != json!(true) || after.is_none() {
            return all;
        }
    }
}

/// Succeeded PaymentIntents per application (from their metadata).
fn charges(intents: &[Value]) -> HashMap<i32, Vec<String>> {
    let mut by_application: HashMap<i32, Vec<String>> = HashMap::new();
    for pi in intents.iter().filter(|pi| pi["status"] == "succeeded") {
        let id = pi["metadata"]["application_id"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
        by_application.entry(id).or_default().push(pi["id"].as_str().unwrap_or_default().to_string());
    }
    by_application
}

async fn scalar(db: &impl ConnectionTrait, sql: &str) -> Vec<sea_orm::QueryResult> {
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// What a run left in the database and at Stripe.
struct Found {
    payments: usize,
    orders: usize,
    receipts: usize,
    charges: usize,
    unconfirmed_intents: usize,
    /// The attempts not captured: (order, application, state, failure, has a provider object).
    uncaptured: Vec<(i32, i32, OrderState, Option<String>, bool)>,
}

/// Everything wrong with what the run left behind, given what the payers were told.
async fn problems(app: &TestApp, stripe: &LocalStripe, acks: &[Ack], failures: &[String]) -> (Vec<String>, Found) {
    let payments = payment_history::Entity::find().all(&app.db).await.unwrap();
    let orders = order::Entity::find().all(&app.db).await.unwrap();
    let applications = event_entry_application::Entity::find().all(&app.db).await.unwrap();
    let receipts = mail::Entity::find().filter(mail::Column::Kind.eq("payment_receipt")).all(&app.db).await.unwrap();
    let all_intents = intents(stripe).await;
    let charged = charges(&all_intents);
    let mut problems: Vec<String> = failures.iter().map(|f| format!("payer gave up: {f}")).collect();

    // Every acknowledged payment is stored as acknowledged.
    for a in acks {
        match payments.iter().find(|p| i64::from(p.id) == a.payment_id) {
            Some(p)
                if p.application_id == a.application_id
                    && p.transaction_uuid == a.transaction
                    && i64::from(p.amount) == a.amount => {}
            Some(p) => problems.push(format!("ack {a:?} stored differently: {p:?}")),
            None => problems.push(format!("ack {a:?} lost")),
        }
    }
    // Nothing half-written.
    let paid_by_application: HashMap<i32, usize> = payments.iter().fold(HashMap::new(), |mut m, p| {
        *m.entry(p.application_id).or_default() += 1;
        m
    });
    for (application, n) in &paid_by_application {
        if *n > 1 {
            problems.push(format!("application {application} has {n} payments"));
        }
    }
    for o in &orders {
        let has_payment = payments.iter().any(|p| p.order_id == o.id);
        if (o.state == OrderState::Captured) != has_payment {
            problems.push(format!("order {} is {:?} with payment: {has_payment}", o.id, o.state));
        }
    }
    for p in &payments {
        let Some(o) = orders.iter().find(|o| o.id == p.order_id) else {
            problems.push(format!("payment {} without its order", p.id));
            continue;
        };
        if o.transaction_uuid != p.transaction_uuid || o.application_id != p.application_id {
            problems.push(format!("payment {} does not match its order {}", p.id, o.id));
        }
        let a = applications.iter().find(|a| a.id == p.application_id);
        if !p.is_late && a.map(|a| a.lottery_status) != Some(LotteryStatus::Paid) {
            problems.push(format!(
                "payment {} but application {} is {:?}",
                p.id,
                p.application_id,
                a.map(|a| a.lottery_status)
            ));
        }
        let mails = receipts.iter().filter(|m| m.text_body.contains(&p.transaction_uuid)).count();
        if mails != 1 {
            problems.push(format!("payment {} has {mails} receipt mails", p.id));
        }
    }
    if receipts.len() != payments.len() {
        problems.push(format!("{} receipt mails for {} payments", receipts.len(), payments.len()));
    }
    for o in orders.iter().filter(|o| o.state != OrderState::Captured) {
        if let Some(p) = payments.iter().find(|p| p.application_id == o.application_id && p.paid_at < o.created_at) {
            problems.push(format!("attempt {} opened after its application was paid by payment {}", o.id, p.id));
        }
    }
    for a in applications.iter().filter(|a| a.lottery_status == LotteryStatus::Paid) {
        if !paid_by_application.contains_key(&a.id) {
            problems.push(format!("application {} is paid without a payment", a.id));
        }
    }
    // Charged at most once, and every charge stored.
    let references: HashSet<&str> = payments.iter().map(|p| p.order_reference.as_str()).collect();
    for (application, pis) in &charged {
        if pis.len() > 1 {
            problems.push(format!("application {application} charged {} times: {pis:?}", pis.len()));
        }
        for pi in pis {
            if !references.contains(pi.as_str()) {
                problems.push(format!("charge {pi} of application {application} is not a stored payment"));
            }
        }
    }
    let found = Found {
        payments: payments.len(),
        orders: orders.len(),
        receipts: receipts.len(),
        charges: charged.values().map(Vec::len).sum(),
        unconfirmed_intents: all_intents.iter().filter(|pi| pi["status"] == "requires_payment_method").count(),
        uncaptured: orders
            .iter()
            .filter(|o| o.state != OrderState::Captured)
            .map(|o| (o.id, o.application_id, o.state, o.failure.clone(), o.provider_order_id.is_some()))
            .collect(),
    };
    (problems, found)
}

#[rocket::async_test]
#[ignore = "durability measurement against a real server process; run by bench/payments-durability"]
async fn payments_survive_kill_dash_nine() {
    let payers = setting("VMARKET_BENCH_PAYMENTS", 60);
    let kills = setting("VMARKET_BENCH_KILLS", 3);
    let concurrency = setting("VMARKET_BENCH_CONCURRENCY", 16);
    let Some(stripe) = LocalStripe::start() else { return };
    let stripe = Arc::new(stripe);
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");

    // The data: one event whose first payment window is open now (real time, as the server
    // sees it), a plan with a slot for everyone, and every payer's circle drawn a winner.
    let real_now = Utc::now();
    let past = real_now - Duration::days(14);
    let site = base.clone();
    let app = TestApp::builder().empty().at(past).config(move |c| c.site_url = site).build().await;
    let ev = app.entry_event("Durable").await;
    let plan_id = ev.plans[1];
    let mut plan: event_entry_plan::ActiveModel =
        event_entry_plan::Entity::find_by_id(plan_id).one(&app.db).await.unwrap().unwrap().into();
    plan.maximum = sea_orm::Set(payers as i32);
    sea_orm::ActiveModelTrait::update(plan, &app.db).await.unwrap();
    let mut owners = Vec::new();
    for i in 0..payers {
        let owner = app.with_user(&format!("durable_{i}")).await;
        let change = CircleChange {
            name_ja: format!("耐久サークル{i}"),
            name_en: format!("Durable Circle {i}"),
            description_ja: String::new(),
            description_en: String::new(),
            website_link: None,
            thumbnail_key: None,
        };
        let circle = circle::Model::create_owned(&app.db, &owner.user, change, past).await.expect("circle").id;
        let change = EntryChange {
            is_multiple_win: false,
            wishes: vec![Wish { choice: 1, plan_id, options: AmpOptions::default() }],
            agreed_terms: None,
        };
        event_entry::Model::apply(&app.db, ev.id, circle, owner.user.id, change, past).await.expect("applied");
        owners.push(owner);
    }
    let draw_at = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    assert!(ev.at(PhaseType::FirstPaymentStart) < real_now && real_now < ev.at(PhaseType::FirstPaymentEnd));
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, draw_at).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    lottery::publish(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    let won = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::FirstWin))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(won.len(), payers, "every payer won");
    app.clock.set(real_now);
    let mut tokens: HashMap<i32, String> = HashMap::new();
    let application_of: HashMap<i32, i32> = {
        let mut map = HashMap::new();
        for a in &won {
            let entry = event_entry::Entity::find_by_id(a.entry_id).one(&app.db).await.unwrap().unwrap();
            let c = circle::Entity::find_by_id(entry.circle_id).one(&app.db).await.unwrap().unwrap();
            map.insert(c.owner_user_id.unwrap(), a.id);
        }
        map
    };
    for owner in &mut owners {
        owner.renew().await;
        tokens.insert(application_of[&owner.user.id], owner.token.clone());
    }

    // The server: this build's binary over the same database, paying through localstripe.
    let tmp = tempfile::tempdir().unwrap();
    let env: Vec<(String, String)> = [
        ("ROCKET_DATABASE_URL", app.config.database_url.clone()),
        ("ROCKET_DATA_DIR", tmp.path().join("data").display().to_string()),
        ("ROCKET_PORT", port.to_string()),
        ("ROCKET_SITE_URL", base.clone()),
        ("ROCKET_SECRET_KEY", "hPRYyVRiMyxpw5sBB1XeCMN1kFsDCqKvBi2QJxBVHQk=".into()),
        ("ROCKET_LOG_LEVEL", "critical".into()),
        ("ROCKET_JOB_POLL_INTERVAL_MS", "100".into()),
        ("ROCKET_STRIPE_API_BASE", stripe.base.clone()),
        ("ROCKET_STRIPE_SECRET_KEY", SECRET_KEY.into()),
        ("ROCKET_STRIPE_PUBLISHABLE_KEY", "pk_test_vmarket".into()),
        ("ROCKET_STRIPE_JS_URL", format!("{}/js.stripe.com/v3/", stripe.base)),
        ("ROCKET_PAYMENT_TIMEOUT_MS", "10000".into()),
        ("RUST_LOG", "warn".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let server =
        Arc::new(Mutex::new(Server { cmd_env: env, log: tmp.path().join("server.log"), child: None, starts: 0 }));
    server.lock().await.spawn();
    let http = reqwest::Client::builder().timeout(StdDuration::from_secs(30)).build().unwrap();
    wait_up(&http, &base, &server).await;

    // Pay, all at once (`concurrency` payers in flight), while the server is killed `kills`
    // times at evenly spaced points of progress.
    let started = Instant::now();
    let acks: Arc<Mutex<Vec<Ack>>> = Arc::default();
    let failures: Arc<Mutex<Vec<String>>> = Arc::default();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let killer = {
        let (server, http, base, in_flight, done) =
            (server.clone(), http.clone(), base.clone(), in_flight.clone(), done.clone());
        tokio::spawn(async move {
            let mut at_kill = Vec::new();
            for k in 1..=kills {
                let mark = payers * k / (kills + 1);
                while done.load(Ordering::SeqCst) < mark {
                    tokio::time::sleep(StdDuration::from_millis(20)).await;
                }
                let busy = in_flight.load(Ordering::SeqCst);
                server.lock().await.kill_dash_nine();
                at_kill.push(busy);
                tokio::time::sleep(StdDuration::from_millis(300)).await;
                server.lock().await.spawn();
                wait_up(&http, &base, &server).await;
            }
            at_kill
        })
    };
    let mut ids: Vec<i32> = tokens.keys().copied().collect();
    ids.sort_unstable();
    stream::iter(ids)
        .for_each_concurrent(concurrency, |application_id| {
            let (http, base, stripe, token) =
                (http.clone(), base.clone(), stripe.clone(), tokens[&application_id].clone());
            let (acks, failures, in_flight, done) = (acks.clone(), failures.clone(), in_flight.clone(), done.clone());
            async move {
                match pay(&http, &base, &stripe, &token, application_id, &in_flight).await {
                    Ok(a) => acks.lock().await.push(a),
                    Err(e) => failures.lock().await.push(e),
                }
                done.fetch_add(1, Ordering::SeqCst);
            }
        })
        .await;
    let in_flight_at_kills = killer.await.unwrap();
    let paying = started.elapsed();

    // Restarted workers reconcile what a kill left pending; then one last kill -9.
    let settled_at_stripe = |intents: &[Value]| charges(intents).values().map(Vec::len).sum::<usize>();
    let deadline = Instant::now() + StdDuration::from_secs(90);
    loop {
        let charged = settled_at_stripe(&intents(&stripe).await);
        let stored = payment_history::Entity::find().all(&app.db).await.unwrap().len();
        if stored >= charged || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(StdDuration::from_millis(500)).await;
    }
    server.lock().await.kill_dash_nine();
    let starts = server.lock().await.starts;

    // ---- The checks. ----
    let acks = acks.lock().await.clone();
    let failures = failures.lock().await.clone();
    let (mut problems, found) = self::problems(&app, &stripe, &acks, &failures).await;
    // The database itself.
    let integrity = match app.db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let rows = scalar(&app.db, "PRAGMA integrity_check").await;
            let verdict: Vec<String> = rows.iter().map(|r| r.try_get_by_index::<String>(0).unwrap()).collect();
            if verdict != ["ok"] {
                problems.push(format!("integrity_check: {verdict:?}"));
            }
            let orphans = scalar(&app.db, "PRAGMA foreign_key_check").await;
            if !orphans.is_empty() {
                problems.push(format!("foreign_key_check: {} rows", orphans.len()));
            }
            let sync: i64 = scalar(&app.db, "PRAGMA synchronous").await[0].try_get_by_index(0).unwrap();
            assert_eq!(sync, 2, "the connection runs with synchronous = FULL");
            "sqlite integrity_check=ok foreign_key_check=empty synchronous=FULL".to_string()
        }
        _ => {
            let created = app.db.execute_unprepared("CREATE EXTENSION IF NOT EXISTS amcheck").await;
            match created {
                Ok(_) => {
                    let rows = scalar(
                        &app.db,
                        "SELECT c.relname::text AS name, bt_index_check(c.oid, true)::text AS checked \
                         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
                         JOIN pg_am am ON am.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace \
                         WHERE am.amname = 'btree' AND n.nspname = current_schema() AND i.indisvalid",
                    )
                    .await;
                    format!("postgres amcheck bt_index_check(heapallindexed) on {} indexes: ok", rows.len())
                }
                Err(e) => format!("postgres amcheck unavailable ({e}); consistency queries only"),
            }
        }
    };

    println!(
        "BENCH payers={payers} concurrency={concurrency} kills={kills} starts={starts} in_flight_at_kills={in_flight_at_kills:?} \
         paying_s={:.1} acks={} payments={} orders={} charges={} unconfirmed_intents={} receipts={}",
        paying.as_secs_f64(),
        acks.len(),
        found.payments,
        found.orders,
        found.charges,
        found.unconfirmed_intents,
        found.receipts,
    );
    println!("BENCH integrity {integrity}");
    println!("BENCH uncaptured_orders={:?}", found.uncaptured);
    let log = std::fs::read_to_string(&server.lock().await.log).unwrap_or_default();
    for line in log.lines().filter(|l| l.contains("ERROR")) {
        println!("BENCH server: {line}");
    }
    let tail = server.lock().await.tail();
    assert!(problems.is_empty(), "{} problems:\n  {}\nserver log tail:\n{tail}", problems.len(), problems.join("\n  "));
    assert_eq!(acks.len(), payers, "every payer was told their payment went through");

    // The control: the same checks find a half-written payment (an application set back to
    // unpaid, a receipt mail gone, an acknowledged payment lost).
    let victim = payment_history::Entity::find().one(&app.db).await.unwrap().expect("a payment");
    app.db
        .execute_unprepared(&format!(
            "UPDATE event_entry_applications SET lottery_status = 'first_win' WHERE id = {}",
            victim.application_id
        ))
        .await
        .unwrap();
    let other = payment_history::Entity::find()
        .filter(payment_history::Column::Id.ne(victim.id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("another payment");
    app.db
        .execute_unprepared(&format!("DELETE FROM mails WHERE text_body LIKE '%{}%'", other.transaction_uuid))
        .await
        .unwrap();
    let (broken, _) = self::problems(&app, &stripe, &acks, &failures).await;
    assert!(broken.iter().any(|p| p.contains(&format!("application {} is", victim.application_id))), "{broken:?}");
    assert!(broken.iter().any(|p| p.contains(&format!("payment {} has 0 receipt mails", other.id))), "{broken:?}");
}
