//! Error pages and catchers. Pages get the error layout in the request's language (spec §2
//! "Error page"); crawlers get the bare status with `noindex`; API paths get the JSON body.

use std::io::Cursor;

use rocket::http::{ContentType, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::{Catcher, catch, catchers};
use serde_json::json;

use crate::auth::guards::authenticate_for_error_page;
use crate::clock::Clock;
use crate::error::{Error, json_response, request_lang};
use crate::http::Site;
use crate::i18n::Messages;
use crate::types::Lang;
use crate::web::locale::{self, split_prefix};
use crate::web::page::{base_context, signed_in_context};

/// Substrings of user agents that belong to crawlers.
const CRAWLER_MARKERS: &[&str] =
    &["bot", "crawl", "spider", "slurp", "facebookexternalhit", "mediapartners", "embedly", "lighthouse"];

/// Whether the user agent looks like a crawler.
pub fn is_crawler(user_agent: Option<&str>) -> bool {
    let Some(ua) = user_agent else { return false };
    let ua = ua.to_ascii_lowercase();
    CRAWLER_MARKERS.iter().any(|m| ua.contains(m))
}

/// The error page (or the crawler's bare answer) for `status`; `code` picks the detail line.
pub fn page_response(req: &Request<'_>, status: Status, code: &str) -> response::Result<'static> {
    page_response_in(req, status, code, None)
}

/// [`page_response`] in `lang` (for routes outside the locale rules, such as the console);
/// `None` follows the request's path.
pub fn page_response_in(
    req: &Request<'_>,
    status: Status,
    code: &str,
    lang: Option<Lang>,
) -> response::Result<'static> {
    if is_crawler(req.headers().get_one("User-Agent")) {
        let body = format!(
            "<!doctype html><html><head><meta name=\"robots\" content=\"noindex\"><title>{}</title></head><body></body></html>",
            status.code
        );
        return Response::build()
            .status(status)
            .header(ContentType::HTML)
            .raw_header("X-Robots-Tag", "noindex")
            .sized_body(body.len(), Cursor::new(body))
            .ok();
    }
    let Some(site) = req.rocket().state::<Site>() else {
        return Err(Status::InternalServerError);
    };
    let now = req.rocket().state::<Clock>().map(Clock::now).unwrap_or_else(chrono::Utc::now);
    // The language follows the path (spec §2: English when the path starts with /en).
    let original =
        locale::locale_info(req).map(|i| i.original_path.clone()).unwrap_or_else(|| req.uri().path().to_string());
    let (prefix, path) = split_prefix(&original);
    let lang = lang.or(locale::locale_info(req).map(|i| i.lang)).unwrap_or(if prefix == Some(Lang::En) {
        Lang::En
    } else {
        Lang::Ja
    });
    let detail_key = match code {
        // The console's door names its audience; elsewhere a 403 is a page the user may not use.
        "forbidden" if path.starts_with("/admin") => Some("errors.page.forbidden"),
        "forbidden" | "csrf_failed" => Some("errors.page.not_permitted"),
        "invalid_parameter" => Some("errors.page.invalid_parameter"),
        // One wording for every 404 (spec §2: "Page Not Found: {path}").
        "route_not_found" | "not_found" | "unknown_permalink" => Some("errors.page.not_found"),
        _ => None,
    };
    let detail = detail_key.map(|k| site.messages.tf(lang, k, &[("path", &original)]));
    let title = format!("{} ERROR", status.code);
    let mut ctx = base_context(site, lang, &path, &title, now);
    ctx.insert("status".into(), json!(status.code));
    ctx.insert("detail".into(), json!(detail));
    ctx.insert("noindex".into(), json!(true));
    if let Some(at) = req.rocket().state::<Clock>().and_then(Clock::travelled_now) {
        ctx.insert("time_travel".into(), json!(at.to_rfc3339()));
    }
    // A signed-in visitor stays signed in on the error page: their header, their way out.
    if let Some(user) = crate::auth::guards::checked_user(req) {
        let token = crate::auth::csrf::token(req.cookies(), &site.config);
        signed_in_context(&mut ctx, user, lang, Some(&token));
    }
    let mut res = match crate::http::template::Template::render("errors/error", ctx).respond_to(req) {
        Ok(res) => res,
        // What broke the page (a value the layout cannot render) must not break its error page:
        // the same words without the layout.
        Err(_) => bare_page(&site.messages, lang, status),
    };
    res.set_status(status);
    Ok(res)
}

/// The error page without templates: the status, the two messages and the way back, in `lang`.
fn bare_page(messages: &Messages, lang: Lang, status: Status) -> Response<'static> {
    let text = |key: &str| crate::i18n::tera::escape_html(&messages.t(lang, key));
    let home = if lang == Lang::En { "/en" } else { "/" };
    let body = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"noindex\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{code} ERROR</title></head>\
         <body><main><h1>{code} ERROR</h1><p>{message}</p><p>{hint}</p><a href=\"{home}\">{back}</a></main></body></html>",
        code = status.code,
        message = text("error_page.message"),
        hint = text("error_page.hint"),
        back = text("error_page.return_top"),
    );
    Response::build().header(ContentType::HTML).sized_body(body.len(), Cursor::new(body)).finalize()
}

/// A responder that renders the error page for a status from a catcher.
struct ErrorPage {
    status: Status,
    code: &'static str,
}

impl<'r> Responder<'r, 'static> for ErrorPage {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        page_response(req, self.status, self.code)
    }
}

/// An unknown route.
#[catch(404)]
async fn not_found(req: &Request<'_>) -> ErrorPage {
    authenticate_for_error_page(req).await;
    ErrorPage { status: Status::NotFound, code: "route_not_found" }
}

/// A page that needs sign-in: off to the account service, and back here afterwards.
#[catch(401)]
fn sign_in_required(req: &Request<'_>) -> rocket::response::Redirect {
    let path = locale::locale_info(req).map(|i| match &i.query {
        Some(q) => format!("{}?{q}", i.original_path),
        None => i.original_path.clone(),
    });
    crate::http::redirect::to_site(&crate::auth::links::auto_login_href(&path.unwrap_or_else(|| "/".into())))
}

/// A route matched but a parameter failed its check (Rocket forwards with 422).
#[catch(422)]
async fn invalid_parameter(req: &Request<'_>) -> ErrorPage {
    authenticate_for_error_page(req).await;
    ErrorPage { status: Status::NotFound, code: "invalid_parameter" }
}

/// Any other error status.
#[catch(default)]
async fn other(status: Status, req: &Request<'_>) -> ErrorPage {
    authenticate_for_error_page(req).await;
    ErrorPage { status, code: "other" }
}

/// JSON answers for API paths.
struct ApiError(Error);

impl<'r> Responder<'r, 'static> for ApiError {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        let Some(site) = req.rocket().state::<Site>() else { return Err(Status::InternalServerError) };
        Ok(json_response(&self.0, &site.messages, request_lang(req)))
    }
}

#[catch(404)]
fn api_not_found() -> ApiError {
    ApiError(Error::not_found())
}

#[catch(422)]
fn api_invalid_parameter() -> ApiError {
    ApiError(Error::NotFound { code: "not_found" })
}

#[catch(default)]
fn api_other(status: Status, req: &Request<'_>) -> ApiError {
    if let Some(error) = crate::auth::guards::recorded_failure(req) {
        return ApiError(error);
    }
    ApiError(match status.code {
        400 => Error::BadRequest { code: "bad_request" },
        401 => Error::Unauthorized,
        403 => Error::Forbidden,
        413 => Error::TooLarge,
        415 => Error::UnsupportedMediaType,
        501 => Error::NotImplemented,
        // Whatever else a client's request made Rocket refuse is the client's, never a 500.
        _ if status.class().is_client_error() => Error::BadRequest { code: "bad_request" },
        _ => Error::Internal(format!("status {status}")),
    })
}

/// Pages get the error page, everything else the JSON error body; server faults are logged and
/// reported first.
impl<'r> Responder<'r, 'static> for Error {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        if matches!(self, Self::Db(_) | Self::Internal(_)) {
            tracing::error!(error = %self, path = %req.uri(), "request failed");
            sentry::capture_error(&self);
        }
        if locale::is_page_request(req) {
            return page_response(req, self.status(), self.code());
        }
        let lang = request_lang(req);
        match req.rocket().state::<Site>() {
            Some(site) => Ok(json_response(&self, &site.messages, lang)),
            None => Ok(json_response(&self, &Messages::bundled(), lang)),
        }
    }
}

/// Page catchers, registered at `/`.
pub fn page_catchers() -> Vec<Catcher> {
    catchers![not_found, sign_in_required, invalid_parameter, other]
}

/// JSON catchers, registered at each API base.
pub fn api_catchers() -> Vec<Catcher> {
    catchers![api_not_found, api_invalid_parameter, api_other]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_bare_error_page_says_what_the_page_says_without_templates() {
        let messages = Messages::bundled();
        for (lang, message, home) in [
            (Lang::Ja, "申し訳ありません。エラーが発生しました。", "href=\"/\""),
            (Lang::En, "Oops! It looks like an error has occurred.", "href=\"/en\""),
        ] {
            let mut res = bare_page(&messages, lang, Status::InternalServerError);
            let body = res.body_mut().to_string().await.unwrap();
            assert!(body.contains("<h1>500 ERROR</h1>"), "{body}");
            assert!(body.contains(message), "{body}");
            assert!(body.contains(home), "{body}");
            assert!(body.contains(&format!("<html lang=\"{lang}\">")), "{body}");
        }
    }

    #[test]
    fn crawlers_are_recognised() {
        assert!(is_crawler(Some("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")));
        assert!(is_crawler(Some("Mozilla/5.0 (compatible; bingbot/2.0)")));
        assert!(is_crawler(Some("facebookexternalhit/1.1")));
        assert!(!is_crawler(Some("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36")));
        assert!(!is_crawler(None));
    }
}
