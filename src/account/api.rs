//! The account service's JSON calls: `/vso/me` and `/vso/token` (SSO cookie), the one-time code
//! exchange the product's callback makes, sign-out everywhere (`/auth/revoke`) and the JWKS.

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::account::keys;
use crate::account::pages::session_account;
use crate::account::store::CodeGrant;
use crate::account::tokens;
use crate::auth::jwks::Jwks;
use crate::clock::Clock;
use crate::db::entities::account;
use crate::error::{Error, Result, request_lang_of};
use crate::http::Site;
use crate::model::user::IconView;

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
    session_account(db, cookies, clock.real_now()).await?.ok_or(Error::Unauthorized)
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
    Ok(Json(TokenBody { jwt: tokens::issue(db.inner(), &a, &site.config.sso_base(), clock.real_now()).await? }))
}

/// The code exchange form.
#[derive(Debug, FromForm)]
pub struct CodeForm {
    #[field(default = String::new())]
    code: String,
    #[field(default = String::new())]
    redirect_url: String,
    #[field(default = String::new())]
    code_verifier: String,
}

/// Exchanges a one-time code for a token. Server-to-server: the product's callback calls it, so
/// the browser never holds the token in script. The code works once, within 60 seconds, and only
/// with the `redirect_url` it was issued for and the PKCE verifier of its S256 challenge; a
/// failed attempt spends it.
#[utoipa::path(post, path = "/account/auth/token", tag = "account",
    request_body(content_type = "application/x-www-form-urlencoded",
        description = "code=<one-time code>&redirect_url=<the callback it was sent to>&code_verifier=<PKCE verifier>"),
    responses((status = 200, body = TokenBody), (status = 400, body = crate::error::ErrorBody, description = "invalid_grant")))]
#[post("/auth/token", data = "<form>")]
pub async fn exchange(
    form: Form<CodeForm>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Json<TokenBody>> {
    let now = clock.real_now();
    let grant = CodeGrant { code: &form.code, redirect_url: &form.redirect_url, code_verifier: &form.code_verifier };
    let a = account::Model::redeem_code(db.inner(), &grant, now)
        .await?
        .ok_or(Error::BadRequest { code: "invalid_grant" })?;
    Ok(Json(TokenBody { jwt: tokens::issue(db.inner(), &a, &site.config.sso_base(), now).await? }))
}

/// The account's token generation after a sign-out everywhere.
#[derive(Debug, Serialize, ToSchema)]
pub struct Revoked {
    /// Tokens of a lower generation are no longer accepted.
    pub generation: i64,
}

/// Signs the token's account out everywhere (server-to-server, from the product's sign-out):
/// every session ends and the token generation moves on. Needs a current token of the account.
#[utoipa::path(post, path = "/account/auth/revoke", tag = "account", security(("bearer" = [])),
    responses((status = 200, body = Revoked), (status = 401, body = crate::error::ErrorBody)))]
#[post("/auth/revoke")]
pub async fn revoke(
    bearer: Bearer<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Json<Revoked>> {
    let account = tokens::verify_own(db.inner(), bearer.0, &site.config.sso_base(), clock.real_now()).await?;
    Ok(Json(Revoked { generation: account.sign_out_everywhere(db.inner()).await? }))
}

/// The `Authorization: Bearer` token of a request (401 without one).
pub struct Bearer<'r>(&'r str);

#[rocket::async_trait]
impl<'r> rocket::request::FromRequest<'r> for Bearer<'r> {
    type Error = Error;

    async fn from_request(req: &'r rocket::Request<'_>) -> rocket::request::Outcome<Self, Error> {
        let token = req.headers().get_one("Authorization").and_then(|v| {
            let (scheme, token) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
        match token {
            Some(t) => rocket::request::Outcome::Success(Bearer(t)),
            None => rocket::request::Outcome::Error((rocket::http::Status::Unauthorized, Error::Unauthorized)),
        }
    }
}

/// The public keys that verify tokens (public fields only).
#[utoipa::path(get, path = "/account/auth/discovery/keys", tag = "account", responses((status = 200, body = Jwks)))]
#[get("/auth/discovery/keys")]
pub async fn discovery_keys(db: &State<DatabaseConnection>, clock: &State<Clock>) -> Result<Json<Jwks>> {
    Ok(Json(keys::jwks(db.inner(), clock.real_now()).await?))
}

/// Routes of the JSON side.
pub fn routes() -> Vec<Route> {
    routes![me, token, exchange, revoke, discovery_keys]
}
