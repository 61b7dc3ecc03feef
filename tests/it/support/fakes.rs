//! The fake PayPal, GMO and VRChat servers of `scripts/fakes/` (Python standard library, the same
//! ones `make run` uses), started per test on a free loopback port and stopped when the handle is
//! dropped. They speak the providers' HTTP protocols, keep state, fail on request (`/_fake/faults`)
//! and send webhooks / result notifications to the app.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::TestApp;
use super::smtp_sink::{free_port, python_with, repo_root, wait_listening};

/// PayPal REST app credentials the tests configure.
pub const PAYPAL_CLIENT_ID: &str = "vmarket-test-client";
/// Its secret (must never reach a log or the database).
pub const PAYPAL_SECRET: &str = "pp-secret-Zq8vK2mN4x";
/// The webhook id the fake signs for.
pub const PAYPAL_WEBHOOK_ID: &str = "WH-TEST-4711";
/// The GMO shop.
pub const GMO_SHOP_ID: &str = "tshop00099999";
/// Its password (must never reach a log or the database).
pub const GMO_SHOP_PASS: &str = "gmo-pass-Hy7tR3wQ";
/// The VRChat service account's session cookie (must never reach a log or the database).
pub const VRCHAT_AUTH_COOKIE: &str = "authcookie_test-Qm4xT9";

/// Which fake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `scripts/fakes/paypal.py`.
    PayPal,
    /// `scripts/fakes/gmo.py`.
    Gmo,
    /// `scripts/fakes/vrchat.py`.
    Vrchat,
}

/// A running fake.
pub struct Fake {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    child: Child,
    http: reqwest::Client,
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Fake {
    /// Starts `kind` on a free port, or `None` without a Python 3 (outside CI).
    pub fn start(kind: Kind) -> Option<Self> {
        let python = python_with("zlib", "the PayPal, GMO and VRChat fakes")?;
        let port = free_port();
        let mut cmd = Command::new(&python);
        match kind {
            Kind::PayPal => cmd.arg(repo_root().join("scripts/fakes/paypal.py")).args([
                "--client-id",
                PAYPAL_CLIENT_ID,
                "--client-secret",
                PAYPAL_SECRET,
                "--webhook-id",
                PAYPAL_WEBHOOK_ID,
            ]),
            Kind::Gmo => cmd.arg(repo_root().join("scripts/fakes/gmo.py")).args([
                "--shop-id",
                GMO_SHOP_ID,
                "--shop-pass",
                GMO_SHOP_PASS,
            ]),
            Kind::Vrchat => {
                cmd.arg(repo_root().join("scripts/fakes/vrchat.py")).args(["--auth-cookie", VRCHAT_AUTH_COOKIE])
            }
        };
        let mut child = cmd
            .args(["--port", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the {kind:?} fake with {}: {e}", python.display()));
        wait_listening(&mut child, port, &format!("the {kind:?} fake"), Duration::from_secs(20));
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        Some(Self { base: format!("http://127.0.0.1:{port}"), child, http })
    }

    /// A client that does not follow redirects (a browser step by step).
    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// POSTs `body` as JSON to the fake's `path`; the JSON answer.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let res = self.http.post(format!("{}{path}", self.base)).json(&body).send().await.expect("the fake answers");
        res.json().await.unwrap_or(Value::Null)
    }

    /// GETs the fake's `path`; the JSON answer.
    pub async fn get(&self, path: &str) -> Value {
        let res = self.http.get(format!("{}{path}", self.base)).send().await.expect("the fake answers");
        res.json().await.unwrap_or(Value::Null)
    }

    /// Makes the next `times` requests matching `method` and the `path` regex fail as `mode`
    /// (`500`, `503`, `hang`, `500_after`, `slow`; see `scripts/fakes/fakehttp.py`).
    pub async fn fault(&self, method: &str, path: &str, mode: &str, times: i64) {
        self.post("/_fake/faults", json!({"method": method, "path": path, "mode": mode, "times": times, "delay": 3}))
            .await;
    }

    /// Clears every fault.
    pub async fn heal(&self) {
        self.http.delete(format!("{}/_fake/faults", self.base)).send().await.expect("the fake answers");
    }

    /// Makes the fake's clock follow `app`'s (manual) clock as it is now: PayPal's transmission
    /// times, GMO's payment deadline. Call it after moving the app's clock.
    pub async fn follow(&self, app: &TestApp) {
        let offset = (app.clock.real_now() - chrono::Utc::now()).num_seconds();
        self.config(json!({"clock_offset": offset})).await;
    }

    /// Changes the fake's settings (`webhook_url`, `notify_url`, `approve_base`, `link_base`, …).
    pub async fn config(&self, settings: Value) {
        self.post("/_fake/config", settings).await;
    }
}

/// A live app whose PayPal and GMO are these fakes (either may be absent), with `timeout_ms`
/// per provider call; the fakes send their webhooks and notifications to it.
pub async fn app_with(paypal: Option<&Fake>, gmo: Option<&Fake>, timeout_ms: u64) -> TestApp {
    app_configured(paypal, gmo, timeout_ms, |_| {}).await
}

/// [`app_with`], with `more` changing the configuration besides.
pub async fn app_configured(
    paypal: Option<&Fake>,
    gmo: Option<&Fake>,
    timeout_ms: u64,
    more: impl FnOnce(&mut vmarket::config::Config) + 'static,
) -> TestApp {
    let (pp, g) = (paypal.map(|f| f.base.clone()), gmo.map(|f| f.base.clone()));
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            more(c);
            if let Some(base) = pp {
                c.paypal_api_base = base.clone();
                c.paypal_web_base = base;
                c.paypal_client_id = PAYPAL_CLIENT_ID.into();
                c.paypal_client_secret = PAYPAL_SECRET.into();
                c.paypal_webhook_id = PAYPAL_WEBHOOK_ID.into();
            }
            if let Some(base) = g {
                c.gmo_api_base = base.clone();
                c.gmo_link_base = base;
                c.gmo_shop_id = GMO_SHOP_ID.into();
                c.gmo_shop_pass = GMO_SHOP_PASS.into();
            }
            c.payment_timeout_ms = timeout_ms;
        })
        .build()
        .await;
    // The fakes' clocks follow the app's (manual) one: PayPal's transmission times, GMO's
    // payment deadline.
    let offset = (app.clock.real_now() - chrono::Utc::now()).num_seconds();
    if let Some(fake) = paypal {
        let hook = format!("{}/api/v1/payment/paypal/webhook", app.origin);
        fake.config(json!({"webhook_url": hook, "clock_offset": offset})).await;
    }
    if let Some(fake) = gmo {
        let notify = format!("{}/api/v1/payment/gmo/notification", app.origin);
        fake.config(json!({"notify_url": notify, "clock_offset": offset})).await;
    }
    app
}

impl TestApp {
    /// How many settled payments application `application_id` has.
    pub async fn settled_payments(&self, application_id: i32) -> u64 {
        use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
        use vmarket::db::entities::payment_history;
        payment_history::Entity::find()
            .filter(payment_history::Column::ApplicationId.eq(application_id))
            .count(&self.db)
            .await
            .unwrap()
    }

    /// The stored lottery status of application `application_id`.
    pub async fn application_status(&self, application_id: i32) -> vmarket::model::entry_status::LotteryStatus {
        use sea_orm::EntityTrait;
        use vmarket::db::entities::event_entry_application;
        event_entry_application::Entity::find_by_id(application_id).one(&self.db).await.unwrap().unwrap().lottery_status
    }

    /// The attempt `transaction_uuid`.
    pub async fn attempt(&self, transaction_uuid: &str) -> vmarket::db::entities::order::Model {
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
        use vmarket::db::entities::order;
        order::Entity::find()
            .filter(order::Column::TransactionUuid.eq(transaction_uuid))
            .one(&self.db)
            .await
            .unwrap()
            .expect("the attempt")
    }
}

/// The path and query of an absolute URL on the app (what a browser asks the app for).
pub fn path_of(url: &str) -> String {
    let parsed = url::Url::parse(url).expect("an absolute URL");
    match parsed.query() {
        Some(q) => format!("{}?{q}", parsed.path()),
        None => parsed.path().to_string(),
    }
}
