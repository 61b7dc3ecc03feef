//! The account service's JSON calls: `/vso/me` and `/vso/token` (SSO cookie), the one-time code
//! exchange the product's callback makes, and the JWKS.

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::account::keys::{self, Jwks};
use crate::account::pages::session_account;
use crate::account::tokens;
use crate::clock::Clock;
use crate::db::entities::account;
use crate::error::{Error, Result, request_lang_of};
use crate::model::user::IconView;
use crate::web::Site;

/// The account as the account service knows it (spec §3 User shape).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountUser {
    /// Account id.
    pub id: i32,
    /// Stable subject of the account's tokens.
    pub sub: String,
    /// Public handle.
    pub vmarket_id: String,
    /// Name in the requested language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// The account service keeps no icon: all null.
    pub icon: IconView,
    /// The account service keeps no links: empty.
    pub external_links: Vec<String>,
    /// Not kept here: null.
    pub memo: Option<String>,
    /// Not kept here: 0.
    pub score: i32,
    /// Roles are the product's: empty here.
    pub roles: Vec<String>,
}

/// A signed token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenBody {
    /// The RS256 JWT.
    pub jwt: String,
}

async fn signed_in(db: &DatabaseConnection, cookies: &CookieJar<'_>, clock: &Clock) -> Result<account::Model> {
    session_account(db, cookies, clock.now()).await?.ok_or(Error::Unauthorized)
}

/// The signed-in account (SSO cookie).
#[utoipa::path(get, path = "/account/vso/me", tag = "account",
    responses((status = 200, body = AccountUser), (status = 401, body = crate::error::ErrorBody)))]
#[get("/vso/me?<lang>")]
pub async fn me(
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Json<AccountUser>> {
    let a = signed_in(db, cookies, clock).await?;
    let lang = request_lang_of(lang);
    Ok(Json(AccountUser {
        id: a.id,
        name: lang.pick(&a.name_ja, &a.name_en).to_string(),
        sub: a.sub,
        vmarket_id: a.vmarket_id,
        name_ja: a.name_ja,
        name_en: a.name_en,
        icon: IconView { url: None, small: None, medium: None, large: None },
        external_links: vec![],
        memo: None,
        score: 0,
        roles: vec![],
    }))
}

/// A fresh token for the signed-in account (SSO cookie).
#[utoipa::path(get, path = "/account/vso/token", tag = "account",
    responses((status = 200, body = TokenBody), (status = 401, body = crate::error::ErrorBody)))]
#[get("/vso/token")]
pub async fn token(
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Json<TokenBody>> {
    let a = signed_in(db, cookies, clock).await?;
    Ok(Json(TokenBody { jwt: tokens::issue(db.inner(), &a, &site.config.sso_base(), clock.now()).await? }))
}

/// The code exchange form.
#[derive(Debug, FromForm)]
pub struct CodeForm {
    #[field(default = String::new())]
    code: String,
}

/// Exchanges a one-time code (from the sign-in redirect) for a token. Server-to-server: the
/// product's callback calls it, so the browser never holds the token in script.
#[utoipa::path(post, path = "/account/auth/token", tag = "account",
    request_body(content_type = "application/x-www-form-urlencoded", description = "code=<one-time code>"),
    responses((status = 200, body = TokenBody), (status = 401, body = crate::error::ErrorBody)))]
#[post("/auth/token", data = "<form>")]
pub async fn exchange(
    form: Form<CodeForm>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Json<TokenBody>> {
    let now = clock.now();
    let a = account::Model::redeem_code(db.inner(), &form.code, now).await?.ok_or(Error::Unauthorized)?;
    Ok(Json(TokenBody { jwt: tokens::issue(db.inner(), &a, &site.config.sso_base(), now).await? }))
}

/// The public keys that verify tokens (public fields only).
#[utoipa::path(get, path = "/account/auth/discovery/keys", tag = "account", responses((status = 200, body = Jwks)))]
#[get("/auth/discovery/keys")]
pub async fn discovery_keys(db: &State<DatabaseConnection>, clock: &State<Clock>) -> Result<Json<Jwks>> {
    Ok(Json(keys::jwks(db.inner(), clock.now()).await?))
}

/// Routes of the JSON side.
pub fn routes() -> Vec<Route> {
    routes![me, token, exchange, discovery_keys]
}
