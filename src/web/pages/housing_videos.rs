//! `/mypage/housing-videos`: the user's housing videos — each with its conversion's status, the
//! converted video and its thumbnail once finished, why it failed otherwise, and a discard
//! button — and their uploaded videos not converted yet, each with a convert button
//! (`POST /mypage/housing-videos`, `POST /mypage/housing-videos/{uuid}/discard`). Over
//! `crate::store`'s housing videos, the same calls as `/api/v1/store/housing_videos`.

use rocket::form::{Form, FromForm};
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, get, post, routes};
use serde_json::{Value, json};

use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::db::entities::housing_video::{ConvertStatus, DiscardStatus};
use crate::error::Result;
use crate::http::template::Template;
use crate::store::api::housing_videos::{make, throw_away};
use crate::store::model::housing_video::{HousingVideoView, of_user};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::mypage_nav::nav;

/// The convert and discard forms.
#[derive(FromForm)]
pub struct VideoForm {
    csrf_token: Option<String>,
    asset_id: Option<String>,
}

/// The page.
#[get("/mypage/housing-videos?<done>")]
pub async fn list(p: Page<'_>, current: CurrentUser, done: Option<&str>) -> Result<Template> {
    let found = of_user(p.db, current.user.id).await?;
    let videos: Vec<Value> = found.videos.iter().map(|v| video_json(&p, v)).collect();
    let converting = videos.iter().any(|v| v["status"] == "converting");
    let convertible: Vec<Value> = found
        .convertible
        .iter()
        .map(|c| json!({ "asset_id": c.asset_id, "name": c.name, "file_name": c.file_name }))
        .collect();
    let notice = match done {
        Some("converting") => Some(p.t("housing_videos.done.converting")),
        Some("discarded") => Some(p.t("housing_videos.done.discarded")),
        _ => None,
    };
    let ctx = json!({
        "nav": nav(&p),
        "videos": videos,
        "convertible": convertible,
        "convert_action": p.href("/mypage/housing-videos"),
        "upload_href": p.href("/mypage/booth-maker/assets/upload"),
        "notice": notice,
        "converting": converting,
    });
    Ok(p.render("mypage/housing_videos", &p.t("housing_videos.title"), ctx))
}

/// One video for the page.
fn video_json(p: &Page<'_>, v: &HousingVideoView) -> Value {
    let status = match (v.discard_status, v.convert_status) {
        (DiscardStatus::Discarded, _) => "discarded",
        (_, ConvertStatus::Converting) => "converting",
        (_, ConvertStatus::Finished) => "finished",
        (_, ConvertStatus::Error) => "error",
    };
    let seconds = v.duration_ms.map(|ms| (ms + 500) / 1000).unwrap_or(0);
    json!({
        "uuid": v.uuid,
        "name": v.name,
        "file_name": v.video_filename,
        "status": status,
        "status_label": p.t(&format!("housing_videos.status.{status}")),
        "error": v.convert_error.as_ref().map(|code| p.t(&format!("housing_videos.error.{code}"))),
        "video": v.converted_video,
        "thumbnail": v.video_thumbnail,
        "size": v.width.zip(v.height).map(|(w, h)| format!("{w} × {h}")),
        "duration": (seconds > 0).then(|| format!("{}:{:02}", seconds / 60, seconds % 60)),
        "discard_action": (v.discard_status == DiscardStatus::Active)
            .then(|| p.href(&format!("/mypage/housing-videos/{}/discard", v.uuid))),
    })
}

/// Converts one of the user's uploaded videos.
#[post("/mypage/housing-videos", data = "<form>")]
pub async fn convert(
    p: Page<'_>,
    up: Uploader<'_>,
    cookies: &CookieJar<'_>,
    form: Form<VideoForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let asset_id = form.asset_id.as_deref().and_then(|raw| raw.trim().parse().ok()).unwrap_or(0);
    make(&up, user.id, asset_id).await?;
    Ok(crate::http::redirect::to_site(&p.href("/mypage/housing-videos?done=converting")))
}

/// Discards one of the user's housing videos.
#[post("/mypage/housing-videos/<uuid>/discard", data = "<form>")]
pub async fn discard(
    p: Page<'_>,
    up: Uploader<'_>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    form: Form<VideoForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    throw_away(&up, user.id, uuid).await?;
    Ok(crate::http::redirect::to_site(&p.href("/mypage/housing-videos?done=discarded")))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list, convert, discard]
}
