//! Signed-in pages: the mypage dashboard and the profile editor (a React island). Signed-out
//! visitors are sent to sign in and brought back.

use rocket::{Route, get, routes};
use rocket_dyn_templates::Template;
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::error::Result;
use crate::model::event;
use crate::model::user::UserView;
use crate::web::page::Page;

/// The mypage sections that exist, in menu order: (path, message key).
const SECTIONS: &[(&str, &str)] = &[("/mypage", "mypage.nav.dashboard"), ("/mypage/profile", "mypage.nav.profile")];

fn nav(page: &Page<'_>) -> Vec<serde_json::Value> {
    SECTIONS
        .iter()
        .map(|(path, key)| json!({ "href": page.href(path), "label": page.t(key), "current": page.path == *path }))
        .collect()
}

/// The dashboard.
#[get("/mypage")]
pub async fn dashboard(page: Page<'_>, current: CurrentUser) -> Result<Template> {
    let profile = UserView::load(page.db, &current.user, page.lang).await?;
    let current_event = event::current(page.db, page.now)
        .await?
        .map(|e| json!({ "name": page.lang.pick(&e.event.name_ja, &e.event.name_en), "href": page.href("/") }));
    Ok(page.render(
        "mypage/index",
        &page.t("mypage.title"),
        json!({ "nav": nav(&page), "profile": profile, "current_event": current_event }),
    ))
}

/// The profile editor.
#[get("/mypage/profile")]
pub async fn profile(page: Page<'_>, current: CurrentUser) -> Result<Template> {
    let profile = UserView::load(page.db, &current.user, page.lang).await?;
    Ok(page.render(
        "mypage/profile",
        &page.t("mypage.profile_title"),
        json!({ "nav": nav(&page), "profile": profile, "island_props": json!({ "lang": page.lang.code() }).to_string() }),
    ))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![dashboard, profile]
}
