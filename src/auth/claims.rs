//! The claims of the tokens the account service signs and the product verifies.

use serde::{Deserialize, Serialize};

use crate::model::user::Identity;

/// The audience every product token is issued for.
pub const AUDIENCE: &str = "vmarket";

/// JWT claims: the registered ones plus the identity the product provisions users from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// Issuer: the account service base URL.
    pub iss: String,
    /// Audience: [`AUDIENCE`].
    pub aud: String,
    /// Account id.
    pub sub: String,
    /// Expiry, seconds since the epoch.
    pub exp: i64,
    /// Issued at, seconds since the epoch.
    pub iat: i64,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// The account's token generation when this token was issued: signing out moves the
    /// generation on, and the product refuses tokens of an earlier one (strictly ordered, no
    /// clock involved).
    #[serde(default)]
    pub r#gen: i64,
    /// The account's email, where the product sends mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl Claims {
    /// The identity these claims vouch for.
    pub fn identity(&self) -> Identity {
        Identity {
            sub: self.sub.clone(),
            vmarket_id: self.vmarket_id.clone(),
            name_ja: self.name_ja.clone(),
            name_en: self.name_en.clone(),
            email: self.email.clone(),
        }
    }
}
