//! The addressee of a receipt (宛名): the payer sets it (a company's name, say) on the receipt's
//! page; each value set is kept with its time in `receipt_addressees`, so a change after the
//! receipt went out is on record and the receipt names what it said before. Only the payer
//! reaches it (404 to anyone else, through the payment lookup).

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use validator::Validate;

use crate::db::entities::{payment_history, receipt_addressee};
use crate::error::Result;
use crate::forms::{Input, checks, validate};

/// The longest addressee, in characters.
pub const ADDRESSEE_MAX: u64 = 100;

/// The addressee as sent, trimmed.
#[derive(Debug, Clone, Validate)]
pub struct AddresseeInput {
    /// 1–100 characters, no control characters.
    #[validate(
        custom(function = "checks::not_blank"),
        length(max = ADDRESSEE_MAX, code = "too_long"),
        custom(function = "checks::clean_text")
    )]
    pub addressee: String,
}

impl Input for AddresseeInput {
    const FIELDS: &'static [&'static str] = &["addressee"];
}

impl AddresseeInput {
    /// The input from the raw form value.
    pub fn new(raw: Option<&str>) -> Self {
        Self { addressee: raw.unwrap_or("").trim().to_owned() }
    }
}

/// One value the addressee had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddresseeSet {
    /// The addressee.
    pub addressee: String,
    /// When the payer set it.
    pub set_at: DateTime<Utc>,
}

/// Every value the addressee of `payment` had, oldest first (the last is the current one).
pub async fn history(db: &impl ConnectionTrait, payment: &payment_history::Model) -> Result<Vec<AddresseeSet>> {
    Ok(receipt_addressee::Entity::find()
        .filter(receipt_addressee::Column::PaymentHistoryId.eq(payment.id))
        .order_by_asc(receipt_addressee::Column::Id)
        .all(db)
        .await?
        .into_iter()
        .map(|r| AddresseeSet { addressee: r.addressee, set_at: r.set_at })
        .collect())
}

/// Sets the addressee of `payment` (its payer's, found by the caller) to `input` at `now`: 422
/// for an invalid one; setting the current value again records nothing.
pub async fn set(
    db: &impl ConnectionTrait,
    payment: &payment_history::Model,
    input: &AddresseeInput,
    now: DateTime<Utc>,
) -> Result<()> {
    validate(input)?;
    let current = history(db, payment).await?.pop();
    if current.is_some_and(|c| c.addressee == input.addressee) {
        return Ok(());
    }
    receipt_addressee::ActiveModel {
        payment_history_id: Set(payment.id),
        addressee: Set(input.addressee.clone()),
        set_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}
