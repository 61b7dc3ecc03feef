//! A user as the hub shows them: a streamer, an ambassador, an event's organiser.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::user;
use crate::model::user::{IconView, UserAttribute};
use crate::types::{Lang, Localized, localized};

/// A user as the hub shows them (a streamer, an ambassador, an event's organiser).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HubUserView {
    /// User id.
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Icon URLs.
    pub icon: IconView,
    /// An official streamer or not.
    pub attribute: UserAttribute,
}

impl HubUserView {
    /// The view of `u` in `lang`.
    pub fn new(u: &user::Model, lang: Lang) -> Self {
        Self {
            id: u.id,
            vmarket_id: u.vmarket_id.clone(),
            name: Localized::new(lang, u.name_ja.clone(), u.name_en.clone()),
            icon: u.icon(),
            attribute: u.attribute,
        }
    }
}
