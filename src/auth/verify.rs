//! Token verification: RS256 only, a known `kid`, signature, `iss`, `aud`, `sub` and `exp`
//! required, expiry judged by the application clock with an explicit leeway.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};

use crate::auth::claims::{AUDIENCE, Claims};
use crate::auth::jwks::JwksCache;

/// Seconds of clock skew tolerated on `exp` and `iat`.
pub const LEEWAY_SECONDS: i64 = 30;

/// Why a token was refused (logged, never shown).
#[derive(Debug, PartialEq, Eq)]
pub enum Rejection {
    /// Not a JWT, or not RS256.
    Malformed(String),
    /// No `kid`, or one the JWKS does not have.
    UnknownKey,
    /// Signature, issuer, audience or a required claim is wrong.
    Invalid(String),
    /// Past `exp`.
    Expired,
    /// Issued in the future.
    NotYetValid,
}

/// Verifies `token` against the keys of `jwks` for `issuer`, at `now`.
pub async fn verify(token: &str, jwks: &JwksCache, issuer: &str, now: DateTime<Utc>) -> Result<Claims, Rejection> {
    let header = decode_header(token).map_err(|e| Rejection::Malformed(e.to_string()))?;
    if header.alg != Algorithm::RS256 {
        return Err(Rejection::Malformed(format!("algorithm {:?}", header.alg)));
    }
    let kid = header.kid.ok_or(Rejection::UnknownKey)?;
    let key = jwks.key(&kid).await.ok_or(Rejection::UnknownKey)?;
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[AUDIENCE]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    // Expiry is checked below against the application clock, which time travel moves.
    validation.validate_exp = false;
    validation.leeway = LEEWAY_SECONDS as u64;
    let data = decode::<Claims>(token, &key, &validation).map_err(|e| Rejection::Invalid(e.to_string()))?;
    let claims = data.claims;
    let now = now.timestamp();
    if now >= claims.exp + LEEWAY_SECONDS {
        return Err(Rejection::Expired);
    }
    if claims.iat > now + LEEWAY_SECONDS {
        return Err(Rejection::NotYetValid);
    }
    Ok(claims)
}
