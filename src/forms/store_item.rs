//! A store item as its seller writes it (issue 31): `POST /api/v1/store/my/items` and `PUT
//! /api/v1/store/my/items/{uuid}` (JSON) and the mypage form (`/mypage/store/items`) fill the same
//! [`StoreItemInput`], checked the one way: names, description, price (0–1,000,000 yen), who may
//! see it, the sale window and the discount (1–99 % with both ends of its window, the end after
//! the start), the seller's order. The asset (the seller's own uploaded one) is checked against
//! the database by `crate::store::model::store_item`.

use chrono::{DateTime, Utc};
use rocket::form::FromForm;
use serde::Deserialize;
use utoipa::ToSchema;
use validator::Validate;

use crate::db::entities::store_item::AccessibleStatus;
use crate::error::Result;
use crate::forms::checks::{self, parse_instant};
use crate::forms::{Input, Problems, given as text, parse_choice, whole_number};

/// Longest name (either language), in characters.
pub const NAME_MAX: u64 = 128;
/// Longest description, in characters.
pub const DESCRIPTION_MAX: u64 = 2000;
/// Highest price, in yen.
pub const PRICE_MAX: i64 = 1_000_000;

/// A store item's fields as the seller sends them. Times are RFC 3339, a `datetime-local` value
/// (Japan time) or a date (midnight in Japan).
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
#[serde(default)]
pub struct StoreItemInput {
    /// The seller's uploaded asset sold (creating only; an item keeps its asset).
    pub asset_id: Option<i64>,
    /// 1–128 characters.
    #[validate(
        required(code = "required"),
        length(max = NAME_MAX, code = "too_long"),
        custom(function = "checks::not_blank"),
        custom(function = "checks::clean_text")
    )]
    pub name: Option<String>,
    /// Up to 128 characters.
    #[validate(length(max = NAME_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Up to 2000 characters.
    #[validate(length(max = DESCRIPTION_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub description: Option<String>,
    /// Yen, 0 (free) to 1,000,000.
    #[validate(required(code = "required"), range(min = 0, max = PRICE_MAX, code = "number_between"))]
    pub price: Option<i64>,
    /// `private` (default), `limited` (by link) or `published`.
    pub accessible_status: Option<AccessibleStatus>,
    /// On sale from (none: at once).
    #[validate(custom(function = "checks::instant"))]
    pub start_at: Option<String>,
    /// On sale until (none: no end); after `start_at`.
    #[validate(custom(function = "checks::instant"))]
    pub end_at: Option<String>,
    /// Percent off, 1–99 (none or 0: no discount).
    #[validate(range(min = 0, max = 99, code = "number_between"))]
    pub discount_rate: Option<i64>,
    /// The discount's start (required with a rate).
    #[validate(custom(function = "checks::instant"))]
    pub discount_start_at: Option<String>,
    /// The discount's end, after its start (required with a rate).
    #[validate(custom(function = "checks::instant"))]
    pub discount_end_at: Option<String>,
    /// The seller's order (0–9999; smaller first).
    #[validate(range(min = 0, max = 9999, code = "number_between"))]
    pub item_order: Option<i64>,
}

impl Input for StoreItemInput {
    const FIELDS: &'static [&'static str] = &[
        "asset_id",
        "name",
        "name_en",
        "description",
        "price",
        "accessible_status",
        "start_at",
        "end_at",
        "discount_rate",
        "discount_start_at",
        "discount_end_at",
        "item_order",
    ];
}

/// The mypage form's raw fields (every value text until checked).
#[derive(Debug, Default, FromForm)]
pub struct StoreItemForm {
    /// The page form's CSRF token.
    pub csrf_token: Option<String>,
    /// Raw `asset_id`.
    pub asset_id: Option<String>,
    /// Raw `name`.
    pub name: Option<String>,
    /// Raw `name_en`.
    pub name_en: Option<String>,
    /// Raw `description`.
    pub description: Option<String>,
    /// Raw `price`.
    pub price: Option<String>,
    /// Raw `accessible_status`.
    pub accessible_status: Option<String>,
    /// Raw `start_at`.
    pub start_at: Option<String>,
    /// Raw `end_at`.
    pub end_at: Option<String>,
    /// Raw `discount_rate`.
    pub discount_rate: Option<String>,
    /// Raw `discount_start_at`.
    pub discount_start_at: Option<String>,
    /// Raw `discount_end_at`.
    pub discount_end_at: Option<String>,
    /// Raw `item_order`.
    pub item_order: Option<String>,
}

impl StoreItemForm {
    /// The typed input, and the fields whose text was not what they take (a number that is not
    /// one, an unknown status): those are reported as problems of their field.
    pub fn input(&self) -> (StoreItemInput, Vec<(&'static str, &'static str)>) {
        let mut wrong = Vec::new();
        let mut number = |field: &'static str, raw: &Option<String>| {
            whole_number(raw, field, "validation.non_negative_integer", &mut wrong)
        };
        let asset_id = number("asset_id", &self.asset_id);
        let price = number("price", &self.price);
        let discount_rate = number("discount_rate", &self.discount_rate);
        let item_order = number("item_order", &self.item_order);
        let accessible_status = text(&self.accessible_status).and_then(|raw| {
            let parsed = parse_choice(&raw);
            if parsed.is_none() {
                wrong.push(("accessible_status", "validation.invalid_choice"));
            }
            parsed
        });
        let input = StoreItemInput {
            asset_id,
            name: text(&self.name),
            name_en: text(&self.name_en),
            description: text(&self.description),
            price,
            accessible_status,
            start_at: text(&self.start_at),
            end_at: text(&self.end_at),
            discount_rate,
            discount_start_at: text(&self.discount_start_at),
            discount_end_at: text(&self.discount_end_at),
            item_order,
        };
        (input, wrong)
    }
}

/// A checked store item: what the model writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreItemFields {
    /// The asset named (creating).
    pub asset_id: Option<i32>,
    /// Name.
    pub name: String,
    /// English name ("" when none).
    pub name_en: String,
    /// Description.
    pub description: String,
    /// Yen.
    pub price: i32,
    /// Who may see it.
    pub accessible_status: AccessibleStatus,
    /// Sale window.
    pub start_at: Option<DateTime<Utc>>,
    /// Sale window.
    pub end_at: Option<DateTime<Utc>>,
    /// Percent off (0: none).
    pub discount_rate: i32,
    /// Discount window.
    pub discount_start_at: Option<DateTime<Utc>>,
    /// Discount window.
    pub discount_end_at: Option<DateTime<Utc>>,
    /// Seller's order.
    pub item_order: i32,
}

/// Checks `input` (with `wrong`, the fields a form could not read): the fields to write, or 422
/// `validation_failed` with every problem by field.
pub fn check(input: &StoreItemInput, wrong: &[(&'static str, &'static str)]) -> Result<StoreItemFields> {
    let mut problems = Problems::of(input);
    for (field, key) in wrong {
        if !problems.has(field) {
            problems.fail(field, key);
        }
    }
    let at = |raw: &Option<String>| raw.as_deref().and_then(parse_instant);
    let (start_at, end_at) = (at(&input.start_at), at(&input.end_at));
    if let (Some(start), Some(end)) = (start_at, end_at)
        && end <= start
    {
        problems.fail("end_at", "validation.time_range");
    }
    let rate = input.discount_rate.unwrap_or(0);
    let (discount_start_at, discount_end_at) = (at(&input.discount_start_at), at(&input.discount_end_at));
    if (1..=99).contains(&rate) {
        if input.discount_start_at.is_none() {
            problems.fail("discount_start_at", "validation.required");
        }
        if input.discount_end_at.is_none() {
            problems.fail("discount_end_at", "validation.required");
        }
        if let (Some(start), Some(end)) = (discount_start_at, discount_end_at)
            && end <= start
        {
            problems.fail("discount_end_at", "validation.time_range");
        }
    }
    if let Some(id) = input.asset_id
        && !(1..=i64::from(i32::MAX)).contains(&id)
    {
        problems.fail("asset_id", "validation.positive_integer");
    }
    problems.into_result()?;
    let small = |n: Option<i64>| n.and_then(|n| i32::try_from(n).ok()).unwrap_or(0);
    let with_rate = rate > 0;
    Ok(StoreItemFields {
        asset_id: input.asset_id.and_then(|id| i32::try_from(id).ok()),
        name: input.name.as_deref().map(str::trim).unwrap_or_default().to_string(),
        name_en: input.name_en.as_deref().map(str::trim).unwrap_or_default().to_string(),
        description: input.description.as_deref().map(str::trim).unwrap_or_default().to_string(),
        price: small(input.price),
        accessible_status: input.accessible_status.unwrap_or(AccessibleStatus::Private),
        start_at,
        end_at,
        discount_rate: small(input.discount_rate),
        discount_start_at: discount_start_at.filter(|_| with_rate),
        discount_end_at: discount_end_at.filter(|_| with_rate),
        item_order: small(input.item_order),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(input: &StoreItemInput) -> Vec<(String, String)> {
        match check(input, &[]) {
            Ok(_) => Vec::new(),
            Err(crate::error::Error::Validation(found)) => {
                found.into_iter().map(|i| (i.attribute, i.key.to_string())).collect()
            }
            Err(other) => panic!("{other:?}"),
        }
    }

    fn chair() -> StoreItemInput {
        StoreItemInput { name: Some("椅子".into()), price: Some(500), ..Default::default() }
    }

    #[test]
    fn a_discount_needs_its_window_in_order() {
        assert!(codes(&chair()).is_empty());
        let rate = StoreItemInput { discount_rate: Some(20), ..chair() };
        assert_eq!(
            codes(&rate),
            [
                ("discount_start_at".to_string(), "validation.required".to_string()),
                ("discount_end_at".to_string(), "validation.required".to_string())
            ]
        );
        let backwards = StoreItemInput {
            discount_start_at: Some("2026-12-02".into()),
            discount_end_at: Some("2026-12-01".into()),
            ..rate
        };
        assert_eq!(codes(&backwards), [("discount_end_at".to_string(), "validation.time_range".to_string())]);
    }

    #[test]
    fn prices_and_rates_stay_in_range() {
        let bad = StoreItemInput { price: Some(-1), discount_rate: Some(100), name: None, ..chair() };
        let found = codes(&bad);
        assert_eq!(found.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(), ["name", "price", "discount_rate"]);
        let huge = StoreItemInput { price: Some(PRICE_MAX + 1), ..chair() };
        assert_eq!(codes(&huge)[0].1, "validation.number_between");
    }

    #[test]
    fn a_form_reports_text_that_is_not_a_number() {
        let form = StoreItemForm { name: Some("椅子".into()), price: Some("五百".into()), ..Default::default() };
        let (input, wrong) = form.input();
        let err = check(&input, &wrong).unwrap_err();
        let crate::error::Error::Validation(found) = err else { panic!() };
        assert!(found.iter().any(|i| i.attribute == "price"), "{found:?}");
    }
}
