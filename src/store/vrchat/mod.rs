//! VRChat (issue 31): linking a user's VRChat account by a code in its bio ([`link`]), through
//! VRChat's web API ([`client`]), with the managed state the routes use ([`service`]). Avatar
//! orders and conversions are not built yet.

pub mod client;
pub mod link;
pub mod service;
