//! Protection for anonymous forms and calls: a per-form token bound to a timestamp (an HMAC
//! made with a key derived from Rocket's `secret_key`), the client-IP hash stored with an
//! inquiry, and the per-client rate limit of inquiries.
//!
//! The token stops cross-site posting of the contact form: another site can make a browser
//! post to us, but cannot read our page to get a token. It needs no cookie or server state.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::http::client_ip::ClientIp;
use crate::http::limit::Limiter;

type HmacSha256 = Hmac<Sha256>;

/// How long a form token stays valid.
pub const FORM_TOKEN_TTL_SECS: i64 = 2 * 60 * 60;

/// The key for form tokens and IP hashes, derived from Rocket's `secret_key`.
#[derive(Clone)]
pub struct FormKey([u8; 32]);

impl std::fmt::Debug for FormKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FormKey(…)")
    }
}

impl FormKey {
    /// Derives the key from the configured `secret_key`; without one (development) a random key
    /// is used, so tokens only survive while the process runs.
    pub fn from_figment(figment: &rocket::figment::Figment) -> Self {
        match figment.find_value("secret_key") {
            Ok(value) => Self::derive(serde_json::to_string(&value).unwrap_or_default().as_bytes()),
            Err(_) => Self(rand::random()),
        }
    }

    /// A key derived from `material`.
    pub fn derive(material: &[u8]) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"vmarket form key v1\0");
        hasher.update(material);
        Self(hasher.finalize().into())
    }

    fn mac(&self, purpose: &str, data: &str) -> String {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac.update(data.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// A signature of `data` for `purpose` (e.g. the link to an inquiry's confirmation view).
    pub fn sign(&self, purpose: &str, data: &str) -> String {
        self.mac(purpose, data)[..32].to_string()
    }

    /// Whether `sig` is [`FormKey::sign`] of `data` for `purpose`.
    pub fn check(&self, purpose: &str, data: &str, sig: &str) -> bool {
        let expected = self.sign(purpose, data);
        expected.len() == sig.len() && expected.bytes().zip(sig.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }

    /// A token for the form `form`, issued at `now`: `<unix seconds>.<hmac>`.
    pub fn token(&self, form: &str, now: DateTime<Utc>) -> String {
        let ts = now.timestamp();
        format!("{ts}.{}", self.mac(form, &ts.to_string()))
    }

    /// Whether `token` was issued by us for `form` within [`FORM_TOKEN_TTL_SECS`] before `now`.
    pub fn verify(&self, form: &str, token: &str, now: DateTime<Utc>) -> bool {
        let Some((ts, sig)) = token.split_once('.') else { return false };
        let Ok(issued) = ts.parse::<i64>() else { return false };
        let age = now.timestamp() - issued;
        if !(-60..=FORM_TOKEN_TTL_SECS).contains(&age) {
            return false;
        }
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(form.as_bytes());
        mac.update(b"\0");
        mac.update(ts.as_bytes());
        hex::decode(sig).is_ok_and(|sig| mac.verify_slice(&sig).is_ok())
    }

    /// A keyed hash of a client IP: lets staff see that two inquiries came from the same place
    /// without storing the address.
    pub fn ip_hash(&self, ip: IpAddr) -> String {
        self.mac("client-ip", &ip.to_string())[..32].to_string()
    }
}

/// The per-client limit on new inquiries, shared by the API and the contact form.
pub struct InquiryLimiter(Limiter<IpAddr>);

impl InquiryLimiter {
    /// `per_minute` inquiries per client and minute (at least one), as a burst.
    pub fn per_minute(db: &sea_orm::DatabaseConnection, per_minute: u32) -> Self {
        Self(Limiter::per_minute(db, "inquiry", per_minute))
    }

    /// Counts one inquiry from `client`; `RateLimited` with the seconds to wait when over the
    /// limit.
    pub async fn check(&self, client: ClientIp) -> Result<(), Error> {
        self.0.check(&client.limit_key()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    #[test]
    fn tokens_verify_for_their_form_and_time_only() {
        let key = FormKey::derive(b"secret");
        let now = at("2026-11-21T03:00:00Z");
        let token = key.token("contact", now);
        assert!(key.verify("contact", &token, now));
        assert!(key.verify("contact", &token, now + chrono::Duration::minutes(90)));
        assert!(!key.verify("contact", &token, now + chrono::Duration::hours(3)), "expired");
        assert!(!key.verify("other", &token, now), "bound to the form");
        assert!(!FormKey::derive(b"other secret").verify("contact", &token, now), "bound to the key");
        let (ts, sig) = token.split_once('.').unwrap();
        let forged = format!("{}.{sig}", ts.parse::<i64>().unwrap() + 3600);
        assert!(!key.verify("contact", &forged, now + chrono::Duration::hours(2)), "timestamp is signed");
        assert!(!key.verify("contact", "garbage", now));
    }

    #[test]
    fn ip_hashes_are_stable_and_keyed() {
        let ip = IpAddr::from([192, 0, 2, 1]);
        assert_eq!(FormKey::derive(b"k").ip_hash(ip), FormKey::derive(b"k").ip_hash(ip));
        assert_ne!(FormKey::derive(b"k").ip_hash(ip), FormKey::derive(b"j").ip_hash(ip));
    }
}
