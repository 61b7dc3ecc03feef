//! What payers send and are answered, whichever provider (spec §7 `payment/…`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::model::payment::PaymentType;

/// An opened attempt, as the payer's browser needs it (spec §7: `order_id` and
/// `transaction_uuid`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PreOrder {
    /// The provider's id of the payment object (Stripe: the PaymentIntent `pi_…`).
    pub order_id: String,
    /// The attempt (UUID v4): send it to `capture`; the receipt lives under it.
    pub transaction_uuid: String,
    /// The provider.
    pub payment_type: PaymentType,
    /// JPY.
    pub amount: i32,
    /// `JPY`.
    pub currency: String,
    /// Stripe: the PaymentIntent's client secret, for Stripe.js in the payer's browser.
    pub client_secret: Option<String>,
}

/// What a payer asks to pay.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PreOrderInput {
    /// The won application.
    pub application_id: Option<i32>,
    /// `stripe` (the providers offered: see the payment page).
    pub payment_type: Option<PaymentType>,
}

/// What a payer asks to capture.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CaptureInput {
    /// The attempt from `pre_order`.
    pub transaction_uuid: Option<String>,
    /// Stripe: the card's PaymentMethod id (`pm_…`, tokenized by Stripe.js), to confirm with;
    /// absent when the browser confirmed the PaymentIntent itself.
    pub payment_method: Option<String>,
}

/// What a payer asks to pay through a redirect provider.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct RedirectInput {
    /// The won application.
    pub application_id: Option<i32>,
    /// `paypal` or `smbc_gmo` (Stripe is confirmed in the page, not by a redirect).
    pub payment_type: Option<PaymentType>,
}

/// Where the payer's browser goes to pay.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RedirectTo {
    /// The provider's page (on a configured provider origin), or this site's `/checkout` when the
    /// provider already has the payment.
    pub redirect_url: String,
    /// The attempt (UUID v4); the provider sends the payer back to `/checkout?transaction=` it.
    pub transaction_uuid: String,
    /// The provider.
    pub payment_type: PaymentType,
}

/// What the PayPal JavaScript buttons ask to create (spec §7 `paypal/create_order_id`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PayPalOrderInput {
    /// The won application.
    pub application_id: Option<i32>,
}

/// What the PayPal JavaScript buttons ask to capture once the payer approved (spec §7
/// `paypal/capture`): the PayPal order id the buttons hold, or the attempt's UUID.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PayPalCaptureInput {
    /// PayPal's order id (`create_order_id`'s `order_id`, the buttons' `data.orderID`).
    pub order_id: Option<String>,
    /// The attempt's UUID, instead of the order id.
    pub transaction_uuid: Option<String>,
}
