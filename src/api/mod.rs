//! The JSON API: `/api/v1` resources, application support calls and the OpenAPI document.

pub mod ctx;
pub mod docs;
pub mod support;
pub mod v1;

pub use ctx::Api;
