//! Server-rendered pages: locale routing, parameter rules, Tera helpers, the Vite manifest,
//! error pages and the page handlers per route module.

pub mod client_ip;
pub mod cookies;
pub mod errors;
pub mod headers;
pub mod limit;
pub mod locale;
pub mod notifier;
pub mod page;
pub mod pager;
pub mod pages;
pub mod params;
pub mod redirect;
pub mod tera;
pub mod vite;

use crate::config::Config;
use crate::i18n::Messages;
use vite::ViteAssets;

/// Site-wide state shared by pages and the API, managed by Rocket.
pub struct Site {
    /// The configuration.
    pub config: Config,
    /// The message catalogues.
    pub messages: Messages,
    /// The front-end build.
    pub assets: ViteAssets,
}
pub mod protect;
