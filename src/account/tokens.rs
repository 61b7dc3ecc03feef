//! Issues RS256 tokens for an account with the current signing key.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use sea_orm::ConnectionTrait;

use crate::account::keys;
use crate::auth::claims::{AUDIENCE, Claims};
use crate::db::entities::account;
use crate::error::{Error, Result};

/// A signed token for `account`, issued by `issuer` at `now`.
pub async fn issue(
    db: &impl ConnectionTrait,
    account: &account::Model,
    issuer: &str,
    now: DateTime<Utc>,
) -> Result<String> {
    let key = keys::signing(db, now).await?;
    let claims = Claims {
        iss: issuer.to_string(),
        aud: AUDIENCE.to_string(),
        sub: account.sub.clone(),
        iat: now.timestamp(),
        exp: (now + keys::token_lifetime()).timestamp(),
        vmarket_id: account.vmarket_id.clone(),
        name_ja: account.name_ja.clone(),
        name_en: account.name_en.clone(),
    };
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(key.kid.clone());
    let encoding = EncodingKey::from_rsa_pem(key.private_pem.as_bytes())
        .map_err(|e| Error::Internal(format!("signing key: {e}")))?;
    encode(&header, &claims, &encoding).map_err(|e| Error::Internal(format!("token signing: {e}")))
}
