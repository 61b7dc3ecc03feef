//! Request guards of the console API: [`Console`] (any staff member, with what a handler
//! needs) and [`Allowed`] (the resource named in the path, the action the method means, and the
//! role table's yes). Handlers take them as `Result<_, Error>` so that every refusal answers with
//! its own code in the JSON error body: 404 unknown resource, 401 signed out, 403 not staff / not
//! allowed (or a missing CSRF token), 405 an action the resource does not offer.
//!
//! `Cx` (`cx.rs`) also carries the payment providers, for the one console action that calls one
//! (a payment's reconcile).

use rocket::http::{Method, Status};
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::admin::api::cx::Cx;
use crate::admin::api::registered::Registered;
use crate::admin::api::resources::ALL;
use crate::admin::permissions::{Action, Area};
use crate::auth::guards::CurrentUser;
use crate::clock::Clock;
use crate::error::{Error, request_lang};
use crate::http::Site;
use crate::mail::Mailer;
use crate::model::user::Role;
use crate::payments::Providers;
use crate::queue::Queue;

/// A signed-in staff member (any role) and the console's context.
pub struct Console<'r>(pub Cx<'r>);

/// A guard's refusal, answered with its own status and code.
pub(crate) fn refuse<T>(error: Error) -> Outcome<T, Error> {
    Outcome::Error((error.status(), error))
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Console<'r> {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        let user = match CurrentUser::from_request(req).await {
            Outcome::Success(current) => current.user,
            Outcome::Error((_, error)) => return refuse(error),
            Outcome::Forward(status) => return Outcome::Forward(status),
        };
        if user.role == Role::None {
            return refuse(Error::Forbidden);
        }
        let state = req.rocket();
        let (Some(site), Some(db), Some(clock), Some(mailer), Some(queue), Some(providers)) = (
            state.state::<Site>(),
            state.state::<DatabaseConnection>(),
            state.state::<Clock>(),
            state.state::<Mailer>(),
            state.state::<Queue>(),
            state.state::<Providers>(),
        ) else {
            return Outcome::Error((Status::InternalServerError, Error::Internal("console state missing".into())));
        };
        let now = clock.now();
        let lang = request_lang(req);
        Outcome::Success(Console(Cx {
            db,
            site,
            clock,
            lang,
            now,
            staff: user,
            mailer,
            queue,
            providers,
            readable,
            outbox: Default::default(),
        }))
    }
}

/// The resources whose audit entries `role` may read: those it may list, and time travel when it
/// may see it.
pub fn readable(role: Role) -> Vec<&'static str> {
    ALL.iter()
        .filter(|r| r.area.allows(role, Action::List))
        .map(|r| r.name)
        .chain(Area::TimeTravel.allows(role, Action::Show).then_some("time_travel"))
        .collect()
}

/// Staff allowed to take the request's action on the resource named in its path
/// (`/admin/api/{resource}[/{id}]`).
pub struct Allowed<'r> {
    /// The resource.
    pub resource: &'static Registered,
    /// The action the request takes.
    pub action: Action,
    /// The context.
    pub cx: Cx<'r>,
}

/// The action of a console request: its method, whether it names a record, and the step it
/// names after the record (`/{id}/reconcile`, `/{id}/refund`; `/{id}/file` opens what the record
/// shows).
pub fn action_of(method: Method, names_record: bool, step: Option<&str>) -> Option<Action> {
    match (method, names_record, step) {
        (Method::Get | Method::Head, false, None) => Some(Action::List),
        (Method::Get | Method::Head, true, None | Some("file")) => Some(Action::Show),
        (Method::Post, false, None) => Some(Action::Create),
        (Method::Put, true, None) => Some(Action::Edit),
        (Method::Delete, true, None) => Some(Action::Delete),
        (Method::Post, true, Some("reconcile")) => Some(Action::Reconcile),
        (Method::Post, true, Some("refund")) => Some(Action::Refund),
        _ => None,
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Allowed<'r> {
    type Error = Error;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Error> {
        // Routed segments after the `/admin` mount: `api`, the resource, the record id. The
        // names are public (the OpenAPI document lists the routes), so an unknown one is a 404
        // for everyone.
        let name = req.routed_segment(1).unwrap_or_default();
        let Some(resource) = ALL.iter().find(|r| r.name == name) else {
            return refuse(Error::not_found());
        };
        let cx = match Console::from_request(req).await {
            Outcome::Success(Console(cx)) => cx,
            Outcome::Error(e) => return Outcome::Error(e),
            Outcome::Forward(status) => return Outcome::Forward(status),
        };
        let Some(action) = action_of(req.method(), req.routed_segment(2).is_some(), req.routed_segment(3)) else {
            return refuse(Error::MethodNotAllowed);
        };
        if !resource.actions.contains(&action) {
            return refuse(Error::MethodNotAllowed);
        }
        if !resource.area.allows(cx.staff.role, action) {
            return refuse(Error::Forbidden);
        }
        Outcome::Success(Allowed { resource, action, cx })
    }
}
