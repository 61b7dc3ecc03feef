//! The public store: `/store` (the listing: categories, keyword search, pages) and
//! `/store/items/{uuid}` (one item: pictures, the price in force with its discount, the seller,
//! the file; a button to get a free item, or to pay for a priced one by card). Rendered like the catalogue, from the render cache
//! for visitors without a sign-in (to the second: a discount starts and ends by the clock);
//! getting a free item posts `/store/items/{uuid}/purchase`, paying for one
//! `/store/items/{uuid}/checkout` (`checkout.rs`).

use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use serde_json::json;

use crate::db::entities::store_item::{self, ProductCategory};
use crate::error::{Error, Result};
use crate::forms::snake;
use crate::http::template::Template;
use crate::model::pagination::Pagination;
use crate::payments::Providers;
use crate::store::api::items::ListingQuery;
use crate::store::model::purchase::buy;
use crate::store::model::store_item::{listing, views};
use crate::web::page::Page;
use crate::web::pager::pager;
use crate::web::pages::circles::poster;
use crate::web::pages::store::item_json;

/// The categories the listing offers, in order.
const CATEGORIES: [ProductCategory; 3] =
    [ProductCategory::HousingFurniture, ProductCategory::Avatar, ProductCategory::AvatarPart];

/// The store's listing.
#[get("/store?<query..>")]
pub async fn index(p: Page<'_>, query: ListingQuery<'_>) -> Result<Template> {
    // A value the listing does not take is a page that does not exist.
    let (filter, page) = query.parse().map_err(|_| Error::NotFound { code: "invalid_parameter" })?;
    let viewer = p.user.as_ref().map(|u| u.id);
    let (rows, count, all) = listing(p.db, &filter, page, p.now).await?;
    let items: Vec<_> = views(p.db, rows, viewer, p.now).await?.iter().map(|i| item_json(&p, i)).collect();
    let pagination = Pagination::new(page, count, all);
    let q = filter.q.clone().unwrap_or_default();
    let category = filter.category.map(|c| c.as_str()).unwrap_or("");
    let link = |category: &str, q: &str, n: u64| {
        let mut parts = Vec::new();
        if !category.is_empty() {
            parts.push(format!("category={category}"));
        }
        if !q.is_empty() {
            parts.push(format!("q={}", percent_encoding::utf8_percent_encode(q, percent_encoding::NON_ALPHANUMERIC)));
        }
        if n > 1 {
            parts.push(format!("page={n}"));
        }
        let query = if parts.is_empty() { String::new() } else { format!("?{}", parts.join("&")) };
        format!("{}{query}", p.href("/store"))
    };
    let mut tabs =
        vec![json!({ "label": p.t("store.category.all"), "href": link("", &q, 1), "current": category.is_empty() })];
    tabs.extend(CATEGORIES.iter().map(|c| {
        json!({
            "label": p.t(&format!("store.category.{}", c.as_str())),
            "href": link(c.as_str(), &q, 1),
            "current": category == c.as_str(),
        })
    }));
    let ctx = json!({
        "items": items,
        "tabs": tabs,
        "q": q,
        "category": category,
        "action": p.href("/store"),
        "pagination": pagination,
        "pager": pager(&pagination, |n| link(category, &q, n)),
    });
    Ok(p.render("store/index", &p.t("store.title"), ctx))
}

/// One item.
#[get("/store/items/<uuid>?<done>&<error>")]
pub async fn item(
    p: Page<'_>,
    providers: &State<Providers>,
    uuid: &str,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let viewer = p.user.as_ref().map(|u| u.id);
    let row = store_item::Model::visible(p.db, uuid, viewer).await?;
    let own = viewer == Some(row.user_id);
    // An avatar-part item's page names the parts its buyers get in the avatar maker.
    let parts: Vec<serde_json::Value> = crate::store::model::avatar_part::of_item(p.db, row.id)
        .await?
        .into_iter()
        .map(|part| {
            json!({
                "name": p.lang.pick(&part.name, &part.name_en),
                "kind": p.t(&format!("avatar_parts.part_type.{}", snake(part.part_type))),
            })
        })
        .collect();
    let view = views(p.db, vec![row], viewer, p.now).await?.remove(0);
    let mut shown = item_json(&p, &view);
    let name = p.lang.pick(&view.name, &view.name_en).to_string();
    let priced = view.price.amount > 0;
    let buy = match (&p.user, own, view.purchased == Some(true), view.on_sale) {
        (_, true, _, _) => "own",
        (_, _, true, _) => "purchased",
        (_, _, _, false) => "not_on_sale",
        _ if priced && providers.available().is_empty() => "paid_unavailable",
        (None, _, _, _) => "sign_in",
        _ if priced => "paid",
        _ => "free",
    };
    if let serde_json::Value::Object(extra) = json!({
        "description": view.description,
        "parts": parts,
        "file": view.item_zip.as_ref().map(|f| json!({ "name": f.file_name, "size": crate::web::pages::booth_maker::views::size_label(f.file_size) })),
        "buy": buy,
        "included": view.included_items.iter().map(|i| json!({
            "name": p.lang.pick(&i.name, &i.name_en),
            "href": i.public.then(|| p.href(&format!("/store/items/{}", i.uuid))),
        })).collect::<Vec<_>>(),
        "in_sets": view.parent_items.iter().filter(|i| i.public).map(|i| json!({
            "name": p.lang.pick(&i.name, &i.name_en),
            "href": p.href(&format!("/store/items/{}", i.uuid)),
        })).collect::<Vec<_>>(),
        "buy_action": p.href(&format!("/store/items/{}/purchase", view.uuid)),
        "checkout_action": providers.stripe.is_some().then(|| p.href(&format!("/store/items/{}/checkout", view.uuid))),
        "paypal_action": providers.paypal.is_some().then(|| p.href(&format!("/store/items/{}/paypal", view.uuid))),
        "gmo_action": providers.gmo.is_some().then(|| p.href(&format!("/store/items/{}/gmo", view.uuid))),
        "priced": priced,
        "purchases_href": p.href("/mypage/purchases"),
        "edit_href": own.then(|| p.href(&format!("/mypage/store/items/{}/edit", view.uuid))),
        "limited": view.accessible_status != store_item::AccessibleStatus::Published,
        "store_href": p.href("/store"),
        "bought": done == Some("bought"),
        "refused": error.filter(|code| REFUSALS.contains(code)).map(|code| p.t(&format!("errors.{code}"))),
    }) && let serde_json::Value::Object(item) = &mut shown
    {
        item.extend(extra);
    }
    Ok(p.render("store/item", &name, json!({ "item": shown })))
}

/// The buy button's form: only the CSRF field.
#[derive(rocket::FromForm)]
pub struct BuyForm {
    csrf_token: Option<String>,
}

/// The refusals of a buy or a checkout that the item page explains (anything else is an error
/// page).
pub(crate) const REFUSALS: [&str; 9] = [
    "own_item",
    "held_through_set",
    "not_on_sale",
    "purchase_refunded",
    "payment_required",
    "already_purchased",
    "free_item",
    "order_open",
    "provider_unavailable",
];

/// Buys a free item; back to its page, which says so (or why not).
#[post("/store/items/<uuid>/purchase", data = "<form>")]
pub async fn purchase(p: Page<'_>, cookies: &CookieJar<'_>, uuid: &str, form: Form<BuyForm>) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let query = match buy(p.db, user.id, uuid, p.now).await {
        Ok(_) => "done=bought".to_string(),
        Err(Error::Conflict { code }) if REFUSALS.contains(&code) => format!("error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&p.href(&format!("/store/items/{uuid}?{query}"))))
}

/// The cached pages (the listing and items).
pub fn routes() -> Vec<Route> {
    routes![index, item]
}

/// The pages that write (never cached).
pub fn writes() -> Vec<Route> {
    routes![purchase]
}
