//! The values of the configuration that are more than a string or a number: the deployment
//! environment and the settings that hold a credential (whose `Debug` form hides it).

use serde::{Deserialize, Serialize};

/// The deployment environment, as reported to Sentry and used to pick safe defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// A developer's machine: insecure cookies allowed, Swagger UI served.
    #[default]
    Development,
    /// A pre-production deployment.
    Staging,
    /// The live site.
    Production,
}

impl Environment {
    /// The lowercase name used in logs and error reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Development => "development",
            Self::Staging => "staging",
            Self::Production => "production",
        }
    }
}

/// A credential from the configuration: its `Debug` form never shows it. Read it with
/// [`Secret::expose`] only to send it to the service it belongs to.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// The secret as configured: for the provider call only, never for output.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether none is configured.
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl From<&str> for Secret {
    fn from(secret: &str) -> Self {
        Self(secret.to_string())
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_empty() { "Secret(empty)" } else { "Secret(***)" })
    }
}

/// The SMTP URL setting: a string that may carry credentials, so its `Debug` form hides the
/// password. Read it with [`SmtpUrl::expose`] only to connect.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SmtpUrl(String);

impl SmtpUrl {
    /// The URL as configured, password included: for the SMTP client only, never for output.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether no SMTP server is configured (mail goes to the outbox directory).
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }

    /// The URL with its password replaced by `***` (and nothing else changed), for messages.
    pub fn redacted(&self) -> String {
        match url::Url::parse(self.0.trim()) {
            Ok(mut u) if u.password().is_some() => {
                let _ = u.set_password(Some("***"));
                u.to_string()
            }
            Ok(u) => u.to_string(),
            Err(_) if self.is_empty() => String::new(),
            Err(_) => "(not a valid URL)".into(),
        }
    }
}

impl From<&str> for SmtpUrl {
    fn from(url: &str) -> Self {
        Self(url.to_string())
    }
}

impl std::fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("SmtpUrl").field(&self.redacted()).finish()
    }
}
