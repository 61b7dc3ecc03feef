//! Signing keys: RSA-2048 generated with aws-lc-rs, stored as PKCS#8 PEM with their public
//! modulus and exponent. One key signs at a time; `rotate` retires it, and a retired key stays in
//! the JWKS until every token it signed has expired.

use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::rsa::{KeyPair, KeySize};
use aws_lc_rs::signature::KeyPair as _;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ConnectionTrait, QueryOrder, Set};

use crate::auth::jwks::{Jwk, Jwks};
use crate::db::entities::signing_key;
use crate::error::{Error, Result};

/// How long a token is valid.
pub fn token_lifetime() -> Duration {
    Duration::hours(24)
}

/// Generates a new RSA-2048 key as a row ready to insert.
pub fn generate(now: DateTime<Utc>) -> Result<signing_key::ActiveModel> {
    let pair = KeyPair::generate(KeySize::Rsa2048).map_err(|_| Error::Internal("RSA key generation failed".into()))?;
    let der = AsDer::<aws_lc_rs::encoding::Pkcs8V1Der>::as_der(&pair)
        .map_err(|_| Error::Internal("PKCS#8 export failed".into()))?;
    let public = pair.public_key();
    let n = URL_SAFE_NO_PAD.encode(public.modulus().big_endian_without_leading_zero());
    let e = URL_SAFE_NO_PAD.encode(public.exponent().big_endian_without_leading_zero());
    let kid = format!("{}-{}", now.format("%Y%m%d"), &hex::encode(rand::random::<[u8; 4]>()));
    Ok(signing_key::ActiveModel {
        kid: Set(kid),
        private_pem: Set(pem("PRIVATE KEY", der.as_ref())),
        n: Set(n),
        e: Set(e),
        created_at: Set(now),
        retired_at: Set(None),
        expires_at: Set(None),
        ..Default::default()
    })
}

fn pem(label: &str, der: &[u8]) -> String {
    let body = STANDARD.encode(der);
    let lines: Vec<&str> = body.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap_or_default()).collect();
    format!("-----BEGIN {label}-----\n{}\n-----END {label}-----\n", lines.join("\n"))
}

/// The key that signs now, created on first use.
pub async fn signing(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<signing_key::Model> {
    let active = signing_key::Entity::find()
        .filter(signing_key::Column::RetiredAt.is_null())
        .order_by_desc(signing_key::Column::Id)
        .one(db)
        .await?;
    match active {
        Some(key) => Ok(key),
        None => Ok(generate(now)?.insert(db).await?),
    }
}

/// Retires the signing key (it keeps verifying for one token lifetime) and creates a new one.
pub async fn rotate(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<signing_key::Model> {
    for key in signing_key::Entity::find().filter(signing_key::Column::RetiredAt.is_null()).all(db).await? {
        let mut row: signing_key::ActiveModel = key.into();
        row.retired_at = Set(Some(now));
        row.expires_at = Set(Some(now + token_lifetime() + Duration::minutes(5)));
        row.update(db).await?;
    }
    Ok(generate(now)?.insert(db).await?)
}

/// Keys that verify at `now`: the signing key and retired keys not yet expired.
pub async fn jwks(db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<Jwks> {
    signing(db, now).await?;
    let keys = signing_key::Entity::find()
        .filter(
            sea_orm::Condition::any()
                .add(signing_key::Column::ExpiresAt.is_null())
                .add(signing_key::Column::ExpiresAt.gt(now)),
        )
        .order_by_desc(signing_key::Column::Id)
        .all(db)
        .await?;
    Ok(Jwks {
        keys: keys
            .into_iter()
            .map(|k| Jwk { kty: "RSA".into(), kid: k.kid, n: k.n, e: k.e, alg: "RS256".into(), use_: "sig".into() })
            .collect(),
    })
}
