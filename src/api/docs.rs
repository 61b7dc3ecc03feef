//! The OpenAPI document of every API operation, served at `/api-docs/openapi.json`.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::account;

use crate::api::{example, ogp, support, v1};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "vmarket API", description = "Virtual Market product API"),
    paths(
        v1::events::list, v1::events::show, v1::events::active,
        v1::worlds::list,
        v1::concepts::list, v1::concepts::show,
        v1::user::me, v1::user::update,
        v1::exhibitor_notifications::list, v1::exhibitor_notifications::show,
        v1::exhibitors::list, v1::exhibitors::show, v1::companies::list,
        v1::catalog_items::catalog_items, v1::catalog_items::company_items,
        v1::catalog_items::groups, v1::catalog_items::company_groups, v1::catalog_items::catalog_info,
        support::messages, support::latest_build,
        account::api::me, account::api::token, account::api::exchange, account::api::discovery_keys,
        ogp::show,
        v1::inquiries::categories, v1::inquiries::create,
        v1::vrc_redirects::show, example::show,
        v1::hub::list_notifications, v1::hub::top_live, v1::hub::vmarket_info, v1::hub::show_notification,
        v1::hub::ambassadors, v1::hub::streamers, v1::hub::hub_tags, v1::hub::hub_tag,
        v1::user_hub::list, v1::user_hub::create, v1::user_hub::show, v1::user_hub::update, v1::user_hub::remove,
        account::api::revoke, crate::admin::session::session,
    ),
    modifiers(&BearerAuth),
    tags((name = "events"), (name = "worlds"), (name = "concepts"), (name = "user"), (name = "account"),
         (name = "support"), (name = "inquiries"), (name = "catalog"), (name = "redirects"), (name = "hub"),
         (name = "admin"))
)]
pub struct ApiDoc;

/// Declares the `bearer` security scheme (an account-service JWT).
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// The OpenAPI document.
#[get("/openapi.json")]
pub fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// Routes mounted at `/api-docs`.
pub fn routes() -> Vec<Route> {
    routes![openapi]
}
