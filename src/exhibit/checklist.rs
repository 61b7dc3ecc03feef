//! The checklist of a slot (issue 28 item 7, ASSETS.md "Checklist per slot"): paid → catalogue
//! items → booth submitted → inspection passed → event open, each step with its state and its
//! deadline under the one clock. A pure function of what is stored, so the hub page, the
//! dashboard and the tests read the same answer.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::event_slot_submission::InspectionStatus;
use crate::exhibit::catalog::edits_close_at;
use crate::exhibit::submission::SubmissionView;
use crate::exhibit::term::SubmissionTerm;
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;

/// Which step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// The slot is paid (or free).
    Paid,
    /// At least one catalogue item is listed.
    Catalog,
    /// A booth is submitted.
    Submitted,
    /// The newest submission passed inspection.
    Inspected,
    /// The event is open.
    EventOpen,
}

/// Where a step stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepState {
    /// Done.
    Done,
    /// To do now: its window is open.
    Open,
    /// Waiting on someone else (staff's inspection) or on the clock (the event's opening).
    Waiting,
    /// Staff asked for a fix: submit again.
    NeedsFix,
    /// Its window has not opened yet.
    Locked,
    /// Its window closed before it was done.
    Missed,
}

/// One step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Step {
    /// Which step.
    pub kind: StepKind,
    /// Where it stands.
    pub state: StepState,
    /// When its window opens (shown while it is locked).
    pub opens_at: Option<DateTime<Utc>>,
    /// When its window closes (its deadline).
    pub deadline: Option<DateTime<Utc>>,
}

/// What the checklist of one slot reads.
pub struct SlotFacts<'a> {
    /// The slot's catalogue items.
    pub items: usize,
    /// Its newest submission.
    pub newest: Option<&'a SubmissionView>,
}

/// The state of a step whose window is `[opens, closes)` at `now`, done or not.
fn windowed(done: bool, opens: Option<DateTime<Utc>>, closes: Option<DateTime<Utc>>, now: DateTime<Utc>) -> StepState {
    match (done, opens, closes) {
        (true, _, _) => StepState::Done,
        (false, Some(o), _) if now < o => StepState::Locked,
        (false, _, Some(c)) if now >= c => StepState::Missed,
        (false, None, None) => StepState::Locked,
        _ => StepState::Open,
    }
}

/// The five steps of a slot of `event` at `now`.
pub fn steps(event: &EventWithPhases, facts: &SlotFacts<'_>, now: DateTime<Utc>) -> Vec<Step> {
    let term = SubmissionTerm::of(event, now);
    let catalog_closes = edits_close_at(event);
    let inspection_end = event.at(PhaseType::InspectionEnd);
    let event_open = event.at(PhaseType::EventOpen);
    let submitted = facts.newest.is_some();
    let inspected = match facts.newest.map(|s| s.inspection.status) {
        Some(InspectionStatus::Passed) => StepState::Done,
        Some(InspectionStatus::NeedsFix) if term.is_submit => StepState::NeedsFix,
        Some(InspectionStatus::NeedsFix) => StepState::Missed,
        Some(InspectionStatus::Pending) if inspection_end.is_some_and(|e| now >= e) => StepState::Missed,
        Some(InspectionStatus::Pending) => StepState::Waiting,
        None if submitted => StepState::Waiting,
        None => windowed(false, term.submission_start_at, term.submission_end_at, now).min_locked(),
    };
    vec![
        Step { kind: StepKind::Paid, state: StepState::Done, opens_at: None, deadline: None },
        Step {
            kind: StepKind::Catalog,
            state: windowed(facts.items > 0, None, catalog_closes, now).or_open(catalog_closes.is_none()),
            opens_at: None,
            deadline: catalog_closes,
        },
        Step {
            kind: StepKind::Submitted,
            state: windowed(submitted, term.submission_start_at, term.submission_end_at, now),
            opens_at: term.submission_start_at,
            deadline: term.submission_end_at_display,
        },
        Step {
            kind: StepKind::Inspected,
            state: inspected,
            opens_at: event.at(PhaseType::InspectionStart),
            // A fix is due when submissions close; otherwise staff's inspection ends then.
            deadline: if inspected == StepState::NeedsFix { term.submission_end_at_display } else { inspection_end },
        },
        Step {
            kind: StepKind::EventOpen,
            state: if event_open.is_some_and(|o| now >= o) { StepState::Done } else { StepState::Waiting },
            opens_at: event_open,
            deadline: None,
        },
    ]
}

impl StepState {
    /// A step that can only follow a submission is never "open" on its own: before a
    /// submission it waits (locked) for one; a missed submission window misses it too.
    fn min_locked(self) -> Self {
        match self {
            Self::Open => Self::Locked,
            other => other,
        }
    }

    /// A step without a closing phase is open until done (instead of locked).
    fn or_open(self, no_window: bool) -> Self {
        if no_window && self == Self::Locked { Self::Open } else { self }
    }
}

/// The next deadline of a slot at `now`: the earliest deadline of a step still to do (open or
/// needing a fix).
pub fn next_deadline(steps: &[Step], now: DateTime<Utc>) -> Option<(StepKind, DateTime<Utc>)> {
    steps
        .iter()
        .filter(|s| matches!(s.state, StepState::Open | StepState::NeedsFix))
        .filter_map(|s| s.deadline.filter(|d| *d > now).map(|d| (s.kind, d)))
        .min_by_key(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::db::entities::event_slot_submission::ToolsType;
    use crate::db::entities::{event, event_phase};
    use crate::exhibit::submission::InspectionView;

    fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, day, 0, 0, 0).unwrap()
    }

    fn event_with(phases: &[(PhaseType, u32)]) -> EventWithPhases {
        let event = event::Model::fixture(1, at(1));
        let phases = phases
            .iter()
            .enumerate()
            .map(|(i, (kind, day))| event_phase::Model {
                id: i as i32 + 1,
                event_id: 1,
                phase_type: *kind,
                phase_timestamp: at(*day),
                is_private: false,
                is_displayable: true,
            })
            .collect();
        EventWithPhases { event, phases }
    }

    fn submission(status: InspectionStatus) -> SubmissionView {
        SubmissionView {
            id: 1,
            slot_id: 1,
            version: 1,
            file_name: "booth.zip".into(),
            submission_tools_type: ToolsType::VmarketTools,
            is_booth_error: false,
            submission_at: at(5),
            submission_thumbnail: None,
            build_data_size: 1,
            asset_version_id: 1,
            asset_id: 1,
            report: None,
            inspection: InspectionView { status, findings: vec![], inspected_at: None },
        }
    }

    const PHASES: [(PhaseType, u32); 6] = [
        (PhaseType::SubmissionStart, 4),
        (PhaseType::SubmissionEnd, 10),
        (PhaseType::InspectionStart, 8),
        (PhaseType::InspectionEnd, 12),
        (PhaseType::CatalogOpen, 14),
        (PhaseType::EventOpen, 20),
    ];

    fn states(newest: Option<&SubmissionView>, items: usize, day: u32) -> Vec<StepState> {
        steps(&event_with(&PHASES), &SlotFacts { items, newest }, at(day)).into_iter().map(|s| s.state).collect()
    }

    #[test]
    fn the_checklist_turns_green_step_by_step_as_the_clock_moves() {
        use StepState::*;
        assert_eq!(states(None, 0, 1), [Done, Open, Locked, Locked, Waiting]);
        assert_eq!(states(None, 1, 5), [Done, Done, Open, Locked, Waiting]);
        let pending = submission(InspectionStatus::Pending);
        assert_eq!(states(Some(&pending), 1, 6), [Done, Done, Done, Waiting, Waiting]);
        let fix = submission(InspectionStatus::NeedsFix);
        assert_eq!(states(Some(&fix), 1, 9), [Done, Done, Done, NeedsFix, Waiting]);
        assert_eq!(states(Some(&fix), 1, 11), [Done, Done, Done, Missed, Waiting]);
        let passed = submission(InspectionStatus::Passed);
        assert_eq!(states(Some(&passed), 1, 21), [Done, Done, Done, Done, Done]);
        assert_eq!(states(None, 0, 15), [Done, Missed, Missed, Missed, Waiting]);
    }

    #[test]
    fn the_next_deadline_is_the_earliest_open_one() {
        let e = event_with(&PHASES);
        let s = steps(&e, &SlotFacts { items: 0, newest: None }, at(5));
        assert_eq!(next_deadline(&s, at(5)), Some((StepKind::Submitted, at(10))));
        let s = steps(&e, &SlotFacts { items: 0, newest: None }, at(11));
        assert_eq!(next_deadline(&s, at(11)), Some((StepKind::Catalog, at(14))));
    }
}
