//! `/mypage/vrchat/avatars`: the user's VRChat avatars (issue 31) — each with its status, the
//! uploads left and what its owner may do (cancel, try a failed upload again, order an update),
//! their orders (pay or cancel an open one), and the form that orders a new avatar from one of
//! their uploaded avatars. The same rules as `/api/v1/store/vrchat/avatars`; works without
//! scripts. Paying sends the browser to the provider (303 through the one redirect function,
//! only into the providers' origins); the provider sends it back to
//! `/mypage/vrchat/orders/{uuid}`, which asks the provider and comes back here saying what
//! became of the payment (GMO comes back by POST: on to the same GET).

use rocket::data::{Data, ToByteUnit};
use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use serde_json::json;

use crate::auth::guards::CurrentUser;
use crate::db::entities::vrchat_avatar_order::{AvatarOrderState, AvatarPaymentType, PurchaseType};
use crate::error::{Error, Result};
use crate::forms::{parse_choice, snake};
use crate::http::redirect::{to_provider, to_site};
use crate::http::template::Template;
use crate::payments::Providers;
use crate::store::model::box_submission::avatars;
use crate::store::vrchat::avatar;
use crate::store::vrchat::offer::{AvatarOrderInput, list_of, open_order};
use crate::store::vrchat::order::{self, payable};
use crate::store::vrchat::order_pay;
use crate::store::vrchat::status::Event;
use crate::web::page::Page;
use crate::web::pages::box_submissions::ButtonForm;
use crate::web::pages::circles::poster;
use crate::web::pages::mypage_nav::nav;
use crate::web::pages::payment_history::grouped;

/// What a `done=` says.
const DONE: [&str; 7] = ["ordered", "paid", "not_paid", "payment_cancelled", "order_cancelled", "cancelled", "retried"];
/// What an `error=` explains.
const REFUSALS: [&str; 12] = [
    "vrchat_not_linked",
    "avatar_order_open",
    "avatar_status",
    "asset_not_uploaded",
    "order_closed",
    "order_paid",
    "payment_amount_mismatch",
    "provider_unavailable",
    "provider_refused",
    "not_implemented",
    "not_found",
    "invalid_order",
];

/// The order form.
#[derive(rocket::FromForm)]
pub struct OrderForm {
    csrf_token: Option<String>,
    purchase_type: Option<String>,
    payment_type: Option<String>,
    asset_id: Option<String>,
    avatar_name: Option<String>,
    avatar_uuid: Option<String>,
}

fn here(p: &Page<'_>, query: &str) -> Redirect {
    to_site(&p.href(&format!("/mypage/vrchat/avatars{query}")))
}

/// The page's answer to a refusal: the code as a notice.
fn refused(p: &Page<'_>, e: Error) -> Result<Redirect> {
    let code = match &e {
        Error::Conflict { code } | Error::BadGateway { code } => code.to_string(),
        Error::NotImplemented => "not_implemented".into(),
        Error::NotFound { .. } => "not_found".into(),
        Error::Validation(_) | Error::BadRequest { .. } => "invalid_order".into(),
        _ => return Err(e),
    };
    Ok(here(p, &format!("?error={code}")))
}

/// The page.
#[get("/mypage/vrchat/avatars?<done>&<error>")]
pub async fn show(
    p: Page<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let me = current.user.id;
    let list = list_of(p.db, &p.site.config, providers, me).await?;
    let linked = crate::store::vrchat::link::state(p.db, me, p.now).await?.link.is_some();
    let avatars_json: Vec<_> = list
        .avatars
        .iter()
        .map(|a| {
            json!({
                "view": a,
                "status_label": p.t(&format!("vrchat_avatars.status.{}", snake(a.status))),
                "cancel_action": p.href(&format!("/mypage/vrchat/avatars/{}/cancel", a.uuid)),
                "retry_action": p.href(&format!("/mypage/vrchat/avatars/{}/retry", a.uuid)),
            })
        })
        .collect();
    let orders_json: Vec<_> = list
        .orders
        .iter()
        .map(|o| {
            json!({
                "view": o,
                "state_label": p.t(&format!("vrchat_avatars.order_state.{}", snake(o.state))),
                "price": grouped(o.total_price),
                "type_label": p.t(&format!("vrchat_avatars.purchase_type.{}", snake(o.purchase_type))),
                "payment_label": p.t(&format!("vrchat_avatars.payment_type.{}", snake(o.payment_type))),
                "open": o.state == AvatarOrderState::Open && p.now < o.closing_date,
                "pay_action": p.href(&format!("/mypage/vrchat/orders/{}/pay", o.uuid)),
                "cancel_action": p.href(&format!("/mypage/vrchat/orders/{}/cancel", o.uuid)),
            })
        })
        .collect();
    let payment_types: Vec<_> = list
        .payment_types
        .iter()
        .map(|t| json!({"value": snake(*t), "label": p.t(&format!("vrchat_avatars.payment_type.{}", snake(*t)))}))
        .collect();
    let sources: Vec<_> =
        avatars(p.db, me).await?.into_iter().map(|(id, name)| json!({"id": id, "name": name})).collect();
    let ctx = json!({
        "nav": nav(&p),
        "offered": list.offered,
        "linked": linked,
        "link_href": p.href("/mypage/vrchat"),
        "upload_href": p.href("/uploader"),
        "prices": list.prices,
        "new_price": grouped(list.prices.new_price),
        "update_price": grouped(list.prices.update_price),
        "avatars": avatars_json,
        "orders": orders_json,
        "payment_types": payment_types,
        "sources": sources,
        "order_action": p.href("/mypage/vrchat/avatars/order"),
        "notice": done.filter(|d| DONE.contains(d)).map(|d| p.t(&format!("vrchat_avatars.done.{d}"))),
        "refused": error.filter(|e| REFUSALS.contains(e)).map(|e| if e == "invalid_order" {
            p.t("vrchat_avatars.invalid_order")
        } else {
            p.t(&format!("errors.{e}"))
        }),
    });
    Ok(p.render("mypage/vrchat_avatars", &p.t("vrchat_avatars.title"), ctx))
}

/// Orders (a new avatar, or an update of one) and sends the payer on to the provider — or back
/// here when the order is free.
#[post("/mypage/vrchat/avatars/order", data = "<form>")]
pub async fn order_avatar(
    p: Page<'_>,
    providers: &State<Providers>,
    cookies: &CookieJar<'_>,
    form: Form<OrderForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let purchase_type: Option<PurchaseType> = form.purchase_type.as_deref().and_then(parse_choice);
    let payment_type: Option<AvatarPaymentType> = form.payment_type.as_deref().and_then(parse_choice);
    let (Some(purchase_type), Some(payment_type)) = (purchase_type, payment_type) else {
        return Ok(here(&p, "?error=invalid_order"));
    };
    let input = AvatarOrderInput {
        purchase_type,
        payment_type,
        asset_id: form.asset_id.as_deref().and_then(|s| s.trim().parse().ok()),
        avatar_name: form.avatar_name.clone(),
        avatar_uuid: form.avatar_uuid.clone().filter(|u| !u.is_empty()),
    };
    let made = match open_order(p.db, &p.site.config, providers, user.id, input, p.now).await {
        Ok(made) => made,
        Err(e) => return refused(&p, e),
    };
    if made.state == AvatarOrderState::Paid {
        return Ok(here(&p, "?done=paid"));
    }
    onward(&p, providers, order_pay::pay(p.db, providers, &made, p.lang, p.now).await)
}

/// On to the provider's page (303, only onto a configured provider's origin), or back to the
/// list saying why not.
fn onward(p: &Page<'_>, providers: &Providers, paying: Result<url::Url>) -> Result<Redirect> {
    match paying {
        Ok(url) => Ok(to_provider(&url, &providers.redirect_origins())),
        Err(e) => refused(p, e),
    }
}

/// Pays an open order: on to the provider.
#[post("/mypage/vrchat/orders/<uuid>/pay", data = "<form>")]
pub async fn pay(
    p: Page<'_>,
    providers: &State<Providers>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = order::of_owner(p.db, user.id, uuid).await?;
    onward(&p, providers, order_pay::pay(p.db, providers, &row, p.lang, p.now).await)
}

/// Withdraws an unpaid order.
#[post("/mypage/vrchat/orders/<uuid>/cancel", data = "<form>")]
pub async fn cancel_order(
    p: Page<'_>,
    providers: &State<Providers>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = order::of_owner(p.db, user.id, uuid).await?;
    match order_pay::cancel(p.db, providers, &row, p.now).await {
        Ok(_) => Ok(here(&p, "?done=order_cancelled")),
        Err(e) => refused(&p, e),
    }
}

/// The owner's move on an avatar: cancel, or try a failed upload again.
async fn move_avatar(
    p: &Page<'_>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    csrf: Option<&str>,
    event: Event,
) -> Result<Redirect> {
    let user = poster(p, cookies, csrf)?;
    let row = avatar::of_owner(p.db, user.id, uuid).await?;
    match avatar::by_owner(p.db, &row, event, p.now).await {
        Ok(_) if event == Event::Cancel => Ok(here(p, "?done=cancelled")),
        Ok(_) => Ok(here(p, "?done=retried")),
        Err(e) => refused(p, e),
    }
}

/// Cancels an avatar before its upload.
#[post("/mypage/vrchat/avatars/<uuid>/cancel", data = "<form>")]
pub async fn cancel_avatar(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    move_avatar(&p, cookies, uuid, form.csrf_token.as_deref(), Event::Cancel).await
}

/// Tries a failed upload again.
#[post("/mypage/vrchat/avatars/<uuid>/retry", data = "<form>")]
pub async fn retry_avatar(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    uuid: &str,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    move_avatar(&p, cookies, uuid, form.csrf_token.as_deref(), Event::RetryUpload).await
}

/// Where the provider sends the payer back: asks the provider, then on to the list saying what
/// became of the payment. 404 for anyone but the order's user.
#[get("/mypage/vrchat/orders/<uuid>?<cancelled>")]
pub async fn returned(
    p: Page<'_>,
    providers: &State<Providers>,
    current: CurrentUser,
    uuid: &str,
    cancelled: Option<&str>,
) -> Result<Redirect> {
    let row = order::of_owner(p.db, current.user.id, uuid).await?;
    let row = match order_pay::check(p.db, providers, &row, p.now).await {
        Ok(row) => row,
        Err(e) => return refused(&p, e),
    };
    let done = match row.state {
        AvatarOrderState::Paid => "paid",
        _ if cancelled.is_some() && payable(&row, p.now) => "payment_cancelled",
        _ => "not_paid",
    };
    Ok(here(&p, &format!("?done={done}")))
}

/// GMO's POST back: on to the `GET` (it changes nothing itself).
#[post("/mypage/vrchat/orders/<uuid>", data = "<payload>")]
pub async fn posted_back(p: Page<'_>, uuid: &str, payload: Data<'_>) -> Result<Redirect> {
    payload.open(64.kibibytes()).into_bytes().await.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let uuid = uuid::Uuid::parse_str(uuid).map_err(|_| Error::not_found())?;
    Ok(to_site(&p.href(&format!("/mypage/vrchat/orders/{uuid}"))))
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![show, order_avatar, pay, cancel_order, cancel_avatar, retry_avatar, returned, posted_back]
}
