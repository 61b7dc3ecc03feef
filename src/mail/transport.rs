//! Where a built message goes: SMTP (lettre's pooled async transport, rustls) or, without an
//! SMTP server, a `.eml` file under `{data_dir}/outbox`.

use std::path::PathBuf;

use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::mail::MailSettings;
use crate::db::entities::mail;

/// A mail transport.
#[derive(Clone)]
pub enum Transport {
    /// Writes each mail to `<dir>/<timestamp>-<id>.eml`.
    Outbox(PathBuf),
    /// Hands each mail to an SMTP server.
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Outbox(dir) => f.debug_tuple("Outbox").field(dir).finish(),
            Self::Smtp(_) => f.write_str("Smtp(..)"),
        }
    }
}

/// Why a delivery did not go through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryError {
    /// The server refused this mail for good (a 5xx reply other than an authentication
    /// problem), or the mail cannot be built: trying again will not help.
    pub permanent: bool,
    /// What happened, for staff.
    pub message: String,
}

impl DeliveryError {
    fn from_smtp(e: &lettre::transport::smtp::Error) -> Self {
        // 530/534/535/538 are about authentication or encryption: a configuration problem that
        // an operator can fix, so those are retried like outages.
        let auth = e.status().is_some_and(|code| matches!(code.to_string().as_str(), "530" | "534" | "535" | "538"));
        Self { permanent: e.is_permanent() && !auth, message: format!("smtp: {e}") }
    }
}

impl Transport {
    /// The transport of `settings`. Needs a Tokio runtime (the SMTP pool's cleanup task).
    pub fn new(settings: &MailSettings) -> Result<Self, String> {
        match &settings.smtp {
            None => Ok(Self::Outbox(settings.outbox.clone())),
            Some(server) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(server.connection_url())
                    .map_err(|_| format!("smtp_url {} is not usable", server.display))?
                    .timeout(Some(settings.timeout))
                    .build();
                Ok(Self::Smtp(transport))
            }
        }
    }

    /// Delivers `message`, the message of `row`. For the outbox, the file name depends only on
    /// the row, so a repeated delivery replaces the file instead of adding one.
    pub async fn send(&self, row: &mail::Model, message: Message) -> Result<(), DeliveryError> {
        match self {
            Self::Outbox(dir) => write_eml(dir, row, &message.formatted())
                .await
                .map_err(|e| DeliveryError { permanent: false, message: format!("outbox {}: {e}", dir.display()) }),
            Self::Smtp(transport) => {
                transport.send(message).await.map(|_| ()).map_err(|e| DeliveryError::from_smtp(&e))
            }
        }
    }
}

/// The outbox file name of `row`: when it was queued (UTC) and its id.
pub fn eml_name(row: &mail::Model) -> String {
    format!("{}-{}.eml", row.created_at.format("%Y%m%dT%H%M%SZ"), row.id)
}

/// Writes the message atomically (a temporary file renamed into place).
async fn write_eml(dir: &std::path::Path, row: &mail::Model, raw: &[u8]) -> std::io::Result<()> {
    tokio::fs::create_dir_all(dir).await?;
    let name = eml_name(row);
    let partial = dir.join(format!(".{name}.partial"));
    tokio::fs::write(&partial, raw).await?;
    tokio::fs::rename(&partial, dir.join(name)).await
}
