//! The token rejection suite: every forged, mangled or stale token gets 401, and the JWKS
//! publishes public fields only. Key rotation keeps old tokens working until they expire.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::Duration;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use sea_orm::{EntityTrait, QueryOrder};
use serde_json::{Value, json};
use vmarket::db::entities::signing_key;

use crate::support::TestApp;

/// Claims like the account service's, for `sub`, issued by `iss` at the app's "now".
fn claims(app: &TestApp, iss: &str) -> Value {
    let now = app.clock.now().timestamp();
    json!({
        "iss": iss, "aud": "vmarket", "sub": "forged-sub", "iat": now, "exp": now + 3600,
        "vmarket_id": "mallory", "name_ja": "マロリー", "name_en": "Mallory",
    })
}

async fn current_key(app: &TestApp) -> signing_key::Model {
    // Asking for the JWKS makes sure a key exists.
    app.get("/account/auth/discovery/keys").await;
    signing_key::Entity::find()
        .order_by_desc(signing_key::Column::Id)
        .one(&app.db)
        .await
        .unwrap()
        .expect("a signing key")
}

fn sign(key: &signing_key::Model, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = kid.map(str::to_string);
    encode(&header, claims, &EncodingKey::from_rsa_pem(key.private_pem.as_bytes()).unwrap()).unwrap()
}

fn b64(v: &Value) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(v).unwrap())
}

async fn assert_refused(app: &TestApp, token: &str, what: &str) {
    let (status, body) = app.get_bearer("/api/v1/user/me", token).await;
    assert_eq!(status, 401, "{what} must be refused, got {body}");
    assert_eq!(body["code"], "unauthorized", "{what}");
}

#[rocket::async_test]
async fn forged_and_broken_tokens_are_refused() {
    let app = TestApp::builder().live().build().await;
    let iss = format!("{}/account", app.origin);
    let key = current_key(&app).await;
    let good = sign(&key, Some(&key.kid), &claims(&app, &iss));
    let (status, me) = app.get_bearer("/api/v1/user/me", &good).await;
    assert_eq!((status, me["vmarket_id"].as_str()), (200, Some("mallory")), "control: a well-formed token works");

    let c = claims(&app, &iss);
    let none = format!("{}.{}.", b64(&json!({"alg": "none", "typ": "JWT", "kid": key.kid})), b64(&c));
    assert_refused(&app, &none, "alg none").await;

    let hs_secret = key.n.as_bytes();
    let mut hs = Header::new(Algorithm::HS256);
    hs.kid = Some(key.kid.clone());
    let hs256 = encode(&hs, &c, &EncodingKey::from_secret(hs_secret)).unwrap();
    assert_refused(&app, &hs256, "HS256 keyed with the public key").await;
    let pem_secret = vmarket::account::keys::generate(app.clock.now()).unwrap();
    let hs256_pem = encode(&hs, &c, &EncodingKey::from_secret(pem_secret.private_pem.as_ref().as_bytes())).unwrap();
    assert_refused(&app, &hs256_pem, "HS256 keyed with a PEM").await;

    let other = match vmarket::account::keys::generate(app.clock.now()).unwrap().private_pem {
        sea_orm::ActiveValue::Set(pem) => pem,
        _ => unreachable!(),
    };
    let wrong_key = encode(
        &{
            let mut h = Header::new(Algorithm::RS256);
            h.kid = Some(key.kid.clone());
            h
        },
        &c,
        &EncodingKey::from_rsa_pem(other.as_bytes()).unwrap(),
    )
    .unwrap();
    assert_refused(&app, &wrong_key, "signed with another key under the real kid").await;

    assert_refused(&app, &sign(&key, Some("no-such-kid"), &c), "unknown kid").await;
    assert_refused(&app, &sign(&key, None, &c), "missing kid").await;

    let mut expired = c.clone();
    expired["exp"] = json!(app.clock.now().timestamp() - 120);
    assert_refused(&app, &sign(&key, Some(&key.kid), &expired), "expired").await;

    let mut wrong_iss = c.clone();
    wrong_iss["iss"] = json!("https://evil.example/account");
    assert_refused(&app, &sign(&key, Some(&key.kid), &wrong_iss), "wrong iss").await;

    let mut wrong_aud = c.clone();
    wrong_aud["aud"] = json!("someone-else");
    assert_refused(&app, &sign(&key, Some(&key.kid), &wrong_aud), "wrong aud").await;

    let mut no_exp = c.clone();
    no_exp.as_object_mut().unwrap().remove("exp");
    assert_refused(&app, &sign(&key, Some(&key.kid), &no_exp), "missing exp").await;

    let mut future = c.clone();
    future["iat"] = json!(app.clock.now().timestamp() + 3600);
    assert_refused(&app, &sign(&key, Some(&key.kid), &future), "issued in the future").await;

    let parts: Vec<&str> = good.split('.').collect();
    let mut tampered_claims = c.clone();
    tampered_claims["sub"] = json!("someone-else");
    let tampered = format!("{}.{}.{}", parts[0], b64(&tampered_claims), parts[2]);
    assert_refused(&app, &tampered, "tampered payload").await;

    for junk in ["", "abc", "a.b.c", "Bearer", &"x".repeat(5000)] {
        assert_refused(&app, junk, "junk").await;
    }

    // The same token in the cookie is refused the same way: the page treats it as signed out.
    let res =
        app.client.get("/mypage").cookie(rocket::http::Cookie::new("vmarket_token", tampered.clone())).dispatch().await;
    assert_eq!(res.status().code, 303);
}

#[rocket::async_test]
async fn the_jwks_has_public_fields_only_and_rotation_keeps_old_tokens_valid() {
    let app = TestApp::builder().live().build().await;
    let iss = format!("{}/account", app.origin);
    let (status, jwks) = app.get_json("/account/auth/discovery/keys").await;
    assert_eq!(status, 200);
    let keys = jwks["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    let fields: Vec<&String> = keys[0].as_object().unwrap().keys().collect();
    assert_eq!(fields, ["alg", "e", "kid", "kty", "n", "use"]);
    for private in ["d", "p", "q", "dp", "dq", "qi"] {
        assert!(keys[0].get(private).is_none(), "{private} is never published");
    }
    assert_eq!(
        (keys[0]["kty"].as_str(), keys[0]["alg"].as_str(), keys[0]["use"].as_str()),
        (Some("RSA"), Some("RS256"), Some("sig"))
    );

    let old = current_key(&app).await;
    let old_token = sign(&old, Some(&old.kid), &claims(&app, &iss));
    let new = vmarket::account::keys::rotate(&app.db, app.clock.now()).await.unwrap();
    assert_ne!(new.kid, old.kid);
    let (_, jwks) = app.get_json("/account/auth/discovery/keys").await;
    assert_eq!(jwks["keys"].as_array().unwrap().len(), 2, "old and new keys are both published");
    assert_eq!(app.get_bearer("/api/v1/user/me", &old_token).await.0, 200, "old kid still verifies");
    let new_token = sign(&new, Some(&new.kid), &claims(&app, &iss));
    assert_eq!(app.get_bearer("/api/v1/user/me", &new_token).await.0, 200, "the new kid is fetched on first sight");

    // After the old key expires it leaves the JWKS.
    app.clock.set(app.clock.now() + Duration::hours(25));
    let (_, jwks) = app.get_json("/account/auth/discovery/keys").await;
    let kids: Vec<_> =
        jwks["keys"].as_array().unwrap().iter().map(|k| k["kid"].as_str().unwrap().to_string()).collect();
    assert_eq!(kids, vec![new.kid]);
}
