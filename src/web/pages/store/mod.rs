//! The store's pages (issue 31): the public store and item pages ([`public`]), the seller's items
//! and sales under mypage ([`seller`]), their pictures ([`item_images`]) and sets
//! ([`item_sets`]), the buyer's purchases ([`buyer`]) and paying by card ([`checkout`]). Over
//! `crate::store`, the same calls as `/api/v1/store`.

pub mod buyer;
pub mod checkout;
pub mod item_images;
pub mod item_sets;
pub mod public;
pub mod seller;

use rocket::response::Redirect;
use serde_json::{Value, json};

use crate::error::Error;
use crate::model::lottery_mails::yen;
use crate::store::model::store_item::StoreItemView;
use crate::web::page::Page;

/// One item as the pages show it: names in the page's language, the price in force, and the
/// item page's address.
pub(crate) fn item_json(p: &Page<'_>, item: &StoreItemView) -> Value {
    let discounted = item.price.discount_rate > 0;
    json!({
        "uuid": item.uuid,
        "name": p.lang.pick(&item.name, &item.name_en),
        "href": p.href(&format!("/store/items/{}", item.uuid)),
        "image": item.image,
        "image_large": item.image_large,
        "pictures": item.item_images,
        "category": p.t(&format!("store.category.{}", item.product_category.as_str())),
        "seller": p.lang.pick(&item.seller.name_ja, &item.seller.name_en),
        "price": yen(item.price.amount),
        "free": item.price.amount == 0,
        "regular": discounted.then(|| yen(item.price.regular)),
        "discount_rate": discounted.then_some(item.price.discount_rate),
        "discount_ends_at": item.price.discount_ends_at,
        "on_sale": item.on_sale,
        "purchase_count": item.purchase_count,
        "purchased": item.purchased == Some(true),
    })
}

/// The reason of a refused change on a seller's item form, as `reasons` (reason, message key)
/// names it: a conflict's code, or a validation message's key after `validation.`. `None` for
/// anything else (an error page).
pub(crate) fn refusal(error: &Error, reasons: &[(&'static str, &'static str)]) -> Option<&'static str> {
    let reason = match error {
        Error::Conflict { code } => *code,
        Error::Validation(found) => found.first()?.key.strip_prefix("validation.")?,
        _ => return None,
    };
    reasons.iter().map(|(r, _)| *r).find(|r| *r == reason)
}

/// The redirect back to the form of the seller's item `uuid` with `query`, at its section
/// `anchor`.
pub(crate) fn back_to_form(p: &Page<'_>, uuid: &str, query: &str, anchor: &str) -> Redirect {
    crate::http::redirect::to_site(&p.href(&format!("/mypage/store/items/{uuid}/edit?{query}#{anchor}")))
}
