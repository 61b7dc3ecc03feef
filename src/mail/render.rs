//! Mail templates: `templates/mail/`, compiled into the binary so that every process that
//! queues mail (web, worker, CLI) renders the same thing without a template directory at hand.
//!
//! Each kind has `subject.txt.tera`, `text.txt.tera` and `html.html.tera`; the bodies extend the
//! shared `layout_text.txt.tera` / `layout.html.tera`. Templates use the site's Tera functions
//! (`t()`, `jst`). Template names are those the web's Tera gives the same files (the path without
//! its extensions: `mail/test/html`), so `extends` works in both, and the web process loads them
//! too. HTML templates are escaped like the pages; text and subject are not.

use chrono::{DateTime, Utc};
use serde_json::Value;
use tera::{self, Context, Tera};

use crate::i18n::Messages;
use crate::mail::outgoing::{MailKind, Outgoing};

/// `[subject, text, html]` as `(name, source)` for one directory of `templates/mail/`.
macro_rules! kind_sources {
    ($dir:literal) => {
        [
            (
                concat!("mail/", $dir, "/subject"),
                include_str!(concat!("../../templates/mail/", $dir, "/subject.txt.tera")),
            ),
            (concat!("mail/", $dir, "/text"), include_str!(concat!("../../templates/mail/", $dir, "/text.txt.tera"))),
            (concat!("mail/", $dir, "/html"), include_str!(concat!("../../templates/mail/", $dir, "/html.html.tera"))),
        ]
    };
}

/// The shared layouts, `[text, html]`.
const LAYOUTS: [(&str, &str); 2] = [
    ("mail/layout_text", include_str!("../../templates/mail/layout_text.txt.tera")),
    ("mail/layout", include_str!("../../templates/mail/layout.html.tera")),
];

/// The templates of `kind`: `[subject, text, html]`.
fn sources(kind: MailKind) -> [(&'static str, &'static str); 3] {
    match kind {
        MailKind::Test => kind_sources!("test"),
        MailKind::CircleInvited => kind_sources!("circle_invited"),
        MailKind::CircleApproved => kind_sources!("circle_approved"),
        MailKind::CircleWithdrawn => kind_sources!("circle_withdrawn"),
        MailKind::CircleCancelled => kind_sources!("circle_cancelled"),
        MailKind::CircleRemoved => kind_sources!("circle_removed"),
        MailKind::CircleLeft => kind_sources!("circle_left"),
        MailKind::PasswordReset => kind_sources!("password_reset"),
        MailKind::LotteryWon => kind_sources!("lottery_won"),
        MailKind::LotteryLost => kind_sources!("lottery_lost"),
        MailKind::LotteryIncorrect => kind_sources!("lottery_incorrect"),
        MailKind::PaymentReceipt => kind_sources!("payment_receipt"),
        MailKind::SubmissionInspected => kind_sources!("submission_inspected"),
        MailKind::CircleSuspended => kind_sources!("circle_suspended"),
        MailKind::BoxSubmissionReviewed => kind_sources!("box_submission_reviewed"),
    }
}

/// A rendered mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// One line, whitespace collapsed.
    pub subject: String,
    /// The plain-text part, `\n` line ends, ending in one newline.
    pub text: String,
    /// The HTML part.
    pub html: String,
}

/// The compiled mail templates.
pub struct Templates {
    tera: Tera,
}

impl Templates {
    /// Compiles every mail template with the site's functions over `messages`.
    pub fn new(messages: Messages) -> Result<Self, tera::Error> {
        let mut tera = Tera::default();
        crate::i18n::tera::register(&mut tera, messages);
        let mut all: Vec<(&str, &str)> = LAYOUTS.to_vec();
        // Raw templates have no file extension to go by: escape the HTML ones by full name.
        let mut html = vec![LAYOUTS[1].0];
        for kind in MailKind::ALL {
            let [subject, text, body] = sources(kind);
            html.push(body.0);
            all.extend([subject, text, body]);
        }
        tera.autoescape_on(html);
        tera.add_raw_templates(all)?;
        Ok(Self { tera })
    }

    /// Renders `outgoing` for the site at `site_url`, queued at `now`.
    pub fn render(&self, outgoing: &Outgoing, site_url: &str, now: DateTime<Utc>) -> Result<Rendered, tera::Error> {
        let mut context = match &outgoing.context {
            Value::Null => Context::new(),
            value @ Value::Object(_) => Context::from_value(value.clone())?,
            _ => return Err(tera::Error::msg("the context of a mail must be a JSON object")),
        };
        context.insert("lang", outgoing.lang.code());
        context.insert("site_url", site_url);
        context.insert("queued_at", &now.to_rfc3339());
        let [subject, text, html] = sources(outgoing.kind).map(|(name, _)| name);
        let subject = one_line(&self.tera.render(subject, &context)?);
        if subject.is_empty() {
            return Err(tera::Error::msg(format!("{} renders an empty subject", outgoing.kind.name())));
        }
        context.insert("subject", &subject);
        Ok(Rendered {
            text: tidy_text(&self.tera.render(text, &context)?),
            html: self.tera.render(html, &context)?,
            subject,
        })
    }
}

/// Every run of whitespace (line breaks included) as one space, trimmed: a header-safe line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Plain text with `\n` line ends, no trailing spaces, at most one blank line in a row, no
/// blank lines at either end, and a final newline.
fn tidy_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.replace("\r\n", "\n").lines().map(str::trim_end) {
        if line.is_empty() {
            blank_run += 1;
            continue;
        }
        if !out.is_empty() && blank_run > 0 {
            out.push('\n');
        }
        blank_run = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Lang;

    #[test]
    fn text_is_tidied() {
        assert_eq!(tidy_text("\n\nA  \r\n\n\n\nB\n  \nC"), "A\n\nB\n\nC\n");
        assert_eq!(one_line(" 【件名】\n  テスト\t mail "), "【件名】 テスト mail");
    }

    #[test]
    fn every_template_file_belongs_to_a_kind_or_is_a_layout() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/mail");
        let mut known: Vec<String> = LAYOUTS.iter().map(|(n, _)| n.to_string()).collect();
        known.extend(MailKind::ALL.iter().flat_map(|k| sources(*k)).map(|(n, _)| n.to_string()));
        let mut found = Vec::new();
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path.strip_prefix(dir.parent().unwrap()).unwrap().to_string_lossy().replace('\\', "/");
                    let name = rel.trim_end_matches(".tera");
                    found.push(name.trim_end_matches(".txt").trim_end_matches(".html").to_string());
                }
            }
        }
        found.sort();
        known.sort();
        assert_eq!(found, known, "a template under templates/mail is not registered (or one is missing)");
    }

    #[test]
    fn every_kind_renders_in_both_languages_without_missing_strings() {
        let messages = Messages::bundled();
        let templates = Templates::new(messages.clone()).unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-21T03:00:00Z").unwrap().to_utc();
        for kind in MailKind::ALL {
            for lang in Lang::ALL {
                let outgoing = Outgoing { to: "a@example.com".into(), lang, kind, context: Value::Null };
                let r = templates.render(&outgoing, "https://vket.example", now).unwrap();
                for part in [&r.subject, &r.text, &r.html] {
                    assert!(!part.contains("mail."), "{kind:?}/{lang}: an untranslated key in {part}");
                }
                assert!(r.html.contains(&format!("<html lang=\"{lang}\">")), "{}", r.html);
                assert!(r.text.contains("https://vket.example"), "{}", r.text);
            }
        }
    }

    #[test]
    fn html_escapes_values_and_text_keeps_them() {
        let templates = Templates::new(Messages::bundled()).unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-21T03:00:00Z").unwrap().to_utc();
        let outgoing = Outgoing {
            to: "a@example.com".into(),
            lang: Lang::En,
            kind: MailKind::Test,
            context: serde_json::json!({ "note": "<b>Tom & Jerry</b>" }),
        };
        let r = templates.render(&outgoing, "https://vket.example", now).unwrap();
        assert!(r.html.contains("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"), "{}", r.html);
        assert!(r.text.contains("<b>Tom & Jerry</b>"), "{}", r.text);
        let bad = Outgoing { context: serde_json::json!(["not", "an", "object"]), ..outgoing };
        assert!(templates.render(&bad, "https://vket.example", now).is_err());
    }
}
