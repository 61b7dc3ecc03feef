//! Paying for a won application (issue 13, DOMAIN.md "Payments"): the provider calls around the
//! rules and the settle of [`crate::model::payment`], shared by the API, the pages and the jobs.
//!
//! - [`pre_order`] opens (or reuses) the attempt and the provider's payment object, created with
//!   an idempotency key derived from the attempt's UUID, so a repeated call never opens a second
//!   payment at the provider.
//! - [`capture`] confirms the payment at the provider (or reads it, when the browser confirmed it
//!   with the provider's script) and settles it. An outcome the provider did not tell us (network
//!   error, timeout, 5xx) leaves the attempt `pending` and enqueues `ReconcilePayment`, which
//!   asks the provider later: a capture is never repeated blindly.
//! - [`stripe_webhook`] verifies and applies Stripe's events once each (stored event ids), in any
//!   order: a settle is idempotent, and a cancel or failure never undoes a settled payment.
//!
//! Providers implemented: Stripe (PaymentIntents, confirmed in the page), and the redirect
//! providers PayPal (Orders v2) and GMO Payment Gateway (link type Plus), whose payer comes back to
//! the public `/checkout` ([`checkout`]). A provider without keys is never shown.
//!
//! Where things are: the configured [`providers`], the one HTTP client they share and
//! what a failed call ends with ([`provider_http`]); what payers send ([`requests`]); the checks every provider shares ([`pay`]);
//! Stripe's flow ([`stripe_checkout`], [`stripe_outcome`]), the redirect flow ([`checkout`],
//! [`redirect_outcome`]) with PayPal's and GMO's steps ([`paypal_checkout`], [`gmo_checkout`],
//! [`redirect`]) and PayPal's buttons
//! ([`paypal_buttons`]); the providers' notifications ([`webhooks`]); the reconcile and the
//! sweep ([`reconcile`]), run by the [`jobs`]; each provider's client ([`stripe`], [`paypal`]
//! with the answers it reads in [`paypal_wire`], [`gmo`]). This file only declares them.

pub mod checkout;
pub mod gmo;
pub mod gmo_checkout;
pub mod jobs;
pub mod outbox;
pub mod outcomes;
pub mod pay;
pub mod paypal;
pub mod paypal_buttons;
pub mod paypal_checkout;
pub mod paypal_wire;
pub mod provider_http;
pub mod providers;
pub mod reconcile;
pub mod redirect;
pub mod redirect_outcome;
pub mod requests;
pub mod stripe;
pub mod stripe_checkout;
pub mod stripe_outcome;
pub mod webhooks;

pub use outbox::Outbox;
pub use outcomes::{Reconciled, WebhookOutcome};
pub use pay::{capture, pre_order};
pub use provider_http::ProviderError;
pub use providers::Providers;
pub use reconcile::{reconcile, sweep};
pub use requests::{CaptureInput, PreOrder, PreOrderInput};
pub use stripe_outcome::{Finished, finish};
pub use webhooks::stripe_webhook;
