//! The one message builder both transports use: a complete RFC 5322 message from a stored
//! mail, `multipart/alternative` with a UTF-8 plain-text and an HTML part.

use std::time::SystemTime;

use lettre::Message;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};

use crate::db::entities::mail;

/// `Content-Language` (RFC 3282): the language the mail is written in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ContentLanguage(String);

impl Header for ContentLanguage {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Content-Language")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.trim().to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `Auto-Submitted: auto-generated` (RFC 3834): keeps auto-responders from answering.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".into())
    }
}

/// The message of `row` from `from`. Everything comes from the row (subject, bodies,
/// `Message-ID`, `Date` = when it was queued), so every attempt sends the same message and a
/// receiving system can recognise a repeat. Fails only for a recipient that is not an address.
pub fn build_message(row: &mail::Model, from: &Mailbox) -> Result<Message, String> {
    let to: Mailbox = row.recipient.parse().map_err(|e| format!("recipient is not a mail address: {e}"))?;
    Message::builder()
        .from(from.clone())
        .to(to)
        .subject(row.subject.clone())
        .date(SystemTime::from(row.created_at))
        .message_id(Some(row.message_id.clone()))
        .header(ContentLanguage(row.lang.clone()))
        .header(AutoSubmitted)
        .multipart(MultiPart::alternative_plain_html(row.text_body.clone(), row.html_body.clone()))
        .map_err(|e| format!("cannot build the message: {e}"))
}

#[cfg(test)]
mod tests {
    use mail_parser::MimeHeaders;

    use super::*;
    use crate::db::entities::mail::MailStatus;

    fn row() -> mail::Model {
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-21T03:00:00Z").unwrap().to_utc();
        mail::Model {
            id: 7,
            recipient: "mika@example.com".into(),
            lang: "ja".into(),
            kind: "test".into(),
            subject: "【バーチャルマーケット】テストメール".into(),
            text_body: "こんにちは。\nテストです。\n".into(),
            html_body: "<p>こんにちは。</p>".into(),
            message_id: "<abc123@vket.example>".into(),
            status: MailStatus::Pending,
            attempts: 0,
            last_error: None,
            created_at: at,
            next_attempt_at: Some(at),
            sent_at: None,
            dedup_key: None,
        }
    }

    #[test]
    fn message_is_complete_and_decodes_to_what_was_stored() {
        let from: Mailbox = "Virtual Market <no-reply@vket.example>".parse().unwrap();
        let raw = build_message(&row(), &from).unwrap().formatted();
        let text = String::from_utf8(raw.clone()).unwrap();
        assert!(text.is_ascii(), "headers and bodies are 7-bit encoded:\n{text}");
        assert!(text.contains("Subject: =?utf-8?b?"), "the UTF-8 subject is RFC 2047 encoded:\n{text}");
        assert!(text.contains("Content-Language: ja\r\n") && text.contains("Auto-Submitted: auto-generated\r\n"));
        assert!(text.contains("Date: Sat, 21 Nov 2026 03:00:00 +0000\r\n"), "{text}");

        let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
        assert_eq!(parsed.subject(), Some("【バーチャルマーケット】テストメール"));
        assert_eq!(parsed.message_id(), Some("abc123@vket.example"));
        assert_eq!(parsed.from().and_then(|a| a.first()).and_then(|a| a.address()), Some("no-reply@vket.example"));
        assert_eq!(parsed.to().and_then(|a| a.first()).and_then(|a| a.address()), Some("mika@example.com"));
        // Line ends travel as CRLF, as RFC 5322 wants.
        assert_eq!(parsed.body_text(0).as_deref(), Some("こんにちは。\r\nテストです。\r\n"));
        assert_eq!(parsed.body_html(0).as_deref(), Some("<p>こんにちは。</p>"));
        assert!(parsed.content_type().is_some_and(|c| c.c_type == "multipart" && c.subtype() == Some("alternative")));
    }

    #[test]
    fn a_bad_recipient_is_refused() {
        let from: Mailbox = "no-reply@vket.example".parse().unwrap();
        let bad = mail::Model { recipient: "mika@\r\nBcc: x@y".into(), ..row() };
        assert!(build_message(&bad, &from).is_err());
    }
}
