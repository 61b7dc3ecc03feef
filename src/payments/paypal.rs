//! PayPal Orders v2 over its REST API (no SDK): OAuth2 client credentials, orders in JPY, capture,
//! refund, webhook verification. The answers as we read them are in `crate::payments::paypal_wire`.
//!
//! Calls (JSON, `Authorization: Bearer <access token>`):
//!
//! - `POST /v1/oauth2/token` (form `grant_type=client_credentials`, HTTP basic auth with the client
//!   id and secret) → `{access_token, expires_in}`. The token is kept in the client (managed state,
//!   shared by every request of the process) until a minute before it expires; a `401` from any
//!   call drops it and that call is sent once more with a fresh token (safe: a `401` was not
//!   processed, and the repeated call carries the same `PayPal-Request-Id`).
//! - `POST /v2/checkout/orders` with `PayPal-Request-Id: order-<transaction_uuid>` and
//!   `Prefer: return=representation`: intent `CAPTURE`, one purchase unit (`reference_id` and
//!   `custom_id` = the attempt's UUID, `amount {currency_code: "JPY", value: "8000"}` — JPY has no
//!   decimals at PayPal), `payment_source.paypal.experience_context` with the return and cancel
//!   URLs (our `/checkout`), the payer's locale, no shipping, `PAY_NOW`. A repeated create (a
//!   timeout, two tabs) returns the same order. The payer approves at the `payer-action` link.
//! - `GET /v2/checkout/orders/{id}`: the truth about an order (reconcile, `/checkout`). PayPal
//!   forgets an order left unapproved for about three hours, and a voided one: it answers `404
//!   RESOURCE_NOT_FOUND`, which [`PayPal::order`] reports as `None` — the order expired, nothing
//!   was or can be captured on it, and the payer needs a fresh one.
//! - `POST /v2/checkout/orders/{id}/capture` with `PayPal-Request-Id:
//!   capture-<transaction_uuid>-<declines so far>`: PayPal captures an order at most once and
//!   answers a repeated key with its first answer, so concurrent or repeated captures charge once.
//!   After a decline (`INSTRUMENT_DECLINED`) the payer picks another funding source at PayPal and
//!   the next capture needs a new key, hence the counter.
//! - `POST /v2/payments/captures/{id}/refund` with `PayPal-Request-Id` and an empty body: the whole
//!   capture given back (a store refund); a repeated key answers the first refund.
//! - `POST /v1/notifications/verify-webhook-signature` with the `PAYPAL-*` headers of a webhook,
//!   the configured webhook id and the event *exactly as received* (PayPal's signature covers a
//!   CRC32 of the raw body, so a re-serialized event fails): `{verification_status: SUCCESS}`.
//!
//! Webhooks are verified by that API call rather than by checking the signature here against
//! the certificate at `PAYPAL-CERT-URL`: the certificate method means fetching a URL the request
//! names (it must be pinned to PayPal's hosts, or it is a server-side request forgery), checking
//! the certificate chain and its revocation ourselves, and RSA over a CRC32 — all of it security
//! code PayPal already runs for us behind one authenticated call. The price is one call per event,
//! and an event arriving while PayPal's API is down is answered 502, which PayPal retries.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;
use url::Url;

use crate::config::{Config, Secret};
use crate::payments::provider_http::ProviderError;
use crate::payments::provider_http::provider_client;
use crate::types::Lang;

pub use crate::payments::paypal_wire::{Capture, Link, Money, Order, Payments, PurchaseUnit, Refund};

/// A PayPal client for the configured REST app.
#[derive(Clone)]
pub struct PayPal {
    http: reqwest::Client,
    base: String,
    /// The origin of PayPal's pages (approval), where a payer may be redirected.
    pub web_origin: Option<Url>,
    client_id: String,
    secret: Secret,
    /// The webhook id the verification is made against (empty: webhooks are not accepted).
    pub webhook_id: String,
    token: Arc<Mutex<Option<Token>>>,
}

impl std::fmt::Debug for PayPal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PayPal").field("base", &self.base).field("web_origin", &self.web_origin).finish_non_exhaustive()
    }
}

/// An access token and when to stop using it.
struct Token {
    value: String,
    renew_at: Instant,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    details: Vec<ErrorDetail>,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    issue: Option<String>,
}

#[derive(Deserialize)]
struct VerifyAnswer {
    verification_status: String,
}

/// The `PAYPAL-*` headers of a webhook delivery.
#[derive(Debug, Clone, Default)]
pub struct Transmission {
    /// `PAYPAL-TRANSMISSION-ID`.
    pub id: String,
    /// `PAYPAL-TRANSMISSION-TIME` (RFC 3339).
    pub time: String,
    /// `PAYPAL-TRANSMISSION-SIG`.
    pub sig: String,
    /// `PAYPAL-CERT-URL`.
    pub cert_url: String,
    /// `PAYPAL-AUTH-ALGO`.
    pub auth_algo: String,
}

/// PayPal's error name for an order it does not know (any more).
pub const NOT_FOUND: &str = "RESOURCE_NOT_FOUND";

/// Whether `id` can be a PayPal order id (letters and digits only: it goes into a URL path).
pub fn is_order_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The outcome of one HTTP exchange.
enum Sent {
    Ok(Vec<u8>),
    Unauthorized,
}

impl PayPal {
    /// The client, when a client id and secret are configured (else PayPal is not offered).
    pub fn from_config(config: &Config) -> Option<Self> {
        if config.paypal_client_id.trim().is_empty() || config.paypal_client_secret.is_empty() {
            return None;
        }
        let http = provider_client(config)?;
        Some(Self {
            http,
            base: config.paypal_api_base.trim_end_matches('/').to_string(),
            web_origin: Url::parse(config.paypal_web_base.trim()).ok(),
            client_id: config.paypal_client_id.trim().to_string(),
            secret: config.paypal_client_secret.clone(),
            webhook_id: config.paypal_webhook_id.trim().to_string(),
            token: Arc::new(Mutex::new(None)),
        })
    }

    /// A valid access token: the cached one, or a fresh one (one fetch at a time).
    async fn token(&self) -> Result<String, ProviderError> {
        let mut held = self.token.lock().await;
        if let Some(token) = held.as_ref().filter(|t| Instant::now() < t.renew_at) {
            return Ok(token.value.clone());
        }
        let res = self
            .http
            .post(format!("{}/v1/oauth2/token", self.base))
            .basic_auth(&self.client_id, Some(self.secret.expose()))
            .header("Accept", "application/json")
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .map_err(|e| {
                tracing::warn!(error = %e.without_url(), "paypal token request failed");
                ProviderError::Unknown
            })?;
        let status = res.status();
        let body = res.bytes().await.map_err(|_| ProviderError::Unknown)?;
        if !status.is_success() {
            tracing::error!(status = status.as_u16(), "paypal refused the client credentials");
            return Err(if status.is_server_error() || status.as_u16() == 429 {
                ProviderError::Unknown
            } else {
                ProviderError::Refused { code: "invalid_client".into() }
            });
        }
        let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|_| ProviderError::Unknown)?;
        let lifetime = Duration::from_secs(answer.expires_in.unwrap_or(300));
        let renew_at = Instant::now() + lifetime.saturating_sub(Duration::from_secs(60));
        *held = Some(Token { value: answer.access_token.clone(), renew_at });
        Ok(answer.access_token)
    }

    /// Drops the cached token if it is still `used` (a 401 said it no longer works).
    async fn forget(&self, used: &str) {
        let mut held = self.token.lock().await;
        if held.as_ref().is_some_and(|t| t.value == used) {
            *held = None;
        }
    }

    async fn exchange(&self, req: reqwest::RequestBuilder, token: &str) -> Result<Sent, ProviderError> {
        let res = req.bearer_auth(token).send().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "paypal call failed");
            ProviderError::Unknown
        })?;
        let status = res.status();
        let body = res.bytes().await.map_err(|_| ProviderError::Unknown)?;
        if status.is_success() {
            return Ok(Sent::Ok(body.to_vec()));
        }
        if status.as_u16() == 401 {
            return Ok(Sent::Unauthorized);
        }
        if status.is_server_error() || matches!(status.as_u16(), 408 | 409 | 429) {
            // 409: an idempotent request still in flight; 429: rate limited. Outcome unknown.
            tracing::warn!(status = status.as_u16(), "paypal answered without a result");
            return Err(ProviderError::Unknown);
        }
        let parsed = serde_json::from_slice::<ErrorAnswer>(&body).ok();
        if status.as_u16() == 404 && parsed.as_ref().and_then(|e| e.name.as_deref()) == Some(NOT_FOUND) {
            // PayPal's own "no such resource" (its detail says INVALID_RESOURCE_ID): named by the
            // error's name, so that callers can tell it from a refusal. A 404 without PayPal's
            // error body (a proxy, a wrong base URL) stays an `http_404` refusal.
            return Err(ProviderError::Refused { code: NOT_FOUND.into() });
        }
        let code = parsed
            .and_then(|e| e.details.into_iter().find_map(|d| d.issue).or(e.name))
            .filter(|c| c.len() <= 64 && c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            .unwrap_or_else(|| format!("http_{}", status.as_u16()));
        Err(ProviderError::Refused { code })
    }

    /// Sends the request `build` makes, with a token; once more with a fresh token after a 401.
    async fn send(&self, build: impl Fn() -> reqwest::RequestBuilder) -> Result<Vec<u8>, ProviderError> {
        let token = self.token().await?;
        match self.exchange(build(), &token).await? {
            Sent::Ok(body) => return Ok(body),
            Sent::Unauthorized => self.forget(&token).await,
        }
        let token = self.token().await?;
        match self.exchange(build(), &token).await? {
            Sent::Ok(body) => Ok(body),
            Sent::Unauthorized => {
                tracing::error!("paypal refused a fresh access token");
                Err(ProviderError::Refused { code: "unauthorized".into() })
            }
        }
    }

    async fn send_order(&self, build: impl Fn() -> reqwest::RequestBuilder) -> Result<Order, ProviderError> {
        let body = self.send(build).await?;
        serde_json::from_slice(&body).map_err(|_| {
            tracing::warn!("paypal answered an order we cannot read");
            ProviderError::Unknown
        })
    }

    /// Creates (or, replayed, returns) the order of attempt `transaction_uuid` for `amount` JPY.
    pub async fn create_order(
        &self,
        transaction_uuid: &str,
        amount: i32,
        description: &str,
        return_url: &str,
        cancel_url: &str,
        lang: Lang,
    ) -> Result<Order, ProviderError> {
        let body = json!({
            "intent": "CAPTURE",
            "purchase_units": [{
                "reference_id": transaction_uuid,
                "custom_id": transaction_uuid,
                "description": description.chars().take(127).collect::<String>(),
                "amount": {"currency_code": "JPY", "value": amount.to_string()},
            }],
            "payment_source": {"paypal": {"experience_context": {
                "brand_name": "Virtual Market",
                "locale": match lang { Lang::Ja => "ja-JP", Lang::En => "en-US" },
                "shipping_preference": "NO_SHIPPING",
                "user_action": "PAY_NOW",
                "return_url": return_url,
                "cancel_url": cancel_url,
            }}},
        });
        let key = format!("order-{transaction_uuid}");
        self.send_order(|| {
            self.http
                .post(format!("{}/v2/checkout/orders", self.base))
                .header("PayPal-Request-Id", &key)
                .header("Prefer", "return=representation")
                .json(&body)
        })
        .await
    }

    /// The order `id` as PayPal has it now, or `None` when PayPal does not know it (any more):
    /// an order left unapproved for about three hours, or voided, is gone (`404
    /// RESOURCE_NOT_FOUND`), with no money taken on it.
    pub async fn order(&self, id: &str) -> Result<Option<Order>, ProviderError> {
        if !is_order_id(id) {
            return Ok(None);
        }
        match self.send_order(|| self.http.get(format!("{}/v2/checkout/orders/{id}", self.base))).await {
            Ok(order) => Ok(Some(order)),
            Err(ProviderError::Refused { code }) if code == NOT_FOUND => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Captures the approved order `id` under idempotency key `key`.
    pub async fn capture(&self, id: &str, key: &str) -> Result<Order, ProviderError> {
        if !is_order_id(id) {
            return Err(ProviderError::Refused { code: NOT_FOUND.into() });
        }
        self.send_order(|| {
            self.http
                .post(format!("{}/v2/checkout/orders/{id}/capture", self.base))
                .header("PayPal-Request-Id", key)
                .header("Prefer", "return=representation")
                .header("Content-Type", "application/json")
                .body("{}")
        })
        .await
    }

    /// Refunds the whole capture `capture_id` under idempotency key `key` (a repeat answers the
    /// first refund). A capture refunded already is `Refused` with `CAPTURE_FULLY_REFUNDED`.
    pub async fn refund(&self, capture_id: &str, key: &str) -> Result<Refund, ProviderError> {
        if !is_order_id(capture_id) {
            return Err(ProviderError::Refused { code: NOT_FOUND.into() });
        }
        let body = self
            .send(|| {
                self.http
                    .post(format!("{}/v2/payments/captures/{capture_id}/refund", self.base))
                    .header("PayPal-Request-Id", key)
                    .header("Prefer", "return=representation")
                    .header("Content-Type", "application/json")
                    .body("{}")
            })
            .await?;
        serde_json::from_slice(&body).map_err(|_| {
            tracing::warn!("paypal answered a refund we cannot read");
            ProviderError::Unknown
        })
    }

    /// Asks PayPal whether `event` (the raw body, valid JSON) with headers `transmission` was
    /// signed by PayPal for the configured webhook.
    pub async fn verify_webhook(&self, transmission: &Transmission, event: &str) -> Result<bool, ProviderError> {
        let text = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        // Built by hand so that the event goes out byte for byte as it came in.
        let body = format!(
            "{{\"auth_algo\":{},\"cert_url\":{},\"transmission_id\":{},\"transmission_sig\":{},\
             \"transmission_time\":{},\"webhook_id\":{},\"webhook_event\":{event}}}",
            text(&transmission.auth_algo),
            text(&transmission.cert_url),
            text(&transmission.id),
            text(&transmission.sig),
            text(&transmission.time),
            text(&self.webhook_id),
        );
        let answer = self
            .send(|| {
                self.http
                    .post(format!("{}/v1/notifications/verify-webhook-signature", self.base))
                    .header("Content-Type", "application/json")
                    .body(body.clone())
            })
            .await?;
        let answer: VerifyAnswer = serde_json::from_slice(&answer).map_err(|_| ProviderError::Unknown)?;
        Ok(answer.verification_status == "SUCCESS")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jpy_values_are_whole_numbers() {
        let m = |v: &str| Money { currency_code: "JPY".into(), value: v.into() };
        assert_eq!(m("8000").whole(), Some(8000));
        assert_eq!(m("8000.00").whole(), Some(8000));
        assert_eq!(m("8000.5").whole(), None);
        assert_eq!(m("-1").whole(), None);
        assert_eq!(m("").whole(), None);
        assert_eq!(m("1e3").whole(), None);
    }

    #[test]
    fn order_ids_are_plain_tokens() {
        assert!(is_order_id("5O190127TN364715T"));
        for bad in ["", "../v1/oauth2/token", "a/b", "a?b", "a b", &"A".repeat(65)] {
            assert!(!is_order_id(bad), "{bad}");
        }
    }

    #[test]
    fn the_approval_link_is_payer_action_or_approve() {
        let order: Order = serde_json::from_value(json!({
            "id": "X", "status": "PAYER_ACTION_REQUIRED",
            "links": [{"href": "https://api/self", "rel": "self"}, {"href": "https://www.paypal.com/checkoutnow?token=X", "rel": "payer-action"}]
        }))
        .unwrap();
        assert_eq!(order.approve_url(), Some("https://www.paypal.com/checkoutnow?token=X"));
        let old: Order = serde_json::from_value(json!({
            "id": "X", "status": "CREATED", "links": [{"href": "https://www.paypal.com/checkoutnow?token=X", "rel": "approve"}]
        }))
        .unwrap();
        assert_eq!(old.approve_url(), Some("https://www.paypal.com/checkoutnow?token=X"));
    }
}
