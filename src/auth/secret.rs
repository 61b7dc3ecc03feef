//! Random secrets and what is stored of them (their SHA-256), and PKCE (RFC 7636) challenges:
//! shared by the product side of sign-in and the built-in account service (`crate::account`),
//! which issues and checks them.

use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A new random secret, URL-safe.
pub fn new_secret() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

/// The stored form of a secret.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Whether `challenge` is a well-formed S256 PKCE challenge (43 base64url characters).
pub fn is_challenge(challenge: &str) -> bool {
    challenge.len() == 43 && challenge.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The S256 challenge of a PKCE verifier (RFC 7636 §4.2).
pub fn pkce_challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Whether `verifier` (43–128 unreserved characters, RFC 7636 §4.1) hashes to `challenge`.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    well_formed && is_challenge(challenge) && pkce_challenge(verifier).as_bytes().ct_eq(challenge.as_bytes()).into()
}
