//! Event phases: their types and numeric codes (spec §3), their status against the clock, and
//! the display labels shown on the timeline (spec §4).

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Defined with its entity (`db::entities::event_phase`); part of this model's API.
pub use crate::db::entities::event_phase::PhaseType;

/// The label a display phase is shown under (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisplayLabel {
    /// Entries are accepted.
    Entry,
    /// A lottery is drawn.
    Lottery,
    /// Winners pay.
    Payment,
    /// Booths are submitted.
    Submission,
}

impl DisplayLabel {
    /// The snake_case name, used as a message key suffix.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Entry => "entry",
            Self::Lottery => "lottery",
            Self::Payment => "payment",
            Self::Submission => "submission",
        }
    }
}

impl PhaseType {
    /// The numeric code of the phase. Codes marked "spec" are those of spec §3; the rest fill
    /// the gaps between them in timeline order.
    pub fn code(self) -> i32 {
        use PhaseType::*;
        match self {
            None => 0,
            EntryStart => 1000,         // spec
            EntryEnd => 1001,           // spec
            FirstLotteryStart => 2000,  // spec
            FirstLotteryEnd => 2001,    // spec
            FirstPaymentStart => 2002,  // spec
            FirstPaymentEnd => 2003,    // spec
            SecondLotteryStart => 3000, // spec
            SecondLotteryEnd => 3001,   // spec
            SecondPaymentStart => 3002, // spec
            SecondPaymentEnd => 3003,   // spec
            VkettoolsOpen => 4000,      // spec ("tools open")
            SubmissionStart => 4001,    // spec
            AutoBuildStart => 4002,
            SubmissionEnd => 4003, // spec
            VmarketToolsSubmissionEnd => 4004,
            InspectionStart => 4005,
            InspectionEnd => 4006,
            CatalogOpen => 5000,
            CompanyCatalogOpen => 5001,
            EventOpen => 5002,  // spec
            EventClose => 5003, // spec
            PublicOpen => 5004,
            DisplayEntry => 10000,           // spec
            DisplayFirstLottery => 10001,    // spec
            DisplayFirstPayment => 10002,    // spec
            DisplaySecondLottery => 10003,   // spec
            DisplaySecondPayment => 10004,   // spec
            DisplaySubmissionStart => 10005, // spec
            DisplaySubmissionEnd => 10006,   // spec
        }
    }

    /// The snake_case name, as stored and sent.
    pub fn as_str(self) -> String {
        self.to_value()
    }

    /// The label of a display phase; `None` for the others.
    pub fn display_label(self) -> Option<DisplayLabel> {
        use PhaseType::*;
        match self {
            DisplayEntry => Some(DisplayLabel::Entry),
            DisplayFirstLottery | DisplaySecondLottery => Some(DisplayLabel::Lottery),
            DisplayFirstPayment | DisplaySecondPayment => Some(DisplayLabel::Payment),
            DisplaySubmissionStart | DisplaySubmissionEnd => Some(DisplayLabel::Submission),
            _ => Option::None,
        }
    }
}

/// Where a phase stands against "now".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseStatus {
    /// Reached and superseded by a later phase.
    Past,
    /// The most recently reached phase.
    Present,
    /// Not reached yet.
    Future,
}

impl PhaseStatus {
    /// Whether the phase has been reached (present or past).
    pub fn is_reached(self) -> bool {
        !matches!(self, Self::Future)
    }
}

/// The status of the phase at `at` within `timeline` at `now`: phases at or before `now` are
/// reached; of those, the latest is `present` (ties all present) and the others `past`.
pub fn status_of(at: DateTime<Utc>, timeline: &[DateTime<Utc>], now: DateTime<Utc>) -> PhaseStatus {
    if at > now {
        return PhaseStatus::Future;
    }
    let latest = timeline.iter().filter(|t| **t <= now).max().copied().unwrap_or(at);
    if at == latest { PhaseStatus::Present } else { PhaseStatus::Past }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use sea_orm::Iterable;

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, d, 3, 0, 0).unwrap()
    }

    /// Statuses of every phase of `timeline` at `now`.
    fn statuses(timeline: &[DateTime<Utc>], now: DateTime<Utc>) -> Vec<PhaseStatus> {
        timeline.iter().map(|t| status_of(*t, timeline, now)).collect()
    }

    #[test]
    fn statuses_move_with_time() {
        let timeline = [day(1), day(10), day(20)];
        use PhaseStatus::*;
        assert_eq!(statuses(&timeline, day(1) - chrono::Duration::seconds(1)), [Future, Future, Future]);
        assert_eq!(statuses(&timeline, day(1)), [Present, Future, Future]);
        assert_eq!(statuses(&timeline, day(15)), [Past, Present, Future]);
        assert_eq!(statuses(&timeline, day(25)), [Past, Past, Present]);
        assert_eq!(status_of(day(10), &timeline, day(15)), Present);
        assert_eq!(status_of(day(1), &timeline, day(15)), Past);
    }

    #[test]
    fn codes_match_the_spec_table() {
        assert_eq!(PhaseType::EntryStart.code(), 1000);
        assert_eq!(PhaseType::SecondPaymentEnd.code(), 3003);
        assert_eq!(PhaseType::SubmissionEnd.code(), 4003);
        assert_eq!(PhaseType::EventOpen.code(), 5002);
        assert_eq!(PhaseType::DisplaySubmissionEnd.code(), 10006);
        let mut codes: Vec<i32> = PhaseType::iter().map(PhaseType::code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), PhaseType::iter().count(), "codes are unique");
    }

    #[test]
    fn display_phases_map_to_labels() {
        assert_eq!(PhaseType::DisplaySecondLottery.display_label(), Some(DisplayLabel::Lottery));
        assert_eq!(PhaseType::DisplaySubmissionEnd.display_label(), Some(DisplayLabel::Submission));
        assert_eq!(PhaseType::EventOpen.display_label(), None);
    }
}
