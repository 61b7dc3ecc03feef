//! The JSON API: `/api/v1` resources and application support calls (incl. the `/api/ogp` link
//! preview), with the helpers that build the OpenAPI document from their parts (the whole
//! document: `crate::openapi`).

pub mod ctx;
pub mod docs;
pub mod example;
pub mod ogp;
pub mod support;
pub mod tool_version;
pub mod v1;

pub use ctx::Api;
