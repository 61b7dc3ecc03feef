//! The store's items: the public listing `GET /api/v1/store/items?category=&sub_category=&q=&page=&limit=`
//! and an item `GET /items/{uuid}` (a limited item by its link; `purchased` for a signed-in
//! viewer); buying `POST /items/{uuid}/purchase`; the buyer's purchases `GET /purchases` and a
//! bought item's file `POST /purchases/{uuid}/download` (a short-lived link); the seller's items
//! `GET /my/items`, `POST /my/items`, `PUT /my/items/{uuid}` and sales `GET /my/sales`.
//! Same sign-in and error body as `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

use std::time::Duration;

use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, post, put, routes};
use sea_orm::EntityTrait;
use serde::Serialize;
use utoipa::ToSchema;

use crate::assets::api::downloads::{LINK_SECS, link};
use crate::assets::api::uploader::{Body, Uploader, body};
use crate::assets::model::views::DownloadUrl;
use crate::auth::guards::{CurrentUser, OptionalUser};
use crate::db::entities::store_item::{self, ProductCategory, SubCategory};
use crate::db::entities::{asset, asset_version};
use crate::error::{Error, Result};
use crate::forms::choice;
use crate::forms::store_item::{StoreItemInput, check};
use crate::model::pagination::{DEFAULT_LIMIT, PageRequest, Pagination};
use crate::store::model::item_set;
use crate::store::model::purchase::{self, PurchaseView, Side, buy, standing};
use crate::store::model::store_item::{ListingFilter, StoreItemView, listing, views};

/// A page of store items.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreItemList {
    /// The items on this page.
    pub data: Vec<StoreItemView>,
    /// Where this page stands.
    pub pagination: Pagination,
}

/// The listing's query values, raw.
#[derive(Debug, FromForm)]
pub struct ListingQuery<'r> {
    /// `avatar`, `housing_furniture` or `avatar_part`.
    pub category: Option<&'r str>,
    /// `floor`, `wall` or `ceiling`.
    pub sub_category: Option<&'r str>,
    /// A keyword.
    pub q: Option<&'r str>,
    /// 1-based page.
    pub page: Option<&'r str>,
    /// Items per page (at most 100).
    pub limit: Option<&'r str>,
}

impl ListingQuery<'_> {
    /// The filter and the page asked for.
    pub fn parse(&self) -> Result<(ListingFilter, PageRequest)> {
        let category: Option<ProductCategory> = choice("category", self.category.map(str::trim))?;
        let sub_category: Option<SubCategory> = choice("sub_category", self.sub_category.map(str::trim))?;
        let page = PageRequest::parse(self.page, self.limit, DEFAULT_LIMIT)?;
        let q = self.q.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Ok((ListingFilter { category, sub_category, q }, page))
    }
}

/// The store's listing: published items on sale now, newest first (name matches first with a
/// keyword).
#[utoipa::path(get, path = "/api/v1/store/items", tag = "store",
    params(("category" = Option<ProductCategory>, Query), ("sub_category" = Option<SubCategory>, Query),
           ("q" = Option<String>, Query), ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query)),
    responses((status = 200, body = StoreItemList), (status = 422, body = crate::error::ErrorBody)))]
#[get("/items?<query..>")]
pub async fn list_items(
    up: Uploader<'_>,
    viewer: OptionalUser,
    query: ListingQuery<'_>,
) -> Result<Json<StoreItemList>> {
    let (filter, page) = query.parse()?;
    let (rows, count, all) = listing(up.db, &filter, page, up.now).await?;
    let data = views(up.db, rows, viewer.0.map(|u| u.id), up.now).await?;
    Ok(Json(StoreItemList { data, pagination: Pagination::new(page, count, all) }))
}

/// One item: published or limited (by its link), or the viewer's own.
#[utoipa::path(get, path = "/api/v1/store/items/{uuid}", tag = "store", params(("uuid" = String, Path)),
    responses((status = 200, body = StoreItemView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/items/<uuid>")]
pub async fn show_item(up: Uploader<'_>, viewer: OptionalUser, uuid: &str) -> Result<Json<StoreItemView>> {
    let viewer = viewer.0.map(|u| u.id);
    let item = store_item::Model::visible(up.db, uuid, viewer).await?;
    Ok(Json(views(up.db, vec![item], viewer, up.now).await?.remove(0)))
}

/// Buys an item at the price in force. Free items are bought at once; buying again answers the
/// purchase made (200).
#[utoipa::path(post, path = "/api/v1/store/items/{uuid}/purchase", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 201, body = PurchaseView), (status = 200, body = PurchaseView, description = "bought before"),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "own_item, not_on_sale, purchase_refunded, payment_required (a priced item: open an order)")))]
#[post("/items/<uuid>/purchase")]
pub async fn buy_item(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<(Status, Json<PurchaseView>)> {
    let bought = buy(up.db, current.user.id, uuid, up.now).await?;
    let status = if bought.new { Status::Created } else { Status::Ok };
    Ok((status, Json(purchase::views(up.db, vec![bought.purchase]).await?.remove(0))))
}

/// The signed-in user's purchases, newest first.
#[utoipa::path(get, path = "/api/v1/store/purchases", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = Vec<PurchaseView>), (status = 401, body = crate::error::ErrorBody)))]
#[get("/purchases")]
pub async fn purchases(up: Uploader<'_>, current: CurrentUser) -> Result<Json<Vec<PurchaseView>>> {
    let rows = purchase::of_user(up.db, current.user.id, Side::Buyer).await?;
    Ok(Json(purchase::views(up.db, rows).await?))
}

/// A short-lived link to a bought item's file (its newest upload); with `item`, to the file of
/// that item of a bought set. 409 `purchase_refunded` once refunded.
#[utoipa::path(post, path = "/api/v1/store/purchases/{uuid}/download", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path),
           ("item" = Option<String>, Query, description = "an item of the bought set (its uuid); 404 when the set does not hold it")),
    responses((status = 200, body = DownloadUrl), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
#[post("/purchases/<uuid>/download?<item>")]
pub async fn download(
    up: Uploader<'_>,
    current: CurrentUser,
    uuid: &str,
    item: Option<&str>,
) -> Result<Json<DownloadUrl>> {
    Ok(Json(download_link(&up, current.user.id, uuid, item).await?))
}

/// The one way a buyer gets a bought item's file (the API and the purchases page): purchase
/// `uuid`'s own, or with `included`, that of an item in the bought set.
pub async fn download_link(
    up: &Uploader<'_>,
    buyer_id: i32,
    uuid: &str,
    included: Option<&str>,
) -> Result<DownloadUrl> {
    let bought = standing(up.db, buyer_id, uuid).await?;
    let item = match included {
        Some(inner) => item_set::item_in(up.db, bought.item_id, inner).await?,
        None => store_item::Entity::find_by_id(bought.item_id).one(up.db).await?.ok_or_else(Error::not_found)?,
    };
    let asset = asset::Model::by_id(up.db, item.asset_id).await?;
    let version = asset_version::Model::newest_uploaded(up.db, &asset).await?;
    link(up, &version, Duration::from_secs(LINK_SECS)).await
}

/// The signed-in seller's items, in their order.
#[utoipa::path(get, path = "/api/v1/store/my/items", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = Vec<StoreItemView>), (status = 401, body = crate::error::ErrorBody)))]
#[get("/my/items")]
pub async fn my_items(up: Uploader<'_>, current: CurrentUser) -> Result<Json<Vec<StoreItemView>>> {
    let rows = store_item::Model::all_of_seller(up.db, current.user.id).await?;
    Ok(Json(views(up.db, rows, Some(current.user.id), up.now).await?))
}

/// Puts one of the seller's uploaded assets (avatar, furniture, avatar parts) on sale.
#[utoipa::path(post, path = "/api/v1/store/my/items", tag = "store", security(("bearer" = [])),
    request_body = StoreItemInput,
    responses((status = 201, body = StoreItemView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody, description = "not the user's asset"),
              (status = 409, body = crate::error::ErrorBody, description = "asset_not_uploaded"),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/my/items", data = "<input>")]
pub async fn create_item(
    up: Uploader<'_>,
    current: CurrentUser,
    input: Body<'_, StoreItemInput>,
) -> Result<(Status, Json<StoreItemView>)> {
    let fields = check(&body(input)?, &[])?;
    let row = store_item::Model::create(up.db, current.user.id, &fields, up.now).await?;
    Ok((Status::Created, Json(views(up.db, vec![row], Some(current.user.id), up.now).await?.remove(0))))
}

/// Changes one of the seller's items (all fields as on creation; the asset stays).
#[utoipa::path(put, path = "/api/v1/store/my/items/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)), request_body = StoreItemInput,
    responses((status = 200, body = StoreItemView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[put("/my/items/<uuid>", data = "<input>")]
pub async fn update_item(
    up: Uploader<'_>,
    current: CurrentUser,
    uuid: &str,
    input: Body<'_, StoreItemInput>,
) -> Result<Json<StoreItemView>> {
    let found = store_item::Model::of_seller(up.db, uuid, current.user.id).await?;
    let fields = check(&body(input)?, &[])?;
    let row = found.change(up.db, &fields, up.now).await?;
    Ok(Json(views(up.db, vec![row], Some(current.user.id), up.now).await?.remove(0)))
}

/// The seller's sales, newest first: price, the platform's fee and the proceeds of each.
#[utoipa::path(get, path = "/api/v1/store/my/sales", tag = "store", security(("bearer" = [])),
    responses((status = 200, body = Vec<PurchaseView>), (status = 401, body = crate::error::ErrorBody)))]
#[get("/my/sales")]
pub async fn sales(up: Uploader<'_>, current: CurrentUser) -> Result<Json<Vec<PurchaseView>>> {
    let rows = purchase::of_user(up.db, current.user.id, Side::Seller).await?;
    Ok(Json(purchase::views(up.db, rows).await?))
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![list_items, show_item, buy_item, purchases, download, my_items, create_item, update_item, sales]
}
