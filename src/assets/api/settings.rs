//! `GET /uploader/asset_settings/{label}`: one upload kind — what it accepts (by content), how
//! large, how it is cut into parts, and the rule set that checks it.

use rocket::serde::json::Json;
use rocket::{Route, get, routes};

use super::uploader::Uploader;
use crate::assets::model::setting::SettingView;
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset_setting;
use crate::error::Result;

/// An upload kind by label (`avatar`, `furniture`, `scene_asset`, `avatar_part_bundle`,
/// `booth_package`, `housing_video`).
#[utoipa::path(get, path = "/uploader/asset_settings/{label}", tag = "uploader", security(("bearer" = [])),
    params(("label" = String, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = SettingView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "unknown_asset_setting")))]
#[get("/asset_settings/<label>")]
pub async fn show_setting(up: Uploader<'_>, _user: CurrentUser, label: &str) -> Result<Json<SettingView>> {
    let setting = asset_setting::Model::by_label(up.db, label).await?;
    Ok(Json(setting.view(up.db, up.lang).await?))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![show_setting]
}
