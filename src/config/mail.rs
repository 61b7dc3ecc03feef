//! Mail settings read from the configuration and checked once at start-up (the mail module,
//! `crate::mail`, sends with them).
//!
//! `smtp_url` accepts lettre's connection URLs:
//!
//! | value | means |
//! |---|---|
//! | empty | no SMTP: each mail is written to `{data_dir}/outbox/<timestamp>-<id>.eml` |
//! | `smtp://host[:port]` | plain SMTP (port 25 by default), no TLS: a local relay or test sink |
//! | `smtp://user:pass@host[:port]?tls=required` | STARTTLS, required (port 587 by default): refuses to send if the server does not offer it |
//! | `smtp://…?tls=opportunistic` | STARTTLS when the server offers it, plain otherwise |
//! | `smtps://user:pass@host[:port]` | implicit TLS (port 465 by default) |
//!
//! User name and password are percent-encoded in the URL (`p%40ss` for `p@ss`) and are sent
//! with AUTH PLAIN or LOGIN. Credentials are refused unless the connection is encrypted
//! (`smtps://` or `tls=required`) or the server is on this machine (loopback), so a password
//! never crosses a network in the clear. A path (`smtp://host/mail.example.com`) sets the name
//! sent with EHLO. TLS certificates are checked against the operating system's trust store.
//!
//! The password never appears in a log line, an error message or a stored `last_error`:
//! messages name the server through [`crate::config::values::SmtpUrl::redacted`], and delivery errors
//! pass through [`MailSettings::scrub`].

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use lettre::message::Mailbox;

use crate::config::settings::Config;
use crate::config::values::Environment;

/// The `From` used when `mail_from` is empty (development, or outbox delivery).
pub const DEFAULT_FROM: &str = "Virtual Market <no-reply@localhost>";

/// How to reach the SMTP server.
#[derive(Clone)]
pub struct SmtpServer {
    /// The connection URL as configured, credentials included. Never print it.
    url: String,
    /// The URL with the password masked, for logs.
    pub display: String,
    /// Strings that must never be shown: the password, raw and percent-decoded.
    secrets: Vec<String>,
}

impl SmtpServer {
    /// The URL, credentials included: only for building the SMTP client.
    pub(crate) fn connection_url(&self) -> &str {
        &self.url
    }
}

impl std::fmt::Debug for SmtpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpServer").field("url", &self.display).finish_non_exhaustive()
    }
}

/// Everything the mail module reads from the configuration.
#[derive(Clone, Debug)]
pub struct MailSettings {
    /// The sender of every mail.
    pub from: Mailbox,
    /// The SMTP server, or `None` for the outbox directory.
    pub smtp: Option<SmtpServer>,
    /// Where `.eml` files go without SMTP: `{data_dir}/outbox`.
    pub outbox: PathBuf,
    /// Attempts per mail before it is `failed` (at least 1).
    pub max_attempts: u32,
    /// Timeout of one SMTP exchange.
    pub timeout: Duration,
}

impl MailSettings {
    /// Reads and checks the mail settings of `config`. The error says what is wrong without
    /// repeating the SMTP URL.
    pub fn from_config(config: &Config) -> Result<Self, String> {
        let smtp = if config.smtp_url.is_empty() { None } else { Some(parse_smtp_url(config.smtp_url.expose())?) };
        let from = config.mail_from.trim();
        let from = if from.is_empty() {
            if smtp.is_some() && config.environment != Environment::Development {
                return Err(format!(
                    "mail_from is required when smtp_url is set in {} (e.g. ROCKET_MAIL_FROM='Virtual Market <no-reply@example.com>')",
                    config.environment.as_str()
                ));
            }
            DEFAULT_FROM
        } else {
            from
        };
        let from = from.parse::<Mailbox>().map_err(|e| format!("mail_from {from:?} is not a mail address: {e}"))?;
        Ok(Self {
            from,
            smtp,
            outbox: PathBuf::from(&config.data_dir).join("outbox"),
            max_attempts: config.mail_max_attempts.max(1),
            timeout: Duration::from_secs(config.job_http_timeout_secs.max(1)),
        })
    }

    /// `text` with every secret of the SMTP URL replaced by `***`.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        if let Some(smtp) = &self.smtp {
            for secret in &smtp.secrets {
                out = out.replace(secret.as_str(), "***");
            }
        }
        out
    }

    /// Where mails go, for logs: the SMTP URL without its password, or the outbox directory.
    pub fn describe(&self) -> String {
        match &self.smtp {
            Some(smtp) => smtp.display.clone(),
            None => format!("outbox {}", self.outbox.display()),
        }
    }
}

const URL_FORMS: &str = "use smtp://host:port, smtp://user:pass@host?tls=required or smtps://user:pass@host";

/// Checks an SMTP URL (see the module docs) without ever echoing it.
fn parse_smtp_url(raw: &str) -> Result<SmtpServer, String> {
    let raw = raw.trim();
    let url = url::Url::parse(raw).map_err(|e| format!("smtp_url is not a valid URL ({e}); {URL_FORMS}"))?;
    let scheme = url.scheme();
    if scheme != "smtp" && scheme != "smtps" {
        return Err(format!("smtp_url has the scheme {scheme:?}; {URL_FORMS}"));
    }
    let Some(host) = url.host_str().filter(|h| !h.is_empty()) else {
        return Err(format!("smtp_url names no host; {URL_FORMS}"));
    };
    let mut tls = None;
    for (key, value) in url.query_pairs() {
        match (scheme, key.as_ref(), value.as_ref()) {
            ("smtp", "tls", "required" | "opportunistic") if tls.is_none() => tls = Some(value.to_string()),
            ("smtp", "tls", other) => {
                return Err(format!(
                    "smtp_url: tls={other:?} is not understood; use tls=required or tls=opportunistic"
                ));
            }
            (_, key, _) => return Err(format!("smtp_url: the parameter {key:?} is not understood; {URL_FORMS}")),
        }
    }
    let user = percent(url.username());
    let password = url.password().map(percent);
    if !user.is_empty() && password.is_none() {
        return Err("smtp_url has a user name but no password".into());
    }
    if password.is_some() && user.is_empty() {
        return Err("smtp_url has a password but no user name".into());
    }
    let encrypted = scheme == "smtps" || tls.as_deref() == Some("required");
    if password.is_some() && !encrypted && !is_loopback(host) {
        return Err(format!(
            "smtp_url sends a password to {host} without encryption; use smtps:// or add ?tls=required"
        ));
    }
    lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(raw)
        .map_err(|_| format!("smtp_url is not a connection URL the SMTP client accepts; {URL_FORMS}"))?;
    let mut secrets = Vec::new();
    if let Some(raw_password) = url.password() {
        secrets.push(raw_password.to_string());
        secrets.extend(password.filter(|p| p != raw_password));
    }
    secrets.retain(|s| !s.is_empty());
    // Longest first, so a secret that contains another is masked whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    Ok(SmtpServer { url: raw.to_string(), display: crate::config::values::SmtpUrl::from(raw).redacted(), secrets })
}

/// Decodes `%XX` escapes as lettre does for credentials (invalid UTF-8 is replaced).
fn percent(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(url: &str, environment: Environment, from: &str) -> Config {
        Config { smtp_url: url.into(), environment, mail_from: from.into(), ..Config::default() }
    }

    fn check(url: &str) -> Result<MailSettings, String> {
        MailSettings::from_config(&config(url, Environment::Development, ""))
    }

    #[test]
    fn empty_url_means_the_outbox_with_a_default_sender() {
        let s = check("").unwrap();
        assert!(s.smtp.is_none());
        assert_eq!(s.outbox, PathBuf::from("data/outbox"));
        assert_eq!(s.from.to_string(), "Virtual Market <no-reply@localhost>");
        assert_eq!(s.describe(), "outbox data/outbox");
    }

    #[test]
    fn accepted_forms() {
        for url in [
            "smtp://127.0.0.1:2525",
            "smtp://mail.example.com",
            "smtp://user:secret@mail.example.com:587?tls=required",
            "smtp://mail.example.com?tls=opportunistic",
            "smtps://user:secret@mail.example.com",
            "smtp://user:secret@localhost:2525",
            "smtp://user:secret@[::1]:2525",
            "smtp://mail.example.com/vmarket.example.com",
        ] {
            assert!(check(url).is_ok(), "{url}: {:?}", check(url).err());
        }
    }

    #[test]
    fn refused_forms_never_echo_the_password() {
        for (url, says) in [
            ("http://user:hunter22@mail.example.com", "scheme \"http\""),
            ("smtp://user:hunter22@mail.example.com", "without encryption"),
            ("smtp://user:hunter22@mail.example.com?tls=opportunistic", "without encryption"),
            ("smtp://user:hunter22@mail.example.com?tls=require", "tls=\"require\""),
            ("smtp://user:hunter22@mail.example.com?starttls=1", "\"starttls\""),
            ("smtps://user:hunter22@mail.example.com?tls=required", "\"tls\""),
            ("smtp://user@mail.example.com", "no password"),
            ("smtp://:hunter22@mail.example.com?tls=required", "no user name"),
            ("smtp:// user:hunter22@", "not a valid URL"),
            ("smtp:///", "no host"),
        ] {
            let err = check(url).expect_err(url);
            assert!(err.contains(says), "{url}: {err}");
            assert!(!err.contains("hunter22"), "{url}: the password leaked into {err}");
        }
    }

    #[test]
    fn smtp_outside_development_needs_a_sender() {
        let url = "smtps://u:p@mail.example.com";
        let err = MailSettings::from_config(&config(url, Environment::Production, "")).unwrap_err();
        assert!(err.contains("mail_from is required") && err.contains("production"), "{err}");
        assert!(MailSettings::from_config(&config(url, Environment::Staging, " ")).is_err());
        let s = MailSettings::from_config(&config(url, Environment::Production, "Vket <info@vket.example>")).unwrap();
        assert_eq!(s.from.email.to_string(), "info@vket.example");
        // The outbox needs no real sender, even in production.
        assert!(MailSettings::from_config(&config("", Environment::Production, "")).is_ok());
        let err = MailSettings::from_config(&config("", Environment::Development, "not an address")).unwrap_err();
        assert!(err.contains("mail_from"), "{err}");
    }

    #[test]
    fn secrets_are_scrubbed_raw_and_decoded() {
        let s = check("smtps://mailer:p%40ss%3Aw0rd@mail.example.com").unwrap();
        let smtp = s.smtp.as_ref().unwrap();
        assert_eq!(smtp.display, "smtps://mailer:***@mail.example.com");
        assert_eq!(format!("{smtp:?}"), "SmtpServer { url: \"smtps://mailer:***@mail.example.com\", .. }");
        assert_eq!(s.scrub("auth p@ss:w0rd / p%40ss%3Aw0rd failed"), "auth *** / *** failed");
        let config = config("smtps://mailer:p%40ss@mail.example.com", Environment::Development, "");
        assert!(!format!("{config:?}").contains("p%40ss"), "Config's Debug hides the password");
    }
}
