//! The account service's sign-in / sign-up page and its two forms. A sign-in request must name a
//! registered callback, a state and a PKCE challenge ([`AuthRequest`]); success starts an SSO
//! session and sends the browser to the callback with a one-time code bound to both.

use crate::http::template::Template;
use chrono::{DateTime, Utc};
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Header, Status};
use rocket::response::{Redirect, Responder};
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde_json::{Value, json};

use crate::account::authorize::AuthRequest;
use crate::account::limits::SignInLimits;
use crate::account::session::SESSION;
use crate::account::store::{CodeBinding, NewAccount};
use crate::auth::csrf;
use crate::clock::Clock;
use crate::db::entities::account;
use crate::error::{Error, Result};
use crate::http::Site;
use crate::http::client_ip::ClientIp;
use crate::http::redirect;
use crate::model::text;
use crate::types::Lang;
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
pub fn page_lang(lang: Option<&str>, cookies: &CookieJar<'_>) -> Lang {
    lang.and_then(Lang::parse)
        .or_else(|| cookies.get(MANUAL_LOCALE_COOKIE).and_then(|c| Lang::parse(c.value())))
        .unwrap_or_default()
}

/// What every handler here renders with.
pub struct Ctx<'r> {
    /// Site-wide state.
    pub site: &'r Site,
    /// The database.
    pub db: &'r DatabaseConnection,
    /// "Now".
    pub now: DateTime<Utc>,
    /// The page language.
    pub lang: Lang,
}

impl Ctx<'_> {
    /// The sign-in page for `request` with `extra` context (kept input, errors).
    fn render(&self, cookies: &CookieJar<'_>, request: Option<&AuthRequest>, extra: Value) -> Template {
        let title = self.site.messages.t(self.lang, "account.title");
        let mut ctx = base_context(self.site, self.lang, "/account/auth/vmarket_account", &title, self.now);
        ctx.insert("noindex".into(), json!(true));
        ctx.insert("request".into(), json!(request));
        ctx.insert("csrf_token".into(), json!(csrf::token(cookies, &self.site.config)));
        if let Some(r) = request {
            let switch = |lang: &str| {
                format!(
                    "/account/auth/vmarket_account?lang={lang}&redirect_url={}&state={}&code_challenge={}&code_challenge_method=S256",
                    encode(&r.redirect_url),
                    encode(&r.state),
                    encode(&r.code_challenge)
                )
            };
            ctx.insert("lang_switch".into(), json!({ "ja": switch("ja"), "en": switch("en") }));
        }
        if let Value::Object(map) = extra {
            ctx.extend(map);
        }
        Template::render("account/sign_in", ctx)
    }

    /// The page saying the sign-in request itself is unusable (no forms).
    fn bad_request(&self, cookies: &CookieJar<'_>) -> AccountResponse {
        let error = self.site.messages.t(self.lang, "account.errors.bad_request");
        AccountResponse::Page((Status::BadRequest, self.render(cookies, None, json!({ "error": error }))))
    }

    /// Starts a session for `account` and sends the browser back with a one-time code.
    async fn finish(
        &self,
        cookies: &CookieJar<'_>,
        account: &account::Model,
        request: &AuthRequest,
    ) -> Result<AccountResponse> {
        let secret = account.start_session(self.db, self.now).await?;
        SESSION.set(cookies, secret, &self.site.config);
        redirect_with_code(self.db, account, request, self.now).await
    }
}

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

async fn redirect_with_code(
    db: &DatabaseConnection,
    account: &account::Model,
    request: &AuthRequest,
    now: DateTime<Utc>,
) -> Result<AccountResponse> {
    let binding =
        CodeBinding { redirect_url: request.redirect_url.clone(), code_challenge: request.code_challenge.clone() };
    let code = account.issue_code(db, &binding, now).await?;
    let url = request.return_url(&code).ok_or_else(|| Error::Internal("callback URL".into()))?;
    Ok(AccountResponse::Done(redirect::to_url(&url)))
}

/// The signed-in account of the SSO cookie, if any.
pub async fn session_account(
    db: &DatabaseConnection,
    cookies: &CookieJar<'_>,
    now: DateTime<Utc>,
) -> Result<Option<account::Model>> {
    match SESSION.get(cookies) {
        Some(secret) => account::Model::by_session(db, &secret, now).await,
        None => Ok(None),
    }
}

/// The sign-in / sign-up page. A browser that already has a session goes straight back.
#[get("/auth/vmarket_account?<redirect_url>&<state>&<code_challenge>&<code_challenge_method>&<lang>")]
#[expect(clippy::too_many_arguments, reason = "a Rocket handler: the query parameters and guards it needs")]
pub async fn sign_in_page(
    redirect_url: Option<&str>,
    state: Option<&str>,
    code_challenge: Option<&str>,
    code_challenge_method: Option<&str>,
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.real_now(), lang: page_lang(lang, cookies) };
    let Some(request) = AuthRequest::parse(&site.config, redirect_url, state, code_challenge, code_challenge_method)
    else {
        return Ok(ctx.bad_request(cookies));
    };
    if let Some(account) = session_account(db, cookies, ctx.now).await? {
        return redirect_with_code(db, &account, &request, ctx.now).await;
    }
    Ok(AccountResponse::Page((Status::Ok, ctx.render(cookies, Some(&request), json!({})))))
}

/// The fields every form of the page posts back: the sign-in request, the page language and
/// the page's CSRF token.
macro_rules! carried_fields {
    ($(#[$meta:meta])* pub struct $name:ident { $($field:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, FromForm)]
        pub struct $name {
            $(#[field(default = String::new())] $field: String,)*
            #[field(default = String::new())]
            redirect_url: String,
            #[field(default = String::new())]
            state: String,
            #[field(default = String::new())]
            code_challenge: String,
            #[field(default = String::new())]
            lang: String,
            #[field(default = String::new())]
            csrf_token: String,
        }

        impl $name {
            fn request(&self, site: &Site) -> Option<AuthRequest> {
                AuthRequest::parse(&site.config, Some(&self.redirect_url), Some(&self.state), Some(&self.code_challenge), None)
            }
        }
    };
}

carried_fields! {
    /// The sign-in form.
    pub struct SignInForm { email, password }
}

/// Signs in with email and password. Wrong email and wrong password get the same message.
#[post("/auth/sign_in", data = "<form>")]
pub async fn sign_in(
    form: Form<SignInForm>,
    client: ClientIp,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limits: &State<SignInLimits>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.real_now(), lang: page_lang(Some(&form.lang), cookies) };
    let Some(request) = form.request(site) else { return Ok(ctx.bad_request(cookies)) };
    let kept = json!({ "tab": "sign_in", "sign_in": { "email": form.email } });
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return Ok(failure(&ctx, cookies, &request, kept, "account.errors.expired_form", Status::Forbidden));
    }
    if let Err(e) = limits.check(client, Some(&form.email)).await {
        let Error::RateLimited { retry_after } = e else { return Err(e) };
        return Ok(limited(&ctx, cookies, &request, kept, retry_after));
    }
    match account::Model::authenticate(db.inner(), &form.email, &form.password).await? {
        Some(account) => ctx.finish(cookies, &account, &request).await,
        None => Ok(failure(&ctx, cookies, &request, kept, "account.errors.wrong_credentials", Status::Unauthorized)),
    }
}

carried_fields! {
    /// The sign-up form.
    pub struct SignUpForm { email, password, vmarket_id, name_ja, name_en }
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
    client: ClientIp,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
    limits: &State<SignInLimits>,
) -> Result<AccountResponse> {
    let ctx = Ctx { site, db, now: clock.real_now(), lang: page_lang(Some(&form.lang), cookies) };
    let Some(request) = form.request(site) else { return Ok(ctx.bad_request(cookies)) };
    let kept = |errors: Value| {
        json!({ "tab": "sign_up", "sign_up": {
            "email": form.email, "vmarket_id": form.vmarket_id, "name_ja": form.name_ja, "name_en": form.name_en,
            "errors": errors,
        }})
    };
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return Ok(failure(&ctx, cookies, &request, kept(json!({})), "account.errors.expired_form", Status::Forbidden));
    }
    if let Err(e) = limits.check(client, None).await {
        let Error::RateLimited { retry_after } = e else { return Err(e) };
        return Ok(limited(&ctx, cookies, &request, kept(json!({})), retry_after));
    }
    let field_errors = |pairs: Vec<(&str, &str)>| {
        let map: serde_json::Map<String, Value> =
            pairs.into_iter().map(|(field, key)| (field.to_string(), json!(site.messages.t(ctx.lang, key)))).collect();
        Value::Object(map)
    };
    let new = match form.validate() {
        Ok(new) => new,
        Err(errors) => {
            let page = ctx.render(cookies, Some(&request), kept(field_errors(errors)));
            return Ok(AccountResponse::Page((Status::UnprocessableEntity, page)));
        }
    };
    match new.create(db.inner(), ctx.now).await {
        Ok(account) => ctx.finish(cookies, &account, &request).await,
        Err(Error::Conflict { code }) => {
            let error = if code == "vmarket_id_taken" {
                ("vmarket_id", "account.errors.vmarket_id_taken")
            } else {
                ("email", "account.errors.email_taken")
            };
            let page = ctx.render(cookies, Some(&request), kept(field_errors(vec![error])));
            Ok(AccountResponse::Page((Status::Conflict, page)))
        }
        Err(e) => Err(e),
    }
}

fn failure(
    ctx: &Ctx<'_>,
    cookies: &CookieJar<'_>,
    request: &AuthRequest,
    mut kept: Value,
    key: &str,
    status: Status,
) -> AccountResponse {
    kept["error"] = json!(ctx.site.messages.t(ctx.lang, key));
    AccountResponse::Page((status, ctx.render(cookies, Some(request), kept)))
}

fn limited(
    ctx: &Ctx<'_>,
    cookies: &CookieJar<'_>,
    request: &AuthRequest,
    mut kept: Value,
    retry_after: u64,
) -> AccountResponse {
    kept["error"] =
        json!(ctx.site.messages.tf(ctx.lang, "account.errors.rate_limited", &[("n", &retry_after.to_string())]));
    let page = ctx.render(cookies, Some(request), kept);
    AccountResponse::Limited((Status::TooManyRequests, page), Header::new("Retry-After", retry_after.to_string()))
}

/// Routes of the sign-in page.
pub fn routes() -> Vec<Route> {
    routes![sign_in_page, sign_in, sign_up]
}
