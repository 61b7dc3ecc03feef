//! Mypage news (spec §2 `/mypage/news`, `/mypage/news/{id}`): the organisers' exhibitor
//! notifications, newest first, with unread ones marked; opening one marks it read.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::exhibitor_notification;
use crate::error::Result;
use crate::model::exhibitor_notification::ExhibitorNotificationView;
use crate::model::pagination::{PageRequest, Pagination};
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::mypage_nav::nav;

/// Notifications per list page.
pub const PAGE_SIZE: u64 = 10;

/// `items` as JSON, each with the `href` of its page.
pub(crate) fn with_hrefs(p: &Page<'_>, items: Vec<ExhibitorNotificationView>) -> Value {
    Value::Array(
        items
            .into_iter()
            .map(|i| {
                let href = p.href(&format!("/mypage/news/{}", i.id));
                let mut v = json!(i);
                v["href"] = json!(href);
                v
            })
            .collect(),
    )
}

/// The news list, paginated.
#[get("/mypage/news?<page>")]
pub async fn list(p: Page<'_>, current: CurrentUser, page: Option<&str>) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let found = exhibitor_notification::Model::page(p.db, current.user.id, p.now, req, p.lang).await?;
    let pagination = Pagination::new(req, found.count, found.count);
    let base = p.href("/mypage/news");
    let link = |n: u64| if n > 1 { format!("{base}?page={n}") } else { base.clone() };
    let ctx = json!({
        "nav": nav(&p),
        "items": with_hrefs(&p, found.items),
        "unread": found.unread,
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    Ok(p.render("mypage/exhibitor_notifications", &p.t("mypage.news.title"), ctx))
}

/// One notification; opening it marks it read.
#[get("/mypage/news/<id>")]
pub async fn show(p: Page<'_>, current: CurrentUser, id: Id) -> Result<Template> {
    let item = ExhibitorNotificationView::open(p.db, id.0, current.user.id, p.now, p.lang).await?;
    let title = item.title.get().clone();
    let event_href = item.event.as_ref().map(|e| p.href(&format!("/{}/worlds", e.permalink)));
    let paragraphs: Vec<&str> = item.description.get().split("\n\n").map(str::trim).filter(|s| !s.is_empty()).collect();
    let ctx = json!({
        "nav": nav(&p),
        "item": item,
        "paragraphs": paragraphs,
        "event_href": event_href,
        "back_href": p.href("/mypage/news"),
    });
    Ok(p.render("mypage/exhibitor_notification", &title, ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![list, show]
}
