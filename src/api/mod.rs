//! The JSON API: `/api/v1` resources, application support calls (incl. the `/api/ogp` link
//! preview) and the OpenAPI document.

pub mod ctx;
pub mod docs;
pub mod example;
pub mod ogp;
pub mod support;
pub mod v1;

pub use ctx::Api;
