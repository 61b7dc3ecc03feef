//! `GET /admin/api/clock`: where the application clock stands, for the console's time-travel
//! banner — any staff member may read it (changing it is `/api/v1/admin/time_travel`).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use utoipa::OpenApi;

use crate::admin::api::access::Console;
use crate::admin::time_travel::TimeTravelView;
use crate::error::{Error, Result};

/// The application clock: the travelled "now" (or null) and the real one.
#[utoipa::path(get, path = "/admin/api/clock", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = TimeTravelView), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
#[get("/api/clock")]
pub async fn clock(console: std::result::Result<Console<'_>, Error>) -> Result<Json<TimeTravelView>> {
    let Console(cx) = console?;
    TimeTravelView::load(&cx).await.map(Json)
}

/// The OpenAPI operations of this module.
#[derive(OpenApi)]
#[openapi(paths(clock))]
pub struct Doc;

/// Routes of the console clock.
pub fn routes() -> Vec<Route> {
    routes![clock]
}
