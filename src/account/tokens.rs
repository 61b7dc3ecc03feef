//! Issues RS256 tokens for an account with the current signing key.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, decode_header, encode};
use sea_orm::ConnectionTrait;
use sea_orm::EntityTrait;

use crate::account::keys;
use crate::auth::claims::{AUDIENCE, Claims};
use crate::db::entities::{account, signing_key};
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
        r#gen: account.token_generation,
        email: Some(account.email.clone()),
    };
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(key.kid.clone());
    let encoding = EncodingKey::from_rsa_pem(key.private_pem.as_bytes())
        .map_err(|e| Error::Internal(format!("signing key: {e}")))?;
    encode(&header, &claims, &encoding).map_err(|e| Error::Internal(format!("token signing: {e}")))
}

/// The account of a token this service signed, if the token is still good: signed by one of its
/// keys, issued by `issuer` for the product, unexpired at `now`, of the account's current token
/// generation. `Unauthorized` otherwise.
pub async fn verify_own(
    db: &impl ConnectionTrait,
    token: &str,
    issuer: &str,
    now: DateTime<Utc>,
) -> Result<account::Model> {
    let kid = decode_header(token).ok().and_then(|h| (h.alg == Algorithm::RS256).then_some(h.kid)).flatten();
    let key = match kid {
        Some(kid) => {
            use sea_orm::{ColumnTrait, QueryFilter};
            signing_key::Entity::find().filter(signing_key::Column::Kid.eq(kid)).one(db).await?
        }
        None => None,
    }
    .ok_or(Error::Unauthorized)?;
    let decoding = DecodingKey::from_rsa_components(&key.n, &key.e).map_err(|_| Error::Unauthorized)?;
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[AUDIENCE]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.validate_exp = false;
    let claims = decode::<Claims>(token, &decoding, &validation).map_err(|_| Error::Unauthorized)?.claims;
    if now.timestamp() >= claims.exp {
        return Err(Error::Unauthorized);
    }
    let account = account::Model::by_sub(db, &claims.sub).await?.ok_or(Error::Unauthorized)?;
    if claims.r#gen < account.token_generation {
        return Err(Error::Unauthorized);
    }
    Ok(account)
}
