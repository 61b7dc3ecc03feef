//! The account service's browser side: the sign-in / sign-up page, its two forms and sign-out.
//! Success starts an SSO session and sends the browser to `redirect_url` with a one-time `code`.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use rocket::form::{Form, FromForm};
use rocket::http::{Cookie, CookieJar, Header, SameSite, Status};
use rocket::response::{Redirect, Responder};
use rocket::{Route, State, get, post, routes};
use rocket_dyn_templates::Template;
use sea_orm::DatabaseConnection;
use serde_json::{Value, json};
use url::Url;

use crate::account::store::{NewAccount, session_lifetime};
use crate::account::{AccountLimiter, SESSION_COOKIE, allowed_redirect};
use crate::auth::csrf;
use crate::clock::Clock;
use crate::db::entities::account;
use crate::error::{Error, Result};
use crate::i18n::Lang;
use crate::model::text;
use crate::web::Site;
use crate::web::locale::MANUAL_LOCALE_COOKIE;
use crate::web::page::base_context;

/// What the sign-in page answers with.
#[derive(Responder)]
pub enum AccountResponse {
    /// The page (again), with a status.
    Page((Status, Template)),
    /// The page with a `Retry-After` header after too many attempts.
    Limited((Status, Template), Header<'static>),
    /// Back to the product.
    Done(Redirect),
}

/// The language of the account pages: `lang` query, manual-locale cookie, then Japanese.
fn page_lang(lang: Option<&str>, cookies: &CookieJar<'_>) -> Lang {
    lang.and_then(Lang::parse)
        .or_else(|| cookies.get(MANUAL_LOCALE_COOKIE).and_then(|c| Lang::parse(c.value())))
        .unwrap_or_default()
}

struct Ctx<'r> {
    site: &'r Site,
    db: &'r DatabaseConnection,
    now: DateTime<Utc>,
    lang: Lang,
}

impl Ctx<'_> {
    fn render(&self, cookies: &CookieJar<'_>, redirect_url: &str, extra: Value) -> Template {
        let title = self.site.messages.t(self.lang, "account.title");
        let mut ctx = base_context(self.site, self.lang, "/account/auth/vmarket_account", &title, self.now);
        ctx.insert("noindex".into(), json!(true));
        ctx.insert("redirect_url".into(), json!(redirect_url));
        ctx.insert("csrf_token".into(), json!(csrf::token(cookies, self.site.config.secure_cookies())));
        ctx.insert(
            "lang_switch".into(),
            json!({
                "ja": format!("/account/auth/vmarket_account?lang=ja&redirect_url={}", encode(redirect_url)),
                "en": format!("/account/auth/vmarket_account?lang=en&redirect_url={}", encode(redirect_url)),
            }),
        );
        if let Value::Object(map) = extra {
            ctx.extend(map);
        }
        Template::render("account/sign_in", Value::Object(ctx))
    }

    /// Starts a session for `account` and sends the browser back with a one-time code.
    async fn finish(&self, cookies: &CookieJar<'_>, account: &account::Model, target: Url) -> Result<AccountResponse> {
        let secret = account.start_session(self.db, self.now).await?;
        set_session_cookie(cookies, secret, self.site.config.secure_cookies());
        redirect_with_code(self.db, account, target, self.now).await
    }
}

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn set_session_cookie(cookies: &CookieJar<'_>, secret: String, secure: bool) {
    let max_age = rocket::time::Duration::seconds(session_lifetime().num_seconds());
    cookies.add(
        Cookie::build((SESSION_COOKIE, secret))
            .path("/account")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(secure)
            .max_age(max_age),
    );
}

async fn redirect_with_code(
    db: &DatabaseConnection,
    account: &account::Model,
    mut target: Url,
    now: DateTime<Utc>,
) -> Result<AccountResponse> {
    let code = account.issue_code(db, now).await?;
    target.query_pairs_mut().append_pair("code", &code);
    Ok(AccountResponse::Done(Redirect::to(target.to_string())))
}

/// The signed-in account of the SSO cookie, if any.
pub async fn session_account(
    db: &DatabaseConnection,
    cookies: &CookieJar<'_>,
    now: DateTime<Utc>,
) -> Result<Option<account::Model>> {
    match cookies.get(SESSION_COOKIE) {
        Some(c) => account::Model::by_session(db, c.value(), now).await,
        None => Ok(None),
    }
}

/// The sign-in / sign-up page. A browser that already has a session goes straight back.
#[get("/auth/vmarket_account?<redirect_url>&<lang>")]
pub async fn sign_in_page(
    redirect_url: Option<&str>,
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.now(), lang: page_lang(lang, cookies) };
    let redirect_url = redirect_url.unwrap_or("/");
    let target =
        allowed_redirect(&site.config, redirect_url).ok_or(Error::BadRequest { code: "redirect_not_allowed" })?;
    if let Some(account) = session_account(db, cookies, ctx.now).await? {
        return redirect_with_code(db, &account, target, ctx.now).await;
    }
    Ok(AccountResponse::Page((Status::Ok, ctx.render(cookies, redirect_url, json!({})))))
}

/// The sign-in form.
#[derive(Debug, FromForm)]
pub struct SignInForm {
    #[field(default = String::new())]
    email: String,
    #[field(default = String::new())]
    password: String,
    #[field(default = String::new())]
    redirect_url: String,
    #[field(default = String::new())]
    lang: String,
    #[field(default = String::new())]
    csrf_token: String,
}

/// Signs in with email and password. Wrong email and wrong password get the same message.
#[post("/auth/sign_in", data = "<form>")]
pub async fn sign_in(
    form: Form<SignInForm>,
    ip: Option<IpAddr>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limiter: &State<AccountLimiter>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.now(), lang: page_lang(Some(&form.lang), cookies) };
    let target =
        allowed_redirect(&site.config, &form.redirect_url).ok_or(Error::BadRequest { code: "redirect_not_allowed" })?;
    let kept = json!({ "tab": "sign_in", "sign_in": { "email": form.email } });
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return Ok(failure(&ctx, cookies, &form.redirect_url, kept, "account.errors.expired_form", Status::Forbidden));
    }
    if let Err(Error::RateLimited { retry_after }) = limiter.check(ip) {
        return Ok(limited(&ctx, cookies, &form.redirect_url, kept, retry_after));
    }
    match account::Model::authenticate(db.inner(), &form.email, &form.password).await? {
        Some(account) => ctx.finish(cookies, &account, target).await,
        None => Ok(failure(
            &ctx,
            cookies,
            &form.redirect_url,
            kept,
            "account.errors.wrong_credentials",
            Status::Unauthorized,
        )),
    }
}

/// The sign-up form.
#[derive(Debug, FromForm)]
pub struct SignUpForm {
    #[field(default = String::new())]
    email: String,
    #[field(default = String::new())]
    password: String,
    #[field(default = String::new())]
    vmarket_id: String,
    #[field(default = String::new())]
    name_ja: String,
    #[field(default = String::new())]
    name_en: String,
    #[field(default = String::new())]
    redirect_url: String,
    #[field(default = String::new())]
    lang: String,
    #[field(default = String::new())]
    csrf_token: String,
}

impl SignUpForm {
    /// Checks every field; message keys per field on failure.
    fn validate(&self) -> std::result::Result<NewAccount, Vec<(&'static str, &'static str)>> {
        let mut errors = Vec::new();
        let email = self.email.trim().to_lowercase();
        if !validator::ValidateEmail::validate_email(&email) || email.len() > 254 || !text::is_clean(&email) {
            errors.push(("email", "account.errors.email"));
        }
        if self.password.chars().count() < 8 || self.password.len() > 128 {
            errors.push(("password", "account.errors.password"));
        }
        let handle = self.vmarket_id.trim();
        let handle_ok = (3..=32).contains(&handle.len())
            && handle.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !handle_ok {
            errors.push(("vmarket_id", "account.errors.vmarket_id"));
        }
        if !(1..=64).contains(&self.name_ja.trim().chars().count()) || !text::is_clean(&self.name_ja) {
            errors.push(("name_ja", "account.errors.name_ja"));
        }
        if !(1..=128).contains(&self.name_en.trim().chars().count()) || !text::is_clean(&self.name_en) {
            errors.push(("name_en", "account.errors.name_en"));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(NewAccount {
            email,
            password: self.password.clone(),
            vmarket_id: handle.to_string(),
            name_ja: self.name_ja.trim().to_string(),
            name_en: self.name_en.trim().to_string(),
        })
    }
}

/// Creates an account and signs it in.
#[post("/auth/sign_up", data = "<form>")]
pub async fn sign_up(
    form: Form<SignUpForm>,
    ip: Option<IpAddr>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limiter: &State<AccountLimiter>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.now(), lang: page_lang(Some(&form.lang), cookies) };
    let target =
        allowed_redirect(&site.config, &form.redirect_url).ok_or(Error::BadRequest { code: "redirect_not_allowed" })?;
    let kept = |errors: Value| {
        json!({ "tab": "sign_up", "sign_up": {
            "email": form.email, "vmarket_id": form.vmarket_id, "name_ja": form.name_ja, "name_en": form.name_en,
            "errors": errors,
        }})
    };
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return Ok(failure(
            &ctx,
            cookies,
            &form.redirect_url,
            kept(json!({})),
            "account.errors.expired_form",
            Status::Forbidden,
        ));
    }
    if let Err(Error::RateLimited { retry_after }) = limiter.check(ip) {
        return Ok(limited(&ctx, cookies, &form.redirect_url, kept(json!({})), retry_after));
    }
    let field_errors = |pairs: Vec<(&str, &str)>| {
        let map: serde_json::Map<String, Value> =
            pairs.into_iter().map(|(field, key)| (field.to_string(), json!(site.messages.t(ctx.lang, key)))).collect();
        Value::Object(map)
    };
    let new = match form.validate() {
        Ok(new) => new,
        Err(errors) => {
            let page = ctx.render(cookies, &form.redirect_url, kept(field_errors(errors)));
            return Ok(AccountResponse::Page((Status::UnprocessableEntity, page)));
        }
    };
    match new.create(db.inner(), ctx.now).await {
        Ok(account) => ctx.finish(cookies, &account, target).await,
        Err(Error::Conflict { code }) => {
            let error = if code == "vmarket_id_taken" {
                ("vmarket_id", "account.errors.vmarket_id_taken")
            } else {
                ("email", "account.errors.email_taken")
            };
            let page = ctx.render(cookies, &form.redirect_url, kept(field_errors(vec![error])));
            Ok(AccountResponse::Page((Status::Conflict, page)))
        }
        Err(e) => Err(e),
    }
}

fn failure(
    ctx: &Ctx<'_>,
    cookies: &CookieJar<'_>,
    redirect_url: &str,
    mut kept: Value,
    key: &str,
    status: Status,
) -> AccountResponse {
    kept["error"] = json!(ctx.site.messages.t(ctx.lang, key));
    AccountResponse::Page((status, ctx.render(cookies, redirect_url, kept)))
}

fn limited(
    ctx: &Ctx<'_>,
    cookies: &CookieJar<'_>,
    redirect_url: &str,
    mut kept: Value,
    retry_after: u64,
) -> AccountResponse {
    kept["error"] =
        json!(ctx.site.messages.tf(ctx.lang, "account.errors.rate_limited", &[("n", &retry_after.to_string())]));
    let page = ctx.render(cookies, redirect_url, kept);
    AccountResponse::Limited((Status::TooManyRequests, page), Header::new("Retry-After", retry_after.to_string()))
}

/// Signs out everywhere: ends every session of the account and sends the browser on.
#[get("/auth/logout?<redirect_url>")]
pub async fn logout(
    redirect_url: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Redirect> {
    let target = allowed_redirect(&site.config, redirect_url.unwrap_or("/"))
        .ok_or(Error::BadRequest { code: "redirect_not_allowed" })?;
    if let Some(account) = session_account(db, cookies, clock.now()).await? {
        account.end_sessions(db.inner()).await?;
    }
    cookies.remove(Cookie::build(SESSION_COOKIE).path("/account"));
    Ok(Redirect::to(target.to_string()))
}

/// Routes of the browser side.
pub fn routes() -> Vec<Route> {
    routes![sign_in_page, sign_in, sign_up, logout]
}
