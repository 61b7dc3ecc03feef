//! The terms an entry agrees to (issue 26 item 3): an event's exhibition terms, exhibition
//! guideline and submission rules, each a document at a URL the event names. What an applicant
//! is shown is a version: its digest is the SHA-256 of each shown document's kind and URL, so
//! that a changed (or added, or removed) document is a new version. Applying requires agreeing to
//! the version shown; an edit requires it again only when the version changed since the entry
//! last agreed. An event without documents asks for nothing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::db::entities::{event, event_entry};
use crate::error::{Error, Invalid, Result};

/// The attribute a missing agreement is reported on.
pub const AGREE_FIELD: &str = "agreed_terms";

/// Which document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TermKind {
    /// The exhibition terms (出展規約).
    ExhibitionTerms,
    /// The exhibition guideline (出展ガイドライン).
    ExhibitionGuideline,
    /// The booth submission rules (入稿規定).
    SubmissionRules,
}

impl TermKind {
    /// Its name in keys and digests.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ExhibitionTerms => "exhibition_terms",
            Self::ExhibitionGuideline => "exhibition_guideline",
            Self::SubmissionRules => "submission_rules",
        }
    }
}

/// One document shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TermDocument {
    /// Which document.
    pub kind: TermKind,
    /// Where it is.
    pub url: String,
}

/// The terms of an event as shown to an applicant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Terms {
    /// The documents, in a fixed order.
    pub documents: Vec<TermDocument>,
    /// The version: SHA-256 (hex) of the documents' kinds and URLs. An entry agrees by sending it.
    pub digest: String,
}

impl Terms {
    /// The terms of `event`, or `None` when it names no document.
    pub fn of(event: &event::Model) -> Option<Self> {
        let named = [
            (TermKind::ExhibitionTerms, &event.exhibition_term_url),
            (TermKind::ExhibitionGuideline, &event.exhibition_guideline_url),
            (TermKind::SubmissionRules, &event.submission_rule_url),
        ];
        let documents: Vec<TermDocument> = named
            .into_iter()
            .filter_map(|(kind, url)| {
                let url = url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
                Some(TermDocument { kind, url: url.to_owned() })
            })
            .collect();
        if documents.is_empty() {
            return None;
        }
        let mut hash = Sha256::new();
        for d in &documents {
            // Kind and URL, each ended by a newline (neither holds one), so no two lists collide.
            hash.update(d.kind.as_str().as_bytes());
            hash.update(b"\n");
            hash.update(d.url.as_bytes());
            hash.update(b"\n");
        }
        Some(Self { documents, digest: hex::encode(hash.finalize()) })
    }

    /// The agreement an entry at `event` records, by [`Terms::agreement`]; `Ok(None)` when the
    /// event has no terms.
    pub fn agreement_at(
        event: &event::Model,
        agreed: Option<&str>,
        recorded: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Option<Agreement>> {
        match Self::of(event) {
            Some(terms) => terms.agreement(agreed, recorded, now),
            None => Ok(None),
        }
    }

    /// What `agreed` (the digest an applicant sent) records on an entry whose last agreement was
    /// to `recorded`: `Ok(None)` when nothing new is recorded (it agreed to this version
    /// before), the agreement to record otherwise; 422 on [`AGREE_FIELD`] when the applicant
    /// did not agree to this version.
    pub fn agreement(
        &self,
        agreed: Option<&str>,
        recorded: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Option<Agreement>> {
        if agreed.map(str::trim) == Some(self.digest.as_str()) {
            let shown = serde_json::to_string(&self.documents).unwrap_or_default();
            return Ok(Some(Agreement { digest: self.digest.clone(), shown, at: now }));
        }
        if recorded == Some(self.digest.as_str()) {
            return Ok(None);
        }
        Err(Error::Validation(vec![Invalid::new(AGREE_FIELD, "entries.validation.agree_terms")]))
    }
}

/// An agreement to record on an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// The version agreed to.
    pub digest: String,
    /// What was shown, as JSON.
    pub shown: String,
    /// When.
    pub at: DateTime<Utc>,
}

impl Agreement {
    /// Sets it on `row`.
    pub fn record(self, row: &mut event_entry::ActiveModel) {
        row.terms_digest = sea_orm::Set(Some(self.digest));
        row.terms_shown = sea_orm::Set(Some(self.shown));
        row.terms_agreed_at = sea_orm::Set(Some(self.at));
    }
}

/// Whether an entry that agreed to `recorded` has agreed to the current `terms` (true when there
/// are none).
pub fn is_current(terms: Option<&Terms>, recorded: Option<&str>) -> bool {
    terms.is_none_or(|t| recorded == Some(t.digest.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(term: Option<&str>, guideline: Option<&str>, rules: Option<&str>) -> event::Model {
        event::Model {
            exhibition_term_url: term.map(Into::into),
            exhibition_guideline_url: guideline.map(Into::into),
            submission_rule_url: rules.map(Into::into),
            ..event::Model::fixture(1, Utc::now())
        }
    }

    #[test]
    fn no_document_no_terms() {
        assert_eq!(Terms::of(&event(None, Some("  "), None)), None);
    }

    #[test]
    fn any_change_of_a_document_is_a_new_version() {
        let a = Terms::of(&event(Some("https://x/terms"), None, None)).unwrap();
        let b = Terms::of(&event(Some("https://x/terms2"), None, None)).unwrap();
        let c = Terms::of(&event(None, Some("https://x/terms"), None)).unwrap();
        let d = Terms::of(&event(Some("https://x/terms"), None, Some("https://x/rules"))).unwrap();
        let digests = [&a.digest, &b.digest, &c.digest, &d.digest];
        for (i, x) in digests.iter().enumerate() {
            assert_eq!(x.len(), 64);
            for y in &digests[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(a, Terms::of(&event(Some(" https://x/terms "), None, None)).unwrap(), "trimmed");
    }

    #[test]
    fn agreeing_records_once_and_a_new_version_asks_again() {
        let now = Utc::now();
        let v1 = Terms::of(&event(Some("https://x/terms"), None, None)).unwrap();
        let refused = v1.agreement(None, None, now).unwrap_err();
        assert!(matches!(&refused, Error::Validation(p) if p[0].attribute == AGREE_FIELD));
        assert!(v1.agreement(Some("0".repeat(64).as_str()), None, now).is_err(), "another version");
        let agreed = v1.agreement(Some(&v1.digest), None, now).unwrap().unwrap();
        assert_eq!(agreed.digest, v1.digest);
        assert!(agreed.shown.contains("https://x/terms") && agreed.shown.contains("exhibition_terms"));
        assert_eq!(v1.agreement(None, Some(&v1.digest), now).unwrap(), None, "agreed before");
        let v2 = Terms::of(&event(Some("https://x/terms-2027"), None, None)).unwrap();
        assert!(v2.agreement(None, Some(&v1.digest), now).is_err(), "changed terms ask again");
        assert!(!is_current(Some(&v2), Some(&v1.digest)));
        assert!(is_current(None, None));
    }
}
