//! The `TestApp` builder: an in-process Rocket client over a fresh database per test (SQLite in
//! a temp dir, or a new PostgreSQL database when `VMARKET_TEST_DATABASE_URL` is set), seeded
//! with the demo data and driven by a manual clock. Each test's database is a copy of a template
//! migrated and seeded once per test binary ([`db_template`]).

pub mod actors;
pub mod auth;
pub mod circles;
pub mod db_template;
pub mod entries;
pub mod fake_remote;
pub mod fakes;
pub mod html;
pub mod http;
pub mod images;
pub mod localstripe;
pub mod moto;
pub mod payments;
pub mod smtp_sink;
pub mod sources;
pub mod sql;

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use rocket::figment::Figment;
use rocket::http::{Cookie, Header};
use rocket::local::asynchronous::{Client, LocalResponse};
use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::Value;
use vmarket::app::{self, AppParts};
use vmarket::clock::Clock;
use vmarket::config::Config;
use vmarket::db;

use self::db_template::Contents;

/// The instant tests run at unless they say otherwise: 2026-11-21 12:00 JST, during the
/// submission phase of the demo's current event (2026Winter).
pub fn default_now() -> DateTime<Utc> {
    at("2026-11-21T03:00:00Z")
}

/// Parses an RFC 3339 instant.
pub fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).expect("valid RFC 3339 in a test").to_utc()
}

/// A change to the test configuration.
type ConfigHook = Box<dyn FnOnce(&mut Config)>;

/// Builds a [`TestApp`].
pub struct TestAppBuilder {
    now: DateTime<Utc>,
    seed: bool,
    dist_dir: Option<PathBuf>,
    live: bool,
    hooks: Vec<ConfigHook>,
}

impl TestAppBuilder {
    /// Runs the app with its clock at `now`.
    pub fn at(mut self, now: DateTime<Utc>) -> Self {
        self.now = now;
        self
    }

    /// Starts with an empty (migrated) database instead of the demo data.
    pub fn empty(mut self) -> Self {
        self.seed = false;
        self
    }

    /// Uses `dir` as the Vite build directory.
    pub fn dist_dir(mut self, dir: PathBuf) -> Self {
        self.dist_dir = Some(dir);
        self
    }

    /// Also serves the app over real HTTP on a free loopback port, and points the product's
    /// account-service calls (code exchange, JWKS) at it — as in production, over the wire.
    pub fn live(mut self) -> Self {
        self.live = true;
        self
    }

    /// Changes the configuration before the app starts.
    pub fn config(mut self, hook: impl FnOnce(&mut Config) + 'static) -> Self {
        self.hooks.push(Box::new(hook));
        self
    }

    /// Creates the database, seeds it and starts the client.
    pub async fn build(self) -> TestApp {
        init_test_log();
        let tmp = tempfile::tempdir().expect("temp dir");
        // The test's own database, a copy of one migrated (and seeded) once per test binary.
        let contents = if self.seed { Contents::Demo(self.now) } else { Contents::Empty };
        let (url, pg) = match std::env::var("VMARKET_TEST_DATABASE_URL") {
            Ok(admin_url) if !admin_url.is_empty() => {
                let pg = PgDatabase::create(&admin_url, contents).await;
                (pg.url.clone(), Some(pg))
            }
            _ => {
                let file = tmp.path().join("test.db");
                db_template::sqlite_copy(contents, &file).await;
                (format!("sqlite://{}?mode=rwc", file.display()), None)
            }
        };
        let mut conn = db::connect(&url).await.expect("connect to the test database");
        let sql = sql::SqlLog::default();
        sql.attach(&mut conn);
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let dist = self.dist_dir.unwrap_or_else(|| tmp.path().join("no-dist"));
        let port = if self.live { free_port() } else { 0 };
        let mut config = Config {
            database_url: url,
            data_dir: tmp.path().join("data").display().to_string(),
            dist_dir: dist.display().to_string(),
            static_dir: root.join("static").display().to_string(),
            site_url: if self.live { format!("http://127.0.0.1:{port}") } else { "https://vmarket.test".into() },
            // Tests write to the database directly too (as another process would): every request
            // reads the data version, so the render cache never answers with what they changed.
            // `tests/it/render_cache.rs` runs the polling nodes of production.
            data_version_poll_ms: 0,
            ..Config::default()
        };
        for hook in self.hooks {
            hook(&mut config);
        }
        let figment = Figment::from(rocket::Config::debug_default())
            .merge(("log_level", "off"))
            .merge(("template_dir", root.join("templates")))
            .merge(("secret_key", vec![7u8; 64]))
            .merge(("address", "127.0.0.1"))
            .merge(("port", port));
        let clock = Clock::manual(self.now);
        let (mut figment, mut config) = (figment, config);
        let shutdown = if self.live {
            // `free_port` only names a port that was free a moment ago: another test's server (or
            // an outgoing connection) may take it before ours binds. A server that could not bind
            // tries another port; the test waits for its own server's liftoff, never for "some
            // server answers on that port" (which could be the other test's).
            let mut port = port;
            let mut attempt = 0;
            loop {
                let (up, listening) = rocket::tokio::sync::oneshot::channel::<()>();
                let up = std::sync::Mutex::new(Some(up));
                let parts = AppParts {
                    figment: figment.clone(),
                    config: config.clone(),
                    db: conn.clone(),
                    clock: clock.clone(),
                };
                let server = app::build(parts)
                    .expect("app builds")
                    .attach(rocket::fairing::AdHoc::on_liftoff("test liftoff", move |_| {
                        Box::pin(async move {
                            if let Some(up) = up.lock().unwrap().take() {
                                let _ = up.send(());
                            }
                        })
                    }))
                    .ignite()
                    .await
                    .expect("app ignites");
                let shutdown = server.shutdown();
                let launched = rocket::tokio::spawn(async move {
                    // Looking at the error marks it handled (an unhandled one panics on drop).
                    if let Err(e) = server.launch().await {
                        let _ = e.kind();
                    }
                });
                if listening.await.is_ok() {
                    wait_for_port(port).await;
                    break Some(shutdown);
                }
                let _ = launched.await;
                attempt += 1;
                assert!(attempt < 10, "no free port for the live test server after {attempt} tries");
                port = free_port();
                config.site_url = format!("http://127.0.0.1:{port}");
                figment = figment.merge(("port", port));
            }
        } else {
            None
        };
        let parts =
            || AppParts { figment: figment.clone(), config: config.clone(), db: conn.clone(), clock: clock.clone() };
        let client = Client::tracked(app::build(parts()).expect("app builds")).await.expect("valid rocket instance");
        TestApp {
            client,
            clock,
            db: conn,
            origin: config.site_url.clone(),
            config,
            figment,
            shutdown,
            actors: rocket::tokio::sync::OnceCell::new(),
            sql,
            _tmp: tmp,
            _pg: pg,
        }
    }
}

/// A running application for one test.
pub struct TestApp {
    /// The in-process HTTP client.
    pub client: Client,
    /// The application clock; tests move it to change phases.
    pub clock: Clock,
    /// The database the app uses.
    pub db: DatabaseConnection,
    /// The site origin (`http://127.0.0.1:<port>` for live apps).
    pub origin: String,
    shutdown: Option<rocket::Shutdown>,
    /// The configuration the app was built with.
    pub config: Config,
    figment: Figment,
    /// The browser actors send their requests with (see [`actors`]), made on first use.
    actors: rocket::tokio::sync::OnceCell<Client>,
    /// Every SQL statement the app (and the test) ran since the last [`sql::SqlLog::take`].
    pub sql: sql::SqlLog,
    _tmp: tempfile::TempDir,
    _pg: Option<PgDatabase>,
}

/// The mailer and the job queue a settle outside a request (a reconcile a test runs itself)
/// sends its receipt through, as the web process and the workers have them.
pub struct Senders {
    /// Renders and stores mail.
    pub mailer: vmarket::mail::Mailer,
    /// The app's job queue.
    pub queue: vmarket::queue::Queue,
}

impl Senders {
    /// What [`vmarket::payments`] settles with.
    pub fn outbox(&self) -> vmarket::payments::Outbox<'_> {
        vmarket::payments::Outbox { mailer: &self.mailer, queue: &self.queue }
    }
}

impl TestApp {
    /// The app's mailer and job queue (see [`Senders`]).
    pub fn senders(&self) -> Senders {
        Senders {
            mailer: vmarket::mail::Mailer::new(&self.config).expect("mailer"),
            queue: vmarket::queue::Queue::for_db(&self.db).expect("queue"),
        }
    }

    /// A builder with the demo data at [`default_now`].
    pub fn builder() -> TestAppBuilder {
        TestAppBuilder { now: default_now(), seed: true, dist_dir: None, live: false, hooks: Vec::new() }
    }

    /// The demo app at [`default_now`].
    pub async fn new() -> Self {
        Self::builder().build().await
    }

    /// Another browser (its own cookie jar) on the same application and database.
    pub async fn browser(&self) -> Client {
        Client::tracked(self.another_node()).await.expect("valid rocket instance")
    }

    /// The application again, on the same database and clock: another node behind the load
    /// balancer, with an empty memory.
    fn another_node(&self) -> rocket::Rocket<rocket::Build> {
        let parts = AppParts {
            figment: self.figment.clone(),
            config: self.config.clone(),
            db: self.db.clone(),
            clock: self.clock.clone(),
        };
        app::build(parts).expect("app builds")
    }

    /// Waits until the lists the event tree started loading in the background (an event's
    /// catalogue and hub notifications in memory) are held: the requests after it answer from
    /// memory.
    pub async fn lists_held(&self) {
        self.client.rocket().state::<vmarket::model::tree::Trees>().expect("the trees are managed").settled().await;
    }

    /// GETs `path`.
    pub async fn get(&self, path: &str) -> LocalResponse<'_> {
        self.client.get(path.to_string()).dispatch().await
    }

    /// GETs `path` with the manual-locale cookie set to `lang`.
    pub async fn get_with_locale(&self, path: &str, lang: &str) -> LocalResponse<'_> {
        self.client
            .get(path.to_string())
            .cookie(Cookie::new("VUEI18N_MANUAL_LOCALE", lang.to_string()))
            .dispatch()
            .await
    }

    /// GETs `path` as a crawler would.
    pub async fn get_as_crawler(&self, path: &str) -> LocalResponse<'_> {
        self.client
            .get(path.to_string())
            .header(Header::new(
                "User-Agent",
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            ))
            .dispatch()
            .await
    }

    /// GETs `path` and parses the JSON body, returning the status code too.
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        let res = self.get(path).await;
        let status = res.status().code;
        let body = res.into_string().await.unwrap_or_default();
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path} is not JSON ({e}): {body}")))
    }

    /// POSTs `body` as JSON to `path`; returns the status, the `Retry-After` header and the
    /// parsed body.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Option<String>, Value) {
        let res = self
            .client
            .post(path.to_string())
            .header(rocket::http::ContentType::JSON)
            .body(body.to_string())
            .dispatch()
            .await;
        let status = res.status().code;
        let retry_after = res.headers().get_one("Retry-After").map(str::to_string);
        let text = res.into_string().await.unwrap_or_default();
        (
            status,
            retry_after,
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON ({e}): {text}")),
        )
    }

    /// Starts the background workers against this app's database, as `vmarket worker` does: a
    /// pool of their own (a worker stopped while a task of its was inside a transaction cannot
    /// leave a connection of the test's pool in that transaction).
    pub async fn start_workers(&self) -> vmarket::workers::Workers {
        let db = vmarket::db::connect(&self.config.database_url).await.expect("the workers' pool");
        let ctx = vmarket::queue::JobContext::new(db, self.config.clone(), self.clock.clone()).expect("job context");
        vmarket::workers::start(ctx).await.expect("workers start")
    }

    /// GETs a page and returns its status and HTML.
    pub async fn page(&self, path: &str) -> (u16, String) {
        let res = self.get(path).await;
        (res.status().code, res.into_string().await.unwrap_or_default())
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.notify();
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

async fn wait_for_port(port: u16) {
    for _ in 0..200 {
        if rocket::tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return;
        }
        rocket::tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the live test server did not start on port {port}");
}

/// A throwaway PostgreSQL database, dropped when the test ends.
struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PgDatabase {
    async fn create(admin_url: &str, contents: Contents) -> Self {
        let name = format!("vmarket_test_{}_{}", std::process::id(), rand_suffix());
        let admin = db::connect(admin_url).await.expect("connect to VMARKET_TEST_DATABASE_URL");
        db_template::pg_create(&admin, admin_url, &name, contents).await;
        admin.close().await.ok();
        Self { admin_url: admin_url.to_string(), url: db_template::database_url(admin_url, &name), name }
    }
}

fn rand_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    format!("{nanos:x}")
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime; use a fresh one on a plain thread.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            rt.block_on(async {
                let admin = db::connect(&admin_url).await.ok()?;
                admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).await.ok()?;
                admin.close().await.ok()
            })
        })
        .join();
    }
}

/// Sends the product's log to the test's captured output when `VMARKET_TEST_LOG` names a filter
/// (e.g. `vmarket=error` to see why a request answered 500; nextest prints a test's output only
/// when it fails). Off by default: tests that capture the log themselves install their own.
fn init_test_log() {
    let Ok(filter) = std::env::var("VMARKET_TEST_LOG") else { return };
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init();
}
