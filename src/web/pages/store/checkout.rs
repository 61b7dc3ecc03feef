//! Paying for a priced store item by card, through PayPal or on GMO's payment page (issue 31):
//! the item page's card button posts `/store/items/{uuid}/checkout`, which opens (or finds) the
//! buyer's order at the price in force and sends them to `/store/orders/{uuid}`; its PayPal and
//! GMO buttons post `/store/items/{uuid}/paypal` and `…/gmo`, which open the order and send them
//! to the provider's page, and the provider sends them back to the same order page (GMO with a
//! POST, sent on to the `GET`), which takes or reads the payment. That page shows the amount the
//! order holds and until when, and for a card the `stripe-card` island in its store mode (the
//! page's Content-Security-Policy allows Stripe.js, as the application payment page does); the
//! island pays the order through `/api/v1/store/…` and comes back to the same page, which then
//! tells how the order ended — paid (with the way to the download), still being confirmed (the
//! page asks the provider itself), expired or closed (with the way back to the item). The
//! buyer's alone: anyone else gets the 404 page.

use rocket::data::{Data, ToByteUnit};
use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use sea_orm::EntityTrait;
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::store_item;
use crate::db::entities::store_order::{PaymentType, StoreOrderState};
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
    to_provider(&p, cookies, providers, uuid, &form, PaymentType::Paypal).await
}

/// Opens the buyer's GMO order for the item (or answers the open one) and sends them to GMO's
/// payment page; GMO sends them back to the order's page.
#[post("/store/items/<uuid>/gmo", data = "<form>")]
pub async fn gmo(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    providers: &State<Providers>,
    uuid: &str,
    form: Form<CheckoutForm>,
) -> Result<Redirect> {
    to_provider(&p, cookies, providers, uuid, &form, PaymentType::SmbcGmo).await
}

/// Opens the poster's order through `provider` and goes on to its page there; a refusal goes
/// back to the item page.
async fn to_provider(
    p: &Page<'_>,
    cookies: &CookieJar<'_>,
    providers: &Providers,
    uuid: &str,
    form: &CheckoutForm,
    provider: PaymentType,
) -> Result<Redirect> {
    let user = poster(p, cookies, form.csrf_token.as_deref())?;
    match store_checkout::open_redirect(p.db, providers, user.id, uuid, provider, p.lang, p.now).await {
        Ok(opened) => Ok(crate::http::redirect::to_provider(&opened.url, &providers.redirect_origins())),
        Err(e) => Ok(crate::http::redirect::to_site(&p.href(&refused(uuid, e)?))),
    }
}

/// GMO's POST back to the order's page: on to its `GET` (it changes nothing itself; GMO's form
/// carries nothing believed, and the buyer's cookies come with the `GET`).
#[post("/store/orders/<uuid>", data = "<payload>")]
pub async fn posted_back(p: Page<'_>, uuid: &str, payload: Data<'_>) -> Result<Redirect> {
    payload.open(64.kibibytes()).into_bytes().await.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let uuid = uuid::Uuid::parse_str(uuid).map_err(|_| Error::not_found())?;
    Ok(crate::http::redirect::to_site(&p.href(&format!("/store/orders/{uuid}"))))
}

/// The buyer's order: pay it, or how it ended. Back from PayPal or GMO (`cancelled` when the
/// payer turned back there), the look at the provider takes the approved payment (PayPal) or
/// reads the trade (GMO).
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
        // Back from the provider, paid in another tab, or an answer the browser lost: the
        // provider tells (a card is never charged here; an approved PayPal payment is taken once).
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
    let by_card = found.provider == PaymentType::Stripe;
    let stripe = match &providers.stripe {
        Some(stripe) if open && by_card => {
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
    // The provider's page again, for an open PayPal or GMO order: its button, hint and note.
    let texts = match found.provider {
        PaymentType::Paypal if providers.paypal.is_some() => {
            Some(("paypal", "store.order.pay_paypal", "store.order.paypal_hint", "store.order.paypal_cancelled"))
        }
        PaymentType::SmbcGmo if providers.gmo.is_some() => {
            Some(("gmo", "store.order.pay_gmo", "store.order.gmo_hint", "store.order.gmo_cancelled"))
        }
        _ => None,
    };
    let redirect = texts.filter(|_| open).map(|(name, button, hint, cancelled_note)| {
        let note = if declined {
            Some(p.t("store.order.paypal_declined"))
        } else {
            cancelled.is_some().then(|| p.t(cancelled_note))
        };
        json!({
            "provider": name,
            "action": p.href(&format!("/store/items/{}/{name}", item.uuid)),
            "button": p.site.messages.tf(p.lang, button, &[("amount", &yen(found.amount))]),
            "hint": p.t(hint),
            "note": note,
        })
    });
    let ctx = json!({
        "state": state,
        "item": p.lang.pick(&item.name, &item.name_en),
        "item_href": item_href,
        "amount": yen(found.amount),
        "expires_at": found.expires_at,
        "stripe": stripe,
        "redirect": redirect,
        "purchases_href": p.href("/mypage/purchases"),
    });
    let template = p.render("store/order", &p.t("store.order.title"), ctx);
    Ok(PaymentPage::new(template, csp))
}

/// The routes (never cached: a buyer's own).
pub fn routes() -> Vec<Route> {
    routes![checkout, paypal, gmo, posted_back, order]
}
