//! Mail: rendering in the recipient's language, a queue in the database, delivery as a
//! background job over SMTP (lettre, rustls) or into an outbox directory.
//!
//! How another module sends a mail:
//!
//! ```ignore
//! let txn = db::begin_write(&conn).await?;             // the write lock at once (SQLite)
//! circle.approve(&txn).await?;                          // the domain write
//! let queued = mailer.queue(&txn, &Outgoing {            // the mail, in the same transaction
//!     to: owner.email.clone(),
//!     lang: owner.lang,
//!     kind: MailKind::Test,
//!     context: json!({ "circle_name": circle.name }),
//! }, clock.now()).await?;
//! txn.commit().await?;
//! SendMail::push(&queue, queued).await;                   // after the commit
//! ```
//!
//! [`Mailer::queue`] renders the mail at once (subject, plain text and HTML, from the Tera
//! templates under `templates/mail/`, every string from `locales/*.json`), so what goes out is
//! fixed when it is queued, and stores it as `pending` in `mails`. `crate::jobs::SendMail::push`
//! then enqueues its first delivery attempt. Nothing is lost if the
//! process dies between the commit and the push, or if the push fails: workers re-enqueue every
//! pending mail when they start.
//!
//! Many mails at once (the lottery's result mails): render each with [`Mailer::prepare`] outside
//! any transaction, giving it a `dedup_key`, then store a batch in one statement with
//! `mail::Model::insert_unique`, which skips every key already stored, so a batch sent twice
//! (a retry, a resume, two workers) stores each mail once; push the returned ids.
//!
//! Mails go out as `multipart/alternative` (text + HTML). A mail that cannot be delivered stays
//! `pending` and is retried with exponential backoff (`job_retry_base_secs`, doubling, at most
//! 6 h) until `mail_max_attempts`, then it is `failed` and stays in the table for staff.

mod message;
pub mod outgoing;
pub mod queue;
mod render;
mod transport;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;

use crate::config::Config;
use crate::config::mail::MailSettings;
use crate::db::entities::mail;
use crate::error::{Error, Result};
use crate::i18n::Messages;
pub use message::build_message;
pub use outgoing::{MailKind, Outgoing};
pub use queue::NewMail;
pub use render::{Rendered, Templates};
pub use transport::{DeliveryError, Transport};

/// Renders mails and stores them in the queue. Cheap to clone; managed state in the web
/// process, part of [`crate::queue::JobContext`] in workers, built by the CLI.
#[derive(Clone)]
pub struct Mailer {
    templates: Arc<Templates>,
    site_url: String,
    message_id_domain: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("site_url", &self.site_url).finish_non_exhaustive()
    }
}

impl Mailer {
    /// A mailer for `config`, with the bundled message catalogues and mail templates.
    pub fn new(config: &Config) -> Result<Self> {
        let settings = MailSettings::from_config(config).map_err(Error::Internal)?;
        let messages = Messages::bundled();
        let templates = Templates::new(messages).map_err(|e| Error::Internal(format!("mail templates: {e:?}")))?;
        Ok(Self {
            templates: Arc::new(templates),
            site_url: config.site_url.trim_end_matches('/').to_string(),
            message_id_domain: settings.from.email.domain().to_string(),
        })
    }

    /// Renders `outgoing` as it would be sent at `now`.
    pub fn render(&self, outgoing: &Outgoing, now: DateTime<Utc>) -> Result<Rendered> {
        self.templates.render(outgoing, &self.site_url, now).map_err(|e| {
            Error::Internal(format!(
                "mail {} ({}): {}",
                outgoing.kind.name(),
                outgoing.lang,
                crate::i18n::tera::describe(&e)
            ))
        })
    }

    /// Renders `outgoing` and stores it as a pending mail, inside `db` (which may be the
    /// caller's transaction). Push the returned handle once that transaction has committed.
    ///
    /// An address that is not a valid mail address is a validation error on `email`.
    pub async fn queue(&self, db: &impl ConnectionTrait, outgoing: &Outgoing, now: DateTime<Utc>) -> Result<Queued> {
        let new = self.prepare(outgoing, None, now)?;
        let row = mail::Model::insert(db, new, now).await?;
        Ok(Queued { id: row.id })
    }

    /// Renders `outgoing` as it would be sent at `now`, ready to store, without storing it (for
    /// callers that render many mails outside their transaction and store them together with
    /// [`mail::Model::insert_unique`]). `dedup_key`: the key that makes the mail unique, if any.
    ///
    /// An address that is not a valid mail address is a validation error on `email`.
    pub fn prepare(&self, outgoing: &Outgoing, dedup_key: Option<String>, now: DateTime<Utc>) -> Result<NewMail> {
        let to = outgoing.to.trim();
        if to.parse::<lettre::Address>().is_err() {
            return Err(Error::invalid("email", "validation.email"));
        }
        let rendered = self.render(outgoing, now)?;
        Ok(NewMail {
            recipient: to.to_string(),
            lang: outgoing.lang.code().to_string(),
            kind: outgoing.kind.name().to_string(),
            subject: rendered.subject,
            text_body: rendered.text,
            html_body: rendered.html,
            message_id: format!("<{}@{}>", uuid::Uuid::new_v4().simple(), self.message_id_domain),
            dedup_key,
        })
    }
}

/// A stored mail whose delivery job is not enqueued yet.
#[must_use = "push it once the transaction has committed (workers resume it on start otherwise)"]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    /// The row in `mails`.
    pub id: i32,
}

/// What delivering needs: the settings (sender, attempts) and the transport.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The mail settings.
    pub settings: MailSettings,
    /// SMTP or the outbox directory.
    pub transport: Transport,
}

impl Delivery {
    /// The delivery side for `config`. Needs a Tokio runtime (the SMTP connection pool).
    pub fn new(config: &Config) -> Result<Self, String> {
        let settings = MailSettings::from_config(config)?;
        let transport = Transport::new(&settings)?;
        Ok(Self { settings, transport })
    }
}
