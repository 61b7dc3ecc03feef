//! What every console handler works with ([`Cx`]: the database, the clock, the staff member,
//! the queue, the mailer, the payment providers and which resources the member may read), given
//! by the `Console` guard (`access.rs`).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;

use crate::clock::Clock;
use crate::db::entities::user;
use crate::http::Site;
use crate::i18n::Lang;
use crate::jobs::FollowUp;
use crate::mail::Mailer;
use crate::model::user::Role;
use crate::payments::Providers;
use crate::queue::Queue;

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
    /// The resources whose audit entries a role may read (set by the `Console` guard, which
    /// knows them all).
    pub(crate) readable: fn(Role) -> Vec<&'static str>,
    pub(crate) outbox: std::sync::Mutex<Vec<FollowUp>>,
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

    /// The resources whose audit entries this staff member may read (see
    /// `crate::admin::api::access::readable`).
    pub fn readable_resources(&self) -> Vec<&'static str> {
        (self.readable)(self.staff.role)
    }
}
