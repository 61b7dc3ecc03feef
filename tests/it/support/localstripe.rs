//! A real fake Stripe for the payment tests: `localstripe` (PyPI, installed into `.venv` by
//! `scripts/install-test-deps`), started on a free loopback port and stopped when the handle is
//! dropped. It speaks Stripe's HTTP API (PaymentIntents, PaymentMethods) and sends signed
//! webhooks to the URL registered with [`LocalStripe::register_webhook`].
//!
//! Without an interpreter that can import it, a test that needs it is skipped with a loud
//! message, except under `CI=true`, where it fails.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::smtp_sink::{free_port, python_with, wait_listening};

/// The secret key tests configure (localstripe accepts any `sk_…`).
pub const SECRET_KEY: &str = "sk_test_vmarket";
/// The publishable key tests configure, for Stripe.js (localstripe accepts any `pk_…`).
pub const PUBLISHABLE_KEY: &str = "pk_test_vmarket";

/// The interpreter to run localstripe with; `None` means "skip this test" (outside CI only).
pub fn python() -> Option<PathBuf> {
    python_with("localstripe", "the Stripe tests")
}

/// A running localstripe.
pub struct LocalStripe {
    /// Its base URL (`http://127.0.0.1:<port>`).
    pub base: String,
    child: Child,
    http: reqwest::Client,
}

impl Drop for LocalStripe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl LocalStripe {
    /// Points `config`'s Stripe at this server: its API, both keys, and its fake Stripe.js
    /// (`/js.stripe.com/v3/`, which talks to the same server from the browser).
    pub fn configure(&self, config: &mut vmarket::config::Config) {
        config.stripe_api_base = self.base.clone();
        config.stripe_secret_key = SECRET_KEY.into();
        config.stripe_publishable_key = PUBLISHABLE_KEY.into();
        config.stripe_js_url = format!("{}/js.stripe.com/v3/", self.base);
    }

    /// Starts localstripe on a free port, or `None` when it is not installed (see [`python`]).
    /// With `VMARKET_TEST_LOCALSTRIPE_LOG=<file>` its log (requests, webhook deliveries and the
    /// app's answers to them) is appended to that file.
    pub fn start() -> Option<Self> {
        let python = python()?;
        let port = free_port();
        let log = std::env::var_os("VMARKET_TEST_LOCALSTRIPE_LOG")
            .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok().map(Stdio::from));
        let mut child = Command::new(&python)
            .args(["-W", "ignore", "-m", "localstripe", "--port", &port.to_string(), "--from-scratch"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.unwrap_or_else(Stdio::null))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start localstripe with {}: {e}", python.display()));
        wait_listening(&mut child, port, "localstripe", Duration::from_secs(30));
        Some(Self { base: format!("http://127.0.0.1:{port}"), child, http: reqwest::Client::new() })
    }

    /// Makes localstripe send its events to `url`, signed with `secret`.
    pub async fn register_webhook(&self, url: &str, secret: &str) {
        let res = self
            .http
            .post(format!("{}/_config/webhooks/vmarket", self.base))
            .form(&[("url", url), ("secret", secret)])
            .send()
            .await
            .expect("localstripe answers");
        assert!(res.status().is_success(), "webhook registered: {}", res.status());
    }

    /// A card PaymentMethod (`pm_…`) for `number`, as Stripe.js would tokenize it in the
    /// browser: 4242424242424242 pays, 4000000000000341 is declined when charged.
    pub async fn card(&self, number: &str) -> String {
        let form = [
            ("type", "card"),
            ("card[number]", number),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ];
        let body: Value = self
            .http
            .post(format!("{}/v1/payment_methods", self.base))
            .bearer_auth(SECRET_KEY)
            .form(&form)
            .send()
            .await
            .expect("localstripe answers")
            .json()
            .await
            .expect("a payment method");
        body["id"].as_str().expect("an id").to_string()
    }

    /// The amounts refunded of PaymentIntent `id`, as localstripe has them.
    pub async fn refunds(&self, id: &str) -> Vec<i64> {
        let body: Value = self
            .http
            .get(format!("{}/v1/refunds?payment_intent={id}", self.base))
            .bearer_auth(SECRET_KEY)
            .send()
            .await
            .expect("localstripe answers")
            .json()
            .await
            .expect("a list of refunds");
        body["data"].as_array().expect("refunds").iter().filter_map(|r| r["amount"].as_i64()).collect()
    }

    /// The PaymentIntent `id` as localstripe has it.
    pub async fn intent(&self, id: &str) -> Value {
        self.http
            .get(format!("{}/v1/payment_intents/{id}", self.base))
            .bearer_auth(SECRET_KEY)
            .send()
            .await
            .expect("localstripe answers")
            .json()
            .await
            .expect("an intent")
    }
}

/// How the [`Gate`] in front of a provider behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateMode {
    /// Passes every connection through.
    Up,
    /// Answers every request `503 Service Unavailable` (the provider is down).
    Down,
    /// Accepts connections and never answers (a timeout).
    Hang,
}

/// A TCP gate between the app and a provider fake: passes traffic through, or fails it the way a
/// provider outage does. Changing the mode cuts the connections already open, so the app's
/// connection pool cannot slip past it.
pub struct Gate {
    /// `http://127.0.0.1:<port>`: configure the app with this instead of the fake's base.
    pub base: String,
    mode: tokio::sync::watch::Sender<GateMode>,
}

impl Gate {
    /// A gate in front of `upstream` (`host:port`), open.
    pub async fn start(upstream: &str) -> Self {
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a local port");
        let base = format!("http://{}", listener.local_addr().expect("local addr"));
        let (mode, watch) = tokio::sync::watch::channel(GateMode::Up);
        let upstream = upstream.to_string();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let mut changed = watch.clone();
                let current = *changed.borrow_and_update();
                let upstream = upstream.clone();
                tokio::spawn(async move {
                    match current {
                        GateMode::Up => {
                            let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await else { return };
                            tokio::select! {
                                _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                                _ = changed.changed() => {}
                            }
                        }
                        GateMode::Down => {
                            let mut buf = [0u8; 4096];
                            let _ = tokio::io::AsyncReadExt::read(&mut client, &mut buf).await;
                            let _ = client
                                .write_all(
                                    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
                                      content-length: 2\r\nconnection: close\r\n\r\n{}",
                                )
                                .await;
                        }
                        GateMode::Hang => {
                            let _ = changed.changed().await;
                        }
                    }
                });
            }
        });
        Self { base, mode }
    }

    /// Switches the gate (and cuts open connections).
    pub fn set(&self, mode: GateMode) {
        self.mode.send_replace(mode);
    }
}
