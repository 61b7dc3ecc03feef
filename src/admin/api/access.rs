//! Request guards of the console API: [`Console`] (any staff member, with what a handler
//! needs) and [`Allowed`] (the resource named in the path, the action the method means, and the
//! role table's yes). Handlers take them as `Result<_, Error>` so that every refusal answers with
//! its own code in the JSON error body: 404 unknown resource, 401 signed out, 403 not staff / not
//! allowed (or a missing CSRF token), 405 an action the resource does not offer.
//!
//! [`Cx`] also carries the payment providers, for the one console action that calls one (a
//! payment's reconcile).

use chrono::{DateTime, Utc};
use rocket::http::{Method, Status};
use rocket::request::{FromRequest, Outcome, Request};
use sea_orm::DatabaseConnection;

use crate::admin::api::{Registered, resources};
use crate::admin::permissions::Action;
use crate::auth::guards::CurrentUser;
use crate::clock::Clock;
use crate::db::entities::user;
use crate::error::{Error, request_lang};
use crate::http::Site;
use crate::i18n::Lang;
use crate::jobs::{FollowUp, Queue};
use crate::mail::Mailer;
use crate::model::user::Role;
use crate::payments::Providers;

/// What a console handler works with: a signed-in staff member and the application's state.
pub struct Cx<'r> {
    /// The database.
    pub db: &'r DatabaseConnection,
    /// Site-wide state (messages, configuration).
    pub site: &'r Site,
    /// The application clock.
    pub clock: &'r Clock,
    /// The language of messages (`?lang=`, Japanese by default).
    pub lang: Lang,
    /// "Now" on the application clock (travelled while staff time-travel): what windows,
    /// statuses and defaults of the domain follow. Rows and the audit log are stamped with
    /// [`Cx::acted_at`].
    pub now: DateTime<Utc>,
    /// The staff member.
    pub staff: user::Model,
    /// The job queue: follow-up work of committed writes (mails, owed result mails).
    pub queue: &'r Queue,
    /// Renders mail (a payment's reconcile may settle it and queue its receipt).
    pub mailer: &'r Mailer,
    /// The payment providers (a payment's reconcile asks its provider).
    pub providers: &'r Providers,
    /// Work a write left for the workers in its transaction, handed over once it committed
    /// ([`Cx::send_queued`]).
    outbox: std::sync::Mutex<Vec<FollowUp>>,
}

impl Cx<'_> {
    /// Keeps `work` (stored in the current write's transaction: mails, owed result mails) to
    /// hand to the workers after it commits.
    pub fn after_commit(&self, work: impl IntoIterator<Item = FollowUp>) {
        self.outbox.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(work);
    }

    /// Hands the follow-up work of a committed write to the workers.
    pub async fn send_queued(&self) {
        let work = std::mem::take(&mut *self.outbox.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        for follow_up in work {
            follow_up.push(self.queue).await;
        }
    }

    /// When this staff write happens, for the rows it stamps (`created_at`, `updated_at`) and
    /// its audit entry: the real time the staff member acted, whatever the site is travelled to
    /// (a record edited while QA looks at next month was changed today, and the log says so).
    /// Instants of the domain — a notification published "now", a status as it stands — follow
    /// the application clock, [`Cx::now`].
    pub fn acted_at(&self) -> DateTime<Utc> {
        self.clock.real_now()
    }

    /// A message in the request's language.
    pub fn t(&self, key: &str) -> String {
        self.site.messages.t(self.lang, key)
    }

    /// A message with `{name}` placeholders filled.
    pub fn tf(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.site.messages.tf(self.lang, key, args)
    }
}

/// A signed-in staff member (any role) and the console's context.
pub struct Console<'r>(pub Cx<'r>);

fn refuse<T>(error: Error) -> Outcome<T, Error> {
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
            outbox: Default::default(),
        }))
    }
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
/// names after the record (`/{id}/reconcile`).
pub fn action_of(method: Method, names_record: bool, step: Option<&str>) -> Option<Action> {
    match (method, names_record, step) {
        (Method::Get | Method::Head, false, None) => Some(Action::List),
        (Method::Get | Method::Head, true, None) => Some(Action::Show),
        (Method::Post, false, None) => Some(Action::Create),
        (Method::Put, true, None) => Some(Action::Edit),
        (Method::Delete, true, None) => Some(Action::Delete),
        (Method::Post, true, Some("reconcile")) => Some(Action::Reconcile),
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
        let Some(resource) = resources().iter().find(|r| r.name == name) else {
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
