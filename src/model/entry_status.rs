//! Lottery statuses over time (DOMAIN.md "Application statuses"): the transitions that time
//! alone makes, applied on every read ([`effective_status`]), so a stopped worker never shows a
//! wrong status, and the entry's lottery type, derived from its applications and the phase
//! ([`lottery_type`]) and never stored.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Defined with its entity (`db::entities::event_entry_application`); part of this model's API.
pub use crate::db::entities::event_entry_application::{LotteryRound, LotteryStatus};
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;

/// The status `stored` stands for at `now` in `event`'s timeline: a win whose payment window has
/// closed unpaid is `first_win_unpaid` / `second_win_unpaid`; a second-round loss is `lost` once
/// the second payment window has closed, and so is a first-round loss in an event without a
/// second lottery once the first payment window has closed. Every other status stays as stored.
/// A pure function of its inputs: the sweep job writes the same result.
pub fn effective_status(stored: LotteryStatus, event: &EventWithPhases, now: DateTime<Utc>) -> LotteryStatus {
    use LotteryStatus::*;
    let closed = |kind: PhaseType| event.reached(kind, now);
    match stored {
        FirstWin if closed(PhaseType::FirstPaymentEnd) => FirstWinUnpaid,
        SecondWin if closed(PhaseType::SecondPaymentEnd) => SecondWinUnpaid,
        SecondLost if closed(PhaseType::SecondPaymentEnd) => Lost,
        FirstLost if event.at(PhaseType::SecondLotteryStart).is_none() && closed(PhaseType::FirstPaymentEnd) => Lost,
        other => other,
    }
}

/// The status an application shows to its circle: [`effective_status`], except that a
/// `first_lost` wish of an entry without multiple-win that won in the first round
/// (`single_win_won_first`) shows as `lost`: such an entry keeps, pays, declines or loses its
/// one win, and its other wishes take no part in the second draw (DOMAIN.md "The lottery";
/// `model::lottery_inputs::load_inputs` leaves them out), so nothing is ahead of them. The stored
/// status stays `first_lost`, the first draw's record.
pub fn shown_status(
    stored: LotteryStatus,
    single_win_won_first: bool,
    event: &EventWithPhases,
    now: DateTime<Utc>,
) -> LotteryStatus {
    match effective_status(stored, event, now) {
        LotteryStatus::FirstLost if single_win_won_first => LotteryStatus::Lost,
        other => other,
    }
}

/// An entry's lottery type (spec §3 "Entry lottery types").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LotteryType {
    /// Waiting for the first draw.
    Applied,
    /// The first draw's window is open.
    FirstLottery,
    /// Won the first draw: pay in the first payment window.
    FirstWinPayment,
    /// Lost the first draw; the second is ahead.
    FirstLost,
    /// The second draw's window is open.
    SecondLottery,
    /// Won the second draw: pay in the second payment window.
    SecondWinPayment,
    /// A draw's window has closed but its result is not published yet: staff hold it.
    Adjusting,
    /// A win was not paid in time.
    Unpaid,
    /// Won a free slot.
    Win,
    /// Won and paid.
    WinPaid,
    /// Lost (or declined) for good.
    Lost,
    /// Left out of the draw: the circle is suspended or a rule was broken.
    Incorrect,
}

impl LotteryType {
    /// The snake_case name, used in message keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::FirstLottery => "first_lottery",
            Self::FirstWinPayment => "first_win_payment",
            Self::FirstLost => "first_lost",
            Self::SecondLottery => "second_lottery",
            Self::SecondWinPayment => "second_win_payment",
            Self::Adjusting => "adjusting",
            Self::Unpaid => "unpaid",
            Self::Win => "win",
            Self::WinPaid => "win_paid",
            Self::Lost => "lost",
            Self::Incorrect => "incorrect",
        }
    }

    /// Whether this is one of the winning types (spec §4 "Winning statuses").
    pub fn is_winning(self) -> bool {
        matches!(self, Self::FirstWinPayment | Self::SecondWinPayment | Self::WinPaid | Self::Win)
    }
}

/// The lottery type of an entry whose applications have the (effective) `statuses`, for a
/// circle that is `suspended` or not, in `event`'s timeline at `now`. The best outcome wins: a
/// paid slot over a free win over a win to pay; then a draw still ahead (open, or closed and held
/// by staff: `adjusting`); then unpaid; then lost.
pub fn lottery_type(
    statuses: &[LotteryStatus],
    suspended: bool,
    event: &EventWithPhases,
    now: DateTime<Utc>,
) -> LotteryType {
    use LotteryStatus as S;
    let any = |s: S| statuses.contains(&s);
    let reached = |kind: PhaseType| event.reached(kind, now);
    if any(S::Paid) {
        return LotteryType::WinPaid;
    }
    if any(S::Win) {
        return LotteryType::Win;
    }
    if any(S::SecondWin) {
        return LotteryType::SecondWinPayment;
    }
    if any(S::FirstWin) {
        return LotteryType::FirstWinPayment;
    }
    if suspended || any(S::Incorrect) {
        return LotteryType::Incorrect;
    }
    if any(S::Applied) {
        return if reached(PhaseType::FirstLotteryEnd) {
            LotteryType::Adjusting
        } else if reached(PhaseType::FirstLotteryStart) {
            LotteryType::FirstLottery
        } else {
            LotteryType::Applied
        };
    }
    if any(S::FirstLost) {
        return if reached(PhaseType::SecondLotteryEnd) {
            LotteryType::Adjusting
        } else if reached(PhaseType::SecondLotteryStart) {
            LotteryType::SecondLottery
        } else {
            LotteryType::FirstLost
        };
    }
    if any(S::FirstWinUnpaid) || any(S::SecondWinUnpaid) {
        return LotteryType::Unpaid;
    }
    LotteryType::Lost
}

/// What happens next to an application, as its circle reads it beside the status (issue 26:
/// "payment opens …", "pay by …").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NextStepKind {
    /// Waiting for the first draw, which starts at `at`.
    FirstDraw,
    /// Lost the first draw; the second starts at `at`.
    SecondDraw,
    /// Won; its payment window opens at `at` (nothing to pay before).
    PaymentOpens,
    /// Won; its payment window is open until `at`.
    PayBy,
}

/// [`NextStepKind`] with its instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct NextStep {
    /// What comes.
    pub kind: NextStepKind,
    /// When.
    pub at: DateTime<Utc>,
}

/// What comes next for an application whose shown status is `shown` ([`shown_status`]) of a
/// circle that is `suspended` or not, in `event`'s timeline at `now`, if anything is ahead with
/// a date: a win to pay waits for its payment window or must be paid before its end; an
/// application waits for the first draw, a first-round loss for the second — unless its circle
/// is suspended, which leaves it out of every draw ([`lottery_type`]: `incorrect`). Paid, free,
/// lost, declined and unpaid applications have nothing ahead (their status says it all), nor has
/// a draw already under way.
pub fn next_step(
    shown: LotteryStatus,
    suspended: bool,
    event: &EventWithPhases,
    now: DateTime<Utc>,
) -> Option<NextStep> {
    use LotteryStatus as S;
    let ahead = |kind: PhaseType| event.at(kind).filter(|at| *at > now);
    let step = |kind: NextStepKind, at: DateTime<Utc>| NextStep { kind, at };
    let payment = |start: PhaseType, end: PhaseType| match ahead(start) {
        Some(opens) => Some(step(NextStepKind::PaymentOpens, opens)),
        None => ahead(end).map(|closes| step(NextStepKind::PayBy, closes)),
    };
    match shown {
        S::Applied | S::FirstLost if suspended => None,
        S::Applied => ahead(PhaseType::FirstLotteryStart).map(|at| step(NextStepKind::FirstDraw, at)),
        S::FirstLost => ahead(PhaseType::SecondLotteryStart).map(|at| step(NextStepKind::SecondDraw, at)),
        S::FirstWin => payment(PhaseType::FirstPaymentStart, PhaseType::FirstPaymentEnd),
        S::SecondWin => payment(PhaseType::SecondPaymentStart, PhaseType::SecondPaymentEnd),
        _ => None,
    }
}

/// Whether an application in (effective) `status` holds one of its plan's slots: a win while it
/// can still be paid (`first_win`, `second_win`), a free win, a paid one. The second draw offers
/// the rest of `maximum` (`model::lottery_inputs`), and staff corrections never exceed it
/// (`model::entry_correction`).
pub fn holds_slot(status: LotteryStatus) -> bool {
    use LotteryStatus::*;
    matches!(status, FirstWin | SecondWin | Win | Paid)
}

/// Whether staff may correct an application from (effective) status `from` to `to` (issue 14:
/// a corrective change with a reason). Decided here, since DOMAIN.md draws only the transitions
/// that draws, payments and time make:
///
/// - along an edge of DOMAIN.md's diagram, either way (a step done, or one done wrongly undone):
///   `applied` ↔ `first_win` / `first_lost` / `win`, `first_win` ↔ `first_win_unpaid` /
///   `decline`, `first_lost` ↔ `second_win` / `second_lost` / `win` / `lost`, `second_win` ↔
///   `second_win_unpaid` / `decline`, `second_lost` ↔ `lost`;
/// - to `incorrect` (a broken rule) from any status but `paid`, and back from `incorrect` to
///   `applied` or `first_lost` (readmitted to the next draw);
/// - never to or from `paid`: only a settled payment makes an application paid, and undoing one
///   is a refund (payments' reconcile), not a status edit;
/// - never to the status it already has.
pub fn correction_allowed(from: LotteryStatus, to: LotteryStatus) -> bool {
    use LotteryStatus::*;
    const EDGES: [(LotteryStatus, LotteryStatus); 12] = [
        (Applied, FirstWin),
        (Applied, FirstLost),
        (Applied, Win),
        (FirstWin, FirstWinUnpaid),
        (FirstWin, Decline),
        (FirstLost, SecondWin),
        (FirstLost, SecondLost),
        (FirstLost, Win),
        (FirstLost, Lost),
        (SecondWin, SecondWinUnpaid),
        (SecondWin, Decline),
        (SecondLost, Lost),
    ];
    if from == to || from == Paid || to == Paid {
        return false;
    }
    to == Incorrect
        || (from == Incorrect && matches!(to, Applied | FirstLost))
        || EDGES.iter().any(|&(a, b)| (a, b) == (from, to) || (b, a) == (from, to))
}

/// The statuses staff may correct an application in `from` to ([`correction_allowed`]).
pub fn corrections_from(from: LotteryStatus) -> Vec<LotteryStatus> {
    use sea_orm::Iterable;
    LotteryStatus::iter().filter(|to| correction_allowed(from, *to)).collect()
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;
    use crate::db::entities::{event, event_phase};

    fn t(day: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 3, 0, 0).unwrap() + Duration::days(day)
    }

    /// An event whose phases are at day 10 × their order: entry 10–20, first lottery 30–40,
    /// first payment 50–60, second lottery 70–80, second payment 90–100 (without the second
    /// round when `second` is false).
    fn timeline(second: bool) -> EventWithPhases {
        let kinds = {
            use PhaseType::*;
            let mut kinds =
                vec![EntryStart, EntryEnd, FirstLotteryStart, FirstLotteryEnd, FirstPaymentStart, FirstPaymentEnd];
            if second {
                kinds.extend([SecondLotteryStart, SecondLotteryEnd, SecondPaymentStart, SecondPaymentEnd]);
            }
            kinds
        };
        let phases = kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| event_phase::Model {
                id: i as i32 + 1,
                event_id: 1,
                phase_type: kind,
                phase_timestamp: t(10 * (i as i64 + 1)),
                is_private: false,
                is_displayable: true,
            })
            .collect();
        let event = event::Model::fixture(1, t(0));
        EventWithPhases { event, phases }
    }

    #[test]
    fn the_next_step_names_the_payment_window_before_it_opens_and_its_end_while_open() {
        use NextStepKind::*;
        let e = timeline(true);
        let next = |s: LotteryStatus, day: i64| next_step(s, false, &e, t(day)).map(|n| (n.kind, n.at));
        // After the first draw (day 40), before the payment window (50–60): nothing to pay yet.
        assert_eq!(next(LotteryStatus::FirstWin, 45), Some((PaymentOpens, t(50))));
        assert_eq!(next(LotteryStatus::FirstWin, 50), Some((PayBy, t(60))), "opens at its instant");
        assert_eq!(next(LotteryStatus::FirstWin, 59), Some((PayBy, t(60))));
        assert_eq!(next(LotteryStatus::FirstWinUnpaid, 60), None, "the status says it");
        assert_eq!(next(LotteryStatus::SecondWin, 85), Some((PaymentOpens, t(90))));
        assert_eq!(next(LotteryStatus::SecondWin, 95), Some((PayBy, t(100))));
        assert_eq!(next(LotteryStatus::Applied, 25), Some((FirstDraw, t(30))));
        assert_eq!(next(LotteryStatus::Applied, 35), None, "the draw is under way");
        assert_eq!(next(LotteryStatus::FirstLost, 45), Some((SecondDraw, t(70))));
        assert_eq!(next_step(LotteryStatus::FirstLost, false, &timeline(false), t(45)), None, "no second round");
        // A suspended circle takes part in no draw; a win it holds is still to pay.
        assert_eq!(next_step(LotteryStatus::Applied, true, &e, t(25)), None);
        assert_eq!(next_step(LotteryStatus::FirstLost, true, &e, t(45)), None);
        assert_eq!(next_step(LotteryStatus::FirstWin, true, &e, t(45)).map(|n| n.kind), Some(PaymentOpens));
        for done in [LotteryStatus::Paid, LotteryStatus::Win, LotteryStatus::Lost, LotteryStatus::Decline] {
            assert_eq!(next(done, 45), None, "{done:?}");
        }
    }

    #[test]
    fn an_unpaid_first_win_turns_unpaid_exactly_when_the_payment_window_closes() {
        let e = timeline(true);
        let end = t(60);
        assert_eq!(effective_status(LotteryStatus::FirstWin, &e, end - Duration::seconds(1)), LotteryStatus::FirstWin);
        assert_eq!(effective_status(LotteryStatus::FirstWin, &e, end), LotteryStatus::FirstWinUnpaid);
        assert_eq!(effective_status(LotteryStatus::Paid, &e, end), LotteryStatus::Paid, "paid stays paid");
        assert_eq!(effective_status(LotteryStatus::Decline, &e, end), LotteryStatus::Decline);
        assert_eq!(effective_status(LotteryStatus::FirstLost, &e, end), LotteryStatus::FirstLost, "second round ahead");
    }

    #[test]
    fn second_round_statuses_close_with_the_second_payment_window() {
        let e = timeline(true);
        let end = t(100);
        let before = end - Duration::seconds(1);
        assert_eq!(effective_status(LotteryStatus::SecondWin, &e, before), LotteryStatus::SecondWin);
        assert_eq!(effective_status(LotteryStatus::SecondWin, &e, end), LotteryStatus::SecondWinUnpaid);
        assert_eq!(effective_status(LotteryStatus::SecondLost, &e, before), LotteryStatus::SecondLost);
        assert_eq!(effective_status(LotteryStatus::SecondLost, &e, end), LotteryStatus::Lost);
    }

    #[test]
    fn without_a_second_round_a_first_loss_is_final_after_the_first_payment_window() {
        let e = timeline(false);
        assert_eq!(effective_status(LotteryStatus::FirstLost, &e, t(59)), LotteryStatus::FirstLost);
        assert_eq!(effective_status(LotteryStatus::FirstLost, &e, t(60)), LotteryStatus::Lost);
    }

    #[test]
    fn the_lottery_type_follows_the_phase_and_the_best_outcome() {
        use LotteryStatus as S;
        let e = timeline(true);
        let ty = |statuses: &[S], day: i64| lottery_type(statuses, false, &e, t(day));
        assert_eq!(ty(&[S::Applied, S::Applied], 15), LotteryType::Applied);
        assert_eq!(ty(&[S::Applied], 30), LotteryType::FirstLottery);
        assert_eq!(ty(&[S::Applied], 45), LotteryType::Adjusting, "draw window closed, not published");
        assert_eq!(ty(&[S::FirstWin, S::FirstLost], 55), LotteryType::FirstWinPayment);
        assert_eq!(ty(&[S::FirstLost, S::FirstLost], 55), LotteryType::FirstLost);
        assert_eq!(ty(&[S::FirstLost], 75), LotteryType::SecondLottery);
        assert_eq!(ty(&[S::SecondWin, S::FirstLost], 95), LotteryType::SecondWinPayment);
        assert_eq!(ty(&[S::Paid, S::Lost], 120), LotteryType::WinPaid);
        assert_eq!(ty(&[S::Win], 120), LotteryType::Win);
        assert_eq!(ty(&[S::FirstWinUnpaid, S::Lost], 120), LotteryType::Unpaid);
        assert_eq!(ty(&[S::Lost, S::Decline], 120), LotteryType::Lost);
        assert_eq!(lottery_type(&[S::Applied], true, &e, t(15)), LotteryType::Incorrect, "suspended circle");
        assert_eq!(lottery_type(&[S::Paid], true, &e, t(120)), LotteryType::WinPaid, "a paid slot stays paid");
    }

    #[test]
    fn corrections_follow_the_diagram_either_way_and_never_touch_paid() {
        use LotteryStatus as S;
        assert!(correction_allowed(S::Applied, S::FirstWin));
        assert!(correction_allowed(S::FirstWin, S::Applied), "a wrong win undone");
        assert!(correction_allowed(S::Decline, S::FirstWin), "a decline by mistake undone");
        assert!(correction_allowed(S::SecondLost, S::Incorrect));
        assert!(correction_allowed(S::Incorrect, S::FirstLost));
        assert!(!correction_allowed(S::Applied, S::SecondWin), "skips the first draw");
        assert!(!correction_allowed(S::FirstWin, S::Paid), "only a payment pays");
        assert!(!correction_allowed(S::Paid, S::Incorrect), "a refund, not an edit");
        assert!(!correction_allowed(S::Lost, S::Lost));
        assert_eq!(corrections_from(S::SecondLost), [S::FirstLost, S::Lost, S::Incorrect]);
    }

    #[test]
    fn a_single_win_entrys_other_wishes_are_lost_once_it_won() {
        let ev = timeline(true);
        // After the first draw: the entry won its first wish; its second takes no part in the
        // second draw — lost, whatever became of the win (paid, declined, lapsed).
        for now in [t(55), t(65), t(75), t(105)] {
            assert_eq!(shown_status(LotteryStatus::FirstLost, true, &ev, now), LotteryStatus::Lost);
        }
        // Without a win (or with multiple-win) a first loss waits for the second draw.
        assert_eq!(shown_status(LotteryStatus::FirstLost, false, &ev, t(55)), LotteryStatus::FirstLost);
        // Every other status is the effective one.
        assert_eq!(shown_status(LotteryStatus::FirstWin, true, &ev, t(65)), LotteryStatus::FirstWinUnpaid);
        assert_eq!(shown_status(LotteryStatus::Decline, true, &ev, t(55)), LotteryStatus::Decline);
    }
}
