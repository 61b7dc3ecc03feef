//! What a provider's notification did, and what a reconcile found.

use serde::Serialize;
use utoipa::ToSchema;

/// What a webhook did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookOutcome {
    /// Applied (a payment settled or an attempt closed).
    Processed,
    /// Already processed before (a replay): nothing changed.
    Duplicate,
    /// Verified but of no concern (another event type, an unknown payment).
    Ignored,
}

/// What one reconcile run found.
#[derive(Debug, PartialEq, Eq)]
pub enum Reconciled {
    /// Nothing left to do (settled, failed, expired, or not pending any more).
    Done(&'static str),
    /// The payer has not finished paying and the window is open: nothing to do now.
    Waiting,
    /// The provider did not answer: ask again later.
    Retry,
}
