//! The store's pages (issue 31): the public store and item pages ([`public`]), the seller's items
//! and sales under mypage ([`seller`]) and their pictures ([`item_images`]), the buyer's purchases ([`buyer`]) and paying by card ([`checkout`]). Over
//! `crate::store`, the same calls as `/api/v1/store`.

pub mod buyer;
pub mod checkout;
pub mod item_images;
pub mod public;
pub mod seller;

use serde_json::{Value, json};

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
