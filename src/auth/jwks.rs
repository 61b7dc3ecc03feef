//! The JSON Web Key Set the account service publishes ([`Jwks`]), and the product side's cache
//! of its public keys, fetched over HTTP from
//! `{sso_domain}/auth/discovery/keys`. Keys are kept for an hour; a token with an unknown `kid`
//! triggers one refetch, at most once a minute.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::DecodingKey;
use tokio::sync::Mutex;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A public key as published in the JWKS (public fields only).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Jwk {
    /// Key type, `RSA`.
    pub kty: String,
    /// Key id.
    pub kid: String,
    /// Modulus, base64url.
    pub n: String,
    /// Exponent, base64url.
    pub e: String,
    /// Algorithm, `RS256`.
    pub alg: String,
    /// Use, `sig`.
    #[serde(rename = "use")]
    pub use_: String,
}

/// The JWKS document.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Jwks {
    /// The keys that verify tokens now.
    pub keys: Vec<Jwk>,
}

/// How long fetched keys are trusted without asking again.
const MAX_AGE: Duration = Duration::from_secs(3600);
/// The shortest interval between two fetches.
const MIN_REFETCH: Duration = Duration::from_secs(60);

#[derive(Default)]
struct State {
    keys: HashMap<String, DecodingKey>,
    fetched_at: Option<Instant>,
}

/// Public keys by `kid`.
pub struct JwksCache {
    client: reqwest::Client,
    url: String,
    state: Mutex<State>,
}

impl JwksCache {
    /// A cache over the JWKS at `url`.
    pub fn new(client: reqwest::Client, url: String) -> Self {
        Self { client, url, state: Mutex::new(State::default()) }
    }

    /// The key `kid`, fetching the JWKS when it is stale or (rate-limited) when `kid` is unknown.
    pub async fn key(&self, kid: &str) -> Option<DecodingKey> {
        let mut state = self.state.lock().await;
        let age = state.fetched_at.map(|t| t.elapsed());
        let stale = age.is_none_or(|a| a > MAX_AGE);
        let unknown = !state.keys.contains_key(kid);
        if stale || (unknown && age.is_none_or(|a| a > MIN_REFETCH)) {
            match self.fetch().await {
                Ok(keys) => {
                    state.keys = keys;
                    state.fetched_at = Some(Instant::now());
                }
                Err(e) => {
                    tracing::warn!(url = %self.url, error = %e, "JWKS fetch failed");
                    // Keep what we had; don't hammer the service.
                    state.fetched_at = state.fetched_at.or(Some(Instant::now() - MAX_AGE + MIN_REFETCH));
                }
            }
        }
        state.keys.get(kid).cloned()
    }

    async fn fetch(&self) -> Result<HashMap<String, DecodingKey>, String> {
        let res = self.client.get(&self.url).send().await.map_err(|e| e.to_string())?;
        if !res.status().is_success() {
            return Err(format!("status {}", res.status()));
        }
        let jwks: Jwks = res.json().await.map_err(|e| e.to_string())?;
        Ok(jwks
            .keys
            .into_iter()
            .filter(|k| k.kty == "RSA" && k.alg == "RS256" && k.use_ == "sig")
            .filter_map(|k| DecodingKey::from_rsa_components(&k.n, &k.e).ok().map(|d| (k.kid, d)))
            .collect())
    }
}
