//! Who may do what in the staff console: DOMAIN.md's role table, per area of the site, and the
//! actions staff take on console resources. The server checks [`Area::allows`] on every staff
//! call; the console reads the same answers (through `/admin/api/session`) so menus and buttons
//! match.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::model::user::Role;

/// A part of the site that staff roles are granted access to as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Events, phases, concepts, worlds, posters, companies, catalogue, hub content, exhibitor news.
    Event,
    /// Circles (suspend), entries, applications.
    Exhibitors,
    /// Lottery runs (commit, preview, publish).
    Lottery,
    /// Payments and store purchases (read; admins also reconcile payments and refund purchases).
    Payments,
    /// Inquiries and their categories, redirects.
    Support,
    /// Users and their roles.
    Users,
    /// Moving the application clock (never in production).
    TimeTravel,
    /// The audit log of staff writes.
    Audit,
    /// Users' uploaded assets, their versions and reports (issue 27: admins write; the other
    /// staff roles read).
    Assets,
}

/// What a role may do in an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Nothing; the area is hidden.
    None,
    /// Read only.
    Read,
    /// Read and the extra actions of the area (payments: reconcile, refund).
    ReadAndAct,
    /// Read and write.
    Write,
}

/// Something staff do to a console resource, named as react-admin names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Read a list (`GET /admin/api/{resource}`); CSV export is a list too.
    List,
    /// Read one record (`GET /admin/api/{resource}/{id}`).
    Show,
    /// Add a record (`POST`).
    Create,
    /// Change a record (`PUT`).
    Edit,
    /// Remove a record (`DELETE`).
    Delete,
    /// Ask the provider where a stuck payment stands and settle, fail or expire it
    /// (`POST /admin/api/{resource}/{id}/reconcile`): an extra action of the payments area.
    Reconcile,
    /// Give the money of a purchase back and revoke what it bought, with a reason
    /// (`POST /admin/api/{resource}/{id}/refund`): an extra action of the payments area.
    Refund,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 7] =
        [Action::List, Action::Show, Action::Create, Action::Edit, Action::Delete, Action::Reconcile, Action::Refund];
    /// Reading only.
    pub const READ: &'static [Action] = &[Action::List, Action::Show];
    /// Reading and changing existing records.
    pub const READ_EDIT: &'static [Action] = &[Action::List, Action::Show, Action::Edit];
    /// Reading, creating, changing and removing records.
    pub const CRUD: &'static [Action] = &[Action::List, Action::Show, Action::Create, Action::Edit, Action::Delete];

    /// The least access an action needs.
    pub fn needs(self) -> Access {
        match self {
            Action::List | Action::Show => Access::Read,
            Action::Reconcile | Action::Refund => Access::ReadAndAct,
            Action::Create | Action::Edit | Action::Delete => Access::Write,
        }
    }

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::List => "list",
            Action::Show => "show",
            Action::Create => "create",
            Action::Edit => "edit",
            Action::Delete => "delete",
            Action::Reconcile => "reconcile",
            Action::Refund => "refund",
        }
    }
}

impl Area {
    /// Every area.
    pub const ALL: [Area; 9] = [
        Area::Event,
        Area::Exhibitors,
        Area::Lottery,
        Area::Payments,
        Area::Support,
        Area::Users,
        Area::TimeTravel,
        Area::Audit,
        Area::Assets,
    ];

    /// What `role` may do here (DOMAIN.md "Staff roles").
    pub fn access(self, role: Role) -> Access {
        use Access::{None as No, Read, ReadAndAct, Write};
        match (self, role) {
            (_, Role::None) => No,
            (Area::Event, Role::Admin | Role::Director) => Write,
            (Area::Event, Role::UcStaff | Role::QaTester) => Read,
            (Area::Exhibitors | Area::Support, Role::QaTester) => Read,
            (Area::Exhibitors | Area::Support, _) => Write,
            (Area::Lottery, Role::Admin | Role::Director) => Write,
            (Area::Lottery, Role::QaTester) => Read,
            (Area::Lottery, Role::UcStaff) => No,
            (Area::Payments, Role::Admin) => ReadAndAct,
            (Area::Payments, Role::Director | Role::UcStaff) => Read,
            (Area::Payments, Role::QaTester) => No,
            (Area::Users, Role::Admin) => Write,
            (Area::Users, Role::UcStaff) => Read,
            (Area::Users, Role::Director | Role::QaTester) => No,
            (Area::TimeTravel, Role::Admin | Role::Director | Role::QaTester) => Write,
            (Area::TimeTravel, Role::UcStaff) => No,
            (Area::Audit, Role::Admin | Role::Director) => Read,
            (Area::Audit, Role::UcStaff | Role::QaTester) => No,
            (Area::Assets, Role::Admin) => Write,
            (Area::Assets, Role::Director | Role::UcStaff | Role::QaTester) => Read,
        }
    }

    /// Whether `role` may take `action` on a resource of this area.
    pub fn allows(self, role: Role, action: Action) -> bool {
        self.access(role) >= action.needs()
    }

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Area::Event => "event",
            Area::Exhibitors => "exhibitors",
            Area::Lottery => "lottery",
            Area::Payments => "payments",
            Area::Support => "support",
            Area::Users => "users",
            Area::TimeTravel => "time_travel",
            Area::Audit => "audit",
            Area::Assets => "assets",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_role_table_of_domain_md() {
        use Access::*;
        let row = |area: Area| [Role::Admin, Role::Director, Role::UcStaff, Role::QaTester].map(|r| area.access(r));
        assert_eq!(row(Area::Event), [Write, Write, Read, Read]);
        assert_eq!(row(Area::Exhibitors), [Write, Write, Write, Read]);
        assert_eq!(row(Area::Lottery), [Write, Write, None, Read]);
        assert_eq!(row(Area::Payments), [ReadAndAct, Read, Read, None]);
        assert_eq!(row(Area::Support), [Write, Write, Write, Read]);
        assert_eq!(row(Area::Users), [Write, None, Read, None]);
        assert_eq!(row(Area::TimeTravel), [Write, Write, None, Write]);
        assert_eq!(row(Area::Audit), [Read, Read, None, None]);
        assert_eq!(row(Area::Assets), [Write, Read, Read, Read], "issue 27");
        assert!(Area::ALL.iter().all(|a| a.access(Role::None) == None), "non-staff get nothing");
    }

    #[test]
    fn actions_need_read_or_write() {
        assert!(Area::Event.allows(Role::UcStaff, Action::List));
        assert!(!Area::Event.allows(Role::UcStaff, Action::Edit));
        assert!(Area::Users.allows(Role::Admin, Action::Edit));
        assert!(!Area::Users.allows(Role::Director, Action::List));
        assert!(!Area::Payments.allows(Role::Admin, Action::Delete), "reconcile is not a write");
        assert!(Area::Payments.allows(Role::Admin, Action::Reconcile));
        assert!(!Area::Payments.allows(Role::Director, Action::Reconcile), "directors read payments");
        assert!(!Area::Payments.allows(Role::UcStaff, Action::Reconcile));
        for area in Area::ALL {
            assert_eq!(serde_json::to_value(area).unwrap(), area.as_str());
        }
    }
}
