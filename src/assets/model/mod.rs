//! The uploader's data and rules: settings and rule sets ([`setting`], built-ins in
//! [`defaults`]), assets ([`asset`]), their versions ([`version`]), multipart uploads
//! ([`upload`]), one-shot small uploads ([`temporary`]), download tokens ([`token`]) and what
//! clients see of them ([`views`]).

pub mod asset;
pub mod defaults;
pub mod setting;
pub mod temporary;
pub mod token;
pub mod upload;
pub mod version;
pub mod views;
