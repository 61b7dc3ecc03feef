//! The booth maker's API, mounted at `/api/v1/booth_maker`: the editor's calls ([`scenes`]:
//! the user's booths, their drafts, saving and submitting) and the preset homes and the world
//! lookup of spec §7 ([`homes`]). Same sign-in and error body as `/api/v1`; cookie-authenticated
//! writes need `X-CSRF-Token`.

pub mod homes;
pub mod scenes;

use rocket::Route;

/// The OpenAPI operations of the booth maker.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        homes::preset_homes,
        homes::housing_scenes,
        scenes::list,
        scenes::create,
        scenes::show,
        scenes::put_draft,
        scenes::save,
        scenes::submit,
    ),
    tags((name = "booth_maker", description = "The booth maker (issue 29), mounted at /api/v1/booth_maker"))
)]
pub struct Doc;

/// Routes mounted at `/api/v1/booth_maker`.
pub fn routes() -> Vec<Route> {
    [homes::routes(), scenes::routes()].concat()
}
