//! Every setting the application reads, with its default.

use serde::{Deserialize, Serialize};

use crate::config::values::{Environment, Secret, SmtpUrl};

/// Everything the application reads from configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// `sqlite://…` (embedded default) or `postgres://…`.
    #[serde(default = "default_database_url")]
    pub database_url: String,
    /// Where the SQLite file, uploaded objects and keys live.
    #[serde(default = "default_data_dir")]
    pub data_dir: String,
    /// Base URL of the account service; empty means this server's own `/account`.
    #[serde(default)]
    pub sso_domain: String,
    /// Base URL of the product API as the browser sees it.
    #[serde(default = "default_api_base_url")]
    pub api_base_url: String,
    /// Public origin of the site, used for canonical and alternate links.
    #[serde(default = "default_site_url")]
    pub site_url: String,
    /// Sentry DSN; error reporting is off when empty.
    #[serde(default)]
    pub sentry_dsn: String,
    /// Sentry DSN of the browser project (the widgets and the console report page errors to it,
    /// scrubbed); browser error reporting is off when empty. A DSN is public by design: the
    /// pages carry it.
    #[serde(default)]
    pub sentry_browser_dsn: String,
    /// Deployment environment.
    #[serde(default)]
    pub environment: Environment,
    /// The receipts' issuer (qualified invoices), in Japanese.
    #[serde(default = "default_invoice_issuer_ja")]
    pub invoice_issuer_name_ja: String,
    /// The receipts' issuer, in English.
    #[serde(default = "default_invoice_issuer_en")]
    pub invoice_issuer_name_en: String,
    /// The issuer's invoice registration number (適格請求書発行事業者登録番号): `T` and 13 digits.
    /// The default is the demo's (all zeros): a deployment sets its own.
    #[serde(default = "default_invoice_registration_number")]
    pub invoice_registration_number: String,
    /// The font file PDF receipts are set in (one that covers Japanese; a collection's Japanese
    /// face is used). Empty: Noto Sans CJK JP or IPAex Gothic where Debian installs them; with
    /// neither, PDF receipts are off (`receipts::font`).
    #[serde(default)]
    pub receipt_font: String,
    /// Origins besides `site_url` that the account service may redirect back to.
    #[serde(default)]
    pub sso_allowed_origins: Vec<String>,
    /// Sign-in and sign-up attempts allowed per client IP and minute.
    #[serde(default = "default_sign_in_per_minute")]
    pub sign_in_per_minute: u32,
    /// Sign-in attempts allowed per account (email) and hour, from anywhere.
    #[serde(default = "default_sign_in_per_account_per_hour")]
    pub sign_in_per_account_per_hour: u32,
    /// Networks (CIDR) of the load balancers whose `X-Forwarded-For` / `X-Real-IP` headers are
    /// believed; empty = no header is, the client is the TCP peer.
    #[serde(default)]
    pub trusted_proxies: Vec<String>,
    /// Where uploaded files go: empty for `{data_dir}/objects`, or an `s3://bucket/prefix` URL
    /// (credentials from the usual `AWS_*` environment variables).
    #[serde(default)]
    pub object_store_url: String,
    /// Options of the object store over the `AWS_*` environment variables, by their lower-case
    /// names (`aws_endpoint`, `aws_region`, `aws_access_key_id`, `aws_secret_access_key`,
    /// `aws_allow_http`, `aws_virtual_hosted_style_request`, …); values never print.
    #[serde(default)]
    pub object_store_options: std::collections::BTreeMap<String, Secret>,
    /// Public base URL of the asset uploader API (spec §7, a "separate base"); empty:
    /// `{site_url}/uploader`.
    #[serde(default)]
    pub uploader_base_url: String,
    /// Download-token checks per client IP and minute (429 with `Retry-After` beyond).
    #[serde(default = "default_asset_download_per_minute")]
    pub asset_download_per_minute: u32,
    /// Device grants opened, and user codes typed, per client IP and minute each (the in-game
    /// sign-in; 429 with `Retry-After` beyond).
    #[serde(default = "default_ingame_codes_per_minute")]
    pub ingame_codes_per_minute: u32,
    /// In-game chat messages one player may post per minute (a burst of this many, refilled
    /// over the minute; 429 with `Retry-After` beyond).
    #[serde(default = "default_ingame_chat_per_minute")]
    pub ingame_chat_per_minute: u32,
    /// How often each node's chat hub reads new chat messages (ms): a message posted on another
    /// node reaches this node's streams within this; one posted here reaches them at once.
    #[serde(default = "default_ingame_chat_poll_ms")]
    pub ingame_chat_poll_ms: u64,
    /// Chat streams one player may hold open on one node (429 with `Retry-After` beyond).
    #[serde(default = "default_ingame_chat_streams_per_player")]
    pub ingame_chat_streams_per_player: usize,
    /// MiB of decoded images all uploads together may hold at once (at least 128: one 4096 px
    /// RGBA image and its working copy); further uploads wait for their share.
    #[serde(default = "default_image_decode_budget_mib")]
    pub image_decode_budget_mib: u32,
    /// Directory with the Vite build output (`widgets/` and `admin/`).
    #[serde(default = "default_dist_dir")]
    pub dist_dir: String,
    /// Directory served under `/static`.
    #[serde(default = "default_static_dir")]
    pub static_dir: String,
    /// Exact `host:port` entries the link preview may fetch even though they resolve to a
    /// private or loopback address (an intranet page, a test server). Empty by default.
    #[serde(default)]
    pub link_preview_allowed_hosts: Vec<String>,
    /// Total time budget of one link preview (every redirect hop and the body), in milliseconds.
    #[serde(default = "default_link_preview_timeout_ms")]
    pub link_preview_timeout_ms: u64,
    /// Link previews one client IP may request per minute (burst and sustained rate).
    #[serde(default = "default_link_preview_per_minute")]
    pub link_preview_per_minute: u32,
    /// How long a fetched link preview is served from the cache, in seconds.
    #[serde(default = "default_link_preview_cache_secs")]
    pub link_preview_cache_secs: i64,
    /// Jira Cloud/Server base URL for inquiry issues (`https://example.atlassian.net`); empty = Jira off.
    #[serde(default)]
    pub jira_base_url: String,
    /// Jira user (email) for basic auth.
    #[serde(default)]
    pub jira_user: String,
    /// Jira API token; empty = Jira off.
    #[serde(default)]
    pub jira_api_token: Secret,
    /// How many times an inquiry is tried per target before it is marked `failed`.
    #[serde(default = "default_inquiry_max_attempts")]
    pub inquiry_max_attempts: u32,
    /// Inquiries one client IP may send per minute (API and form together).
    #[serde(default = "default_inquiry_rate_per_minute")]
    pub inquiry_rate_per_minute: u32,
    /// First retry delay of a background job, doubled on every further failure (max 6 h).
    #[serde(default = "default_job_retry_base_secs")]
    pub job_retry_base_secs: u64,
    /// How often idle workers look for due jobs, in milliseconds.
    #[serde(default = "default_job_poll_interval_ms")]
    pub job_poll_interval_ms: u64,
    /// Timeout of one outgoing network call made by a job (Slack, Jira, SMTP), in seconds.
    #[serde(default = "default_job_http_timeout_secs")]
    pub job_http_timeout_secs: u64,
    /// Where mails go: empty = `.eml` files under `{data_dir}/outbox`; otherwise an SMTP URL
    /// (`smtp://host:port`, `smtp://user:pass@host?tls=required`, `smtps://user:pass@host`; see
    /// `crate::config::mail`). May hold a password, so it never prints.
    #[serde(default)]
    pub smtp_url: SmtpUrl,
    /// The `From` of every mail (`Name <address>` or an address); empty = a development default,
    /// which staging and production refuse when mail goes over SMTP.
    #[serde(default)]
    pub mail_from: String,
    /// How many times a mail is tried before it is marked `failed`.
    #[serde(default = "default_mail_max_attempts")]
    pub mail_max_attempts: u32,
    /// The most members a circle may have, its owner included.
    #[serde(default = "default_circle_member_cap")]
    pub circle_member_cap: u32,
    /// Member searches (exact vmarket ID) one signed-in user may make per minute.
    #[serde(default = "default_circle_user_search_per_minute")]
    pub circle_user_search_per_minute: u32,
    /// Stripe's API base URL (a fake such as localstripe in tests and the demo).
    #[serde(default = "default_stripe_api_base")]
    pub stripe_api_base: String,
    /// Stripe secret key (`sk_…`); empty = Stripe is not offered. No default outside tests.
    #[serde(default)]
    pub stripe_secret_key: Secret,
    /// Stripe publishable key (`pk_…`), for Stripe.js in the payer's browser; empty = Stripe is
    /// not offered (a card cannot be taken without it).
    #[serde(default)]
    pub stripe_publishable_key: String,
    /// Where the payment page loads Stripe.js from (a fake such as localstripe's
    /// `http://host:port/js.stripe.com/v3/` in tests and the demo). The page's
    /// Content-Security-Policy allows this URL's origin, on that page only.
    #[serde(default = "default_stripe_js_url")]
    pub stripe_js_url: String,
    /// Webhook endpoint secrets (`whsec_…`): every one listed verifies, so a rotation lists the
    /// new and the old secret until the old one is retired.
    #[serde(default)]
    pub stripe_webhook_secrets: Vec<Secret>,
    /// Timeout of one payment provider call (ms); a call that times out has an unknown outcome
    /// and is reconciled by asking the provider, never repeated blindly.
    #[serde(default = "default_payment_timeout_ms")]
    pub payment_timeout_ms: u64,
    /// Serve anonymous GETs of public pages and public lists from the render cache (DOMAIN.md
    /// "Caching public pages"); off renders every request.
    #[serde(default = "default_render_cache")]
    pub render_cache: bool,
    /// MiB of rendered pages (and their compressed forms) the render cache may hold.
    #[serde(default = "default_render_cache_mib")]
    pub render_cache_mib: u32,
    /// MiB the catalogues and hub notifications held in memory may take, per data version (the
    /// lists and their keyword search are answered from memory; an event's list that does not
    /// fit is read from the database).
    #[serde(default = "default_list_memory_mib")]
    pub list_memory_mib: u32,
    /// How often each node reads the data version (ms): another node's write shows within this.
    /// 0 reads it on every request instead (one statement each).
    #[serde(default = "default_data_version_poll_ms")]
    pub data_version_poll_ms: u64,
    /// `max-age` of shareable answers (anonymous public pages and lists), in seconds: how long
    /// a browser may reuse one without asking. 0 (the default) makes it ask every time — an
    /// `ETag` makes that a `304` — so a visitor who signs in never sees a copy from before.
    #[serde(default)]
    pub cache_max_age_secs: u32,
    /// `s-maxage` of shareable answers, in seconds: how long a shared cache (Varnish, a CDN) may
    /// serve one. Writes purge sooner (`cache_purge_urls`); it is cut to the next phase change
    /// of the event tree, to one second on pages that show the time, and to the next minute
    /// while staff have moved the clock.
    #[serde(default = "default_cache_s_maxage_secs")]
    pub cache_s_maxage_secs: u32,
    /// `stale-while-revalidate` of shareable answers, in seconds: how long a shared cache may
    /// keep serving a copy past its `s-maxage` while it fetches a new one.
    #[serde(default = "default_cache_stale_while_revalidate_secs")]
    pub cache_stale_while_revalidate_secs: u32,
    /// Shared caches to invalidate when the data version changes or the clock is moved: base
    /// URLs that answer `PURGE` with an `xkey-purge` header (Varnish with xkey, see
    /// `deploy/varnish/default.vcl`). Empty: nothing to tell.
    #[serde(default)]
    pub cache_purge_urls: Vec<String>,
    /// PayPal's REST API base URL (`https://api-m.sandbox.paypal.com` for the sandbox; a fake in
    /// tests and the demo).
    #[serde(default = "default_paypal_api_base")]
    pub paypal_api_base: String,
    /// The origin of PayPal's pages the payer approves on (`https://www.sandbox.paypal.com` for
    /// the sandbox): the only place besides GMO's a payment redirect may send a browser.
    #[serde(default = "default_paypal_web_base")]
    pub paypal_web_base: String,
    /// PayPal REST app client id; empty = PayPal is not offered. No default outside tests.
    #[serde(default)]
    pub paypal_client_id: String,
    /// PayPal REST app secret (never printed); empty = PayPal is not offered.
    #[serde(default)]
    pub paypal_client_secret: Secret,
    /// The id PayPal gave the webhook registered for `/api/v1/payment/paypal/webhook`; empty =
    /// that endpoint answers 404.
    #[serde(default)]
    pub paypal_webhook_id: String,
    /// GMO Payment Gateway's API base URL (`https://pt01.mul-pay.jp` test, `https://p01.mul-pay.jp`
    /// production).
    #[serde(default = "default_gmo_api_base")]
    pub gmo_api_base: String,
    /// The origin of GMO's link-type Plus payment pages (`https://stg.link.mul-pay.jp` test,
    /// `https://link.mul-pay.jp` production).
    #[serde(default = "default_gmo_link_base")]
    pub gmo_link_base: String,
    /// GMO shop id (`tshop…` / `shop…`); empty = GMO is not offered. No default outside tests.
    #[serde(default)]
    pub gmo_shop_id: String,
    /// GMO shop password (never printed); empty = GMO is not offered.
    #[serde(default)]
    pub gmo_shop_pass: Secret,
    /// The link-type Plus configuration id (`configid`) set up in GMO's console; empty = GMO's
    /// default screen settings.
    #[serde(default)]
    pub gmo_config_id: String,
    /// The providers are the local demo fakes of `make run` (`scripts/demo-providers`): every
    /// page names them "demo". Refused in production.
    #[serde(default)]
    pub payment_demo_providers: bool,
    /// VRChat's web API base URL (a fake, `scripts/fakes/vrchat.py`, in tests and the demo).
    #[serde(default = "default_vrchat_api_base")]
    pub vrchat_api_base: String,
    /// The session cookie (`auth=…`'s value) of the service account vmarket reads VRChat profiles
    /// with (never printed); empty = linking VRChat accounts is not offered.
    #[serde(default)]
    pub vrchat_auth_cookie: Secret,
    /// How long a call to VRChat may take, in milliseconds (at least 100).
    #[serde(default = "default_vrchat_timeout_ms")]
    pub vrchat_timeout_ms: u64,
    /// Where a user edits their VRChat bio (the profile page; `{id}` is their VRChat id). The
    /// demo points it at the fake's page.
    #[serde(default = "default_vrchat_profile_url")]
    pub vrchat_profile_url: String,
    /// Yen a `new` VRChat avatar order costs (0 or more; 0 = free, no payment).
    #[serde(default = "default_vrchat_avatar_price_new")]
    pub vrchat_avatar_price_new: i32,
    /// Yen an `update` VRChat avatar order costs (0 or more).
    #[serde(default = "default_vrchat_avatar_price_update")]
    pub vrchat_avatar_price_update: i32,
    /// How many box submissions one user may hold (1–100; spec §3 `submissionLimitAmount`).
    #[serde(default = "default_box_submission_limit")]
    pub box_submission_limit: i32,
    /// Uploads to VRChat a `new` order buys (at least 1).
    #[serde(default = "default_vrchat_avatar_uploads_new")]
    pub vrchat_avatar_uploads_new: i32,
    /// Uploads to VRChat an `update` order adds (at least 1).
    #[serde(default = "default_vrchat_avatar_uploads_update")]
    pub vrchat_avatar_uploads_update: i32,
    /// The key converter workers send (`Authorization: Bearer …`; never printed); empty = the
    /// converter API answers 501 and avatar orders are not offered.
    #[serde(default)]
    pub converter_worker_key: Secret,
}

fn default_database_url() -> String {
    "sqlite://data/vmarket.db?mode=rwc".into()
}
fn default_data_dir() -> String {
    "data".into()
}
fn default_api_base_url() -> String {
    "/api/v1".into()
}
fn default_invoice_issuer_ja() -> String {
    "バーチャルマーケット運営事務局（デモ）".into()
}
fn default_invoice_issuer_en() -> String {
    "Virtual Market Office (demo)".into()
}
/// The demo's registration number (no real issuer's).
fn default_invoice_registration_number() -> String {
    "T0000000000000".into()
}
fn default_site_url() -> String {
    "http://127.0.0.1:8000".into()
}
fn default_sign_in_per_minute() -> u32 {
    10
}
fn default_sign_in_per_account_per_hour() -> u32 {
    20
}
fn default_ingame_codes_per_minute() -> u32 {
    10
}
fn default_ingame_chat_per_minute() -> u32 {
    20
}
fn default_ingame_chat_poll_ms() -> u64 {
    200
}
fn default_ingame_chat_streams_per_player() -> usize {
    4
}

fn default_asset_download_per_minute() -> u32 {
    20
}

fn default_image_decode_budget_mib() -> u32 {
    192
}
fn default_dist_dir() -> String {
    "static/dist".into()
}
fn default_static_dir() -> String {
    "static".into()
}
fn default_link_preview_timeout_ms() -> u64 {
    5_000
}
fn default_link_preview_per_minute() -> u32 {
    30
}
fn default_link_preview_cache_secs() -> i64 {
    3_600
}
fn default_inquiry_max_attempts() -> u32 {
    8
}
fn default_inquiry_rate_per_minute() -> u32 {
    5
}
fn default_job_retry_base_secs() -> u64 {
    30
}
fn default_job_poll_interval_ms() -> u64 {
    1000
}
fn default_job_http_timeout_secs() -> u64 {
    10
}
fn default_mail_max_attempts() -> u32 {
    12
}
fn default_circle_member_cap() -> u32 {
    10
}
fn default_circle_user_search_per_minute() -> u32 {
    20
}

fn default_stripe_api_base() -> String {
    "https://api.stripe.com".into()
}
fn default_stripe_js_url() -> String {
    "https://js.stripe.com/v3/".into()
}
fn default_payment_timeout_ms() -> u64 {
    10_000
}
fn default_render_cache() -> bool {
    true
}
fn default_render_cache_mib() -> u32 {
    32
}
fn default_list_memory_mib() -> u32 {
    64
}
fn default_data_version_poll_ms() -> u64 {
    500
}
fn default_cache_s_maxage_secs() -> u32 {
    60
}
fn default_cache_stale_while_revalidate_secs() -> u32 {
    30
}
fn default_paypal_api_base() -> String {
    "https://api-m.paypal.com".into()
}
fn default_paypal_web_base() -> String {
    "https://www.paypal.com".into()
}
fn default_gmo_api_base() -> String {
    "https://p01.mul-pay.jp".into()
}
fn default_gmo_link_base() -> String {
    "https://link.mul-pay.jp".into()
}
fn default_vrchat_api_base() -> String {
    "https://api.vrchat.cloud/api/1".into()
}
fn default_vrchat_timeout_ms() -> u64 {
    10_000
}
fn default_vrchat_avatar_price_new() -> i32 {
    1500
}
fn default_vrchat_avatar_price_update() -> i32 {
    500
}
/// How many box submissions a user may hold (spec §3 `submissionLimitAmount`) unless
/// `box_submission_limit` says otherwise.
pub const DEFAULT_BOX_SUBMISSION_LIMIT: i32 = 3;
fn default_box_submission_limit() -> i32 {
    DEFAULT_BOX_SUBMISSION_LIMIT
}
fn default_vrchat_avatar_uploads_new() -> i32 {
    3
}
fn default_vrchat_avatar_uploads_update() -> i32 {
    1
}
fn default_vrchat_profile_url() -> String {
    "https://vrchat.com/home/user/{id}".into()
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: default_database_url(),
            data_dir: default_data_dir(),
            sso_domain: String::new(),
            api_base_url: default_api_base_url(),
            site_url: default_site_url(),
            sentry_dsn: String::new(),
            sentry_browser_dsn: String::new(),
            environment: Environment::default(),
            invoice_issuer_name_ja: default_invoice_issuer_ja(),
            invoice_issuer_name_en: default_invoice_issuer_en(),
            invoice_registration_number: default_invoice_registration_number(),
            receipt_font: String::new(),
            sso_allowed_origins: Vec::new(),
            sign_in_per_minute: default_sign_in_per_minute(),
            sign_in_per_account_per_hour: default_sign_in_per_account_per_hour(),
            trusted_proxies: Vec::new(),
            object_store_url: String::new(),
            object_store_options: Default::default(),
            uploader_base_url: String::new(),
            asset_download_per_minute: default_asset_download_per_minute(),
            ingame_codes_per_minute: default_ingame_codes_per_minute(),
            ingame_chat_per_minute: default_ingame_chat_per_minute(),
            ingame_chat_poll_ms: default_ingame_chat_poll_ms(),
            ingame_chat_streams_per_player: default_ingame_chat_streams_per_player(),
            image_decode_budget_mib: default_image_decode_budget_mib(),
            dist_dir: default_dist_dir(),
            static_dir: default_static_dir(),
            link_preview_allowed_hosts: Vec::new(),
            link_preview_timeout_ms: default_link_preview_timeout_ms(),
            link_preview_per_minute: default_link_preview_per_minute(),
            link_preview_cache_secs: default_link_preview_cache_secs(),
            jira_base_url: String::new(),
            jira_user: String::new(),
            jira_api_token: Secret::default(),
            inquiry_max_attempts: default_inquiry_max_attempts(),
            inquiry_rate_per_minute: default_inquiry_rate_per_minute(),
            job_retry_base_secs: default_job_retry_base_secs(),
            job_poll_interval_ms: default_job_poll_interval_ms(),
            job_http_timeout_secs: default_job_http_timeout_secs(),
            smtp_url: SmtpUrl::default(),
            mail_from: String::new(),
            mail_max_attempts: default_mail_max_attempts(),
            circle_member_cap: default_circle_member_cap(),
            circle_user_search_per_minute: default_circle_user_search_per_minute(),
            stripe_api_base: default_stripe_api_base(),
            stripe_secret_key: Secret::default(),
            stripe_publishable_key: String::new(),
            stripe_js_url: default_stripe_js_url(),
            stripe_webhook_secrets: Vec::new(),
            payment_timeout_ms: default_payment_timeout_ms(),
            render_cache: default_render_cache(),
            render_cache_mib: default_render_cache_mib(),
            list_memory_mib: default_list_memory_mib(),
            data_version_poll_ms: default_data_version_poll_ms(),
            cache_max_age_secs: 0,
            cache_s_maxage_secs: default_cache_s_maxage_secs(),
            cache_stale_while_revalidate_secs: default_cache_stale_while_revalidate_secs(),
            cache_purge_urls: Vec::new(),
            paypal_api_base: default_paypal_api_base(),
            paypal_web_base: default_paypal_web_base(),
            paypal_client_id: String::new(),
            paypal_client_secret: Secret::default(),
            paypal_webhook_id: String::new(),
            gmo_api_base: default_gmo_api_base(),
            gmo_link_base: default_gmo_link_base(),
            gmo_shop_id: String::new(),
            gmo_shop_pass: Secret::default(),
            gmo_config_id: String::new(),
            payment_demo_providers: false,
            vrchat_api_base: default_vrchat_api_base(),
            vrchat_auth_cookie: Secret::default(),
            vrchat_timeout_ms: default_vrchat_timeout_ms(),
            vrchat_profile_url: default_vrchat_profile_url(),
            vrchat_avatar_price_new: default_vrchat_avatar_price_new(),
            vrchat_avatar_price_update: default_vrchat_avatar_price_update(),
            box_submission_limit: default_box_submission_limit(),
            vrchat_avatar_uploads_new: default_vrchat_avatar_uploads_new(),
            vrchat_avatar_uploads_update: default_vrchat_avatar_uploads_update(),
            converter_worker_key: Secret::default(),
        }
    }
}
