//! The redirect providers' pages (issue 13, spec §2 `/checkout`):
//!
//! - `POST /payment/redirect` (`application_id`, `payment_type`, `csrf_token`; the form of
//!   `/payment/confirm`): opens or reuses the attempt and sends the browser (303) to the
//!   provider's page — only on a configured provider origin, through
//!   [`crate::http::redirect::to_provider`] — or to `/checkout` when the provider already has the
//!   payment. A refusal (window closed, provider down) is a page saying why, in the visitor's
//!   language, with the way back.
//! - `GET /checkout?transaction=` is where PayPal and GMO send the payer back (PayPal adds
//!   `token` and `PayerID`; a cancel adds `cancel=1`; a `token` that is not the attempt's stored
//!   PayPal order is the 404 page, and nothing is asked or captured). It works without the sign-in cookie and
//!   finishes the payment by asking the provider server to server (a PayPal order is captured
//!   once approved), idempotently: reloads and double returns settle once. It shows the outcome
//!   and, once paid, the link to `/payment/complete?transaction=`; what was paid for is shown to
//!   the payer only — anyone else holding the link learns the outcome and nothing more.
//! - `POST /checkout` takes a provider's cross-site POST back (GMO posts `result`): nothing in
//!   it is believed; it answers 303 to the `GET` above, whose top-level navigation carries the
//!   payer's (SameSite=Lax) cookies again.

use crate::http::template::Template;
use crate::model::payment_history::PaymentView;
use rocket::data::{Data, ToByteUnit};
use rocket::form::{Form, Lenient};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, FromForm, Route, State, get, post, routes};
use serde_json::{Value, json};

use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::http::redirect;
use crate::mail::Mailer;
use crate::model::payment::{OrderState, PaymentType};
use crate::payments::checkout::{self, Next, Outcome};
use crate::payments::{Outbox, Providers};
use crate::queue::Queue;
use crate::types::TransactionUuid;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::payment_history::grouped;

/// A page answer: the page with its status, or a redirect.
type Answer = Either<(Status, Template), Redirect>;

/// The form of `/payment/confirm` for a redirect provider.
#[derive(FromForm)]
pub struct RedirectForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The won application.
    pub application_id: Option<String>,
    /// `paypal` or `smbc_gmo`.
    pub payment_type: Option<String>,
}

/// The label of `payment_type` on a page, "(demo)" added for the demo's fakes.
pub fn provider_label(p: &Page<'_>, providers: &Providers, payment_type: PaymentType) -> String {
    let label = p.t(&format!("payments.provider.{}", payment_type.as_str()));
    if providers.is_demo() { p.site.messages.tf(p.lang, "payments.demo.label", &[("provider", &label)]) } else { label }
}

/// `/payment?application_id=` (payflow's page) in the page's language.
fn payment_page(p: &Page<'_>, application_id: i32) -> String {
    p.href(&format!("/payment?application_id={application_id}"))
}

/// The refusal page of `POST /payment/redirect` for `error`, or the error page itself.
fn refused(p: &Page<'_>, application_id: i32, error: Error) -> Result<Answer> {
    let status = match &error {
        Error::Validation(_) => Status::UnprocessableEntity,
        Error::Conflict { .. } => Status::Conflict,
        Error::BadGateway { .. } => Status::BadGateway,
        _ => return Err(error),
    };
    let message = match &error {
        Error::Validation(found) => found
            .first()
            .map(|i| i.message(&p.site.messages, p.lang))
            .unwrap_or_else(|| p.t("errors.validation_failed")),
        other => p.t(&format!("errors.{}", other.code())),
    };
    let ctx = json!({
        "outcome": "refused",
        "heading": p.t("payments.checkout.refused.title"),
        "lead": message,
        "retry_href": payment_page(p, application_id),
    });
    Ok(Either::Left((status, p.render("checkout/index", &p.t("payments.checkout.refused.title"), ctx))))
}

/// Sends the payer to the provider (see the module docs).
#[post("/payment/redirect", data = "<form>")]
pub async fn start(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    providers: &State<Providers>,
    form: Form<Lenient<RedirectForm>>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let application_id = form
        .application_id
        .as_deref()
        .and_then(|raw| crate::types::Id::parse(raw.trim()).ok())
        .map(|id| id.0)
        .ok_or_else(Error::not_found)?;
    let payment_type = form
        .payment_type
        .as_deref()
        .and_then(|raw| serde_json::from_value::<PaymentType>(Value::String(raw.trim().to_string())).ok());
    let Some(payment_type) = payment_type else {
        return refused(&p, application_id, Error::invalid("payment_type", "payments.validation.provider_unavailable"));
    };
    match checkout::open(p.db, providers, user.id, application_id, payment_type, p.lang, p.now).await {
        Ok((_, Next::Provider(url))) => Ok(Either::Right(redirect::to_provider(&url, &providers.redirect_origins()))),
        Ok((found, Next::Checkout)) => {
            Ok(Either::Right(redirect::to_site(&p.href(&format!("/checkout?transaction={}", found.transaction_uuid)))))
        }
        Err(e) => refused(&p, application_id, e),
    }
}

/// The outcome key (`payments.checkout.<key>.*`) of a finished attempt.
fn outcome_key(outcome: &Outcome, cancelled: bool, declined: bool) -> &'static str {
    match outcome {
        Outcome::Paid(_) => "paid",
        Outcome::Processing => "processing",
        Outcome::Unknown => "unknown",
        Outcome::Declined => "declined",
        Outcome::Closed => "closed",
        Outcome::NotPaid("payment_closed") => "window_closed",
        Outcome::NotPaid(_) if cancelled => "cancelled",
        Outcome::NotPaid(_) if declined => "declined",
        Outcome::NotPaid(_) => "not_paid",
    }
}

/// Where a provider sends the payer back (see the module docs).
#[expect(clippy::too_many_arguments, reason = "a Rocket handler: its guards and query fields")]
#[get("/checkout?<transaction>&<token>&<cancel>&<declined>")]
pub async fn back(
    p: Page<'_>,
    providers: &State<Providers>,
    queue: &State<Queue>,
    mailer: &State<Mailer>,
    transaction: Option<TransactionUuid>,
    token: Option<&str>,
    cancel: Option<&str>,
    declined: Option<&str>,
) -> Result<Template> {
    let transaction = transaction.ok_or_else(Error::not_found)?;
    let (found, _) =
        checkout::returning(p.db, providers, Some(&transaction), None).await?.ok_or_else(Error::not_found)?;
    if !Providers::is_redirect(found.provider) || !binds(&found, token) {
        return Err(Error::not_found());
    }
    let outcome = checkout::finish(p.db, Outbox { mailer, queue }, providers, &found, p.now).await?;
    render(&p, providers, &found, &outcome, cancel.is_some(), declined.is_some()).await
}

/// Whether PayPal's `token` (its order id, which it adds to both return URLs) names the order
/// stored for attempt `found`. A return naming another order (a link tampered with or mixed up)
/// is not PayPal's return for this attempt: it is answered 404 before anyone asks PayPal, so it
/// captures nothing. Without a token (our own link, once PayPal already has the approval) only
/// the attempt's own stored order is ever captured; other providers send no token.
fn binds(found: &order::Model, token: Option<&str>) -> bool {
    match token {
        Some(token) if found.provider == PaymentType::Paypal => found.provider_order_id.as_deref() == Some(token),
        _ => true,
    }
}

/// A provider's POST back: on to the `GET` (see the module docs).
#[post("/checkout?<transaction>", data = "<payload>")]
pub async fn posted_back(
    p: Page<'_>,
    providers: &State<Providers>,
    transaction: Option<&str>,
    payload: Data<'_>,
) -> Result<Redirect> {
    let bytes =
        payload.open(64.kibibytes()).into_bytes().await.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let transaction = transaction.map(|raw| TransactionUuid::parse(raw).map_err(|_| Error::not_found())).transpose()?;
    let pairs = crate::payments::gmo::parse_pairs(&bytes.into_inner());
    let result = crate::payments::gmo::field(&pairs, "result");
    let (found, said) =
        checkout::returning(p.db, providers, transaction.as_ref(), result).await?.ok_or_else(Error::not_found)?;
    let declined = if said.as_deref() == Some("ERROR") { "&declined=1" } else { "" };
    Ok(redirect::to_site(&p.href(&format!("/checkout?transaction={}{declined}", found.transaction_uuid))))
}

async fn render(
    p: &Page<'_>,
    providers: &Providers,
    found: &order::Model,
    outcome: &Outcome,
    cancelled: bool,
    declined: bool,
) -> Result<Template> {
    let key = outcome_key(outcome, cancelled, declined);
    let is_payer = p.user.as_ref().is_some_and(|u| u.id == found.user_id);
    let mut ctx = json!({
        "outcome": key,
        "heading": p.t(&format!("payments.checkout.{key}.title")),
        "lead": p.t(&format!("payments.checkout.{key}.lead")),
        "provider_label": provider_label(p, providers, found.provider),
        "demo": providers.is_demo(),
        "reload_href": p.href(&format!("/checkout?transaction={}", found.transaction_uuid)),
        "history_href": p.href("/mypage/payment_history"),
    });
    if let Outcome::Paid(paid) = outcome {
        ctx["complete_href"] = json!(p.href(&format!("/payment/complete?transaction={}", paid.transaction_uuid)));
    }
    if is_payer {
        ctx["amount_label"] =
            json!(p.site.messages.tf(p.lang, "payments.amount", &[("amount", &grouped(found.amount))]));
        let paid_view = match outcome {
            Outcome::Paid(paid) => PaymentView::load(p.db, vec![paid.clone()], p.lang).await?.pop(),
            _ => None,
        };
        if let Some(view) = paid_view {
            ctx["event_name"] = json!(view.event_name);
            ctx["plan_name"] = json!(view.plan_name);
        }
        let may_retry = !matches!(outcome, Outcome::Paid(_)) && found.state != OrderState::Captured;
        let already_paid = payment_history::Model::of_order(p.db, found.id).await?.is_some();
        if may_retry && !already_paid {
            ctx["retry_href"] = json!(payment_page(p, found.application_id));
        }
    }
    Ok(p.render("checkout/index", &p.t(&format!("payments.checkout.{key}.title")), ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![start, back, posted_back]
}
