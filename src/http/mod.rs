//! What every edge of the site shares — the API (`api`), the pages (`web`), sign-in (`auth`)
//! and the account service: the site-wide state, the client's IP, cookies, rate limits, form
//! keys, the one way to redirect, multipart uploads and the front-end build. It sits below those edges,
//! so none of them needs another.

pub mod client_ip;
pub mod cookies;
pub mod image_cost;
pub mod limit;
pub mod memory;
pub mod notifier;
pub mod protect;
pub mod redirect;
pub mod render_cache;
pub mod shared_cache;
pub mod snapshot;
pub mod static_files;
pub mod template;
pub mod upload;
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
