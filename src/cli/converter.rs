//! `vmarket converter`: the reference converter worker (issue 31 item 4). It speaks the
//! converter protocol (`crate::store::api::converter`) to a vmarket server over HTTP, as any
//! converter service would: it claims `convert` steps, fetches each avatar, does what this
//! machine can ([`crate::store::vrchat::convert`]: validate the VRM, write a normalised GLB) and
//! delivers the result — or reports why the file cannot be converted. It never claims an
//! `upload` step: it cannot build VRChat's asset bundle nor reach VRChat, so avatars it
//! converted wait in `converted` for a worker that can. No database, no configuration file:
//! the server's address, the worker key and a name.

use std::time::Duration;

use clap::Args;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::assets::analyse::Limits;
use crate::store::vrchat::convert::convert;

/// The largest avatar the reference converter fetches.
const SOURCE_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// `vmarket converter`
#[derive(Debug, Args)]
pub struct ConverterArgs {
    /// The vmarket server (its site URL, e.g. http://127.0.0.1:8000).
    #[arg(long, env = "VMARKET_CONVERTER_API")]
    pub api: String,
    /// The worker key (the server's `converter_worker_key`).
    #[arg(long, env = "VMARKET_CONVERTER_KEY", hide_env_values = true)]
    pub key: String,
    /// This worker's name (letters, digits, `.`, `_`, `-`).
    #[arg(long, default_value = "reference")]
    pub name: String,
    /// Work until no step is waiting, then exit (instead of polling forever).
    #[arg(long)]
    pub once: bool,
    /// Seconds between polls when nothing is waiting.
    #[arg(long, default_value_t = 5)]
    pub poll_secs: u64,
}

/// What one job came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// Converted and delivered (bytes of the result).
    Converted(usize),
    /// Refused, with the code reported.
    Refused(String),
}

/// Runs the worker; returns what it did when `--once` finds nothing more to do.
pub async fn run(args: &ConverterArgs) -> Result<Vec<(String, Done)>, String> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .map_err(|e| format!("http client: {e}"))?;
    let base = args.api.trim_end_matches('/').to_string();
    let mut done = Vec::new();
    loop {
        match step(&http, &base, args).await {
            Ok(Some(finished)) => {
                println!("{}: {:?}", finished.0, finished.1);
                done.push(finished);
            }
            Ok(None) if args.once => return Ok(done),
            Ok(None) => tokio::time::sleep(Duration::from_secs(args.poll_secs.max(1))).await,
            Err(e) if args.once => return Err(e),
            Err(e) => {
                // A server restarting or a network hiccup: say so and try again later.
                eprintln!("converter: {e}");
                tokio::time::sleep(Duration::from_secs(args.poll_secs.max(1))).await;
            }
        }
    }
}

/// Claims one step and works it; `None` when nothing waits.
async fn step(http: &reqwest::Client, base: &str, args: &ConverterArgs) -> Result<Option<(String, Done)>, String> {
    let claimed = http
        .post(format!("{base}/api/v1/store/converter/jobs"))
        .bearer_auth(&args.key)
        .header("X-Converter-Worker", &args.name)
        .json(&json!({"stage": "convert"}))
        .send()
        .await
        .map_err(|e| format!("claim: {}", e.without_url()))?;
    match claimed.status() {
        StatusCode::NO_CONTENT => return Ok(None),
        StatusCode::OK => {}
        other => return Err(format!("claim: the server answered {other}")),
    }
    let job: Value = claimed.json().await.map_err(|e| format!("claim: {e}"))?;
    let name = job["job"].as_str().ok_or("claim: no job name")?.to_string();
    let outcome = work(http, base, args, &job).await?;
    Ok(Some((name, outcome)))
}

/// Converts one claimed job and reports the outcome.
async fn work(http: &reqwest::Client, base: &str, args: &ConverterArgs, job: &Value) -> Result<Done, String> {
    let name = job["job"].as_str().unwrap_or_default();
    let path = job["source_path"].as_str().ok_or("claim: no source_path")?;
    let call = |method: reqwest::Method, tail: &str| {
        http.request(method, format!("{base}/api/v1/store/converter/jobs/{name}/{tail}"))
            .bearer_auth(&args.key)
            .header("X-Converter-Worker", &args.name)
    };
    let Some(source) = fetch(http, &format!("{base}{path}"), args).await? else {
        let message = format!("the avatar is over the reference converter's {SOURCE_MAX_BYTES} bytes");
        let sent = call(reqwest::Method::POST, "failure")
            .json(&json!({"code": "too_large", "message": message}))
            .send()
            .await
            .map_err(|e| format!("failure: {}", e.without_url()))?;
        if !sent.status().is_success() {
            return Err(format!("{name}: the server refused the report ({})", sent.status()));
        }
        return Ok(Done::Refused("too_large".into()));
    };
    call(reqwest::Method::POST, "progress")
        .json(&json!({"progress": 50, "note": "validating and normalising"}))
        .send()
        .await
        .map_err(|e| format!("progress: {}", e.without_url()))?;
    let (report, outcome) = match convert(&source, &Limits::default()) {
        Ok(converted) => {
            let size = converted.glb.len();
            let sent = call(reqwest::Method::PUT, "result")
                .header("Content-Type", "model/gltf-binary")
                .body(converted.glb)
                .send()
                .await
                .map_err(|e| format!("result: {}", e.without_url()))?;
            (sent, Done::Converted(size))
        }
        Err(refusal) => {
            let sent = call(reqwest::Method::POST, "failure")
                .json(&json!({"code": refusal.code, "message": refusal.message}))
                .send()
                .await
                .map_err(|e| format!("failure: {}", e.without_url()))?;
            (sent, Done::Refused(refusal.code.to_string()))
        }
    };
    if !report.status().is_success() {
        return Err(format!("{name}: the server refused the report ({})", report.status()));
    }
    Ok(outcome)
}

/// The avatar's bytes, or `None` past [`SOURCE_MAX_BYTES`] (checked before and while reading).
async fn fetch(http: &reqwest::Client, url: &str, args: &ConverterArgs) -> Result<Option<Vec<u8>>, String> {
    let mut res = http
        .get(url)
        .bearer_auth(&args.key)
        .header("X-Converter-Worker", &args.name)
        .send()
        .await
        .map_err(|e| format!("source: {}", e.without_url()))?;
    if !res.status().is_success() {
        return Err(format!("source: the server answered {}", res.status()));
    }
    if res.content_length().is_some_and(|n| n > SOURCE_MAX_BYTES) {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = res.chunk().await.map_err(|e| format!("source: {}", e.without_url()))? {
        if (bytes.len() + chunk.len()) as u64 > SOURCE_MAX_BYTES {
            return Ok(None);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Some(bytes))
}
