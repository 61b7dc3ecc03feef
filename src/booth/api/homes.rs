//! `GET /api/v1/booth_maker/preset_homes` (the homes a booth can be started in) and
//! `GET /api/v1/booth_maker/housing_scenes/{worldCode}` (spec §7: the published scenes of a
//! world, for anyone).

use rocket::serde::json::Json;
use rocket::{Route, get, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::assets::api::uploader::Uploader;
use crate::booth::model::home::HomeView;
use crate::booth::scene::SceneJson;
use crate::db::entities::{housing_scene, preset_home};
use crate::error::{Error, Result};

/// A published scene as a world shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicScene {
    /// Id.
    pub id: i32,
    /// The world's id, when staff set one.
    pub world_id: Option<i32>,
    /// The world's code.
    pub world_code: Option<String>,
    /// Name.
    pub name: String,
    /// Introduction.
    pub introduction: String,
    /// Always true here.
    pub published: bool,
    /// The scene.
    pub scene_json: SceneJson,
    /// Its home.
    pub home: HomeView,
}

/// The published preset homes, in order.
#[utoipa::path(get, path = "/api/v1/booth_maker/preset_homes", tag = "booth_maker",
    params(("lang" = Option<String>, Query)),
    responses((status = 200, body = Vec<HomeView>)))]
#[get("/preset_homes")]
pub async fn preset_homes(up: Uploader<'_>) -> Result<Json<Vec<HomeView>>> {
    let homes = preset_home::Model::published(up.db).await?;
    Ok(Json(homes.iter().map(|h| h.view(up.lang)).collect()))
}

/// The published housing scenes of a world (spec §7).
#[utoipa::path(get, path = "/api/v1/booth_maker/housing_scenes/{world_code}", tag = "booth_maker",
    params(("world_code" = String, Path, description = "the world's code (letters, digits, `_`, `-`; up to 64)"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = Vec<PublicScene>), (status = 404, body = crate::error::ErrorBody)))]
#[get("/housing_scenes/<world_code>")]
pub async fn housing_scenes(up: Uploader<'_>, world_code: &str) -> Result<Json<Vec<PublicScene>>> {
    let valid = !world_code.is_empty()
        && world_code.len() <= 64
        && world_code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        return Err(Error::not_found());
    }
    let mut out = Vec::new();
    for scene in housing_scene::Model::published_for_world(up.db, world_code).await? {
        let home = preset_home::Model::by_id(up.db, scene.preset_home_id).await?;
        out.push(PublicScene {
            id: scene.id,
            world_id: scene.world_id,
            world_code: scene.world_code.clone(),
            name: scene.name.clone(),
            introduction: scene.introduction.clone(),
            published: scene.published,
            scene_json: scene.scene(),
            home: home.view(up.lang),
        });
    }
    Ok(Json(out))
}

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![preset_homes, housing_scenes]
}
