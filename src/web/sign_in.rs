//! Browser routes of the product side of sign-in, mounted at `/auth` (the guards, tokens and
//! CSRF they rely on are `crate::auth`).
//!
//! - `/auth/login` starts a sign-in: a single-use state bound to this browser (cookie) and a PKCE
//!   verifier kept on the server, then off to the account service with the state, the S256
//!   challenge and this site's one registered callback.
//! - `/auth/callback` finishes only a sign-in this browser started: the state must match the
//!   cookie and be fresh and unused; the code is exchanged server-to-server with the verifier; the
//!   token must pass the very checks the request guards apply, so a page can never refuse what
//!   the callback accepted (no redirect loop). It always answers with a redirect, so the code
//!   never stays in the address bar.
//! - `/auth/logout` asks (GET) and signs out (POST with the CSRF token): every token of the user
//!   stops working, here and at the account service.

use crate::http::template::Template;
use rocket::Either;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::time::Duration;
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde_json::json;
use url::Url;

use crate::auth::guards::OptionalUser;
use crate::auth::links::login_href;
use crate::auth::sign_in::{self, STATE_COOKIE};
use crate::auth::{Sso, TOKEN_COOKIE, csrf, verify};
use crate::clock::Clock;
use crate::db::entities::user;
use crate::error::{Error, Result};
use crate::http::Site;
use crate::http::cookies::Spec;
use crate::http::redirect;
use crate::types::Lang;
use crate::web::locale::{MANUAL_LOCALE_COOKIE, is_page_path, split_prefix};
use crate::web::page::base_context;

/// The token cookie: 30 days (spec §9), HttpOnly, for the whole site.
pub const TOKEN: Spec = Spec::new(TOKEN_COOKIE, "/").max_age(Duration::days(30));
/// The browser binding of a started sign-in.
pub const STATE: Spec = Spec::new(STATE_COOKIE, "/auth").max_age(Duration::minutes(10));
/// Set for a moment after a successful callback: an automatic sign-in right after one means the
/// browser is not keeping the token (a loop), so the visitor gets a page instead of another trip.
/// Its value is the sign-in time on the application clock, so time travel ages it too.
pub const RECENT: Spec = Spec::new("vmarket_auth_recent", "/auth").max_age(Duration::seconds(RECENT_SECONDS));
const RECENT_SECONDS: i64 = 30;

/// A site-relative page path (or a console page) to return to; anything else becomes `/`.
pub fn safe_next(next: Option<&str>) -> String {
    let path = redirect::site_path(next.unwrap_or("/"));
    let console = (path == "/admin" || path.starts_with("/admin/")) && !path.starts_with("/admin/api");
    if is_page_path(&path) || console { path } else { "/".to_string() }
}

/// The visitor's language outside the page routes: the manual-locale cookie, then `path`'s prefix.
fn visitor_lang(cookies: &CookieJar<'_>, path: &str) -> Lang {
    cookies.get(MANUAL_LOCALE_COOKIE).and_then(|c| Lang::parse(c.value())).or(split_prefix(path).0).unwrap_or_default()
}

/// A short message page (sign-in problems, sign-out confirmation) in `lang`.
fn message_page(
    site: &Site,
    clock: &Clock,
    lang: Lang,
    status: Status,
    key: &str,
    extra: serde_json::Value,
) -> (Status, Template) {
    let title = site.messages.t(lang, &format!("auth.{key}.title"));
    let mut ctx = base_context(site, lang, "/", &title, clock.now());
    ctx.insert("noindex".into(), json!(true));
    ctx.insert("message".into(), json!(site.messages.t(lang, &format!("auth.{key}.message"))));
    ctx.insert("key".into(), json!(key));
    if let serde_json::Value::Object(map) = extra {
        ctx.extend(map);
    }
    (status, Template::render("auth/message", ctx))
}

/// Sends the browser to the account service's sign-in page, to come back to `next`. An
/// automatic attempt (`auto=1`, from a page that needed sign-in) right after a successful one
/// shows a page instead: at most one automatic trip per navigation.
#[get("/login?<next>&<auto>")]
pub async fn login(
    next: Option<&str>,
    auto: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    sso: &State<Sso>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Either<Redirect, (Status, Template)>> {
    let next = safe_next(next);
    let lang = visitor_lang(cookies, &next);
    if auto.is_some() && just_signed_in(cookies, clock.real_now()) {
        RECENT.remove(cookies, &site.config);
        let extra =
            json!({ "action": { "href": login_href(&next), "label": site.messages.t(lang, "auth.loop.action") } });
        return Ok(Either::Right(message_page(site, clock, lang, Status::Unauthorized, "loop", extra)));
    }
    let started = sign_in::start(db.inner(), &next, lang, clock.real_now()).await?;
    STATE.set(cookies, started.state.clone(), &site.config);
    let mut target = sso.url("/auth/vmarket_account")?;
    target
        .query_pairs_mut()
        .append_pair("redirect_url", &sso.callback_url)
        .append_pair("state", &started.state)
        .append_pair("code_challenge", &started.code_challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("lang", lang.code());
    Ok(Either::Left(redirect::to_url(&target)))
}

/// Why a callback failed, as shown by `/auth/failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The state was missing, not this browser's, used or expired.
    State,
    /// The account service refused the code.
    Exchange,
    /// The account service could not be reached or answered nonsense.
    Unavailable,
    /// The token did not pass the checks (signature, expiry, a revoked generation).
    Token,
}

impl Failure {
    fn code(self) -> &'static str {
        match self {
            Self::State => "state",
            Self::Exchange => "exchange",
            Self::Unavailable => "unavailable",
            Self::Token => "token",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [Self::State, Self::Exchange, Self::Unavailable, Self::Token].into_iter().find(|f| f.code() == s)
    }

    fn status(self) -> Status {
        match self {
            Self::State => Status::BadRequest,
            Self::Unavailable => Status::BadGateway,
            Self::Exchange | Self::Token => Status::Unauthorized,
        }
    }
}

fn failed(failure: Failure, lang: Lang) -> Redirect {
    redirect::to_site(&format!("/auth/failed?reason={}&lang={}", failure.code(), lang.code()))
}

#[derive(serde::Deserialize)]
struct TokenBody {
    jwt: String,
}

/// Finishes a sign-in this browser started: checks the state, exchanges `code` with the verifier,
/// verifies the token as the guards do, stores it in the HttpOnly cookie and returns to the page
/// the sign-in started from. Any failure goes to `/auth/failed` and signs nothing in.
#[get("/callback?<code>&<state>")]
pub async fn callback(
    code: Option<&str>,
    state: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    sso: &State<Sso>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Redirect> {
    let now = clock.real_now();
    let browser_state = STATE.get(cookies);
    STATE.remove(cookies, &site.config);
    let row = match sign_in::take(db.inner(), state, browser_state.as_deref(), now).await? {
        Ok(row) => row,
        Err(problem) => {
            tracing::info!(?problem, "sign-in callback refused");
            if let Some(code) = code {
                // Somebody else's code reached this browser: spend it, so it is worth nothing.
                sso.exchange(code, "burnt").await.ok();
            }
            return Ok(failed(Failure::State, visitor_lang(cookies, "/")));
        }
    };
    let lang = Lang::parse(&row.lang).unwrap_or_default();
    let Some(code) = code.filter(|c| !c.is_empty()) else { return Ok(failed(Failure::Exchange, lang)) };
    let jwt = match sso.exchange(code, &row.code_verifier).await {
        Ok(jwt) => jwt,
        Err(failure) => return Ok(failed(failure, lang)),
    };
    let claims = match verify::verify(&jwt, &sso.jwks, &sso.issuer, now).await {
        Ok(claims) => claims,
        Err(why) => {
            tracing::warn!(?why, "the account service returned a token that does not verify");
            return Ok(failed(Failure::Token, lang));
        }
    };
    let Ok(user) = user::Model::provision(db.inner(), &claims.identity(), now).await else {
        return Ok(failed(Failure::Token, lang));
    };
    if !user.accepts_generation(claims.r#gen) {
        return Ok(failed(Failure::Token, lang));
    }
    user.set_lang(db.inner(), lang).await?;
    TOKEN.set(cookies, jwt, &site.config);
    csrf::token(cookies, &site.config);
    RECENT.set(cookies, now.timestamp().to_string(), &site.config);
    Ok(redirect::to_site(&safe_next(Some(&row.next))))
}

/// Whether this browser finished a sign-in less than [`RECENT`]'s lifetime ago.
fn just_signed_in(cookies: &CookieJar<'_>, now: chrono::DateTime<chrono::Utc>) -> bool {
    RECENT
        .get(cookies)
        .and_then(|at| at.parse::<i64>().ok())
        .is_some_and(|at| (0..RECENT_SECONDS).contains(&(now.timestamp() - at)))
}

/// What went wrong with a sign-in, in the visitor's language, with a way to try again.
#[get("/failed?<reason>&<lang>")]
pub fn failed_page(
    reason: Option<&str>,
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    clock: &State<Clock>,
) -> (Status, Template) {
    let failure = reason.and_then(Failure::parse).unwrap_or(Failure::State);
    let lang = lang.and_then(Lang::parse).unwrap_or_else(|| visitor_lang(cookies, "/"));
    let home = crate::web::locale::localized_path(lang, "/");
    let extra =
        json!({ "action": { "href": login_href(&home), "label": site.messages.t(lang, "auth.failed.action") } });
    let key = format!("failed.{}", failure.code());
    message_page(site, clock, lang, failure.status(), &key, extra)
}

/// Asks before signing out (a link alone never signs anyone out).
#[get("/logout?<next>")]
pub fn logout_page(
    next: Option<&str>,
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    clock: &State<Clock>,
) -> Either<Redirect, (Status, Template)> {
    let next = safe_next(next);
    if user.0.is_none() {
        return Either::Left(redirect::to_site(&next));
    }
    let lang = visitor_lang(cookies, &next);
    let extra = json!({ "sign_out": { "next": next, "csrf_token": csrf::token(cookies, &site.config) } });
    Either::Right(message_page(site, clock, lang, Status::Ok, "sign_out", extra))
}

/// The sign-out form.
#[derive(Debug, FromForm)]
pub struct SignOutForm {
    #[field(default = String::new())]
    csrf_token: String,
    #[field(default = String::new())]
    next: String,
}

/// Signs out: every token of the user stops working (the account service moves the account's
/// token generation on and ends its sessions; this side refuses older generations), the cookie
/// goes, and the browser passes the account service on its way back to `next`.
#[post("/logout", data = "<form>")]
pub async fn logout(
    form: Form<SignOutForm>,
    user: OptionalUser,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    sso: &State<Sso>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Either<Redirect, (Status, Template)>> {
    let next = safe_next(Some(&form.next));
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        let lang = visitor_lang(cookies, &next);
        return Ok(Either::Right(message_page(site, clock, lang, Status::Forbidden, "expired", json!({}))));
    }
    if let (Some(user), Some(jwt)) = (user.0, cookies.get(TOKEN_COOKIE).map(|c| c.value().to_string())) {
        let generation = match sso.revoke(&jwt).await {
            Ok(generation) => generation,
            Err(e) => {
                tracing::warn!(error = %e, "the account service did not confirm the sign-out");
                let current = verify::verify(&jwt, &sso.jwks, &sso.issuer, clock.real_now()).await.map(|c| c.r#gen);
                current.unwrap_or(user.min_token_generation) + 1
            }
        };
        user.revoke_tokens_below(db.inner(), generation).await?;
    }
    TOKEN.remove(cookies, &site.config);
    RECENT.remove(cookies, &site.config);
    let mut target = sso.url("/auth/logout")?;
    let back = format!("{}{}", site.config.site_url.trim_end_matches('/'), next);
    target.query_pairs_mut().append_pair("redirect_url", &back);
    Ok(Either::Left(redirect::to_url(&target)))
}

impl Sso {
    /// `{issuer}{path}` as a URL.
    pub fn url(&self, path: &str) -> Result<Url> {
        Url::parse(&format!("{}{path}", self.issuer)).map_err(|e| Error::Internal(format!("sso_domain: {e}")))
    }

    /// Exchanges a code for a token with the PKCE verifier (server to server).
    pub async fn exchange(&self, code: &str, verifier: &str) -> std::result::Result<String, Failure> {
        let form = [("code", code), ("redirect_url", self.callback_url.as_str()), ("code_verifier", verifier)];
        let res = self.client.post(format!("{}/auth/token", self.issuer)).form(&form).send().await.map_err(|e| {
            tracing::warn!(error = %e.without_url(), "account service unreachable");
            Failure::Unavailable
        })?;
        if res.status().is_client_error() {
            return Err(Failure::Exchange);
        }
        let body: TokenBody =
            res.error_for_status().map_err(|_| Failure::Unavailable)?.json().await.map_err(|_| Failure::Unavailable)?;
        Ok(body.jwt)
    }

    /// Asks the account service to end every session and token of the token's account; the
    /// account's new token generation.
    pub async fn revoke(&self, jwt: &str) -> std::result::Result<i64, String> {
        #[derive(serde::Deserialize)]
        struct Revoked {
            generation: i64,
        }
        let res = self
            .client
            .post(format!("{}/auth/revoke", self.issuer))
            .bearer_auth(jwt)
            .send()
            .await
            .map_err(|e| e.without_url().to_string())?;
        let res = res.error_for_status().map_err(|e| e.without_url().to_string())?;
        Ok(res.json::<Revoked>().await.map_err(|e| e.without_url().to_string())?.generation)
    }
}

/// Routes mounted at `/auth`.
pub fn routes() -> Vec<Route> {
    routes![login, callback, failed_page, logout_page, logout]
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn next_stays_on_site_pages() {
        assert_eq!(safe_next(Some("/en/worlds?x=1")), "/en/worlds?x=1");
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "/api/v1/user/me",
            "worlds",
            "/en//evil.example",
            "/\t/evil.example",
        ] {
            assert_eq!(safe_next(Some(bad)), "/", "{bad}");
        }
        assert_eq!(safe_next(Some("/ x")), "/%20x", "odd characters are encoded, never a 500");
        assert_eq!(safe_next(None), "/");
    }
}
