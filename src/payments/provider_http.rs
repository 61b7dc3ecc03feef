//! Calling a payment provider (Stripe, PayPal, GMO): the one HTTP client builder — reqwest with
//! rustls, the configured timeout (`payment_timeout_ms`, at least 100 ms) and our user agent —
//! and what a call ends with when it does not succeed ([`ProviderError`]).

use std::time::Duration;

use crate::config::Config;

/// A client for calling a payment provider, as `config` says; `None` when it cannot be built
/// (the provider is then not offered).
pub fn provider_client(config: &Config) -> Option<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(Duration::from_millis(config.payment_timeout_ms.max(100)))
        .user_agent(concat!("vmarket/", env!("CARGO_PKG_VERSION")))
        .build()
        .ok()
}

/// What a provider call ended with, when it did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderError {
    /// No answer we can trust (network, timeout, 5xx, 409 in flight, 429): the provider may or
    /// may not have acted. Never repeated blindly; the provider is asked later.
    Unknown,
    /// The provider refused the request (a declined card, a bad request), with its code.
    Refused {
        /// The provider's error code.
        code: String,
    },
}
