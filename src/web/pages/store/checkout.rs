//! Paying for a priced store item by card or through PayPal (issue 31): the item page's card
//! button posts `/store/items/{uuid}/checkout`, which opens (or finds) the buyer's order at the
//! price in force and sends them to `/store/orders/{uuid}`; its PayPal button posts
//! `/store/items/{uuid}/paypal`, which opens the order and sends them to PayPal to approve it,
//! and PayPal sends them back to the same order page, which takes the payment. That page shows the amount the order holds
//! and until when, and the `stripe-card` island in its store mode (the page's
//! Content-Security-Policy allows Stripe.js, as the application payment page does); the island
//! pays the order through `/api/v1/store/…` and comes back to the same page, which then tells
//! how the order ended — paid (with the way to the download), still being confirmed (the page
//! asks Stripe itself), expired or closed (with the way back to the item). The buyer's alone:
//! anyone else gets the 404 page.

use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use sea_orm::EntityTrait;
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item;
use crate::db::entities::store_order::PaymentType;
use crate::db::entities::store_order::StoreOrderState;
use crate::error::{Error, Result};
use crate::model::lottery_mails::yen;
use crate::payments::Providers;
use crate::store::checkout as store_checkout;
use crate::store::model::order::of_buyer;
use crate::web::headers::SecurityHeaders;
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_views::fee_text;
use crate::web::pages::payment::PaymentPage;
use crate::web::pages::store::public::REFUSALS;

/// The checkout button's form: only the CSRF field.
#[derive(rocket::FromForm)]
pub struct CheckoutForm {
    csrf_token: Option<String>,
}

/// Opens the buyer's card order for the item and goes to it; a refusal goes back to the item
/// page, which explains it.
#[post("/store/items/<uuid>/checkout", data = "<form>")]
pub async fn checkout(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    providers: &State<Providers>,
    uuid: &str,
    form: Form<CheckoutForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let to = match store_checkout::open_card(p.db, providers, user.id, uuid, p.now).await {
        Ok(opened) => format!("/store/orders/{}", opened.order.uuid),
        Err(e) => refused(uuid, e)?,
    };
    Ok(crate::http::redirect::to_site(&p.href(&to)))
}

/// The item page's answer to a checkout that could not start (the page explains `code`); any
/// other error stays an error.
fn refused(uuid: &str, error: Error) -> Result<String> {
    match error {
        Error::Conflict { code } if REFUSALS.contains(&code) => Ok(format!("/store/items/{uuid}?error={code}")),
        Error::BadGateway { .. } | Error::Validation(_) => {
            Ok(format!("/store/items/{uuid}?error=provider_unavailable"))
        }
        other => Err(other),
    }
}

/// Opens the buyer's PayPal order for the item (or answers the open one) and sends them to
/// PayPal to approve it; they come back to the order's page.
#[post("/store/items/<uuid>/paypal", data = "<form>")]
pub async fn paypal(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    providers: &State<Providers>,
    uuid: &str,
    form: Form<CheckoutForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    match store_checkout::open_paypal(p.db, providers, user.id, uuid, p.lang, p.now).await {
        Ok((_, approve)) => Ok(crate::http::redirect::to_provider(&approve, &providers.redirect_origins())),
        Err(e) => Ok(crate::http::redirect::to_site(&p.href(&refused(uuid, e)?))),
    }
}

/// The buyer's order: pay it, or how it ended. Back from PayPal (`cancelled` when the payer
/// turned back there), the look at PayPal takes the approved payment.
#[get("/store/orders/<uuid>?<cancelled>")]
pub async fn order(
    p: Page<'_>,
    current: CurrentUser,
    providers: &State<Providers>,
    headers: &State<SecurityHeaders>,
    uuid: &str,
    cancelled: Option<&str>,
) -> Result<PaymentPage> {
    let buyer = current.user.id;
    let mut found = of_buyer(p.db, buyer, uuid).await?;
    let mut declined = false;
    if found.state == StoreOrderState::Pending && found.provider_order_id.is_some() {
        // Back from PayPal, paid in another tab, or an answer the browser lost: the provider
        // tells (a card is never charged here; an approved PayPal payment is taken once).
        declined = matches!(
            store_checkout::check(p.db, providers, buyer, &found, p.now).await,
            Err(Error::Refused { code: "payment_declined" })
        );
        found = of_buyer(p.db, buyer, uuid).await?;
    }
    let item = store_item::Entity::find_by_id(found.item_id).one(p.db).await?.ok_or_else(Error::not_found)?;
    let item_href = p.href(&format!("/store/items/{}", item.uuid));
    let open = found.state == StoreOrderState::Pending && found.expires_at > p.now;
    let state = match found.state {
        StoreOrderState::Pending if open => "open",
        StoreOrderState::Pending => "expired",
        StoreOrderState::Captured => "paid",
        StoreOrderState::Failed if found.closed_reason.as_deref() == Some("expired") => "expired",
        StoreOrderState::Failed => "closed",
        StoreOrderState::Duplicate => "duplicate",
    };
    let mut csp = None;
    let by_paypal = found.provider == PaymentType::Paypal;
    let stripe = match &providers.stripe {
        Some(stripe) if open && !by_paypal => {
            let origins = stripe.browser_origins();
            csp = Some(headers.csp_with_stripe(&origins.js, origins.api.as_deref()));
            let props = json!({
                "lang": p.lang.code(),
                "storeItem": item.uuid,
                "storeOrder": found.uuid,
                "publishableKey": stripe.publishable_key(),
                "completePath": p.href(&format!("/store/orders/{}", found.uuid)),
                "payPath": item_href,
                "amountLabel": fee_text(&p, found.amount),
            });
            Some(json!({ "js_url": stripe.js_url().as_str(), "island_props": props.to_string() }))
        }
        _ => None,
    };
    let ctx = json!({
        "state": state,
        "item": p.lang.pick(&item.name, &item.name_en),
        "item_href": item_href,
        "amount": yen(found.amount),
        "expires_at": found.expires_at,
        "stripe": stripe,
        "paypal": (open && by_paypal && providers.paypal.is_some())
            .then(|| p.href(&format!("/store/items/{}/paypal", item.uuid))),
        "paypal_note": if declined {
            Some(p.t("store.order.paypal_declined"))
        } else {
            (open && by_paypal && cancelled.is_some()).then(|| p.t("store.order.paypal_cancelled"))
        },
        "purchases_href": p.href("/mypage/purchases"),
    });
    let template = p.render("store/order", &p.t("store.order.title"), ctx);
    Ok(PaymentPage::new(template, csp))
}

/// The routes (never cached: a buyer's own).
pub fn routes() -> Vec<Route> {
    routes![checkout, paypal, order]
}
