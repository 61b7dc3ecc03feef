//! Paying for a priced store item by card, through PayPal or on GMO's payment page: `POST
//! /api/v1/store/items/{uuid}/orders` opens (or answers) the buyer's order at the price in force
//! and its PaymentIntent (card) or the provider's page (`approve_url`: PayPal's approval, GMO's
//! payment page); `POST /orders/{uuid}/capture` pays it with the card Stripe.js tokenized (or
//! reads it after 3-D Secure), takes the payment the payer approved at PayPal or reads GMO's
//! trade, and answers the purchase; `GET /orders/{uuid}` says where it stands. The order's
//! amount holds for its lifetime (`crate::store::model::order`). Same sign-in and error body as
//! `/api/v1`; cookie-authenticated writes need `X-CSRF-Token`.

use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use sea_orm::EntityTrait;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::assets::api::uploader::{Body, Uploader, body};
use crate::auth::guards::CurrentUser;
use crate::db::entities::store_order::{self, PaymentType, StoreOrderState};
use crate::db::entities::{store_item, store_purchase};
use crate::error::{Error, Result};
use crate::payments::Providers;
use crate::payments::providers::unavailable;
use crate::store::model::order::{OrderView, of_buyer};
use crate::store::model::purchase::{self, PurchaseView};
use crate::store::{card, checkout};

/// What a buyer asks to pay with.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct StoreOrderInput {
    /// `stripe` (a card, through Stripe.js), `paypal` (the payer approves at PayPal) or
    /// `smbc_gmo` (the payer pays on GMO Payment Gateway's page).
    pub payment_type: Option<PaymentType>,
}

/// An open order, as the payer's browser needs it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoreOrderOpened {
    /// The order (its `amount` is what the card is charged).
    pub order: OrderView,
    /// The PaymentIntent's client secret, for Stripe.js (3-D Secure); card orders.
    pub client_secret: Option<String>,
    /// Where the payer approves (PayPal) or makes (GMO) the payment at the provider. They come
    /// back to the order's page; `POST /orders/{uuid}/capture` (no body) then takes the approved
    /// PayPal payment or reads GMO's trade.
    pub approve_url: Option<String>,
}

/// What a buyer sends to pay an order.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct StoreCaptureInput {
    /// The card's PaymentMethod id (`pm_…`, tokenized by Stripe.js); absent to read what Stripe
    /// has (after 3-D Secure in the browser).
    pub payment_method: Option<String>,
}

/// Opens the signed-in buyer's card order for an item, at the price in force (or answers the
/// one open: a reload or a second tab pays the same order at its price).
#[utoipa::path(post, path = "/api/v1/store/items/{uuid}/orders", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)), request_body = StoreOrderInput,
    responses((status = 200, body = StoreOrderOpened), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "own_item, already_purchased, purchase_refunded, not_on_sale, free_item"),
              (status = 422, body = crate::error::ErrorBody, description = "payment_type not offered"),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable")))]
#[post("/items/<uuid>/orders", data = "<input>")]
pub async fn open_order(
    up: Uploader<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    uuid: &str,
    input: Body<'_, StoreOrderInput>,
) -> Result<Json<StoreOrderOpened>> {
    match body(input)?.payment_type {
        Some(PaymentType::Stripe) => {
            let opened = checkout::open_card(up.db, providers, current.user.id, uuid, up.now).await?;
            Ok(Json(StoreOrderOpened {
                order: OrderView::of(&opened.order, &opened.item, None),
                client_secret: opened.client_secret,
                approve_url: None,
            }))
        }
        Some(provider) => {
            let opened =
                checkout::open_redirect(up.db, providers, current.user.id, uuid, provider, up.lang, up.now).await?;
            Ok(Json(StoreOrderOpened {
                order: OrderView::of(&opened.order, &opened.item, None),
                client_secret: None,
                approve_url: Some(opened.url.to_string()),
            }))
        }
        None => Err(unavailable()),
    }
}

/// Pays the buyer's order (see the module comment) and answers the purchase it made.
#[utoipa::path(post, path = "/api/v1/store/orders/{uuid}/capture", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)), request_body = StoreCaptureInput,
    responses((status = 200, body = PurchaseView), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "payment_declined, or a bad payment_method"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody,
               description = "order_closed, order_expired, already_purchased, payment_requires_action, payment_processing, payment_not_completed"),
              (status = 502, body = crate::error::ErrorBody, description = "payment_pending")))]
#[post("/orders/<uuid>/capture", data = "<input>")]
pub async fn capture_order(
    up: Uploader<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    uuid: &str,
    input: Body<'_, StoreCaptureInput>,
) -> Result<Json<PurchaseView>> {
    let input = body(input)?;
    let found = of_buyer(up.db, current.user.id, uuid).await?;
    let paid = match found.provider {
        PaymentType::Paypal | PaymentType::SmbcGmo => {
            match checkout::check(up.db, providers, current.user.id, &found, up.now).await? {
                Some(paid) => paid,
                None => return Err(Error::Conflict { code: redirect_open_code(up.db, &found).await? }),
            }
        }
        PaymentType::Stripe => {
            card::capture(up.db, providers, current.user.id, uuid, input.payment_method.as_deref(), up.now).await?
        }
    };
    Ok(Json(purchase::views(up.db, vec![paid]).await?.remove(0)))
}

/// Where the buyer's order stands.
#[utoipa::path(get, path = "/api/v1/store/orders/{uuid}", tag = "store", security(("bearer" = [])),
    params(("uuid" = String, Path)),
    responses((status = 200, body = OrderView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[get("/orders/<uuid>")]
pub async fn show_order(up: Uploader<'_>, current: CurrentUser, uuid: &str) -> Result<Json<OrderView>> {
    Ok(Json(order_view(up.db, current.user.id, uuid).await?))
}

/// The view of `buyer_id`'s order `uuid` (404 for anyone else's).
pub async fn order_view(db: &sea_orm::DatabaseConnection, buyer_id: i32, uuid: &str) -> Result<OrderView> {
    let found = of_buyer(db, buyer_id, uuid).await?;
    let item = store_item::Entity::find_by_id(found.item_id).one(db).await?.ok_or_else(Error::not_found)?;
    let purchase = match found.purchase_id {
        Some(id) => store_purchase::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    Ok(OrderView::of(&found, &item, purchase.as_ref()))
}

/// Why a PayPal or GMO order that made no purchase did not, as it stands after the look.
async fn redirect_open_code(db: &sea_orm::DatabaseConnection, found: &store_order::Model) -> Result<&'static str> {
    let now = store_order::Entity::find_by_id(found.id).one(db).await?.ok_or_else(Error::not_found)?;
    Ok(match now.state {
        StoreOrderState::Pending => "payment_not_completed",
        StoreOrderState::Failed if now.closed_reason.as_deref() == Some("expired") => "order_expired",
        StoreOrderState::Captured | StoreOrderState::Duplicate => "already_purchased",
        StoreOrderState::Failed => "order_closed",
    })
}

/// Routes of this file.
pub fn routes() -> Vec<Route> {
    routes![open_order, capture_order, show_order]
}
