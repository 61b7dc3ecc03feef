//! The background jobs of payments, one per file: the reconcile of an attempt whose outcome is
//! unknown, and the sweep of every attempt left pending. Payments enqueue them through the job
//! queue (`crate::queue`); the worker registry (`crate::workers`) runs them.

pub mod payment_sweep;
pub mod reconcile_payment;

pub use payment_sweep::PaymentSweep;
pub use reconcile_payment::ReconcilePayment;
