//! `/mypage/booth-maker[?page=]`: the user's assets (not deleted), newest first, each with its
//! kind, its newest version's status and report verdict, and a picture once one is made.

use rocket::{Route, get, routes};
use serde_json::{Value, json};

use super::views::version_json;
use crate::assets::api::assets::views_with_links;
use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::db::entities::asset;
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
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let (rows, count) = asset::Model::owned_page(p.db, current.user.id, None, req).await?;
    let settings = crate::db::entities::asset_setting::Model::all(p.db).await?;
    let items: Vec<Value> = views_with_links(&up, rows)
        .await?
        .into_iter()
        .map(|a| {
            let newest = a.asset_versions.first().map(|v| version_json(&p, v));
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
        "nav": nav(&p),
        "items": items,
        "pagination": pagination,
        "pager": pager(&pagination, link),
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
    });
    Ok(p.render("mypage/booth_maker/index", &p.t("booth_maker.title"), ctx))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list]
}
