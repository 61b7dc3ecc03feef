//! Signing out of the account service. A GET never ends anything: with a live session it asks
//! first (a form with the CSRF token); without one (the product already ended the sessions
//! server-to-server) it clears the cookie and sends the browser on. The POST ends every session
//! of the account and moves its token generation on.

use crate::http::template::Template;
use rocket::Either;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use sea_orm::DatabaseConnection;
use serde_json::json;

use crate::account::authorize::after_sign_out;
use crate::account::pages::{page_lang, session_account};
use crate::account::session::SESSION;
use crate::auth::csrf;
use crate::clock::Clock;
use crate::error::Result;
use crate::http::Site;
use crate::http::redirect;
use crate::web::page::base_context;

/// Asks before signing out of a live session; otherwise just moves on.
#[get("/auth/logout?<redirect_url>&<lang>")]
pub async fn confirm(
    redirect_url: Option<&str>,
    lang: Option<&str>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Either<Redirect, Template>> {
    let back = after_sign_out(&site.config, redirect_url);
    if session_account(db, cookies, clock.real_now()).await?.is_none() {
        SESSION.remove(cookies, &site.config);
        return Ok(Either::Left(redirect::to_url(&back)));
    }
    let lang = page_lang(lang, cookies);
    let title = site.messages.t(lang, "account.sign_out.title");
    let mut ctx = base_context(site, lang, "/account/auth/logout", &title, clock.now());
    ctx.insert("noindex".into(), json!(true));
    ctx.insert("redirect_url".into(), json!(back.as_str()));
    ctx.insert("csrf_token".into(), json!(csrf::token(cookies, &site.config)));
    Ok(Either::Right(Template::render("account/sign_out", ctx)))
}

/// The sign-out form.
#[derive(Debug, FromForm)]
pub struct SignOutForm {
    #[field(default = String::new())]
    redirect_url: String,
    #[field(default = String::new())]
    csrf_token: String,
}

/// Ends every session of the account (and every token the product accepted so far).
#[post("/auth/logout", data = "<form>")]
pub async fn sign_out(
    form: Form<SignOutForm>,
    cookies: &CookieJar<'_>,
    site: &State<Site>,
    db: &State<DatabaseConnection>,
    clock: &State<Clock>,
) -> Result<Either<Redirect, Status>> {
    if !csrf::verify(cookies, Some(&form.csrf_token)) {
        return Ok(Either::Right(Status::Forbidden));
    }
    if let Some(account) = session_account(db, cookies, clock.real_now()).await? {
        account.sign_out_everywhere(db.inner()).await?;
    }
    SESSION.remove(cookies, &site.config);
    Ok(Either::Left(redirect::to_url(&after_sign_out(&site.config, Some(&form.redirect_url)))))
}

/// Routes of sign-out.
pub fn routes() -> Vec<Route> {
    routes![confirm, sign_out]
}
