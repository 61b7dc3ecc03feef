//! `/mypage/booth-maker[?page=]`: the user's assets (not deleted), newest first, each with its
//! kind, its newest version's status and report verdict, and a picture once one is made.

use std::collections::HashMap;

use rocket::{Route, get, routes};
use serde_json::{Value, json};

use super::views::version_json;
use crate::assets::api::assets::views_with_links;
use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::booth::model::housing::NewScene;
use crate::db::entities::{asset, housing_scene, preset_home};
use crate::error::Result;
use crate::http::template::Template;
use crate::model::pagination::{PageRequest, Pagination};
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::mypage_nav::nav;

/// Assets per page.
pub const PAGE_SIZE: u64 = 20;

/// The list.
#[get("/mypage/booth-maker?<page>")]
pub async fn list(p: Page<'_>, up: Uploader<'_>, current: CurrentUser, page: Option<&str>) -> Result<Template> {
    render(&p, &up, current.user.id, page_number(page)?, &NewScene::default(), &HashMap::new()).await
}

/// The page, with the new-booth form holding `form` and its `errors` (field → messages).
pub async fn render(
    p: &Page<'_>,
    up: &Uploader<'_>,
    user_id: i32,
    page: u64,
    form: &NewScene,
    errors: &HashMap<String, Vec<String>>,
) -> Result<Template> {
    let req = PageRequest { page, limit: PAGE_SIZE };
    let (rows, count) = asset::Model::owned_page(p.db, user_id, None, req).await?;
    let settings = crate::db::entities::asset_setting::Model::all(p.db).await?;
    let items: Vec<Value> = views_with_links(up, rows)
        .await?
        .into_iter()
        .map(|a| {
            let newest = a.asset_versions.first().map(|v| version_json(p, v));
            let kind =
                settings.iter().find(|s| s.id == a.asset_setting_id).map(|s| p.lang.pick(&s.name_ja, &s.name_en));
            json!({
                "id": a.id,
                "name": a.name,
                "kind": kind,
                "href": p.href(&format!("/mypage/booth-maker/assets/{}", a.id)),
                "newest": newest,
                "picture": a.asset_versions.iter().find_map(|v| v.thumbnail.as_ref().map(|t| t.small.clone())),
            })
        })
        .collect();
    let pagination = Pagination::new(req, count, count);
    let base = p.href("/mypage/booth-maker");
    let link = |n: u64| if n > 1 { format!("{base}?page={n}") } else { base.clone() };
    let ctx = json!({
        "nav": nav(p),
        "items": items,
        "pagination": pagination,
        "pager": pager(&pagination, link),
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
        "scenes": scenes_json(p, user_id).await?,
        "homes": preset_home::Model::published(p.db).await?.iter().map(|h| {
            let view = h.view(p.lang);
            json!({ "id": view.id, "name": view.name, "thumbnail": view.thumbnail_url,
                    "size": format!("{} × {} × {} m", view.size[0], view.size[1], view.size[2]),
                    "checked": form.preset_home_id == Some(h.id) })
        }).collect::<Vec<_>>(),
        "new_scene": { "name": form.name, "introduction": form.introduction,
                       "action": p.href("/mypage/booth-maker/scenes") },
        "has_errors": !errors.is_empty(),
        "errors": errors,
    });
    Ok(p.render("mypage/booth_maker/index", &p.t("booth_maker.title"), ctx))
}

/// The user's booths, each with its home and a link to the editor.
async fn scenes_json(p: &Page<'_>, user_id: i32) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for scene in housing_scene::Model::of_user(p.db, user_id).await? {
        let home = preset_home::Model::by_id(p.db, scene.preset_home_id).await?;
        let totals = scene.saved_totals();
        out.push(json!({
            "name": scene.name,
            "home": home.view(p.lang).name,
            "items": totals.items,
            "updated_at": scene.updated_at,
            "href": p.href(&format!("/mypage/booth-maker/scenes/{}", scene.id)),
        }));
    }
    Ok(out)
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list]
}
