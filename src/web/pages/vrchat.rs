//! `/mypage/vrchat`: the user's VRChat account (issue 31) — linked (its name and when), or the
//! steps to link one: give its id or profile link, put the code shown into its bio on VRChat,
//! then confirm; or unlink. The same calls as `/api/v1/store/vrchat/link`; a wrong id comes back
//! beside its field with the input kept, any other refusal as a notice.

use std::collections::HashMap;

use rocket::form::Form;
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, State, get, post, routes};
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::store::vrchat::link;
use crate::store::vrchat::service::Vrchat;
use crate::web::page::Page;
use crate::web::pages::box_submissions::ButtonForm;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// What a `done=` says.
const DONE: [&str; 3] = ["started", "linked", "unlinked"];
/// What an `error=` explains.
const REFUSALS: [&str; 11] = [
    "vrchat_already_linked",
    "vrchat_account_taken",
    "vrchat_link_in_progress",
    "vrchat_no_challenge",
    "vrchat_challenge_expired",
    "vrchat_code_not_in_bio",
    "vrchat_user_gone",
    "vrchat_unavailable",
    "rate_limited",
    "not_implemented",
    "not_found",
];

/// The form that begins a link.
#[derive(rocket::FromForm)]
pub struct StartForm {
    csrf_token: Option<String>,
    vrchat_id: Option<String>,
}

fn page_href(p: &Page<'_>, query: &str) -> String {
    p.href(&format!("/mypage/vrchat{query}"))
}

/// Renders the page; `typed` and `errors` refill the start form.
async fn render(
    p: &Page<'_>,
    vrchat: &Vrchat,
    me: i32,
    notices: (Option<&str>, Option<&str>),
    typed: &str,
    errors: HashMap<String, Vec<String>>,
    status: Status,
) -> Result<(Status, Template)> {
    let state = vrchat.state(p.db, me, p.now).await?;
    let (done, error) = notices;
    let ctx = json!({
        "nav": nav(p),
        "offered": state.offered,
        "link": state.link,
        "challenge": state.challenge,
        "edit_bio_url": state.edit_bio_url,
        "start_action": p.href("/mypage/vrchat/link"),
        "verify_action": p.href("/mypage/vrchat/verify"),
        "unlink_action": p.href("/mypage/vrchat/unlink"),
        "avatars_href": p.href("/mypage/vrchat/avatars"),
        "typed": typed,
        "has_errors": !errors.is_empty(),
        "errors": errors,
        "notice": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("vrchat.done.{d}"))),
        "refused": error.filter(|e| REFUSALS.contains(e)).map(|e| p.t(&format!("errors.{e}"))),
        "minutes": link::CHALLENGE_MINUTES,
    });
    Ok((status, p.render("mypage/vrchat", &p.t("vrchat.title"), ctx)))
}

/// The page.
#[get("/mypage/vrchat?<done>&<error>")]
pub async fn show(
    p: Page<'_>,
    vrchat: &State<Vrchat>,
    current: CurrentUser,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<(Status, Template)> {
    render(&p, vrchat, current.user.id, (done, error), "", HashMap::new(), Status::Ok).await
}

/// The page's answer to a refusal: a wrong id beside its field, anything a user can cause as a
/// notice on the page.
fn refusal_query(e: &Error) -> Option<String> {
    match e {
        Error::Conflict { code } | Error::BadGateway { code } => Some(format!("?error={code}")),
        Error::RateLimited { .. } => Some("?error=rate_limited".into()),
        Error::NotImplemented => Some("?error=not_implemented".into()),
        Error::NotFound { .. } => Some("?error=not_found".into()),
        _ => None,
    }
}

/// Begins a link: the page then shows the code.
#[post("/mypage/vrchat/link", data = "<form>")]
pub async fn start(
    p: Page<'_>,
    vrchat: &State<Vrchat>,
    cookies: &CookieJar<'_>,
    form: Form<StartForm>,
) -> Result<Either<(Status, Template), Redirect>> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let typed = form.vrchat_id.clone().unwrap_or_default();
    let begun = async {
        let id = link::vrchat_id(&typed)?;
        let client = vrchat.client_for(user.id).await?;
        link::start(p.db, client, user.id, &id, p.now).await.map(|_| ())
    }
    .await;
    match begun {
        Ok(()) => Ok(Either::Right(crate::http::redirect::to_site(&page_href(&p, "?done=started")))),
        Err(e @ Error::Validation(_)) => {
            let errors = errors_by_field(e.details(&p.site.messages, p.lang), str::to_string);
            let page = render(&p, vrchat, user.id, (None, None), &typed, errors, Status::UnprocessableEntity).await?;
            Ok(Either::Left(page))
        }
        Err(e) => match refusal_query(&e) {
            Some(query) => Ok(Either::Right(crate::http::redirect::to_site(&page_href(&p, &query)))),
            None => Err(e),
        },
    }
}

/// Confirms the code is in the bio: linked, or the page says what is missing.
#[post("/mypage/vrchat/verify", data = "<form>")]
pub async fn verify(
    p: Page<'_>,
    vrchat: &State<Vrchat>,
    cookies: &CookieJar<'_>,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let verified = async {
        let client = vrchat.client_for(user.id).await?;
        link::verify(p.db, client, user.id, p.now).await.map(|_| ())
    }
    .await;
    let query = match verified {
        Ok(()) => "?done=linked".to_string(),
        Err(e) => refusal_query(&e).ok_or(e)?,
    };
    Ok(crate::http::redirect::to_site(&page_href(&p, &query)))
}

/// Unlinks the account, or drops the link under way.
#[post("/mypage/vrchat/unlink", data = "<form>")]
pub async fn unlink(p: Page<'_>, cookies: &CookieJar<'_>, form: Form<ButtonForm>) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let query = match link::unlink(p.db, user.id).await {
        Ok(()) => "?done=unlinked".to_string(),
        Err(e) => refusal_query(&e).ok_or(e)?,
    };
    Ok(crate::http::redirect::to_site(&page_href(&p, &query)))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![show, start, verify, unlink]
}
