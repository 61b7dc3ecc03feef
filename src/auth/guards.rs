//! Request guards: `OptionalUser`, `CurrentUser` and `Staff<R>`. The token comes from
//! `Authorization: Bearer` or the HttpOnly token cookie; unsafe requests authenticated by the
//! cookie must carry the CSRF token. Results are cached per request.

use std::marker::PhantomData;
use std::sync::Mutex;

use rocket::http::{Method, Status};
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::auth::{Sso, TOKEN_COOKIE, csrf, verify};
use crate::clock::Clock;
use crate::db::entities::user;
use crate::error::Error;
use crate::model::user::Role;

/// How the request proved who it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `Authorization: Bearer`.
    Bearer,
    /// The token cookie.
    Cookie,
}

/// The outcome of reading the request's credentials, computed once per request.
#[derive(Debug, Clone)]
enum Auth {
    /// No credential at all.
    Anonymous,
    /// A credential that did not verify.
    Invalid,
    /// A verified user.
    User(Box<user::Model>, Source),
}

/// The specific error code a guard failed with, for the catchers to report.
#[derive(Default)]
pub struct GuardFailure(pub Mutex<Option<&'static str>>);

/// The token of `Authorization: Bearer <token>`, if the request has one (the in-game guard
/// reads its own tokens through this too).
pub fn bearer<'r>(req: &'r Request<'_>) -> Option<&'r str> {
    let value = req.headers().get_one("Authorization")?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

async fn authenticate(req: &Request<'_>) -> Auth {
    let (token, source) = match bearer(req) {
        Some(t) => (t.to_string(), Source::Bearer),
        None => match req.cookies().get(TOKEN_COOKIE) {
            Some(c) => (c.value().to_string(), Source::Cookie),
            None => return Auth::Anonymous,
        },
    };
    let (Some(sso), Some(db), Some(clock)) =
        (req.rocket().state::<Sso>(), req.rocket().state::<DatabaseConnection>(), req.rocket().state::<Clock>())
    else {
        return Auth::Invalid;
    };
    let now = clock.real_now();
    let claims = match verify::verify(&token, &sso.jwks, &sso.issuer, now).await {
        Ok(c) => c,
        Err(why) => {
            tracing::info!(?why, "token refused");
            return Auth::Invalid;
        }
    };
    let user = match user::Model::provision(db, &claims.identity(), now).await {
        Ok(u) => u,
        Err(e) => {
            tracing::error!(error = %e, "user lookup failed");
            return Auth::Invalid;
        }
    };
    // Tokens of a generation before the user's last sign-out are dead (strictly ordered: no
    // clock comparison, so a sign-in in the same second as a sign-out works).
    if !user.accepts_generation(claims.r#gen) {
        return Auth::Invalid;
    }
    Auth::User(Box::new(user), source)
}

async fn auth<'r>(req: &'r Request<'_>) -> &'r Auth {
    req.local_cache_async(authenticate(req)).await
}

/// The signed-in user of `req` as far as a guard has already checked (error pages, which
/// render without awaiting: a handler's guard or [`authenticate_for_error_page`] did the work);
/// none when nobody checked or the credential did not verify.
pub fn checked_user<'r>(req: &'r Request<'_>) -> Option<&'r user::Model> {
    match req.local_cache(|| Auth::Anonymous) {
        Auth::User(user, _) => Some(user.as_ref()),
        _ => None,
    }
}

/// Checks `req`'s credential now, for a catcher whose request no guard saw (an unknown route),
/// so its error page shows who is signed in.
pub async fn authenticate_for_error_page(req: &Request<'_>) {
    auth(req).await;
}

/// The signed-in user, if any; an invalid credential counts as signed out.
pub struct OptionalUser(pub Option<user::Model>);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for OptionalUser {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        match auth(req).await {
            Auth::User(u, _) => Outcome::Success(OptionalUser(Some(u.as_ref().clone()))),
            _ => Outcome::Success(OptionalUser(None)),
        }
    }
}

/// A signed-in user; 401 otherwise, and 403 `csrf_failed` for a cookie-authenticated unsafe
/// request without the CSRF token.
pub struct CurrentUser {
    /// The user.
    pub user: user::Model,
    /// How they authenticated.
    pub source: Source,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for CurrentUser {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        match auth(req).await {
            Auth::User(user, source) => {
                let unsafe_method = !matches!(req.method(), Method::Get | Method::Head | Method::Options);
                if *source == Source::Cookie
                    && unsafe_method
                    && !csrf::verify(req.cookies(), req.headers().get_one(csrf::CSRF_HEADER))
                {
                    record(req, Error::CsrfFailed);
                    return Outcome::Error((Status::Forbidden, Error::CsrfFailed));
                }
                Outcome::Success(CurrentUser { user: user.as_ref().clone(), source: *source })
            }
            _ => {
                record(req, Error::Unauthorized);
                Outcome::Error((Status::Unauthorized, Error::Unauthorized))
            }
        }
    }
}

/// Keeps `error` as the reason this request's guard failed, for the catcher's body.
pub(crate) fn record(req: &Request<'_>, error: Error) {
    if let Ok(mut slot) = req.local_cache(GuardFailure::default).0.lock() {
        *slot = Some(error.code());
    }
}

/// The error a guard recorded for this request, rebuilt for the catcher.
pub fn recorded_failure(req: &Request<'_>) -> Option<Error> {
    let code = (*req.local_cache(GuardFailure::default).0.lock().ok()?)?;
    Some(match code {
        "csrf_failed" => Error::CsrfFailed,
        "forbidden" => Error::Forbidden,
        _ => Error::Unauthorized,
    })
}

/// Which roles a [`Staff`] guard admits.
pub trait RoleRequirement: Send + Sync + 'static {
    /// Whether `role` is enough.
    fn allows(role: Role) -> bool;
}

/// Any staff role.
pub struct AnyStaff;
impl RoleRequirement for AnyStaff {
    fn allows(role: Role) -> bool {
        role != Role::None
    }
}

/// Administrators only.
pub struct AdminOnly;
impl RoleRequirement for AdminOnly {
    fn allows(role: Role) -> bool {
        role == Role::Admin
    }
}

/// A signed-in staff member whose role `R` admits; 401 signed out, 403 otherwise.
pub struct Staff<R: RoleRequirement> {
    /// The staff member.
    pub user: user::Model,
    _role: PhantomData<R>,
}

#[rocket::async_trait]
impl<'r, R: RoleRequirement> FromRequest<'r> for Staff<R> {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        match CurrentUser::from_request(req).await {
            Outcome::Success(c) if R::allows(c.user.role) => {
                Outcome::Success(Staff { user: c.user, _role: PhantomData })
            }
            Outcome::Success(_) => {
                record(req, Error::Forbidden);
                Outcome::Error((Status::Forbidden, Error::Forbidden))
            }
            Outcome::Error(e) => Outcome::Error(e),
            Outcome::Forward(s) => Outcome::Forward(s),
        }
    }
}
