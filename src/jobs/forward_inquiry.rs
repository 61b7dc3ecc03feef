//! `ForwardInquiry { inquiry_id }`: posts a stored inquiry to its category's Slack incoming
//! webhook (`{"text": …}`) and/or creates a Jira issue (`POST /rest/api/2/issue`, basic auth).
//!
//! Each target's status lives on the inquiry row and is saved as soon as that target succeeds,
//! so a retry never sends twice what already went through. A transient failure (network, 5xx,
//! 408, 429) leaves the target `pending`, counts the attempt and schedules the next run with
//! exponential backoff; after `inquiry_max_attempts` runs, or when the remote refuses the request
//! outright (another 4xx), the target becomes `failed` and the inquiry stays in the database for
//! staff. `last_error` keeps the most recent problem for staff; users never see it.

use std::time::Duration;

use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait, IntoActiveModel};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::entities::{inquiry, inquiry_category};
use crate::model::inquiry::ForwardStatus;
use crate::queue::{Job, JobContext, Queue};

/// Forward the inquiry `inquiry_id` to its category's targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForwardInquiry {
    /// The inquiry.
    pub inquiry_id: i32,
}

impl Job for ForwardInquiry {
    const QUEUE: &'static str = "forward_inquiry";

    async fn run(self, ctx: &JobContext) -> Result<String, sea_orm::DbErr> {
        forward(ctx, self.inquiry_id).await
    }

    async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
        resume(ctx).await
    }
}

impl ForwardInquiry {
    /// The idempotency key of run `attempt` (1-based) for `inquiry_id`.
    pub fn key(inquiry_id: i32, attempt: i32) -> String {
        format!("inquiry:{inquiry_id}:attempt:{attempt}")
    }

    /// Enqueues run `attempt` of the inquiry after `delay`.
    pub async fn enqueue(queue: &Queue, inquiry_id: i32, attempt: i32, delay: Duration) -> Result<(), sea_orm::DbErr> {
        queue.push(Self { inquiry_id }, delay, &Self::key(inquiry_id, attempt)).await
    }
}

/// Why one delivery did not go through.
#[derive(Debug)]
struct Failure {
    /// Retrying may help (network, 5xx, 408, 429).
    transient: bool,
    /// What happened, for staff.
    message: String,
}

impl Failure {
    fn from_status(target: &str, status: reqwest::StatusCode, body: &str) -> Self {
        let transient = status.is_server_error() || status.as_u16() == 408 || status.as_u16() == 429;
        let body: String = body.chars().take(300).collect();
        Self { transient, message: format!("{target}: HTTP {status}: {body}") }
    }

    /// A network failure. The URL is left out: a Slack webhook URL is itself a secret, and
    /// `last_error` is stored and shown to staff.
    fn from_error(target: &str, e: reqwest::Error) -> Self {
        Self { transient: true, message: format!("{target}: {}", e.without_url()) }
    }

    fn permanent(message: String) -> Self {
        Self { transient: false, message }
    }
}

/// One run for one inquiry: tries every pending target once and records the outcome; returns a
/// summary. Remote failures are handled here (status, backoff, next run); only database errors
/// fail the task.
pub async fn forward(ctx: &JobContext, inquiry_id: i32) -> Result<String, sea_orm::DbErr> {
    let Some(mut row) = inquiry::Entity::find_by_id(inquiry_id).one(&ctx.db).await? else {
        return Ok(format!("inquiry {inquiry_id} no longer exists"));
    };
    if !row.is_pending() {
        return Ok(format!("inquiry {inquiry_id} has nothing pending"));
    }
    let category = inquiry_category::Entity::find_by_id(row.category_id).one(&ctx.db).await?;
    let mut failures: Vec<Failure> = Vec::new();

    if row.slack_status == ForwardStatus::Pending {
        match post_slack(ctx, &row, category.as_ref()).await {
            Ok(()) => row = set(ctx, row, |a| a.slack_status = Set(ForwardStatus::Sent)).await?,
            Err(f) => failures.push(f),
        }
    }
    if row.jira_status == ForwardStatus::Pending {
        match create_jira_issue(ctx, &row, category.as_ref()).await {
            Ok(key) => {
                row = set(ctx, row, |a| {
                    a.jira_status = Set(ForwardStatus::Sent);
                    a.jira_issue_key = Set(Some(key));
                })
                .await?
            }
            Err(f) => failures.push(f),
        }
    }

    let now = ctx.clock.now();
    let attempt = row.attempts + 1;
    let budget_spent = attempt >= ctx.config.inquiry_max_attempts.max(1) as i32;
    let give_up = |status: ForwardStatus, target: &str| {
        let hard = failures.iter().any(|f| !f.transient && f.message.starts_with(target));
        if status == ForwardStatus::Pending && (budget_spent || hard) { ForwardStatus::Failed } else { status }
    };
    let slack_status = give_up(row.slack_status, "slack");
    let jira_status = give_up(row.jira_status, "jira");
    let still_pending = slack_status == ForwardStatus::Pending || jira_status == ForwardStatus::Pending;
    let delay = ctx.backoff(attempt as u32);
    let error =
        (!failures.is_empty()).then(|| failures.iter().map(|f| f.message.as_str()).collect::<Vec<_>>().join("\n"));
    let any_sent = slack_status == ForwardStatus::Sent || jira_status == ForwardStatus::Sent;
    let next_at = still_pending.then(|| now + chrono::Duration::from_std(delay).unwrap_or_default());
    let summary = match &error {
        None => format!("inquiry {inquiry_id}: forwarded"),
        Some(e) if still_pending => format!("inquiry {inquiry_id}: attempt {attempt} failed, retry in {delay:?}: {e}"),
        Some(e) => format!("inquiry {inquiry_id}: gave up after attempt {attempt}: {e}"),
    };
    let forwarded_at = row.forwarded_at;
    set(ctx, row, |a| {
        a.attempts = Set(attempt);
        a.slack_status = Set(slack_status);
        a.jira_status = Set(jira_status);
        if let Some(e) = error.clone() {
            a.last_error = Set(Some(e));
        }
        a.next_attempt_at = Set(next_at);
        if !still_pending && any_sent && forwarded_at.is_none() {
            a.forwarded_at = Set(Some(now));
        }
    })
    .await?;
    if still_pending {
        tracing::warn!(inquiry_id, attempt, ?delay, "inquiry forwarding failed; will retry");
        ForwardInquiry::enqueue(&ctx.queue, inquiry_id, attempt + 1, delay).await?;
    } else if error.is_some() {
        tracing::error!(inquiry_id, attempt, "inquiry forwarding failed for good; left for staff");
    }
    Ok(summary)
}

/// Applies `change` to `row` and saves it.
async fn set(
    ctx: &JobContext,
    row: inquiry::Model,
    change: impl FnOnce(&mut inquiry::ActiveModel),
) -> Result<inquiry::Model, sea_orm::DbErr> {
    let mut active = row.into_active_model();
    change(&mut active);
    active.update(&ctx.db).await
}

/// Slack mrkdwn needs `&`, `<` and `>` escaped in user text.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn category_name(category: Option<&inquiry_category::Model>) -> String {
    category.map(|c| format!("{} / {}", c.name_ja, c.name_en)).unwrap_or_else(|| "?".into())
}

fn sender(row: &inquiry::Model) -> String {
    match &row.name {
        Some(name) => format!("{name} <{}>", row.email),
        None => row.email.clone(),
    }
}

/// The Slack message of an inquiry.
pub fn slack_text(row: &inquiry::Model, category: Option<&inquiry_category::Model>) -> String {
    format!(
        "*New inquiry #{id}* ({category})\nFrom: {from} · lang: {lang} · {at}\n\n{message}",
        id = row.id,
        category = slack_escape(&category_name(category)),
        from = slack_escape(&sender(row)),
        lang = row.lang,
        at = row.created_at.format("%Y-%m-%d %H:%M UTC"),
        message = slack_escape(&row.message),
    )
}

async fn post_slack(
    ctx: &JobContext,
    row: &inquiry::Model,
    category: Option<&inquiry_category::Model>,
) -> Result<(), Failure> {
    let Some(url) = category.and_then(|c| c.slack_webhook_url.clone()).filter(|u| !u.trim().is_empty()) else {
        return Err(Failure::permanent("slack: the category no longer has a webhook URL".into()));
    };
    let res = ctx
        .http
        .post(url.trim())
        .json(&json!({ "text": slack_text(row, category) }))
        .send()
        .await
        .map_err(|e| Failure::from_error("slack", e))?;
    let status = res.status();
    if status.is_success() {
        return Ok(());
    }
    let body = res.text().await.unwrap_or_default();
    Err(Failure::from_status("slack", status, &body))
}

/// The Jira `fields` object of an inquiry.
pub fn jira_fields(row: &inquiry::Model, category: &inquiry_category::Model) -> Value {
    let first_line = row.message.lines().next().unwrap_or_default();
    let mut headline: String = first_line.chars().take(120).collect();
    if headline.chars().count() < first_line.chars().count() {
        headline.push('…');
    }
    let mut fields = json!({
        "project": { "key": category.jira_project_code.clone().unwrap_or_default().trim() },
        "issuetype": { "id": category.jira_issue_type_id.clone().unwrap_or_default().trim() },
        "summary": format!("[Inquiry #{}] {}: {}", row.id, category.name_en, headline),
        "description": format!(
            "Inquiry #{id} ({category})\nFrom: {from}\nLanguage: {lang}\nReceived: {at}\n\n{message}",
            id = row.id,
            category = category_name(Some(category)),
            from = sender(row),
            lang = row.lang,
            at = row.created_at.format("%Y-%m-%d %H:%M UTC"),
            message = row.message,
        ),
    });
    if let Some(parent) = category.jira_parent_issue.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        fields["parent"] = json!({ "key": parent });
    }
    fields
}

async fn create_jira_issue(
    ctx: &JobContext,
    row: &inquiry::Model,
    category: Option<&inquiry_category::Model>,
) -> Result<String, Failure> {
    let config = &ctx.config;
    let Some(category) = category.filter(|c| c.has_jira(config)) else {
        return Err(Failure::permanent("jira: Jira is not configured for this category any more".into()));
    };
    let url = format!("{}/rest/api/2/issue", config.jira_base_url.trim().trim_end_matches('/'));
    let res = ctx
        .http
        .post(url)
        .basic_auth(&config.jira_user, Some(config.jira_api_token.expose()))
        .json(&json!({ "fields": jira_fields(row, category) }))
        .send()
        .await
        .map_err(|e| Failure::from_error("jira", e))?;
    let status = res.status();
    let body = res.text().await.unwrap_or_default();
    if !status.is_success() {
        return Err(Failure::from_status("jira", status, &body));
    }
    let created: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    match created["key"].as_str() {
        Some(key) => Ok(key.to_string()),
        None => Err(Failure::permanent(format!("jira: created, but the answer has no issue key: {body}"))),
    }
}

/// Re-enqueues the next run of every inquiry still pending (a no-op for runs already queued).
pub async fn resume(ctx: &JobContext) -> Result<(), sea_orm::DbErr> {
    let now = ctx.clock.now();
    for row in inquiry::Model::pending(&ctx.db).await? {
        let delay = row.next_attempt_at.and_then(|at| (at - now).to_std().ok()).unwrap_or_default();
        ForwardInquiry::enqueue(&ctx.queue, row.id, row.attempts + 1, delay).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slack_text_escapes_user_input() {
        assert_eq!(slack_escape("a <b> & c"), "a &lt;b&gt; &amp; c");
    }

    #[test]
    fn failures_classify_statuses() {
        assert!(Failure::from_status("slack", reqwest::StatusCode::SERVICE_UNAVAILABLE, "").transient);
        assert!(Failure::from_status("slack", reqwest::StatusCode::TOO_MANY_REQUESTS, "").transient);
        assert!(!Failure::from_status("slack", reqwest::StatusCode::NOT_FOUND, "no_service").transient);
    }
}
