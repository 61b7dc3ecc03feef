//! The booth maker's pages under mypage (spec §2 `/mypage/booth-maker`,
//! `/mypage/booth-maker/assets/upload`, `/mypage/booth-maker/assets/{id}`): the user's assets,
//! the upload page (the `asset-upload` island over the `/uploader` API) and one asset with its
//! versions, live status, report and 3D preview. Owner only: anyone else's asset is the 404 page.
//! The editor: the user's booths on the list page and each in the `booth-maker` island
//! ([`scenes`]).

mod asset;
mod list;
mod scenes;
mod upload;
pub(crate) mod views;

use rocket::Route;

/// The pages' routes.
pub fn routes() -> Vec<Route> {
    [list::routes(), upload::routes(), asset::routes(), scenes::routes()].concat()
}
