//! `/mypage/booth-maker/assets/upload[?asset=]`: the upload page. The `asset-upload` island
//! does the work over the `/uploader` API (one request up to 5 MiB, else in parts, resumable);
//! the page hands it the upload kinds — what each accepts and up to what size — and, for a new
//! version (`?asset=`), the user's asset (anyone else's is the 404 page).

use rocket::{Route, get, routes};
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::{asset, asset_setting};
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pages::mypage_nav::nav;

/// The page.
#[get("/mypage/booth-maker/assets/upload?<asset>")]
pub async fn upload(p: Page<'_>, current: CurrentUser, asset: Option<&str>) -> Result<Template> {
    let existing = match asset {
        Some(raw) => {
            let id = Id::parse(raw).map_err(|_| Error::not_found())?;
            Some(asset::Model::for_owner(p.db, id.0, current.user.id).await?)
        }
        None => None,
    };
    let mut kinds = Vec::new();
    for setting in asset_setting::Model::all(p.db).await? {
        if !setting.uploadable() || existing.as_ref().is_some_and(|a| a.asset_setting_id != setting.id) {
            continue;
        }
        let view = setting.view(p.db, p.lang).await?;
        let mut accept = view.accepted_mime_types.clone();
        accept.extend(view.accepted_kinds.iter().map(|k| format!(".{}", if k == "jpeg" { "jpg" } else { k })));
        accept.dedup();
        kinds.push(json!({
            "label": view.label,
            "name": view.name,
            "kinds": view.accepted_kinds.join(", "),
            "accept": accept.join(","),
            "max_bytes": view.max_bytes,
            "max_size": super::views::size_label(view.max_bytes),
            "single_request_max_bytes": view.single_request_max_bytes,
        }));
    }
    let props = json!({
        "lang": p.lang.code(),
        "kinds": kinds,
        "asset": existing.as_ref().map(|a| json!({ "id": a.id, "name": a.name })),
        "asset_href": p.href("/mypage/booth-maker/assets/"),
    });
    let title = match &existing {
        Some(_) => p.t("booth_maker.upload.title_version"),
        None => p.t("booth_maker.upload.title"),
    };
    let ctx = json!({
        "nav": nav(&p),
        "heading": title,
        "asset": existing.as_ref().map(|a| json!({ "name": a.name, "href": p.href(&format!("/mypage/booth-maker/assets/{}", a.id)) })),
        "kinds": kinds,
        "list_href": p.href("/mypage/booth-maker"),
        "island_props": props.to_string(),
    });
    Ok(p.render("mypage/booth_maker/upload", &title, ctx))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![upload]
}
