//! The booth maker's editor pages: `POST /mypage/booth-maker/scenes` (the new-booth form of the
//! list page: a name and a preset home; a refused form shows the list again with the errors and
//! what was typed) and `/mypage/booth-maker/scenes/{id}` (the `booth-maker` island over
//! `/api/v1/booth_maker`; anyone else's scene is the 404 page).

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::json;

use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::booth::api::scenes::start;
use crate::booth::model::housing::NewScene;
use crate::db::entities::{housing_scene, preset_home};
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// The new-booth form.
#[derive(FromForm)]
pub struct SceneForm {
    csrf_token: Option<String>,
    name: Option<String>,
    preset_home_id: Option<String>,
}

/// Starts a booth and opens it in the editor.
#[post("/mypage/booth-maker/scenes", data = "<form>")]
pub async fn create(
    p: Page<'_>,
    up: Uploader<'_>,
    cookies: &CookieJar<'_>,
    form: Form<SceneForm>,
) -> Result<Either<Redirect, Template>> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let input = NewScene {
        name: form.name.clone().unwrap_or_default(),
        introduction: String::new(),
        preset_home_id: form.preset_home_id.as_deref().and_then(|raw| raw.trim().parse().ok()),
    };
    match start(&up, user.id, &input).await {
        Ok(scene) => {
            let href = p.href(&format!("/mypage/booth-maker/scenes/{}", scene.id));
            Ok(Either::Left(crate::http::redirect::to_site(&href)))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = errors_by_field(e.details(&p.site.messages, p.lang), str::to_string);
            let page = super::list::render(&p, &up, user.id, 1, &input, &errors).await?;
            Ok(Either::Right(page))
        }
        Err(other) => Err(other),
    }
}

/// The editor.
#[get("/mypage/booth-maker/scenes/<id>")]
pub async fn editor(p: Page<'_>, current: CurrentUser, id: Id) -> Result<Template> {
    let scene = housing_scene::Model::for_owner(p.db, id.0, current.user.id).await?;
    let home = preset_home::Model::by_id(p.db, scene.preset_home_id).await?;
    let props = json!({
        "lang": p.lang.code(),
        "scene_id": scene.id,
        "list_href": p.href("/mypage/booth-maker"),
    });
    let ctx = json!({
        "nav": nav(&p),
        "scene": { "name": scene.name, "home": home.view(p.lang).name },
        "props": props.to_string(),
        "list_href": p.href("/mypage/booth-maker"),
    });
    Ok(p.render("mypage/booth_maker/editor", &scene.name, ctx))
}

/// Routes of these pages.
pub fn routes() -> Vec<Route> {
    routes![create, editor]
}
