//! The submission term (spec §3 "Submission term", ASSETS.md "Slots"): when an event takes its
//! booth submissions, as the desktop submission tool and the pages read it. The window runs from
//! `submission_start` to the tool's own end (`vmarket_tools_submission_end`) when the event has
//! one, else `submission_end`; the end shown to people is `display_submission_end` when set.
//! `is_submit` says whether the window is open at the server's now (the application clock, time
//! travel included).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;

/// An event's submission term.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SubmissionTerm {
    /// The event.
    pub event_id: i32,
    /// Its permalink.
    pub event_permalink: String,
    /// The server's now.
    pub server_time: DateTime<Utc>,
    /// Submissions open (none: the event takes no submissions).
    pub submission_start_at: Option<DateTime<Utc>>,
    /// Submissions close.
    pub submission_end_at: Option<DateTime<Utc>>,
    /// The close as shown to people.
    pub submission_end_at_display: Option<DateTime<Utc>>,
    /// Whether the window is open now.
    pub is_submit: bool,
}

impl SubmissionTerm {
    /// The term of `event` at `now`.
    pub fn of(event: &EventWithPhases, now: DateTime<Utc>) -> Self {
        let start = event.at(PhaseType::SubmissionStart);
        let end = event.at(PhaseType::VmarketToolsSubmissionEnd).or_else(|| event.at(PhaseType::SubmissionEnd));
        Self {
            event_id: event.event.id,
            event_permalink: event.event.permalink.clone(),
            server_time: now,
            submission_start_at: start,
            submission_end_at: end,
            submission_end_at_display: event.at(PhaseType::DisplaySubmissionEnd).or(end),
            is_submit: matches!((start, end), (Some(s), Some(e)) if s <= now && now < e),
        }
    }
}
