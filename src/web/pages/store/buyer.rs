//! `/mypage/purchases`: what the user bought in the store, each with its item's page and a
//! download button (`POST /mypage/purchases/{uuid}/download`: a short-lived link to the file,
//! the same as `POST /api/v1/store/purchases/{uuid}/download`), a bought set with each of its
//! items and theirs (`…/download?item={uuid}`); a refunded purchase says so and has no
//! download. A card checkout left before paying is listed above them, with its page,
//! while its price holds.

use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, get, post, routes};
use serde_json::{Value, json};

use crate::assets::api::uploader::Uploader;
use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item;
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::model::lottery_mails::yen;
use crate::store::api::items::download_link;
use crate::store::model::order;
use crate::store::model::purchase::{self, Side};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::mypage_nav::nav;

/// The page.
#[get("/mypage/purchases")]
pub async fn list(p: Page<'_>, current: CurrentUser) -> Result<Template> {
    let rows = purchase::views(p.db, purchase::of_user(p.db, current.user.id, Side::Buyer).await?).await?;
    let purchases: Vec<Value> = rows
        .iter()
        .map(|b| {
            json!({
                "item": p.lang.pick(&b.item_name, &b.item_name_en),
                "item_href": p.href(&format!("/store/items/{}", b.item_uuid)),
                "price": yen(b.price),
                "free": b.price == 0,
                "at": b.created_at,
                "refunded": b.refunded_at.is_some(),
                "download_action": b.refunded_at.is_none().then(|| p.href(&format!("/mypage/purchases/{}/download", b.uuid))),
                "included": b.included.iter().map(|i| json!({
                    "name": p.lang.pick(&i.name, &i.name_en),
                    "href": i.public.then(|| p.href(&format!("/store/items/{}", i.uuid))),
                    "download_action": b.refunded_at.is_none()
                        .then(|| p.href(&format!("/mypage/purchases/{}/download?item={}", b.uuid, i.uuid))),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let ctx = json!({
        "nav": nav(&p),
        "purchases": purchases,
        "open_orders": open_orders(&p, current.user.id).await?,
        "store_href": p.href("/store"),
    });
    Ok(p.render("mypage/store/purchases", &p.t("store.purchases.title"), ctx))
}

/// The buyer's card orders still open (a checkout left before paying), each with its page.
async fn open_orders(p: &Page<'_>, buyer_id: i32) -> Result<Vec<Value>> {
    let orders: Vec<_> =
        order::open_of_buyer(p.db, buyer_id).await?.into_iter().filter(|o| o.expires_at > p.now).collect();
    let items = store_item::Model::by_ids(p.db, orders.iter().map(|o| o.item_id)).await?;
    Ok(orders
        .iter()
        .filter_map(|o| {
            let item = items.get(&o.item_id)?;
            Some(json!({
                "item": p.lang.pick(&item.name, &item.name_en),
                "amount": yen(o.amount),
                "expires_at": o.expires_at,
                "href": p.href(&format!("/store/orders/{}", o.uuid)),
            }))
        })
        .collect())
}

/// The download button's form: only the CSRF field.
#[derive(rocket::FromForm)]
pub struct DownloadForm {
    csrf_token: Option<String>,
}

/// Sends the buyer to a short-lived link to the file they bought.
#[post("/mypage/purchases/<uuid>/download?<item>", data = "<form>")]
pub async fn download(
    p: Page<'_>,
    up: Uploader<'_>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    item: Option<&str>,
    form: Form<DownloadForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let link = download_link(&up, user.id, uuid, item).await?;
    let url = url::Url::parse(&link.url).map_err(|_| Error::Internal("download link is not a URL".into()))?;
    Ok(crate::http::redirect::to_url(&url))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![list, download]
}
