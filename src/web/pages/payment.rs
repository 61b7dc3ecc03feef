//! The payer's pages (spec §2 mypage routes `/payment?application_id=`,
//! `/payment/confirm?application_id=&payment_type=`, `/payment/complete?transaction=`; issue 13,
//! DOMAIN.md "Payments"). Signed in, owner of the application's circle only: anyone else gets
//! the 404 page, as does a malformed parameter (spec §2 "Parameter rules").
//!
//! - `/payment` shows what is paid for — event, circle, world, plan, category, the fee at the
//!   draw in yen and the deadline in Japan time — and the providers of
//!   [`Providers::available`] to pick from (a GET form: no JavaScript needed). Outside the window,
//!   already paid, or nothing to pay: it says so, with the receipt's link when paid.
//! - `/payment/confirm` repeats the summary for the chosen provider. Stripe confirms in the page:
//!   the `stripe-card` island loads Stripe.js from `stripe_js_url` (the page's
//!   Content-Security-Policy allows that origin, and only this page's), opens the attempt
//!   (`pre_order`), tokenizes the card and captures it (`capture`), handling 3-D Secure with
//!   Stripe.js; it never repeats a payment call. Redirect providers (PayPal, GMO) get a no-JS
//!   form `POST /payment/redirect` (`application_id`, `payment_type`, `csrf_token`), which sends
//!   the browser to the provider.
//! - `/payment/complete?transaction=` tells how attempt `transaction` (a UUID of the viewer's)
//!   ended: paid (with the receipt's link), still being confirmed with the provider, refused,
//!   or money taken twice (to be refunded).

use crate::http::template::Template;
use rocket::http::Header;
use rocket::request::Request;
use rocket::response::{self, Responder};
use rocket::{Route, State, get, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{order, payment_history};
use crate::error::{Error, Result};
use crate::model::payment::{Checkout, OrderState, PayState, PaymentType};
use crate::payments::Providers;
use crate::types::{Id, TransactionUuid};
use crate::web::headers::SecurityHeaders;
use crate::web::page::Page;
use crate::web::pages::checkout::provider_label;
use crate::web::pages::entry_views::{fee_text, history_path};
use crate::web::pages::mypage_nav::nav;

/// Every payment type, for reading `payment_type` (spec §3 "Payment history").
const PAYMENT_TYPES: [PaymentType; 3] = [PaymentType::Paypal, PaymentType::Stripe, PaymentType::SmbcGmo];

/// A page with its own Content-Security-Policy (the card page, which runs Stripe.js), or the
/// site's policy (set by [`SecurityHeaders`] when none is given).
pub struct PaymentPage {
    template: Template,
    csp: Option<String>,
}

impl PaymentPage {
    /// `template` with its own policy `csp` (or the site's, with none).
    pub fn new(template: Template, csp: Option<String>) -> Self {
        Self { template, csp }
    }
}

impl<'r> Responder<'r, 'static> for PaymentPage {
    fn respond_to(self, req: &'r Request<'_>) -> response::Result<'static> {
        let mut res = self.template.respond_to(req)?;
        if let Some(csp) = self.csp {
            res.set_header(Header::new("Content-Security-Policy", csp));
        }
        Ok(res)
    }
}

/// `application_id`: a positive integer, else the 404 page.
fn application_id(raw: Option<&str>) -> Result<i32> {
    raw.and_then(|r| Id::parse(r).ok()).map(|id| id.0).ok_or(Error::NotFound { code: "invalid_parameter" })
}

/// `payment_type`: one of the providers offered, else the 404 page.
fn offered(raw: Option<&str>, providers: &Providers) -> Result<PaymentType> {
    PAYMENT_TYPES
        .into_iter()
        .find(|t| Some(t.as_str()) == raw)
        .filter(|t| providers.available().contains(t))
        .ok_or(Error::NotFound { code: "invalid_parameter" })
}

/// The `/payment` address of application `id` in the page's language.
fn pay_href(p: &Page<'_>, id: i32) -> String {
    format!("{}?application_id={id}", p.href("/payment"))
}

/// What is paid for and where it stands, for the templates.
fn summary(p: &Page<'_>, c: &Checkout) -> Value {
    let lang = p.lang;
    let status = serde_json::to_value(c.status).unwrap_or_default();
    let status = status.as_str().unwrap_or_default().to_string();
    let (state, deadline, opens, receipt_href, late) = match &c.state {
        PayState::Open { deadline } => ("open", Some(deadline.to_rfc3339()), None, None, false),
        PayState::NotYet { opens } => ("not_yet", None, Some(opens.to_rfc3339()), None, false),
        PayState::Paid { transaction_uuid, late } => {
            let href = transaction_uuid.as_ref().map(|u| p.href(&format!("/mypage/payment_history/{u}")));
            ("paid", None, None, href, *late)
        }
        PayState::Closed => ("closed", None, None, None, false),
    };
    json!({
        "application_id": c.application.id,
        "event_name": lang.pick(&c.event.event.name_ja, &c.event.event.name_en),
        "circle_name": c.circle.name(lang),
        "plan_name": lang.pick(&c.plan.name_ja, &c.plan.name_en),
        "category_label": p.t(&format!("entries.category.{}", c.plan.exhibition_category.as_str())),
        "world_name": c.world.as_ref().map(|w| lang.pick(&w.name_ja, &w.name_en)),
        "amount_label": fee_text(p, c.amount),
        "status": status,
        "status_label": p.t(&format!("entries.status.{status}")),
        "state": state,
        "deadline": deadline,
        "opens": opens,
        "late": late,
        "receipt_href": receipt_href,
        "history_href": p.href(&history_path(&c.event.event.permalink)),
        "pay_href": pay_href(p, c.application.id),
    })
}

/// The providers to choose from, in display order, the first one picked.
fn choices(p: &Page<'_>, providers: &Providers) -> Vec<Value> {
    providers
        .available()
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            json!({
                "value": t.as_str(),
                "label": provider_label(p, providers, t),
                "note": p.t(&format!("payments.pay.via.{}", t.as_str())),
                "checked": i == 0,
            })
        })
        .collect()
}

/// What is paid for, and the providers to pay with.
#[get("/payment?<application_id>")]
pub async fn pay(
    p: Page<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    application_id: Option<&str>,
) -> Result<Template> {
    let id = self::application_id(application_id)?;
    let c = Checkout::load(p.db, id, current.user.id, p.now).await?;
    let ctx = json!({
        "nav": nav(&p),
        "summary": summary(&p, &c),
        "providers": choices(&p, providers),
        "confirm_action": p.href("/payment/confirm"),
    });
    Ok(p.render("mypage/payments/pay", &p.t("payments.pay.title"), ctx))
}

/// The chosen provider's confirmation: Stripe's card form, or the form that goes to the provider.
#[get("/payment/confirm?<application_id>&<payment_type>")]
pub async fn confirm(
    p: Page<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    headers: &State<SecurityHeaders>,
    application_id: Option<&str>,
    payment_type: Option<&str>,
) -> Result<PaymentPage> {
    let id = self::application_id(application_id)?;
    let payment_type = offered(payment_type, providers)?;
    let c = Checkout::load(p.db, id, current.user.id, p.now).await?;
    let open = matches!(c.state, PayState::Open { .. });
    let mut csp = None;
    let stripe = match (&providers.stripe, payment_type) {
        (Some(stripe), PaymentType::Stripe) if open => {
            let origins = stripe.browser_origins();
            csp = Some(headers.csp_with_stripe(&origins.js, origins.api.as_deref()));
            let props = json!({
                "lang": p.lang.code(),
                "applicationId": id,
                "publishableKey": stripe.publishable_key(),
                "completePath": p.href("/payment/complete"),
                "payPath": pay_href(&p, id),
                "amountLabel": fee_text(&p, c.amount),
            });
            Some(json!({ "js_url": stripe.js_url().as_str(), "island_props": props.to_string() }))
        }
        _ => None,
    };
    let ctx = json!({
        "nav": nav(&p),
        "summary": summary(&p, &c),
        "payment_type": payment_type.as_str(),
        "provider_label": provider_label(&p, providers, payment_type),
        "stripe": stripe,
        "redirect_action": p.href("/payment/redirect"),
        "change_href": pay_href(&p, id),
    });
    let template = p.render("mypage/payments/confirm", &p.t("payments.confirm.title"), ctx);
    Ok(PaymentPage { template, csp })
}

/// How attempt `transaction` ended.
#[get("/payment/complete?<transaction>")]
pub async fn complete(
    p: Page<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    transaction: Option<TransactionUuid>,
) -> Result<Template> {
    let transaction = transaction.ok_or(Error::NotFound { code: "invalid_parameter" })?;
    let attempt = order::Model::of_user(p.db, &transaction, current.user.id).await?;
    let c = Checkout::load(p.db, attempt.application_id, current.user.id, p.now).await?;
    let paid = payment_history::Model::of_order(p.db, attempt.id).await?;
    let outcome = match (&paid, attempt.state) {
        (Some(paid), _) if paid.is_late => "late",
        (Some(_), _) => "paid",
        (None, OrderState::Pending) => "pending",
        (None, OrderState::Failed)
            if attempt.failure.as_deref() == Some(crate::model::settlement::DUPLICATE_PAYMENT) =>
        {
            "duplicate"
        }
        (None, OrderState::Failed)
            if attempt.failure.as_deref() == Some(crate::model::settlement::CIRCLE_SUSPENDED) =>
        {
            "suspended"
        }
        (None, OrderState::Expired) => "expired",
        (None, _) => "failed",
    };
    let receipt_href = paid.as_ref().map(|pay| p.href(&format!("/mypage/payment_history/{}", pay.transaction_uuid)));
    let s = summary(&p, &c);
    let other_receipt = if outcome == "duplicate" { s["receipt_href"].clone() } else { Value::Null };
    let ctx = json!({
        "nav": nav(&p),
        "summary": s,
        "outcome": outcome,
        "transaction": attempt.transaction_uuid,
        "provider_label": provider_label(&p, providers, attempt.provider),
        "amount_label": fee_text(&p, attempt.amount),
        "paid_at": paid.as_ref().map(|pay| pay.paid_at.to_rfc3339()),
        "receipt_href": receipt_href,
        "other_receipt_href": other_receipt,
        "reload_href": format!("{}?transaction={}", p.href("/payment/complete"), attempt.transaction_uuid),
        "payment_history_href": p.href("/mypage/payment_history"),
    });
    let title = p.t(&format!("payments.complete.title_{outcome}"));
    Ok(p.render("mypage/payments/complete", &title, ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![pay, confirm, complete]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_checked() {
        assert_eq!(application_id(Some("12")).unwrap(), 12);
        for bad in [None, Some(""), Some("0"), Some("-3"), Some("x"), Some("1.5"), Some("99999999999")] {
            assert!(application_id(bad).is_err(), "{bad:?}");
        }
        let none = Providers::default();
        for raw in [None, Some("stripe"), Some("paypal"), Some("STRIPE"), Some("cash")] {
            assert!(offered(raw, &none).is_err(), "{raw:?} is not offered without keys");
        }
    }
}
