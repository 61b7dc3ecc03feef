//! VRChat (issue 31): linking a user's VRChat account by a code in its bio ([`link`]), through
//! VRChat's web API ([`client`]), with the managed state the routes use ([`service`]); VRChat
//! avatars ordered and paid for like an application ([`order`], [`order_pay`], [`offer`]: what the API and the page share), moved through
//! their statuses ([`status`], the pure machine; [`avatar`], the database side) by converter
//! workers ([`convert`] is the reference converter's part this machine can do: validate the VRM
//! and write a normalised GLB).

pub mod avatar;
pub mod client;
pub mod convert;
pub mod link;
pub mod offer;
pub mod order;
pub mod order_pay;
pub mod service;
pub mod status;
