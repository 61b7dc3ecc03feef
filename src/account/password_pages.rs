//! The account service's password pages (issue 26 item 6): `/account/auth/password/forgot`
//! (ask for a reset link; the same answer whether or not the address has an account),
//! `/account/auth/password/reset?token=` (set a new password with the mailed link, once, within
//! 30 minutes) and `/account/auth/password/change` (signed in: the current password and a new
//! one). Requests for links and changes are rate limited like sign-ins (per client and per
//! address). Every form carries the page language and the CSRF token; works without JavaScript.

use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Header, Status};
use rocket::response::Responder;
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde_json::{Value, json};

use crate::account::limits::SignInLimits;
use crate::account::pages::{page_lang, session_account};
use crate::account::password::{self, acceptable};
use crate::account::session::SESSION;
use crate::auth::csrf;
use crate::clock::Clock;
use crate::db::begin_write;
use crate::error::{Error, Result};
use crate::http::Site;
use crate::http::client_ip::ClientIp;
use crate::http::template::Template;
use crate::jobs::SendMail;
use crate::mail::Mailer;
use crate::queue::Queue;
use crate::types::Lang;
use crate::web::page::base_context;

/// A password page: its status, and `Retry-After` after too many attempts.
#[derive(Responder)]
pub enum PasswordPage {
    /// The page.
    Shown((Status, Template)),
    /// The page after too many attempts.
    Limited((Status, Template), Header<'static>),
}

/// Renders `mode` (`forgot`, `sent`, `reset`, `invalid`, `change`, `signed_out`, `done`) in
/// `lang` with `extra` context.
fn page(
    site: &Site,
    cookies: &CookieJar<'_>,
    lang: Lang,
    now: chrono::DateTime<chrono::Utc>,
    mode: &str,
    extra: Value,
) -> Template {
    let title = site.messages.t(lang, &format!("account.password_pages.{mode}.title"));
    let mut ctx = base_context(site, lang, "/account/auth/password", &title, now);
    ctx.insert("noindex".into(), json!(true));
    ctx.insert("mode".into(), json!(mode));
    ctx.insert("csrf_token".into(), json!(csrf::token(cookies, &site.config)));
    ctx.insert("site_home".into(), json!(format!("{}/mypage", site.config.site_url.trim_end_matches('/'))));
    if let Value::Object(map) = extra {
        ctx.extend(map);
    }
    Template::render("account/password", ctx)
}

fn shown(status: Status, template: Template) -> PasswordPage {
    PasswordPage::Shown((status, template))
}

fn limited(
    site: &Site,
    cookies: &CookieJar<'_>,
    lang: Lang,
    now: chrono::DateTime<chrono::Utc>,
    mode: &str,
    retry_after: u64,
) -> PasswordPage {
    let error = site.messages.tf(lang, "account.errors.rate_limited", &[("n", &retry_after.to_string())]);
    let template = page(site, cookies, lang, now, mode, json!({ "error": error }));
    PasswordPage::Limited((Status::TooManyRequests, template), Header::new("Retry-After", retry_after.to_string()))
}

/// The form asking for a reset link.
#[get("/auth/password/forgot?<lang>")]
pub fn forgot_page(lang: Option<&str>, cookies: &CookieJar<'_>, site: &State<Site>, clock: &State<Clock>) -> Template {
    page(site, cookies, page_lang(lang, cookies), clock.real_now(), "forgot", json!({}))
}

/// The fields of every password form.
#[derive(Debug, FromForm)]
pub struct PasswordForm {
    #[field(default = String::new())]
    email: String,
    #[field(default = String::new())]
    token: String,
    #[field(default = String::new())]
    current_password: String,
    #[field(default = String::new())]
    password: String,
    #[field(default = String::new())]
    password_confirmation: String,
    #[field(default = String::new())]
    lang: String,
    #[field(default = String::new())]
    csrf_token: String,
}

impl PasswordForm {
    /// The problem with the new password, if any (a message key).
    fn new_password_problem(&self) -> Option<&'static str> {
        if !acceptable(&self.password) {
            Some("account.errors.password")
        } else if self.password != self.password_confirmation {
            Some("account.errors.password_mismatch")
        } else {
            None
        }
    }
}

/// Sends a reset link if an account has the address; the same page either way.
#[post("/auth/password/forgot", data = "<form>")]
#[expect(clippy::too_many_arguments, reason = "a Rocket handler: the guards it needs")]
pub async fn forgot(
    form: Form<PasswordForm>,
    client: ClientIp,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limits: &State<SignInLimits>,
    mailer: &State<Mailer>,
    queue: &State<Queue>,
) -> Result<PasswordPage> {
    let (lang, now) = (page_lang(Some(&form.lang), cookies), clock.real_now());
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        let error = site.messages.t(lang, "account.errors.expired_form");
        return Ok(shown(Status::Forbidden, page(site, cookies, lang, now, "forgot", json!({ "error": error }))));
    }
    if let Err(e) = limits.check(client, Some(&form.email)).await {
        let Error::RateLimited { retry_after } = e else { return Err(e) };
        return Ok(limited(site, cookies, lang, now, "forgot", retry_after));
    }
    let reset_url = format!("{}/auth/password/reset", site.config.sso_base());
    let txn = begin_write(db.inner()).await?;
    let queued = password::start_reset(&txn, mailer, form.email.trim(), &reset_url, now).await?;
    txn.commit().await?;
    if let Some(mail) = queued {
        SendMail::push(queue, mail).await;
    }
    Ok(shown(Status::Ok, page(site, cookies, lang, now, "sent", json!({ "email": form.email.trim() }))))
}

/// The new-password form of a reset link (or why the link no longer works).
#[get("/auth/password/reset?<token>&<lang>")]
pub async fn reset_page(
    token: Option<&str>,
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<PasswordPage> {
    let (lang, now) = (page_lang(lang, cookies), clock.real_now());
    let token = token.unwrap_or_default();
    if !password::reset_usable(db.inner(), token, now).await? {
        return Ok(shown(Status::Gone, page(site, cookies, lang, now, "invalid", json!({}))));
    }
    Ok(shown(Status::Ok, page(site, cookies, lang, now, "reset", json!({ "token": token }))))
}

/// Sets the new password with the link's token: signed out everywhere, asked to sign in again.
#[post("/auth/password/reset", data = "<form>")]
pub async fn reset(
    form: Form<PasswordForm>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<PasswordPage> {
    let (lang, now) = (page_lang(Some(&form.lang), cookies), clock.real_now());
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        let error = site.messages.t(lang, "account.errors.expired_form");
        let extra = json!({ "error": error, "token": form.token });
        return Ok(shown(Status::Forbidden, page(site, cookies, lang, now, "reset", extra)));
    }
    if let Some(problem) = form.new_password_problem() {
        let extra = json!({ "error": site.messages.t(lang, problem), "token": form.token });
        return Ok(shown(Status::UnprocessableEntity, page(site, cookies, lang, now, "reset", extra)));
    }
    let txn = begin_write(db.inner()).await?;
    match password::finish_reset(&txn, &form.token, &form.password, now).await {
        Ok(_) => {
            txn.commit().await?;
            SESSION.remove(cookies, &site.config);
            Ok(shown(Status::Ok, page(site, cookies, lang, now, "done", json!({}))))
        }
        Err(Error::Conflict { .. }) => Ok(shown(Status::Gone, page(site, cookies, lang, now, "invalid", json!({})))),
        Err(e) => Err(e),
    }
}

/// The change form (signed in at the account service), or the way to sign in first.
#[get("/auth/password/change?<lang>")]
pub async fn change_page(
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<PasswordPage> {
    let (lang, now) = (page_lang(lang, cookies), clock.real_now());
    if session_account(db, cookies, now).await?.is_none() {
        return Ok(shown(Status::Unauthorized, page(site, cookies, lang, now, "signed_out", json!({}))));
    }
    Ok(shown(Status::Ok, page(site, cookies, lang, now, "change", json!({}))))
}

/// Changes the password: every other session ends, this browser keeps a fresh one.
#[post("/auth/password/change", data = "<form>")]
pub async fn change(
    form: Form<PasswordForm>,
    client: ClientIp,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limits: &State<SignInLimits>,
) -> Result<PasswordPage> {
    let (lang, now) = (page_lang(Some(&form.lang), cookies), clock.real_now());
    let Some(owner) = session_account(db, cookies, now).await? else {
        return Ok(shown(Status::Unauthorized, page(site, cookies, lang, now, "signed_out", json!({}))));
    };
    let again = |status: Status, key: &str| {
        let extra = json!({ "error": site.messages.t(lang, key) });
        Ok(shown(status, page(site, cookies, lang, now, "change", extra)))
    };
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return again(Status::Forbidden, "account.errors.expired_form");
    }
    if let Err(e) = limits.check(client, Some(&owner.email)).await {
        let Error::RateLimited { retry_after } = e else { return Err(e) };
        return Ok(limited(site, cookies, lang, now, "change", retry_after));
    }
    if let Some(problem) = form.new_password_problem() {
        return again(Status::UnprocessableEntity, problem);
    }
    let txn = begin_write(db.inner()).await?;
    match password::change(&txn, &owner, &form.current_password, &form.password, now).await {
        Ok(changed) => {
            let secret = changed.start_session(&txn, now).await?;
            txn.commit().await?;
            SESSION.set(cookies, secret, &site.config);
            Ok(shown(Status::Ok, page(site, cookies, lang, now, "done", json!({ "changed": true }))))
        }
        Err(Error::Refused { .. }) => again(Status::UnprocessableEntity, "account.errors.wrong_current_password"),
        Err(e) => Err(e),
    }
}

/// Routes of the password pages.
pub fn routes() -> Vec<Route> {
    routes![forgot_page, forgot, reset_page, reset, change_page, change]
}
