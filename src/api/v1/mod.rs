//! `/api/v1`: the product REST API, one file per resource.

pub mod catalog_items;
pub mod circles;
pub mod companies;
pub mod concepts;
pub mod event_catalog_items;
pub mod event_entries;
pub mod event_plans;
pub mod event_slot_submissions;
pub mod event_slots;
pub mod events;
pub mod exhibitor_notifications;
pub mod exhibitor_preview;
pub mod exhibitors;
pub mod hub;
pub mod inquiries;
pub mod invitation_circles;
pub mod invitation_members;
pub mod lottery_results;
pub mod member_circles;
pub mod payment_providers;
pub mod payments;
pub mod user;
pub mod user_hub;
pub mod vmarket_tools;
pub mod vrc_redirects;
pub mod worlds;

use rocket::Route;
use serde::Serialize;
use utoipa::openapi::OpenApi as Document;
use utoipa::{OpenApi, ToSchema};

use crate::api::docs;
use crate::http::render_cache;
use crate::model::pagination::Pagination;

/// A resource module's routes beside its OpenAPI operations (operation ids prefixed with the
/// module's name).
macro_rules! resource {
    ($module:ident) => {
        ($module::routes(), docs::resource(stringify!($module), $module::Doc::openapi()))
    };
}

/// A public resource: the same, its routes answering anonymous reads from the render cache
/// (`crate::http::render_cache`; the `lang` query is part of the key).
macro_rules! public {
    ($module:ident) => {{
        let (routes, doc) = resource!($module);
        (render_cache::cached(routes, render_cache::Clocked::Phases, |_| ""), doc)
    }};
}

/// Every `/api/v1` resource: its routes beside its OpenAPI operations, so that a resource is
/// added to both at once (`tests/it/api_contract.rs` checks that they match).
fn resources() -> Vec<(Vec<Route>, Document)> {
    vec![
        public!(events),
        public!(worlds),
        public!(concepts),
        resource!(user),
        resource!(exhibitor_notifications),
        public!(inquiries),
        public!(exhibitors),
        public!(companies),
        public!(catalog_items),
        public!(vrc_redirects),
        public!(hub),
        resource!(user_hub),
        resource!(circles),
        resource!(member_circles),
        resource!(invitation_circles),
        resource!(invitation_members),
        resource!(event_entries),
        resource!(event_plans),
        resource!(event_slots),
        resource!(event_slot_submissions),
        resource!(event_catalog_items),
        resource!(exhibitor_preview),
        resource!(vmarket_tools),
        resource!(lottery_results),
        resource!(payments),
        resource!(payment_providers),
    ]
}

/// Every `/api/v1` route.
pub fn routes() -> Vec<Route> {
    resources().into_iter().flat_map(|(routes, _)| routes).collect()
}

/// The OpenAPI operations of every `/api/v1` route.
pub fn openapi() -> Document {
    docs::merged(resources().into_iter().map(|(_, doc)| doc))
}

/// A page of a list: the items and the pagination object.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListBody<T: ToSchema> {
    /// The items on this page.
    pub data: Vec<T>,
    /// Where this page stands.
    pub pagination: Pagination,
}

/// A JSON request body, or why Rocket could not read it.
pub type Body<'r, T> = std::result::Result<rocket::serde::json::Json<T>, rocket::serde::json::Error<'r>>;

/// The body's value, or 400 `bad_request` when it could not be read.
pub fn body<T>(input: Body<'_, T>) -> crate::error::Result<T> {
    input.map(|rocket::serde::json::Json(t)| t).map_err(|_| crate::error::Error::BadRequest { code: "bad_request" })
}
