//! The redirect providers' API (spec §7 "Payments (no retry)", issue 13): PayPal for its
//! JavaScript buttons (`POST /api/v1/user/payment/paypal/create_order_id`,
//! `POST /api/v1/user/payment/paypal/capture`), the payment-token redirect
//! (`POST /api/v1/user/payment/redirect` → `{redirect_url}`: the provider's page, whose return is
//! the public `/checkout`), PayPal's webhook (`POST /api/v1/payment/paypal/webhook`) and GMO's
//! result notification (`POST /api/v1/payment/gmo/notification`). Clients must not retry these
//! calls. Rules and codes: [`crate::payments::checkout`].

use rocket::data::{Data, ToByteUnit};
use rocket::http::ContentType;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::{Route, State, post, routes};

use crate::api::Api;
use crate::api::v1::payments::WebhookAnswer;
use crate::api::v1::{Body, body};
use crate::auth::guards::CurrentUser;
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::mail::Mailer;
use crate::model::payment_history::PaymentView;
use crate::payments::paypal::Transmission;
use crate::payments::requests::{PayPalCaptureInput, PayPalOrderInput, RedirectInput, RedirectTo};
use crate::payments::{Outbox, PreOrder, Providers};
use crate::payments::{checkout, paypal_buttons, webhooks};
use crate::queue::Queue;

/// Reads a provider's raw body (at most 256 KiB).
async fn raw(payload: Data<'_>) -> Result<Vec<u8>> {
    let bytes =
        payload.open(256.kibibytes()).into_bytes().await.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    if !bytes.is_complete() {
        return Err(Error::TooLarge);
    }
    Ok(bytes.into_inner())
}

/// Opens (or reuses) the PayPal order of a won application for the PayPal JavaScript buttons:
/// `order_id` is PayPal's order id (`createOrder` returns it), `transaction_uuid` the attempt.
/// A double click or a second tab gets the same order. Do not retry automatically.
#[utoipa::path(post, path = "/api/v1/user/payment/paypal/create_order_id", tag = "payments", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = PayPalOrderInput,
    responses((status = 200, body = PreOrder), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "someone else's or no application"),
              (status = 409, body = crate::error::ErrorBody, description = "already_paid, payment_closed"),
              (status = 422, body = crate::error::ErrorBody, description = "PayPal is not offered"),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable, provider_refused")))]
#[post("/user/payment/paypal/create_order_id", data = "<input>")]
pub async fn paypal_create_order_id(
    api: Api<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    input: Body<'_, PayPalOrderInput>,
) -> Result<Json<PreOrder>> {
    let input = body(input)?;
    Ok(Json(paypal_buttons::paypal_create_order(api.db, providers, current.user.id, input, api.lang, api.now).await?))
}

/// Captures the PayPal order the payer approved in the PayPal buttons (by `order_id`, or the
/// attempt's `transaction_uuid`) and settles it; a settled one answers its payment again, and
/// concurrent captures charge once (`PayPal-Request-Id`). Do not retry: an unknown outcome
/// answers 502 `payment_pending` and the server asks PayPal itself.
#[utoipa::path(post, path = "/api/v1/user/payment/paypal/capture", tag = "payments", security(("bearer" = [])),
    params(("lang" = Option<String>, Query)),
    request_body = PayPalCaptureInput,
    responses((status = 200, body = PaymentView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "someone else's or no order"),
              (status = 409, body = crate::error::ErrorBody,
               description = "already_paid, payment_closed, order_closed, payment_not_completed (not approved yet), payment_processing"),
              (status = 422, body = crate::error::ErrorBody, description = "payment_declined: approve again at PayPal"),
              (status = 502, body = crate::error::ErrorBody, description = "payment_pending: reconciled on the server")))]
#[post("/user/payment/paypal/capture", data = "<input>")]
pub async fn paypal_capture(
    api: Api<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    input: Body<'_, PayPalCaptureInput>,
) -> Result<Json<PaymentView>> {
    let input = body(input)?;
    let paid =
        paypal_buttons::paypal_capture(api.db, Outbox { mailer, queue }, providers, current.user.id, input, api.now)
            .await?;
    let view = PaymentView::load(api.db, vec![paid], api.lang).await?.pop().ok_or_else(Error::not_found)?;
    Ok(Json(view))
}

/// The payment-token redirect: opens (or reuses) the attempt to pay a won application through a
/// redirect provider (`paypal`, `smbc_gmo`) and answers where to send the browser — the
/// provider's page (only ever on a configured provider origin), or `/checkout` when the provider
/// already has the payment. The provider sends the payer back to
/// `/checkout?transaction=<transaction_uuid>` (in the `lang` of this call), which finishes the
/// payment. Do not retry automatically.
#[utoipa::path(post, path = "/api/v1/user/payment/redirect", tag = "payments", security(("bearer" = [])),
    params(("lang" = Option<String>, Query, description = "the language of the return page")),
    request_body = RedirectInput,
    responses((status = 200, body = RedirectTo), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody, description = "csrf_failed"),
              (status = 404, body = crate::error::ErrorBody, description = "someone else's or no application"),
              (status = 409, body = crate::error::ErrorBody, description = "already_paid, payment_closed"),
              (status = 422, body = crate::error::ErrorBody, description = "not an offered redirect provider"),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable, provider_refused")))]
#[post("/user/payment/redirect", data = "<input>")]
pub async fn redirect(
    api: Api<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    input: Body<'_, RedirectInput>,
) -> Result<Json<RedirectTo>> {
    let input = body(input)?;
    Ok(Json(checkout::redirect_to(api.db, providers, current.user.id, input, api.lang, api.now).await?))
}

/// The `PAYPAL-*` headers of a webhook delivery, when all are there.
pub struct PayPalHeaders(Option<Transmission>);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for PayPalHeaders {
    type Error = ();

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        let h = |name: &str| req.headers().get_one(name).map(str::to_string).filter(|v| !v.is_empty());
        let transmission = (|| {
            Some(Transmission {
                id: h("PAYPAL-TRANSMISSION-ID")?,
                time: h("PAYPAL-TRANSMISSION-TIME")?,
                sig: h("PAYPAL-TRANSMISSION-SIG")?,
                cert_url: h("PAYPAL-CERT-URL")?,
                auth_algo: h("PAYPAL-AUTH-ALGO")?,
            })
        })();
        Outcome::Success(Self(transmission))
    }
}

/// PayPal's webhook endpoint (subscribe `CHECKOUT.ORDER.APPROVED`, `PAYMENT.CAPTURE.COMPLETED`,
/// `PAYMENT.CAPTURE.DENIED`): each delivery is verified with PayPal
/// (`/v1/notifications/verify-webhook-signature`, the configured webhook id) and refused when its
/// transmission time is more than 300 s away; each event is applied once, by asking PayPal about
/// the order it names (an approved order is captured). 404 when no webhook id is configured.
#[utoipa::path(post, path = "/api/v1/payment/paypal/webhook", tag = "payments",
    request_body(content = String, content_type = "application/json", description = "a PayPal webhook event"),
    responses((status = 200, body = WebhookAnswer),
              (status = 400, body = crate::error::ErrorBody, description = "invalid_signature, bad_request"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable: PayPal delivers it again")))]
#[post("/payment/paypal/webhook", data = "<payload>")]
pub async fn paypal_webhook(
    api: Api<'_>,
    clock: &State<Clock>,
    providers: &State<Providers>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    headers: PayPalHeaders,
    payload: Data<'_>,
) -> Result<Json<WebhookAnswer>> {
    let bytes = raw(payload).await?;
    let outcome = webhooks::paypal_webhook(
        api.db,
        Outbox { mailer, queue },
        providers,
        headers.0,
        &bytes,
        clock.real_now(),
        api.now,
    )
    .await?;
    Ok(Json(WebhookAnswer { outcome }))
}

/// GMO Payment Gateway's result notification (結果通知プログラム; register this URL in GMO's
/// console): a form for one of our trades. It carries no signature, so nothing in it is believed:
/// the trade is asked with `SearchTrade` and settled from GMO's answer (an application's attempt,
/// or a store order: `crate::store::gmo::on_notification`). Answers `0` (GMO's "done")
/// when handled — processed, a replay, or of no concern; an error (GMO sends it again later) when
/// GMO could not be asked.
#[utoipa::path(post, path = "/api/v1/payment/gmo/notification", tag = "payments",
    request_body(content = String, content_type = "application/x-www-form-urlencoded",
                 description = "ShopID, OrderID, Status, JobCd, Amount, TranID, PayType, …"),
    responses((status = 200, body = String, content_type = "text/plain", description = "0"),
              (status = 400, body = crate::error::ErrorBody, description = "invalid_signature (another shop), bad_request"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody, description = "provider_unavailable: GMO sends it again")))]
#[post("/payment/gmo/notification", data = "<payload>")]
pub async fn gmo_notification(
    api: Api<'_>,
    providers: &State<Providers>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    payload: Data<'_>,
) -> Result<(ContentType, &'static str)> {
    let bytes = raw(payload).await?;
    let outcome =
        webhooks::gmo_notification(api.db, Outbox { mailer, queue }, providers, &bytes, api.now, async |order_id| {
            crate::store::gmo::on_notification(api.db, providers, order_id, api.now).await
        })
        .await?;
    tracing::info!(?outcome, "gmo notification handled");
    Ok((ContentType::Plain, "0"))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(paypal_create_order_id, paypal_capture, redirect, paypal_webhook, gmo_notification))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![paypal_create_order_id, paypal_capture, redirect, paypal_webhook, gmo_notification]
}
