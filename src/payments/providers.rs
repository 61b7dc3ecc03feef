//! The configured payment providers.

use url::Url;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::model::payment::PaymentType;
use crate::payments::gmo::Gmo;
use crate::payments::paypal::PayPal;
use crate::payments::provider_http::ProviderError;
use crate::payments::stripe::Stripe;
use crate::types::Lang;

/// The configured providers (managed state, so PayPal's access token is shared by the whole
/// process; jobs build their own from the configuration).
#[derive(Clone, Debug, Default)]
pub struct Providers {
    /// Stripe, when `stripe_secret_key` is set.
    pub stripe: Option<Stripe>,
    /// PayPal, when `paypal_client_id` and `paypal_client_secret` are set.
    pub paypal: Option<PayPal>,
    /// GMO Payment Gateway, when `gmo_shop_id` and `gmo_shop_pass` are set.
    pub gmo: Option<Gmo>,
    /// This site's origin (`site_url`): where redirect providers send the payer back.
    pub site_url: String,
    /// The providers are the demo's local fakes (`payment_demo_providers`).
    pub demo: bool,
}

impl Providers {
    /// The providers that have keys in `config`.
    pub fn from_config(config: &Config) -> Self {
        Self {
            stripe: Stripe::from_config(config),
            paypal: PayPal::from_config(config),
            gmo: Gmo::from_config(config),
            site_url: config.site_url.clone(),
            demo: config.payment_demo_providers,
        }
    }

    /// The payment types offered to payers, in display order.
    pub fn available(&self) -> Vec<PaymentType> {
        let mut types = Vec::new();
        if self.paypal.is_some() {
            types.push(PaymentType::Paypal);
        }
        if self.stripe.is_some() {
            types.push(PaymentType::Stripe);
        }
        if self.gmo.is_some() {
            types.push(PaymentType::SmbcGmo);
        }
        types
    }

    /// Whether `payment_type` sends the payer to the provider's page (PayPal, GMO) rather than
    /// confirming in ours (Stripe).
    pub fn is_redirect(payment_type: PaymentType) -> bool {
        matches!(payment_type, PaymentType::Paypal | PaymentType::SmbcGmo)
    }

    /// Stripe, or 422 on `payment_type` when it is not offered.
    pub(crate) fn stripe(&self) -> Result<&Stripe> {
        self.stripe.as_ref().ok_or_else(unavailable)
    }

    /// PayPal, or 422 on `payment_type` when it is not offered.
    pub(crate) fn paypal(&self) -> Result<&PayPal> {
        self.paypal.as_ref().ok_or_else(unavailable)
    }

    /// GMO, or 422 on `payment_type` when it is not offered.
    pub(crate) fn gmo(&self) -> Result<&Gmo> {
        self.gmo.as_ref().ok_or_else(unavailable)
    }

    /// The origins a payment redirect may send a browser to: the configured providers' pages.
    pub fn redirect_origins(&self) -> Vec<Url> {
        let paypal = self.paypal.as_ref().and_then(|p| p.web_origin.clone());
        let gmo = self.gmo.as_ref().and_then(|g| g.link_origin.clone());
        paypal.into_iter().chain(gmo).collect()
    }

    /// `/checkout?transaction=<uuid>` in `lang` on this site (absolute), where providers return.
    pub fn checkout_url(&self, lang: Lang, transaction_uuid: &str, cancel: bool) -> String {
        let cancel = if cancel { "&cancel=1" } else { "" };
        format!(
            "{}{}/checkout?transaction={transaction_uuid}{cancel}",
            self.site_url.trim_end_matches('/'),
            lang.prefix()
        )
    }

    /// `path` (site-absolute, in `lang`) on this site, absolute: where a redirect provider sends a
    /// payer of something else than an application back.
    pub fn site_link(&self, lang: Lang, path: &str) -> String {
        format!("{}{}{path}", self.site_url.trim_end_matches('/'), lang.prefix())
    }

    /// Whether the providers are the local demo fakes (pages say so).
    pub fn is_demo(&self) -> bool {
        self.demo
    }
}

/// 422 on `payment_type`: the provider is not offered.
pub(crate) fn unavailable() -> Error {
    Error::invalid("payment_type", "payments.validation.provider_unavailable")
}

/// The API error of a provider call that failed while opening a payment: 502.
pub(crate) fn provider_error(e: ProviderError) -> Error {
    match e {
        ProviderError::Unknown => Error::BadGateway { code: "provider_unavailable" },
        ProviderError::Refused { code } => {
            tracing::warn!(%code, "provider refused to open a payment");
            Error::BadGateway { code: "provider_refused" }
        }
    }
}
