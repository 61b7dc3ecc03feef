//! Browser routes of the product side: `/auth/login` sends the visitor to the account service,
//! `/auth/callback` exchanges the one-time code for a token and stores it in the HttpOnly
//! cookie, `/auth/logout` signs out here and at the account service.

use rocket::http::{Cookie, CookieJar, SameSite};
use rocket::response::Redirect;
use rocket::{Route, State, get, routes};
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use url::Url;

use crate::auth::guards::OptionalUser;
use crate::auth::{Sso, TOKEN_COOKIE, csrf, verify};
use crate::clock::Clock;
use crate::db::entities::user;
use crate::error::{Error, Result};
use crate::i18n::Lang;
use crate::web::Site;
use crate::web::locale::{MANUAL_LOCALE_COOKIE, is_page_path, split_prefix};

/// How long the browser keeps the token cookie (spec §9).
const TOKEN_COOKIE_DAYS: i64 = 30;

/// A site-relative page path to return to; anything else becomes `/`.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && is_page_path(n) => n.to_string(),
        _ => "/".to_string(),
    }
}

/// The sign-in URL for a page at `next`.
pub fn login_href(next: &str) -> String {
    format!("/auth/login?next={}", url::form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>())
}

/// Sends the browser to the account service's sign-in page, to come back to `next`.
#[get("/login?<next>")]
pub fn login(next: Option<&str>, cookies: &CookieJar<'_>, site: &State<Site>, sso: &State<Sso>) -> Result<Redirect> {
    let next = safe_next(next);
    let lang = cookies
        .get(MANUAL_LOCALE_COOKIE)
        .and_then(|c| Lang::parse(c.value()))
        .or(split_prefix(&next).0)
        .unwrap_or_default();
    let mut callback = Url::parse(&site.config.site_url).map_err(|e| Error::Internal(e.to_string()))?;
    callback.set_path("/auth/callback");
    callback.query_pairs_mut().append_pair("next", &next);
    let mut target =
        Url::parse(&format!("{}/auth/vmarket_account", sso.issuer)).map_err(|e| Error::Internal(e.to_string()))?;
    target.query_pairs_mut().append_pair("redirect_url", callback.as_str()).append_pair("lang", lang.code());
    Ok(Redirect::to(target.to_string()))
}

#[derive(Deserialize)]
struct TokenBody {
    jwt: String,
}

/// Finishes a sign-in: exchanges `code` with the account service, verifies the token, stores it
/// in the HttpOnly cookie and returns to `next`.
#[get("/callback?<code>&<next>")]
pub async fn callback(
    code: Option<&str>,
    next: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    sso: &State<Sso>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Redirect> {
    let code = code.filter(|c| !c.is_empty()).ok_or(Error::BadRequest { code: "missing_code" })?;
    let res = sso
        .client
        .post(format!("{}/auth/token", sso.issuer))
        .form(&[("code", code)])
        .send()
        .await
        .map_err(|e| Error::Internal(format!("account service unreachable: {e}")))?;
    if res.status() == reqwest::StatusCode::UNAUTHORIZED {
        return Err(Error::Unauthorized);
    }
    let body: TokenBody = res
        .error_for_status()
        .map_err(|e| Error::Internal(e.to_string()))?
        .json()
        .await
        .map_err(|e| Error::Internal(e.to_string()))?;
    let now = clock.now();
    let claims = verify::verify(&body.jwt, &sso.jwks, &sso.issuer, now).await.map_err(|why| {
        tracing::warn!(?why, "account service returned a token that does not verify");
        Error::Unauthorized
    })?;
    user::Model::provision(db.inner(), &claims.identity(), now).await?;
    let secure = site.config.secure_cookies();
    cookies.add(
        Cookie::build((TOKEN_COOKIE, body.jwt))
            .path("/")
            .http_only(true)
            .secure(secure)
            .same_site(SameSite::Lax)
            .max_age(rocket::time::Duration::days(TOKEN_COOKIE_DAYS)),
    );
    csrf::token(cookies, secure);
    Ok(Redirect::to(safe_next(next)))
}

/// Signs out: every token of the user stops working, the cookie goes, and the account service
/// ends its sessions before sending the browser back to `next`.
#[get("/logout?<next>")]
pub async fn logout(
    next: Option<&str>,
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    sso: &State<Sso>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Redirect> {
    if let Some(u) = user.0 {
        u.revoke_tokens(db.inner(), clock.now()).await?;
    }
    cookies.remove(Cookie::build(TOKEN_COOKIE).path("/"));
    let back = format!("{}{}", site.config.site_url.trim_end_matches('/'), safe_next(next));
    let mut target = Url::parse(&format!("{}/auth/logout", sso.issuer)).map_err(|e| Error::Internal(e.to_string()))?;
    target.query_pairs_mut().append_pair("redirect_url", &back);
    Ok(Redirect::to(target.to_string()))
}

/// Routes mounted at `/auth`.
pub fn routes() -> Vec<Route> {
    routes![login, callback, logout]
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn next_stays_on_site_pages() {
        assert_eq!(safe_next(Some("/en/worlds?x=1")), "/en/worlds?x=1");
        for bad in ["//evil.example", "https://evil.example", "/\\evil", "/api/v1/user/me", "worlds"] {
            assert_eq!(safe_next(Some(bad)), "/", "{bad}");
        }
        assert_eq!(safe_next(None), "/");
    }
}
