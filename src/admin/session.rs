//! `GET /admin/api/session`: who the signed-in staff member is and what their role may do, area
//! by area and resource by resource — what the console's `authProvider` reads for identity,
//! permissions and `canAccess`. The resource table is computed from the same registry and role
//! table the server enforces (`tests/it/admin/matrix.rs` checks them against each other). In
//! production, where the server refuses to move the clock, the time-travel page is left out
//! (`time_travel: false`), so the console shows neither its menu entry nor the page.

use std::collections::BTreeMap;

use rocket::serde::json::Json;
use rocket::{Route, State, get, routes};
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::admin::api::resources;
use crate::admin::permissions::{Access, Action, Area};
use crate::auth::guards::{AnyStaff, Staff};
use crate::config::Environment;
use crate::http::Site;
use crate::model::user::Role;

/// The console session.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionView {
    /// User id.
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Icon (64 px), if any.
    pub avatar: Option<String>,
    /// The staff role.
    pub role: Role,
    /// What the role may do in each area (areas it may not see are left out).
    pub access: BTreeMap<String, Access>,
    /// The actions the role may take on each console resource (react-admin's names; resources
    /// it may not see are left out). `time_travel` is the time-travel page.
    pub permissions: BTreeMap<String, Vec<Action>>,
    /// Whether this server moves its clock at all (false in production, where the time-travel
    /// page is left out of `access` and `permissions` whatever the role).
    pub time_travel: bool,
}

/// The page of the console that is not a resource: time travel (read it, change it).
pub const TIME_TRAVEL_PAGE: (&str, Area, &[Action]) = ("time_travel", Area::TimeTravel, &[Action::Show, Action::Edit]);

/// The actions `role` may take on each console resource and page, leaving out those it may not
/// see at all (and the time-travel page when this server does not travel).
pub fn permissions(role: Role, time_travel: bool) -> BTreeMap<String, Vec<Action>> {
    resources()
        .iter()
        .map(|r| (r.name, r.area, r.actions))
        .chain(time_travel.then_some(TIME_TRAVEL_PAGE))
        .map(|(name, area, actions)| {
            (name.to_string(), actions.iter().copied().filter(|a| area.allows(role, *a)).collect::<Vec<_>>())
        })
        .filter(|(_, actions)| !actions.is_empty())
        .collect()
}

/// The signed-in staff member and their permissions.
#[utoipa::path(get, path = "/admin/api/session", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = SessionView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
#[get("/api/session")]
pub fn session(staff: Staff<AnyStaff>, site: &State<Site>) -> Json<SessionView> {
    let user = staff.user;
    let time_travel = site.config.environment != Environment::Production;
    let access = Area::ALL
        .iter()
        .filter(|area| time_travel || **area != Area::TimeTravel)
        .map(|area| (*area, area.access(user.role)))
        .filter(|(_, access)| *access != Access::None)
        .map(|(area, access)| {
            (serde_json::to_value(area).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(), access)
        })
        .collect();
    Json(SessionView {
        id: user.id,
        avatar: user.icon().small,
        vmarket_id: user.vmarket_id,
        name_ja: user.name_ja,
        name_en: user.name_en,
        role: user.role,
        access,
        permissions: permissions(user.role, time_travel),
        time_travel,
    })
}

/// The OpenAPI operations of this module (see `crate::openapi`).
#[derive(OpenApi)]
#[openapi(paths(session))]
pub struct Doc;

/// Routes of the console session.
pub fn routes() -> Vec<Route> {
    routes![session]
}
