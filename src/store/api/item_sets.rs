//! A seller's sets: `PUT /api/v1/store/my/items/{uuid}/contents` makes one of their items a set
//! of the items listed (or, with none, an ordinary item again), by the rules of
//! [`crate::store::model::item_set`]. Another seller's item is a 404. Cookie-authenticated calls
//! need `X-CSRF-Token`.

use rocket::serde::json::Json;
use rocket::{Route, put, routes};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item;
use crate::error::Result;
use crate::store::model::item_set::set_contents;
use crate::store::model::store_item::{StoreItemView, views};

/// What a set holds.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SetContentsInput {
    /// The seller's items in the set (their uuids, in the set's order; at most 20; none: not a
    /// set).
    pub items: Vec<String>,
}

/// Sets what one of the seller's items holds; answers the item with its `included_items`.
#[utoipa::path(put, path = "/api/v1/store/my/items/{uuid}/contents", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)), request_body = SetContentsInput,
    responses((status = 200, body = StoreItemView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "set_in_set (one level of sets), set_sold (a bought set's items stay)"),
              (status = 422, body = crate::error::ErrorBody,
               description = "items: not the seller's, the set itself, more than 20")))]
#[put("/my/items/<uuid>/contents", data = "<input>")]
pub async fn set_items(
    up: Uploader<'_>,
    current: CurrentUser,
    uuid: &str,
    input: Body<'_, SetContentsInput>,
) -> Result<Json<StoreItemView>> {
    let set = store_item::Model::of_seller(up.db, uuid, current.user.id).await?;
    let input = body(input)?;
    set_contents(up.db, &set, &input.items, up.now).await?;
    Ok(Json(views(up.db, vec![set], Some(current.user.id), up.now).await?.remove(0)))
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![set_items]
}
