//! `/api/v1`: the product REST API, one file per resource.

pub mod catalog_items;
pub mod companies;
pub mod concepts;
pub mod events;
pub mod exhibitor_notifications;
pub mod exhibitors;
pub mod hub;
pub mod inquiries;
pub mod user;
pub mod user_hub;
pub mod vrc_redirects;
pub mod worlds;

use rocket::Route;
use serde::Serialize;
use utoipa::ToSchema;

use crate::model::pagination::Pagination;

/// Every `/api/v1` route.
pub fn routes() -> Vec<Route> {
    let mut routes = events::routes();
    routes.extend(worlds::routes());
    routes.extend(concepts::routes());
    routes.extend(user::routes());
    routes.extend(exhibitor_notifications::routes());
    routes.extend(inquiries::routes());
    routes.extend(exhibitors::routes());
    routes.extend(companies::routes());
    routes.extend(catalog_items::routes());
    routes.extend(vrc_redirects::routes());
    routes.extend(hub::routes());
    routes.extend(user_hub::routes());
    routes
}

/// A page of a list: the items and the pagination object.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListBody<T: ToSchema> {
    /// The items on this page.
    pub data: Vec<T>,
    /// Where this page stands.
    pub pagination: Pagination,
}
