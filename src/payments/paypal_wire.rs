//! PayPal's answers as `crate::payments::paypal` reads them: an order (Orders v2), its purchase
//! units, links and captures, a refund, and money (JPY has no decimals at PayPal). Only the
//! fields we use; anything else PayPal sends is ignored.

use serde::Deserialize;

/// An order as far as we read it.
#[derive(Debug, Clone, Deserialize)]
pub struct Order {
    /// PayPal's order id.
    pub id: String,
    /// `CREATED`, `SAVED`, `APPROVED`, `VOIDED`, `COMPLETED` or `PAYER_ACTION_REQUIRED`.
    pub status: String,
    /// HATEOAS links (`payer-action` / `approve`, `self`, …).
    #[serde(default)]
    pub links: Vec<Link>,
    /// The purchase units (we create one).
    #[serde(default)]
    pub purchase_units: Vec<PurchaseUnit>,
}

/// A link of an order.
#[derive(Debug, Clone, Deserialize)]
pub struct Link {
    /// The URL.
    pub href: String,
    /// What it is for.
    pub rel: String,
}

/// One purchase unit.
#[derive(Debug, Clone, Deserialize)]
pub struct PurchaseUnit {
    /// What was asked.
    #[serde(default)]
    pub amount: Option<Money>,
    /// Our attempt's UUID.
    #[serde(default)]
    pub custom_id: Option<String>,
    /// The captures, once captured.
    #[serde(default)]
    pub payments: Option<Payments>,
}

/// The payments of a purchase unit.
#[derive(Debug, Clone, Deserialize)]
pub struct Payments {
    /// Captures (we capture once).
    #[serde(default)]
    pub captures: Vec<Capture>,
}

/// A capture.
#[derive(Debug, Clone, Deserialize)]
pub struct Capture {
    /// Capture id.
    pub id: String,
    /// `COMPLETED`, `PENDING`, `DECLINED`, `FAILED`, `REFUNDED`, `PARTIALLY_REFUNDED`.
    pub status: String,
    /// What was taken.
    #[serde(default)]
    pub amount: Option<Money>,
}

/// A refund of a capture.
#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    /// Refund id.
    pub id: String,
    /// `COMPLETED`, `PENDING`, `FAILED`, `CANCELLED`.
    pub status: String,
}

/// An amount of money as PayPal writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct Money {
    /// ISO 4217.
    pub currency_code: String,
    /// A decimal string (`"8000"` for JPY).
    pub value: String,
}

impl Money {
    /// The amount in the currency's smallest unit when it is a whole number (JPY), else `None`.
    pub fn whole(&self) -> Option<i64> {
        let (int, frac) = self.value.split_once('.').unwrap_or((&self.value, ""));
        if !frac.bytes().all(|b| b == b'0') || int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        int.parse().ok()
    }
}

impl Order {
    /// Where the payer approves the order (`payer-action`, or `approve` for orders created with
    /// the older `application_context`).
    pub fn approve_url(&self) -> Option<&str> {
        ["payer-action", "approve"]
            .iter()
            .find_map(|rel| self.links.iter().find(|l| l.rel == *rel))
            .map(|l| l.href.as_str())
    }

    /// The capture, once the order was captured.
    pub fn capture(&self) -> Option<&Capture> {
        self.purchase_units.first()?.payments.as_ref()?.captures.first()
    }
}
