//! Who may do what in the staff console: DOMAIN.md's role table, per area of the site, and the
//! console resources that belong to each area. The server checks it on every staff call; the
//! console reads the same table (through `/admin/api/session`) so menus and buttons match.

use serde::Serialize;
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
    /// Payments (read; admins also reconcile).
    Payments,
    /// Inquiries and their categories, redirects.
    Support,
    /// Users and their roles.
    Users,
    /// Moving the application clock (never in production).
    TimeTravel,
    /// The audit log of staff writes.
    Audit,
}

/// What a role may do in an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Nothing; the area is hidden.
    None,
    /// Read only.
    Read,
    /// Read and the one extra action of the area (payments: reconcile).
    ReadAndAct,
    /// Read and write.
    Write,
}

impl Area {
    /// Every area.
    pub const ALL: [Area; 8] = [
        Area::Event,
        Area::Exhibitors,
        Area::Lottery,
        Area::Payments,
        Area::Support,
        Area::Users,
        Area::TimeTravel,
        Area::Audit,
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
        assert!(Area::ALL.iter().all(|a| a.access(Role::None) == None), "non-staff get nothing");
    }
}
