//! The staff console's API (`/admin/api/…`, `/api/v1/admin/time_travel`): the
//! ra-data-simple-rest contract, the role matrix, the audit log, time travel and each resource.

mod asset_rules;
mod assets;
mod audit;
mod audit_every_write;
mod catalogue;
mod circles;
mod contract;
mod corrections;
mod credits;
mod dashboard;
mod deletes;
mod door;
mod entries;
mod hub;
mod images;
mod matrix;
mod payments;
mod resources;
mod time_travel;

use rocket::http::Method;
use serde_json::Value;

use crate::support::TestApp;
use crate::support::actors::{Actor, Via};

/// What a console call answered.
#[derive(Debug)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// `Content-Range`, on lists.
    pub content_range: Option<String>,
    /// `Access-Control-Expose-Headers`, on lists.
    pub expose: Option<String>,
    /// The JSON body (`Null` when not JSON).
    pub body: Value,
}

impl Answer {
    /// The `attribute`s of a validation error body.
    pub fn attributes(&self) -> Vec<String> {
        self.body["details"]
            .as_array()
            .map(|d| d.iter().filter_map(|e| e["attribute"].as_str().map(String::from)).collect())
            .unwrap_or_default()
    }

    /// The `id`s of a list body.
    pub fn ids(&self) -> Vec<i64> {
        self.body.as_array().map(|a| a.iter().filter_map(|r| r["id"].as_i64()).collect()).unwrap_or_default()
    }
}

/// Sends a console call as `actor` (bearer token), `body` as JSON when given.
pub async fn call(app: &TestApp, actor: &Actor<'_>, method: Method, path: &str, body: Option<&Value>) -> Answer {
    answer(app.request_as(actor, Via::Bearer, method, path, body).await).await
}

/// The parts of a response the console reads.
pub async fn answer(res: rocket::local::asynchronous::LocalResponse<'_>) -> Answer {
    let status = res.status().code;
    let content_range = res.headers().get_one("Content-Range").map(String::from);
    let expose = res.headers().get_one("Access-Control-Expose-Headers").map(String::from);
    let text = res.into_string().await.unwrap_or_default();
    Answer { status, content_range, expose, body: serde_json::from_str(&text).unwrap_or(Value::Null) }
}

/// `path?sort=…&range=…&filter=…` with each JSON value percent-encoded, as ra-data-simple-rest
/// sends them.
pub fn list_path(path: &str, sort: Option<&str>, range: Option<&str>, filter: Option<&str>) -> String {
    let encode = |v: &str| url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>();
    let params: Vec<String> = [("sort", sort), ("range", range), ("filter", filter)]
        .into_iter()
        .filter_map(|(name, value)| value.map(|v| format!("{name}={}", encode(v))))
        .collect();
    if params.is_empty() { path.to_string() } else { format!("{path}?{}", params.join("&")) }
}
