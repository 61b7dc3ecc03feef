//! Typed configuration, read once from `Rocket.toml` profiles and `ROCKET_*` environment
//! variables, then handed to the application as managed state.
//!
//! [`Config`] holds every setting with its default ([`settings`]); [`Config::from_figment`]
//! reads it and refuses what cannot work together ([`load`]), the mail settings included
//! ([`mail`]); [`values`] holds the environment and the credential types.

pub mod load;
pub mod mail;
pub mod settings;
pub mod values;

pub use mail::MailSettings;
pub use settings::Config;
pub use values::{Environment, Secret, SmtpUrl};
