//! Link previews (spec §7 `GET /api/ogp`): fetches a page on the user's behalf and reads its
//! Open Graph title and image, safely. Every hop's URL passes [`policy::Policy`], every host
//! name is resolved and vetted by [`resolver::VettedResolver`] (the only resolver the HTTP
//! client has), redirects are followed by hand (at most [`MAX_REDIRECTS`]), the body is read
//! incrementally up to [`MAX_BODY_BYTES`], and the whole fetch has one time budget.

pub mod html;
pub mod ip;
pub mod policy;
pub mod resolver;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use url::Url;

use crate::config::Config;
use crate::error::Error;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;
use crate::model::link_preview::LinkPreview;
use html::PageMeta;
use policy::{Policy, Refusal};
use resolver::{LookupError, VettedResolver};

/// Redirects followed before giving up.
pub const MAX_REDIRECTS: usize = 5;
/// Bytes of a page read at most; the rest is never downloaded.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The result of fetching a page.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The HTTP status of the last response (after redirects).
    pub status: u16,
    /// Title and image; empty unless the page answered 2xx with HTML.
    pub meta: PageMeta,
}

impl From<Fetched> for LinkPreview {
    fn from(f: Fetched) -> Self {
        Self { title: f.meta.title, image: f.meta.image, status: f.status }
    }
}

/// Why a requested URL is not fetched at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// Missing, too long, or not an absolute URL.
    Invalid,
    /// A well-formed URL that policy refuses.
    Refused(Refusal),
}

/// Why a fetch produced no result.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// A hop's URL or a resolved address is not allowed.
    #[error("refused: {0}")]
    Refused(#[from] Refusal),
    /// More than [`MAX_REDIRECTS`] redirects.
    #[error("too many redirects")]
    TooManyRedirects,
    /// The time budget ran out.
    #[error("timed out")]
    Timeout,
    /// DNS, connection or protocol failure.
    #[error("unreachable: {0}")]
    Unreachable(String),
}

impl From<FetchError> for Error {
    fn from(e: FetchError) -> Self {
        match e {
            FetchError::Refused(reason) => {
                tracing::info!(%reason, "link preview refused");
                Error::Refused { code: "url_not_allowed" }
            }
            FetchError::TooManyRedirects => Error::BadGateway { code: "too_many_redirects" },
            FetchError::Timeout => Error::GatewayTimeout,
            FetchError::Unreachable(why) => {
                tracing::info!(%why, "link preview fetch failed");
                Error::BadGateway { code: "upstream_unreachable" }
            }
        }
    }
}

/// The link preview service: one HTTP client, the URL policy and the per-IP rate limiter,
/// built once and kept as managed state.
pub struct LinkPreviewer {
    client: reqwest::Client,
    policy: Arc<Policy>,
    limiter: Limiter<IpAddr>,
    timeout: Duration,
    /// How long a result may be served from the cache.
    pub cache_ttl: chrono::Duration,
}

impl LinkPreviewer {
    /// Builds the service from the `link_preview_*` configuration keys.
    pub fn new(config: &Config, db: &sea_orm::DatabaseConnection) -> Result<Self, reqwest::Error> {
        let policy = Arc::new(Policy::new(&config.link_preview_allowed_hosts));
        let timeout = Duration::from_millis(config.link_preview_timeout_ms.max(1));
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(VettedResolver::new(policy.clone()))
            .connect_timeout(timeout)
            .timeout(timeout)
            .user_agent(concat!("vmarket-linkpreview/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self {
            client,
            policy,
            limiter: Limiter::per_minute(db, "link_preview", config.link_preview_per_minute),
            timeout,
            cache_ttl: chrono::Duration::seconds(config.link_preview_cache_secs.max(0)),
        })
    }

    /// Counts one request from `client`; `RateLimited` says when the next one may succeed.
    pub async fn admit(&self, client: ClientIp) -> Result<(), crate::error::Error> {
        self.limiter.check(&client.limit_key()).await
    }

    /// Parses the requested URL (without its fragment) and checks it against the policy.
    pub fn parse(&self, raw: &str) -> Result<Url, UrlError> {
        let raw = raw.trim();
        if raw.is_empty() || raw.len() > policy::MAX_URL_LEN {
            return Err(UrlError::Invalid);
        }
        let mut url = Url::parse(raw).map_err(|_| UrlError::Invalid)?;
        url.set_fragment(None);
        self.policy.check(&url).map_err(UrlError::Refused)?;
        Ok(url)
    }

    /// Fetches `url`, following up to [`MAX_REDIRECTS`] redirects, within the time budget.
    pub async fn fetch(&self, url: Url) -> Result<Fetched, FetchError> {
        tokio::time::timeout(self.timeout, self.follow(url)).await.map_err(|_| FetchError::Timeout)?
    }

    async fn follow(&self, mut url: Url) -> Result<Fetched, FetchError> {
        for hop in 0..=MAX_REDIRECTS {
            self.policy.check(&url)?;
            let res = self
                .client
                .get(url.clone())
                .header(ACCEPT, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
                .send()
                .await
                .map_err(classify)?;
            let next = res.status().is_redirection().then(|| location(&res, &url)).flatten();
            match next {
                Some(_) if hop == MAX_REDIRECTS => return Err(FetchError::TooManyRedirects),
                Some(next) => url = next,
                None => return read_page(res, &url).await,
            }
        }
        Err(FetchError::TooManyRedirects)
    }
}

/// The absolute target of a redirect, if it has a usable `Location`.
fn location(res: &reqwest::Response, base: &Url) -> Option<Url> {
    let raw = res.headers().get(LOCATION)?.to_str().ok()?;
    let mut next = base.join(raw).ok()?;
    next.set_fragment(None);
    Some(next)
}

/// Reads the title and image of a final response: only 2xx HTML, only the first
/// [`MAX_BODY_BYTES`] bytes (the connection is dropped after that).
async fn read_page(mut res: reqwest::Response, url: &Url) -> Result<Fetched, FetchError> {
    let status = res.status().as_u16();
    let content_type = res.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let is_html = content_type.as_deref().is_some_and(|ct| {
        let essence = ct.split(';').next().unwrap_or_default().trim();
        essence.eq_ignore_ascii_case("text/html") || essence.eq_ignore_ascii_case("application/xhtml+xml")
    });
    if !res.status().is_success() || !is_html {
        return Ok(Fetched { status, meta: PageMeta::default() });
    }
    let mut body = Vec::new();
    while body.len() < MAX_BODY_BYTES {
        match res.chunk().await.map_err(classify)? {
            Some(chunk) => body.extend_from_slice(&chunk[..chunk.len().min(MAX_BODY_BYTES - body.len())]),
            None => break,
        }
    }
    drop(res);
    Ok(Fetched { status, meta: html::extract(&body, content_type.as_deref(), url) })
}

/// Maps a client error, finding a refusal by the resolver in its source chain.
fn classify(err: reqwest::Error) -> FetchError {
    if err.is_timeout() {
        return FetchError::Timeout;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    while let Some(e) = source {
        if let Some(LookupError::Refused(reason)) = e.downcast_ref::<LookupError>() {
            return FetchError::Refused(reason.clone());
        }
        source = e.source();
    }
    FetchError::Unreachable(error_chain(&err))
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
