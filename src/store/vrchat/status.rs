//! The VRChat avatar's status machine (ASSETS.md "The store and conversions"), pure: which
//! event moves which status where. The database side ([`crate::store::vrchat::avatar`]) writes a
//! move with a conditional update on the status this answer started from, so two workers (or a
//! worker and the owner) racing for one avatar make one move.
//!
//! ```text
//! waiting ─claim convert→ converting ─result→ converted ─claim upload→ uploading ─uploaded→ finished
//!                          │ failure                      (spends one)    │ failure (gives it back)
//!                          ▼                                              ▼
//!                   convert_failed                                 upload_failed ─retry→ converted
//! waiting, converting, converted, upload_failed ─cancel→ cancelled
//! finished, convert_failed, upload_failed, converted, cancelled ─update paid→ waiting
//! ```
//!
//! A claim whose lease ran out (the worker went silent) may be claimed again, by any worker,
//! without spending another upload.

use crate::db::entities::vrchat_avatar::VrcAvatarStatus;

/// The two steps a converter worker takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Turning the uploaded avatar into what VRChat takes.
    Convert,
    /// Uploading the converted avatar to the owner's VRChat account.
    Upload,
}

/// What happens to an avatar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A worker takes the step of `Stage`.
    Claim(Stage),
    /// The worker delivered the converted file.
    Converted,
    /// The worker says VRChat has it.
    Uploaded,
    /// The worker says its step failed.
    Failed(Stage),
    /// The owner withdraws it.
    Cancel,
    /// The owner tries a failed upload again.
    RetryUpload,
    /// An update order was paid: convert again from its version.
    UpdatePaid,
}

/// Where `event` moves an avatar in `from` with `remaining` uploads, or `None` when it may not.
pub fn next(from: VrcAvatarStatus, event: Event, remaining: i32) -> Option<VrcAvatarStatus> {
    use VrcAvatarStatus as S;
    match (from, event) {
        (S::Waiting, Event::Claim(Stage::Convert)) => Some(S::Converting),
        (S::Converting, Event::Converted) => Some(S::Converted),
        (S::Converting, Event::Failed(Stage::Convert)) => Some(S::ConvertFailed),
        (S::Converted, Event::Claim(Stage::Upload)) if remaining >= 1 => Some(S::Uploading),
        (S::Uploading, Event::Uploaded) => Some(S::Finished),
        (S::Uploading, Event::Failed(Stage::Upload)) => Some(S::UploadFailed),
        (S::UploadFailed, Event::RetryUpload) if remaining >= 1 => Some(S::Converted),
        (S::Waiting | S::Converting | S::Converted | S::UploadFailed, Event::Cancel) => Some(S::Cancelled),
        (S::Finished | S::ConvertFailed | S::UploadFailed | S::Converted | S::Cancelled, Event::UpdatePaid) => {
            Some(S::Waiting)
        }
        _ => None,
    }
}

/// Whether an avatar in `status` is in a worker's hands (its lease decides when it comes back).
pub fn is_held(status: VrcAvatarStatus) -> bool {
    matches!(status, VrcAvatarStatus::Converting | VrcAvatarStatus::Uploading)
}

/// The status a step of `stage` starts from, and the one it is in while a worker holds it.
pub fn stage_statuses(stage: Stage) -> (VrcAvatarStatus, VrcAvatarStatus) {
    match stage {
        Stage::Convert => (VrcAvatarStatus::Waiting, VrcAvatarStatus::Converting),
        Stage::Upload => (VrcAvatarStatus::Converted, VrcAvatarStatus::Uploading),
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::Iterable;

    use super::*;
    use crate::db::entities::vrchat_avatar::VrcAvatarStatus as S;

    #[test]
    fn the_happy_path_goes_from_waiting_to_finished() {
        let mut at = S::Waiting;
        for event in [Event::Claim(Stage::Convert), Event::Converted, Event::Claim(Stage::Upload), Event::Uploaded] {
            at = next(at, event, 1).unwrap_or_else(|| panic!("{event:?} from {at:?}"));
        }
        assert_eq!(at, S::Finished);
    }

    #[test]
    fn an_upload_needs_an_upload_left() {
        assert_eq!(next(S::Converted, Event::Claim(Stage::Upload), 0), None);
        assert_eq!(next(S::UploadFailed, Event::RetryUpload, 0), None);
        assert_eq!(next(S::UploadFailed, Event::RetryUpload, 2), Some(S::Converted));
    }

    #[test]
    fn nothing_is_cancelled_once_an_upload_began_or_ended() {
        for from in S::iter() {
            let cancelled = next(from, Event::Cancel, 1);
            let may = matches!(from, S::Waiting | S::Converting | S::Converted | S::UploadFailed);
            assert_eq!(cancelled.is_some(), may, "{from:?}");
        }
    }

    #[test]
    fn an_update_never_takes_an_avatar_out_of_a_workers_hands_or_the_queue() {
        for from in S::iter() {
            let moved = next(from, Event::UpdatePaid, 1);
            assert_eq!(moved.is_none(), matches!(from, S::Waiting | S::Converting | S::Uploading), "{from:?}");
        }
    }

    #[test]
    fn a_worker_reports_only_on_the_step_it_holds() {
        for from in S::iter() {
            assert_eq!(next(from, Event::Converted, 1).is_some(), from == S::Converting, "{from:?}");
            assert_eq!(next(from, Event::Uploaded, 1).is_some(), from == S::Uploading, "{from:?}");
            assert_eq!(next(from, Event::Failed(Stage::Convert), 1).is_some(), from == S::Converting, "{from:?}");
            assert_eq!(next(from, Event::Failed(Stage::Upload), 1).is_some(), from == S::Uploading, "{from:?}");
        }
    }
}
