//! What the API and the page share about VRChat avatar orders: whether they are offered, the
//! user's avatars and orders as one list, and opening an order from what the user sent (its one
//! validation path).

use chrono::{DateTime, Utc};
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::config::Config;
use crate::db::entities::vrchat_avatar_order::{self, AvatarPaymentType, PurchaseType};
use crate::error::{Error, Result};
use crate::payments::Providers;
use crate::store::vrchat::avatar::{self, VrcAvatarView};
use crate::store::vrchat::order::{self, AvatarOrderView, OrderRequest, Prices};

/// Longest avatar name, in characters.
pub const NAME_MAX: usize = 64;

/// What a user orders.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct AvatarOrderInput {
    /// `new` or `update`.
    pub purchase_type: PurchaseType,
    /// `paypal` or `gmo_payment` (ignored for a free order).
    pub payment_type: AvatarPaymentType,
    /// `new`: the user's avatar asset (an uploaded VRM).
    #[serde(default)]
    pub asset_id: Option<i32>,
    /// `new`: the avatar's name on VRChat (1–64 characters).
    #[serde(default)]
    pub avatar_name: Option<String>,
    /// `update`: the user's VRChat avatar to convert again.
    #[serde(default)]
    pub avatar_uuid: Option<String>,
}

/// The user's VRChat avatars and orders.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VrcAvatarList {
    /// Whether orders are taken here at all.
    pub offered: bool,
    /// The payment types offered.
    pub payment_types: Vec<AvatarPaymentType>,
    /// What orders cost and buy.
    pub prices: Prices,
    /// Their avatars, newest first.
    pub avatars: Vec<VrcAvatarView>,
    /// Their orders, newest first.
    pub orders: Vec<AvatarOrderView>,
}

/// The payment types the configured providers offer for avatar orders.
pub fn payment_types(providers: &Providers) -> Vec<AvatarPaymentType> {
    let mut out = Vec::new();
    if providers.paypal.is_some() {
        out.push(AvatarPaymentType::Paypal);
    }
    if providers.gmo.is_some() {
        out.push(AvatarPaymentType::GmoPayment);
    }
    out
}

/// Whether orders are taken: a converter may work them (a worker key) and, unless every order
/// is free, a provider takes the money.
pub fn offered(config: &Config, providers: &Providers) -> bool {
    let prices = Prices::from_config(config);
    let free = prices.new_price == 0 && prices.update_price == 0;
    !config.converter_worker_key.is_empty() && (free || !payment_types(providers).is_empty())
}

/// The user's list, as the API answers it and the page shows it.
pub async fn list_of(
    db: &DatabaseConnection,
    config: &Config,
    providers: &Providers,
    user_id: i32,
) -> Result<VrcAvatarList> {
    let avatars = avatar::of_user(db, user_id).await?.iter().map(VrcAvatarView::of).collect();
    let orders = order::views(db, &order::of_user(db, user_id).await?).await?;
    Ok(VrcAvatarList {
        offered: offered(config, providers),
        payment_types: payment_types(providers),
        prices: Prices::from_config(config),
        avatars,
        orders,
    })
}

/// Checks and opens an order (the API and the page share it).
pub async fn open_order(
    db: &DatabaseConnection,
    config: &Config,
    providers: &Providers,
    user_id: i32,
    input: AvatarOrderInput,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    if !offered(config, providers) {
        return Err(Error::NotImplemented);
    }
    let prices = Prices::from_config(config);
    let (price, _) = prices.of(input.purchase_type);
    if price > 0 && !payment_types(providers).contains(&input.payment_type) {
        return Err(Error::invalid("payment_type", "payments.validation.provider_unavailable"));
    }
    let avatar_name = match input.avatar_name.as_deref().map(str::trim) {
        Some(name) if name.chars().count() > NAME_MAX => {
            return Err(Error::invalid("avatar_name", "validation.too_long"));
        }
        Some(name) if name.chars().any(char::is_control) => {
            return Err(Error::invalid("avatar_name", "validation.control_chars"));
        }
        Some("") | None => None,
        Some(name) => Some(name.to_string()),
    };
    let request = OrderRequest {
        purchase_type: input.purchase_type,
        payment_type: input.payment_type,
        asset_id: input.asset_id,
        avatar_uuid: input.avatar_uuid,
        avatar_name,
    };
    order::open(db, &prices, user_id, request, now).await
}
