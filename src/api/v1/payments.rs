//! Payments (spec §7 "Payments (no retry)"): `GET /api/v1/user/payment_histories?page=` and
//! `/{id}`, `POST /api/v1/user/payment/pre_order` → `{order_id, transaction_uuid, …}`,
//! `POST /api/v1/user/payment/capture`, and Stripe's webhook
//! `POST /api/v1/payment/stripe/webhook`. Clients must not retry these calls: a capture whose
//! outcome is unknown answers 502 `payment_pending` and is reconciled with the provider on the
//! server. Rules and codes: [`crate::payments`], [`crate::model::payment`].

use rocket::data::{Data, ToByteUnit};
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::{Route, State, get, post, routes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::api::v1::{Body, body};
use crate::auth::guards::CurrentUser;
use crate::clock::Clock;
use crate::db::entities::payment_history;
use crate::error::{Error, Result};
use crate::mail::Mailer;
use crate::model::pagination::Pagination;
use crate::model::payment_history::PaymentView;
use crate::payments::{self, CaptureInput, Outbox, PreOrder, PreOrderInput, Providers, WebhookOutcome};
use crate::queue::Queue;
use crate::types::Id;

/// The signed-in user's settled payments, newest first.
#[utoipa::path(get, path = "/api/v1/user/payment_histories", tag = "payments", security(("bearer" = [])),
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<PaymentView>), (status = 401, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[get("/user/payment_histories?<page>&<limit>")]
pub async fn list(
    api: Api<'_>,
    current: CurrentUser,
    page: Option<&str>,
    limit: Option<&str>,
) -> Result<Json<ListBody<PaymentView>>> {
    let req = api.page(page, limit)?;
    let (rows, count) = payment_history::Model::page_of(api.db, current.user.id, req).await?;
    let data = PaymentView::load(api.db, rows, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(req, count, count) }))
}

/// One settled payment of the signed-in user; anyone else's is 404.
#[utoipa::path(get, path = "/api/v1/user/payment_histories/{id}", tag = "payments", security(("bearer" = [])),
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = PaymentView), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
#[get("/user/payment_histories/<id>")]
pub async fn show(api: Api<'_>, current: CurrentUser, id: Id) -> Result<Json<PaymentView>> {
    let row = payment_history::Model::of_user(api.db, id.0, current.user.id).await?;
    let view = PaymentView::load(api.db, vec![row], api.lang).await?.pop().ok_or_else(Error::not_found)?;
    Ok(Json(view))
}

/// Opens the payment of a won application through a provider (or returns the attempt already
/// open for it and that provider, so a double click opens one payment). Only the owner of the
/// application's circle, only a `first_win` / `second_win` inside its payment window. PayPal and
/// GMO attempts are opened in `lang` (the provider's page, the return to `/checkout`). Do not
/// retry automatically.
#[utoipa::path(post, path = "/api/v1/user/payment/pre_order", tag = "payments", security(("bearer" = [])),
    params(("lang" = Option<String>, Query, description = "the payer's language: PayPal's page and the return to /checkout")),
    request_body = PreOrderInput,
    responses((status = 200, body = PreOrder), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "someone else's or no application"),
              (status = 409, body = crate::error::ErrorBody, description = "already_paid, payment_closed"),
              (status = 422, body = crate::error::ErrorBody, description = "a provider that is not offered"),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable, provider_refused")))]
#[post("/user/payment/pre_order", data = "<input>")]
pub async fn pre_order(
    api: Api<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    input: Body<'_, PreOrderInput>,
) -> Result<Json<PreOrder>> {
    let input = body(input)?;
    Ok(Json(payments::pre_order(api.db, providers, current.user.id, input, api.lang, api.now).await?))
}

/// Confirms and settles an attempt (Stripe: with the card's `payment_method` from Stripe.js, or
/// without one after Stripe.js confirmed the PaymentIntent). A settled attempt answers its payment
/// again. Do not retry: an unknown outcome answers 502 `payment_pending` and the server asks the
/// provider itself.
#[utoipa::path(post, path = "/api/v1/user/payment/capture", tag = "payments", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = CaptureInput,
    responses((status = 200, body = PaymentView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "someone else's or no attempt"),
              (status = 409, body = crate::error::ErrorBody,
               description = "already_paid, payment_closed, order_closed, payment_not_completed, payment_requires_action, payment_processing"),
              (status = 422, body = crate::error::ErrorBody, description = "payment_declined"),
              (status = 502, body = crate::error::ErrorBody, description = "payment_pending: reconciled on the server")))]
#[post("/user/payment/capture", data = "<input>")]
pub async fn capture(
    api: Api<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    input: Body<'_, CaptureInput>,
) -> Result<Json<PaymentView>> {
    let input = body(input)?;
    let outbox = Outbox { mailer, queue };
    let paid = payments::capture(api.db, outbox, providers, current.user.id, input, api.now).await?;
    let view = PaymentView::load(api.db, vec![paid], api.lang).await?.pop().ok_or_else(Error::not_found)?;
    Ok(Json(view))
}

/// The `Stripe-Signature` header, if any.
pub struct StripeSignature(Option<String>);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for StripeSignature {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        Outcome::Success(Self(req.headers().get_one("Stripe-Signature").map(str::to_string)))
    }
}

/// What the webhook answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookAnswer {
    /// `processed`, `duplicate` (a replay) or `ignored`.
    pub outcome: WebhookOutcome,
}

/// Stripe's webhook endpoint (register `payment_intent.succeeded` and `payment_intent.canceled`):
/// verified by `Stripe-Signature` (HMAC-SHA256 over the raw body, 300 s tolerance, any of the
/// configured secrets), each event applied once — to an application's attempt, or to a store
/// order (`crate::store::card::on_webhook`). 404 when no webhook secret is configured.
#[utoipa::path(post, path = "/api/v1/payment/stripe/webhook", tag = "payments",
    request_body(content = String, content_type = "application/json", description = "a Stripe event"),
    responses((status = 200, body = WebhookAnswer),
              (status = 400, body = crate::error::ErrorBody, description = "invalid_signature, bad_request"),
              (status = 404, body = crate::error::ErrorBody)))]
#[post("/payment/stripe/webhook", data = "<payload>")]
pub async fn stripe_webhook(
    api: Api<'_>,
    clock: &State<Clock>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    providers: &State<Providers>,
    signature: StripeSignature,
    payload: Data<'_>,
) -> Result<Json<WebhookAnswer>> {
    let bytes =
        payload.open(256.kibibytes()).into_bytes().await.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if !bytes.is_complete() {
        return Err(Error::TooLarge);
    }
    let config = &api.site.config;
    let outcome = payments::stripe_webhook(
        api.db,
        Outbox { mailer, queue },
        config,
        payments::webhooks::Signed { payload: &bytes.into_inner(), signature: signature.0.as_deref() },
        clock.real_now(),
        api.now,
        async |intent, kind| crate::store::card::on_webhook(api.db, providers, intent, kind, api.now).await,
    )
    .await?;
    Ok(Json(WebhookAnswer { outcome }))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(list, show, pre_order, capture, stripe_webhook))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list, show, pre_order, capture, stripe_webhook]
}
