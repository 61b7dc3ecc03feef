//! Stripe over its HTTP API (no SDK): PaymentIntents and webhook signatures.
//!
//! Calls (form-encoded, `Authorization: Bearer <secret key>`, `Stripe-Version` left to the
//! account's default):
//!
//! - `POST /v1/payment_intents` (`amount`, `currency=jpy`, `payment_method_types[]=card`,
//!   `metadata[transaction_uuid]` and what was paid for: `metadata[application_id]`, or
//!   `metadata[store_order]` and `metadata[store_item]`) with `Idempotency-Key:
//!   pi-<transaction_uuid>`: a retried create returns the same intent.
//! - `POST /v1/payment_intents/{id}` (`payment_method`) and `POST /v1/payment_intents/{id}/confirm`
//!   with `Idempotency-Key: confirm-<transaction_uuid>-<payment_method>`: the card is charged at
//!   most once per intent (Stripe charges a PaymentIntent once; the key covers replays).
//! - `GET /v1/payment_intents/{id}`: the truth when an outcome is unknown.
//! - `POST /v1/payment_intents/{id}/cancel` with `Idempotency-Key: cancel-<transaction_uuid>`:
//!   an attempt we close while its intent is still open (its window closed, another attempt paid)
//!   is cancelled first, so that the client secret the payer's browser holds can no longer
//!   confirm it.
//! - `POST /v1/refunds` (`payment_intent`) with `Idempotency-Key: refund-<key>`: the whole
//!   amount of a settled intent back to the payer, once per key (a store purchase staff refund,
//!   or a second payment for an item the buyer already holds).
//!
//! Webhooks: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, each `v1` the HMAC-SHA256 of
//! `"<t>.<raw body>"` under one endpoint secret (several during a secret rotation). A request
//! is accepted when `t` is within [`TOLERANCE_SECS`] of now and any `v1` matches any configured
//! secret, compared in constant time ([`verify_signature`]).

use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;

use crate::config::{Config, Secret};
use crate::payments::provider_http::ProviderError;
use crate::payments::provider_http::provider_client;

/// How far a webhook's timestamp may be from now (Stripe's default).
pub const TOLERANCE_SECS: i64 = 300;

/// A Stripe client for the configured account, with what the payer's browser needs (the
/// publishable key and where Stripe.js comes from).
#[derive(Clone)]
pub struct Stripe {
    http: reqwest::Client,
    base: String,
    secret_key: Secret,
    publishable_key: String,
    js_url: url::Url,
}

impl std::fmt::Debug for Stripe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stripe").field("base", &self.base).finish_non_exhaustive()
    }
}

/// A PaymentIntent, as far as we read it.
#[derive(Debug, Clone, Deserialize)]
pub struct Intent {
    /// `pi_…`.
    pub id: String,
    /// `requires_payment_method`, `requires_confirmation`, `requires_action`, `processing`,
    /// `requires_capture`, `canceled` or `succeeded`.
    pub status: String,
    /// In the currency's smallest unit (JPY has no decimals).
    pub amount: i64,
    /// Lower-case ISO code.
    pub currency: String,
    /// For Stripe.js in the payer's browser.
    #[serde(default)]
    pub client_secret: Option<String>,
}

/// A refund, as far as we read it.
#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    /// `re_…`.
    pub id: String,
    /// `succeeded`, `pending`, `failed` or `canceled`.
    pub status: String,
    /// Yen refunded.
    pub amount: i64,
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: StripeError,
}

#[derive(Deserialize)]
struct StripeError {
    #[serde(default)]
    code: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

impl Stripe {
    /// The client, when both keys are configured (without them Stripe is not offered: the secret
    /// key opens payments, the publishable key lets Stripe.js take the card) and Stripe.js has an
    /// http(s) URL (see [`Config::check_stripe`]).
    pub fn from_config(config: &Config) -> Option<Self> {
        if config.stripe_secret_key.is_empty() || config.stripe_publishable_key.trim().is_empty() {
            return None;
        }
        let js_url = config.stripe_js_url().ok()?;
        let http = provider_client(config)?;
        Some(Self {
            http,
            base: config.stripe_api_base.trim_end_matches('/').to_string(),
            secret_key: config.stripe_secret_key.clone(),
            publishable_key: config.stripe_publishable_key.trim().to_string(),
            js_url,
        })
    }

    /// The publishable key (`pk_…`), for Stripe.js in the payer's browser.
    pub fn publishable_key(&self) -> &str {
        &self.publishable_key
    }

    /// Where the payment page loads Stripe.js from.
    pub fn js_url(&self) -> &url::Url {
        &self.js_url
    }

    /// The origins the payment page must allow: Stripe.js's (scripts, frames and calls) and the
    /// API's (calls Stripe.js makes from the page).
    pub fn browser_origins(&self) -> BrowserOrigins {
        let api = url::Url::parse(&self.base).ok().map(|u| u.origin().ascii_serialization());
        BrowserOrigins { js: self.js_url.origin().ascii_serialization(), api: api.filter(|o| o != "null") }
    }

    async fn send<T: serde::de::DeserializeOwned>(&self, req: reqwest::RequestBuilder) -> Result<T, ProviderError> {
        let res = req.bearer_auth(self.secret_key.expose()).send().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "stripe call failed");
            ProviderError::Unknown
        })?;
        let status = res.status();
        let body = res.bytes().await.map_err(|_| ProviderError::Unknown)?;
        if status.is_success() {
            return serde_json::from_slice(&body).map_err(|_| ProviderError::Unknown);
        }
        if status.is_server_error() || status.as_u16() == 409 || status.as_u16() == 429 {
            // 409: an idempotent request still in flight; 429: rate limited. Outcome unknown.
            return Err(ProviderError::Unknown);
        }
        let code = serde_json::from_slice::<ErrorEnvelope>(&body)
            .ok()
            .and_then(|e| e.error.code.or(e.error.kind))
            .unwrap_or_else(|| format!("http_{}", status.as_u16()));
        Err(ProviderError::Refused { code })
    }

    /// Creates (or, replayed, returns) the intent of attempt `transaction_uuid` for `amount` yen;
    /// `paid_for` names what is paid for (metadata: `application_id`, or `store_order` and
    /// `store_item`).
    pub async fn create_intent(
        &self,
        transaction_uuid: &str,
        paid_for: &[(&str, String)],
        amount: i32,
    ) -> Result<Intent, ProviderError> {
        let mut form = vec![
            ("amount".to_string(), amount.to_string()),
            ("currency".to_string(), "jpy".to_string()),
            ("payment_method_types[]".to_string(), "card".to_string()),
            ("metadata[transaction_uuid]".to_string(), transaction_uuid.to_string()),
        ];
        form.extend(paid_for.iter().map(|(k, v)| (format!("metadata[{k}]"), v.clone())));
        let req = self
            .http
            .post(format!("{}/v1/payment_intents", self.base))
            .header("Idempotency-Key", format!("pi-{transaction_uuid}"))
            .form(&form);
        self.send(req).await
    }

    /// Attaches the card `payment_method` (tokenized by Stripe.js) to intent `id` and confirms it.
    pub async fn confirm(
        &self,
        id: &str,
        payment_method: &str,
        transaction_uuid: &str,
    ) -> Result<Intent, ProviderError> {
        let key = format!("confirm-{transaction_uuid}-{payment_method}");
        let attach = self
            .http
            .post(format!("{}/v1/payment_intents/{id}", self.base))
            .header("Idempotency-Key", format!("attach-{transaction_uuid}-{payment_method}"))
            .form(&[("payment_method", payment_method)]);
        self.send::<Intent>(attach).await?;
        let confirm =
            self.http.post(format!("{}/v1/payment_intents/{id}/confirm", self.base)).header("Idempotency-Key", key);
        self.send(confirm).await
    }

    /// Confirms intent `id` with the card `payment_method` ([`Stripe::confirm`]); a refusal that
    /// was a concurrent confirm going through (the intent reads `succeeded`) answers that intent.
    /// `Refused`: the card was declined; `Unknown`: the outcome is not known (the re-read failed
    /// too).
    pub async fn confirm_card(
        &self,
        id: &str,
        payment_method: &str,
        transaction_uuid: &str,
    ) -> Result<Intent, ProviderError> {
        match self.confirm(id, payment_method, transaction_uuid).await {
            Err(ProviderError::Refused { code }) => match self.retrieve(id).await {
                Ok(intent) if intent.status == "succeeded" => Ok(intent),
                Ok(_) => Err(ProviderError::Refused { code }),
                Err(_) => Err(ProviderError::Unknown),
            },
            answer => answer,
        }
    }

    /// Cancels intent `id` of attempt `transaction_uuid` (Stripe refuses once it succeeded or is
    /// processing: `payment_intent_unexpected_state`).
    pub async fn cancel(&self, id: &str, transaction_uuid: &str) -> Result<Intent, ProviderError> {
        let cancel = self
            .http
            .post(format!("{}/v1/payment_intents/{id}/cancel", self.base))
            .header("Idempotency-Key", format!("cancel-{transaction_uuid}"));
        self.send(cancel).await
    }

    /// Refunds the whole of the settled intent `id`, once per `key` (a replay answers the same
    /// refund).
    pub async fn refund(&self, id: &str, key: &str) -> Result<Refund, ProviderError> {
        let refund = self
            .http
            .post(format!("{}/v1/refunds", self.base))
            .header("Idempotency-Key", format!("refund-{key}"))
            .form(&[("payment_intent", id)]);
        self.send(refund).await
    }

    /// The intent `id` as Stripe has it now.
    pub async fn retrieve(&self, id: &str) -> Result<Intent, ProviderError> {
        self.send(self.http.get(format!("{}/v1/payment_intents/{id}", self.base))).await
    }
}

/// The card PaymentMethod id a payer sent (`pm_…`, tokenized by Stripe.js): `None` when absent
/// or blank, 422 on `payment_method` when it is not such an id (at most 255 ASCII letters, digits
/// and `_`).
pub fn payment_method(raw: Option<&str>) -> crate::error::Result<Option<&str>> {
    match raw.filter(|pm| !pm.is_empty()) {
        None => Ok(None),
        Some(pm) if pm.len() <= 255 && pm.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => Ok(Some(pm)),
        Some(_) => Err(crate::error::Error::invalid("payment_method", "payments.validation.payment_method")),
    }
}

/// The origins the card form's page must allow in its Content-Security-Policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserOrigins {
    /// Stripe.js's origin (`https://js.stripe.com`; localstripe's own in tests and the demo).
    pub js: String,
    /// The Stripe API's origin, which Stripe.js calls from the page (`https://api.stripe.com`).
    pub api: Option<String>,
}

/// Why a webhook was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureError {
    /// No `Stripe-Signature`, or one without `t` / `v1`.
    Malformed,
    /// `t` is more than [`TOLERANCE_SECS`] away from now.
    Stale,
    /// No `v1` matches any configured secret (tampered body, wrong secret).
    Mismatch,
}

/// Checks `header` (`Stripe-Signature`) for `payload` against every secret in `secrets` at unix
/// time `now`.
pub fn verify_signature(payload: &[u8], header: &str, secrets: &[Secret], now: i64) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        let Some((key, value)) = part.trim().split_once('=') else { continue };
        match key {
            "t" => timestamp = value.parse::<i64>().ok(),
            "v1" => {
                if let Ok(bytes) = hex::decode(value) {
                    signatures.push(bytes);
                }
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    // Checked: `t` is whatever the request says, and `now - t` overflows an i64 for a `t` near
    // either end of its range (it used to panic, a 500, before any signature was compared).
    let age = now.checked_sub(timestamp).map(i64::unsigned_abs);
    if age.is_none_or(|age| age > TOLERANCE_SECS.unsigned_abs()) {
        return Err(SignatureError::Stale);
    }
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(secret.expose().as_bytes()).map_err(|_| SignatureError::Mismatch)?;
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        let expected = mac.finalize().into_bytes();
        if signatures.iter().any(|s| subtle::ConstantTimeEq::ct_eq(expected.as_slice(), s.as_slice()).into()) {
            return Ok(());
        }
    }
    Err(SignatureError::Mismatch)
}

/// The `Stripe-Signature` header of `payload` at unix time `t` under `secret` (what Stripe sends;
/// used by tests and the demo's fake).
pub fn sign(payload: &[u8], secret: &str, t: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(payload);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &[u8] = br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#;

    fn secrets(list: &[&str]) -> Vec<Secret> {
        list.iter().map(|s| Secret::from(*s)).collect()
    }

    #[test]
    fn a_signature_verifies_within_the_tolerance_and_under_any_current_secret() {
        let header = sign(BODY, "whsec_old", 1_000);
        assert_eq!(verify_signature(BODY, &header, &secrets(&["whsec_new", "whsec_old"]), 1_000), Ok(()));
        assert_eq!(verify_signature(BODY, &header, &secrets(&["whsec_old"]), 1_300), Ok(()));
        assert_eq!(verify_signature(BODY, &header, &secrets(&["whsec_old"]), 1_301), Err(SignatureError::Stale));
        assert_eq!(verify_signature(BODY, &header, &secrets(&["whsec_old"]), 699), Err(SignatureError::Stale));
        assert_eq!(verify_signature(BODY, &header, &secrets(&["whsec_new"]), 1_000), Err(SignatureError::Mismatch));
        let tampered = br#"{"id":"evt_1","type":"payment_intent.succeeded" }"#;
        assert_eq!(verify_signature(tampered, &header, &secrets(&["whsec_old"]), 1_000), Err(SignatureError::Mismatch));
    }

    #[test]
    fn during_a_rotation_one_header_carries_a_signature_per_secret() {
        let new = sign(BODY, "whsec_new", 1_000);
        let old = sign(BODY, "whsec_old", 1_000);
        let both = format!("{new},v1={}", old.split("v1=").nth(1).unwrap());
        assert_eq!(verify_signature(BODY, &both, &secrets(&["whsec_old"]), 1_000), Ok(()));
        assert_eq!(verify_signature(BODY, &both, &secrets(&["whsec_new"]), 1_000), Ok(()));
        assert_eq!(verify_signature(BODY, &both, &secrets(&["whsec_other"]), 1_000), Err(SignatureError::Mismatch));
    }

    #[test]
    fn malformed_headers_are_refused() {
        for header in ["", "t=1000", "v1=abcd", "t=x,v1=abcd", "t=1000,v0=abcd"] {
            assert_eq!(
                verify_signature(BODY, header, &secrets(&["s"]), 1_000),
                Err(SignatureError::Malformed),
                "{header}"
            );
        }
        assert_eq!(verify_signature(BODY, "t=1000,v1=zz", &secrets(&[""]), 1_000), Err(SignatureError::Malformed));
    }

    #[test]
    fn timestamps_at_the_ends_of_the_range_are_stale_not_a_panic() {
        for t in [i64::MIN, i64::MIN + 1, -i64::MAX, i64::MAX, i64::MAX - 1] {
            let header = sign(BODY, "whsec_old", t);
            for now in [0, 1_700_000_000, -1_700_000_000, i64::MAX, i64::MIN] {
                let verified = verify_signature(BODY, &header, &secrets(&["whsec_old"]), now);
                let near = (i128::from(now) - i128::from(t)).abs() <= i128::from(TOLERANCE_SECS);
                let expected = if near { Ok(()) } else { Err(SignatureError::Stale) };
                assert_eq!(verified, expected, "t={t} now={now}");
            }
        }
    }
}
