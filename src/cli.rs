//! Command-line actions that are more than a line: creating accounts, granting staff roles and
//! sending a test mail; `lottery` checks published draws.

pub mod converter;
pub mod lottery;
pub mod sample;

use chrono::{DateTime, Utc};
use clap::Subcommand;
use sea_orm::DatabaseConnection;

use serde_json::json;

use crate::account::store::NewAccount;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::entities::mail::MailStatus;
use crate::db::entities::{account, mail, user};
use crate::error::Error;
use crate::jobs::{SendMail, send_mail};
use crate::mail::{MailKind, Outgoing};
use crate::model::user::Role;
use crate::queue::JobContext;
use crate::types::Lang;

/// `vmarket user …`
#[derive(Debug, Subcommand)]
pub enum UserAction {
    /// Create an account (and its user) that can sign in right away.
    Create {
        /// Sign-in email.
        #[arg(long)]
        email: String,
        /// Password (at least 8 characters).
        #[arg(long)]
        password: String,
        /// Staff role: admin, director, uc_staff or qa_tester.
        #[arg(long)]
        role: Option<String>,
        /// Public handle; defaults to the part of the email before `@`.
        #[arg(long)]
        vmarket_id: Option<String>,
        /// Japanese display name; defaults to the handle.
        #[arg(long)]
        name_ja: Option<String>,
        /// English display name; defaults to the handle.
        #[arg(long)]
        name_en: Option<String>,
    },
    /// Give the account with this email a staff role (`none` takes it away).
    GrantRole {
        /// The account's email.
        email: String,
        /// none, admin, director, uc_staff or qa_tester.
        role: String,
    },
}

fn parse_role(raw: &str) -> Result<Role, String> {
    Role::parse(raw).ok_or_else(|| format!("unknown role {raw:?}: use none, admin, director, uc_staff or qa_tester"))
}

/// Runs a `vmarket user` action.
pub async fn user(
    db: &DatabaseConnection,
    config: &Config,
    action: UserAction,
    now: DateTime<Utc>,
) -> Result<(), String> {
    if !config.builtin_sso() {
        return Err("accounts live in the external account service at sso_domain; grant roles there".into());
    }
    match action {
        UserAction::Create { email, password, role, vmarket_id, name_ja, name_en } => {
            let role = role.as_deref().map(parse_role).transpose()?.unwrap_or(Role::None);
            if password.chars().count() < 8 {
                return Err("the password needs at least 8 characters".into());
            }
            let handle = vmarket_id.unwrap_or_else(|| {
                email
                    .split('@')
                    .next()
                    .unwrap_or("user")
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
                    .to_lowercase()
            });
            let new = NewAccount {
                email: email.trim().to_lowercase(),
                password,
                name_ja: name_ja.unwrap_or_else(|| handle.clone()),
                name_en: name_en.unwrap_or_else(|| handle.clone()),
                vmarket_id: handle,
            };
            let (created, _) = crate::account::provision::create_sign_in_account(db, new, None, role, now)
                .await
                .map_err(|e| format!("cannot create the account: {}", e.code()))?;
            println!("created {} (@{}) with role {:?}", created.email, created.vmarket_id, role);
            Ok(())
        }
        UserAction::GrantRole { email, role } => {
            let role = parse_role(&role)?;
            let found = account::Model::by_email(db, &email)
                .await
                .map_err(|e| e.to_string())?
                .ok_or(format!("no account with email {email}"))?;
            provision(db, &found, now).await?.set_role(db, role, now).await.map_err(|e| e.to_string())?;
            println!("{email} now has role {role:?}");
            Ok(())
        }
    }
}

async fn provision(db: &DatabaseConnection, a: &account::Model, now: DateTime<Utc>) -> Result<user::Model, String> {
    crate::account::provision::provision(db, a, now).await.map_err(|e| e.to_string())
}

/// `vmarket mail …`
#[derive(Debug, Subcommand)]
pub enum MailAction {
    /// Queue a test mail and make its first delivery attempt at once, reporting the outcome
    /// (later attempts, if needed, are made by the running workers).
    Test {
        /// The recipient's address.
        #[arg(long)]
        to: String,
        /// The language of the mail: ja or en.
        #[arg(long, default_value = "ja")]
        lang: String,
        /// A line added to the mail (e.g. a ticket number).
        #[arg(long)]
        note: Option<String>,
        /// Only queue it: the running workers (`vmarket serve` / `vmarket worker`) deliver it.
        #[arg(long)]
        queue_only: bool,
    },
}

/// Runs a `vmarket mail` action.
pub async fn mail(db: &DatabaseConnection, config: &Config, action: MailAction, clock: &Clock) -> Result<(), String> {
    let MailAction::Test { to, lang, note, queue_only } = action;
    let lang = Lang::parse(&lang).ok_or_else(|| format!("unknown language {lang:?}: use ja or en"))?;
    let ctx = JobContext::new(db.clone(), config.clone(), clock.clone()).map_err(|e| e.to_string())?;
    let outgoing = Outgoing { to: to.clone(), lang, kind: MailKind::Test, context: json!({ "note": note }) };
    let queued = ctx.mailer.queue(db, &outgoing, clock.now()).await.map_err(|e| match e {
        Error::Validation(_) => format!("{to:?} is not a mail address"),
        other => format!("cannot queue the mail: {other}"),
    })?;
    println!("queued test mail #{} to {} ({lang})", queued.id, to.trim());
    if queue_only {
        SendMail::push(&ctx.queue, queued).await;
        println!("the workers deliver it via {}", ctx.delivery.settings.describe());
        return Ok(());
    }
    let summary =
        send_mail::deliver(&ctx, SendMail { mail_id: queued.id, attempt: 1 }).await.map_err(|e| e.to_string())?;
    let row = mail::Model::find(db, queued.id).await.map_err(|e| e.to_string())?.ok_or("the mail vanished")?;
    match row.status {
        MailStatus::Sent => {
            println!("sent via {}", ctx.delivery.settings.describe());
            Ok(())
        }
        MailStatus::Pending => Err(format!("{summary}\nthe running workers retry it (see `mails` #{})", row.id)),
        MailStatus::Failed => Err(summary),
    }
}

/// A database URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}
