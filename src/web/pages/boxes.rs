//! `/boxes` ("ボックス展示" / "Box exhibits"): the avatars on display in boxes at the venue
//! (issue 31) — every box staff published, newest first, with its picture, name, author, the
//! author's site, pose and face. Public and cached like the store's pages; a box leaves the page
//! when it leaves display.

use rocket::{Route, get, routes};
use serde_json::{Value, json};

use crate::error::Result;
use crate::forms::box_submission::{FACES, POSES};
use crate::http::template::Template;
use crate::store::model::box_submission as boxes;
use crate::web::page::Page;
use crate::web::pages::box_submissions::label;

/// The boxes on display.
#[get("/boxes")]
pub async fn index(p: Page<'_>) -> Result<Template> {
    let shown = boxes::views(p.db, boxes::published(p.db).await?).await?;
    let rows: Vec<Value> = shown
        .iter()
        .map(|b| {
            json!({
                "name": b.name,
                "author": b.author,
                "website": (!b.website.is_empty()).then_some(&b.website),
                "pose": label(&p, "pose", &POSES, b.pose_id),
                "face": label(&p, "face", &FACES, b.face_id),
                "image": b.thumbnail_url,
            })
        })
        .collect();
    let ctx = json!({ "boxes": rows });
    Ok(p.render("boxes", &p.t("boxes.title"), ctx))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![index]
}
