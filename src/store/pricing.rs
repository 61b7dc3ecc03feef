//! The price of a store item at a moment (ASSETS.md "The store and conversions"): the regular
//! price, less `discount_rate` % while the discount window is open, rounded down to the yen; and
//! whether the item is on sale at all. Pure: the clock is an argument, so time travel moves it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::store_item;

/// The price in force at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct Price {
    /// Yen charged at that moment.
    pub amount: i32,
    /// Yen before the discount.
    pub regular: i32,
    /// Percent off in force (0: none).
    pub discount_rate: i32,
    /// When the discount in force ends (none without one).
    pub discount_ends_at: Option<DateTime<Utc>>,
}

/// `price` less `rate` %, rounded down to the yen (exact integer arithmetic; `rate` 0–100).
pub fn discounted(price: i32, rate: i32) -> i32 {
    let rate = i64::from(rate.clamp(0, 100));
    i32::try_from(i64::from(price.max(0)) * (100 - rate) / 100).unwrap_or(0)
}

/// The platform's share of `amount` at `fee` %, rounded down to the yen.
pub fn fee_amount(amount: i32, fee: i32) -> i32 {
    i32::try_from(i64::from(amount.max(0)) * i64::from(fee.clamp(0, 100)) / 100).unwrap_or(0)
}

/// Whether `now` is inside `[from, until)`; an open end is no bound.
fn inside(from: Option<DateTime<Utc>>, until: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    from.is_none_or(|f| f <= now) && until.is_none_or(|u| now < u)
}

/// The price of `item` at `now`.
pub fn price_at(item: &store_item::Model, now: DateTime<Utc>) -> Price {
    let window = item.discount_rate > 0
        && item.discount_start_at.is_some()
        && item.discount_end_at.is_some()
        && inside(item.discount_start_at, item.discount_end_at, now);
    if window {
        Price {
            amount: discounted(item.price, item.discount_rate),
            regular: item.price,
            discount_rate: item.discount_rate,
            discount_ends_at: item.discount_end_at,
        }
    } else {
        Price { amount: item.price, regular: item.price, discount_rate: 0, discount_ends_at: None }
    }
}

/// Whether `item` is on sale at `now` (its sale window; who may see it is another question).
pub fn on_sale(item: &store_item::Model, now: DateTime<Utc>) -> bool {
    inside(item.start_at, item.end_at, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::entities::store_item::{AccessibleStatus, ProductCategory, SubCategory};
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 1, h, 0, 0).unwrap()
    }

    fn item(price: i32, rate: i32) -> store_item::Model {
        store_item::Model {
            id: 1,
            uuid: "u".into(),
            user_id: 1,
            asset_id: 1,
            name: "n".into(),
            name_en: String::new(),
            description: String::new(),
            product_category: ProductCategory::HousingFurniture,
            sub_category: SubCategory::Floor,
            accessible_status: AccessibleStatus::Published,
            is_forced_private: false,
            price,
            discount_rate: rate,
            discount_start_at: Some(at(10)),
            discount_end_at: Some(at(12)),
            fee: 10,
            start_at: Some(at(8)),
            end_at: Some(at(20)),
            item_order: 0,
            purchase_count: 0,
            created_at: at(0),
            updated_at: at(0),
        }
    }

    #[test]
    fn the_discount_holds_inside_its_window_only() {
        let chair = item(1999, 15);
        assert_eq!(price_at(&chair, at(9)).amount, 1999);
        let during = price_at(&chair, at(10));
        assert_eq!(
            (during.amount, during.regular, during.discount_rate),
            (1699, 1999, 15),
            "1999 × 0.85 = 1699.15 → 1699"
        );
        assert_eq!(during.discount_ends_at, Some(at(12)));
        assert_eq!(price_at(&chair, at(12) - chrono::Duration::seconds(1)).amount, 1699);
        assert_eq!(price_at(&chair, at(12)).amount, 1999, "the end is exclusive");
        let no_dates = store_item::Model { discount_start_at: None, ..chair.clone() };
        assert_eq!(price_at(&no_dates, at(11)).amount, 1999, "a rate without its window is no discount");
    }

    #[test]
    fn the_sale_window_is_start_inclusive_end_exclusive() {
        let chair = item(500, 0);
        assert!(!on_sale(&chair, at(7)));
        assert!(on_sale(&chair, at(8)));
        assert!(!on_sale(&chair, at(20)));
        assert!(on_sale(&store_item::Model { start_at: None, end_at: None, ..chair }, at(23)));
    }

    #[test]
    fn fees_round_down() {
        assert_eq!(fee_amount(1699, 10), 169);
        assert_eq!(fee_amount(0, 30), 0);
        assert_eq!(fee_amount(i32::MAX, 100), i32::MAX);
    }

    proptest! {
        #[test]
        fn a_discount_never_raises_the_price_and_rounds_down(price in 0..=10_000_000i32, rate in 0..=100i32) {
            let paid = discounted(price, rate);
            prop_assert!(paid <= price && paid >= 0);
            // Rounded down: the exact value minus less than one yen.
            let exact = f64::from(price) * f64::from(100 - rate) / 100.0;
            prop_assert!(f64::from(paid) <= exact + 1e-6 && exact - f64::from(paid) < 1.0);
            prop_assert!(fee_amount(paid, 10) <= paid);
        }
    }
}
