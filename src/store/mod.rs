//! The store and the avatar side (issue 31). Built so far: store items — a seller's uploaded
//! avatar, furniture or avatar-part bundle on sale, with the price in force by the clock
//! ([`pricing`]), the public listing and search, purchases once per buyer with a download link
//! ([`model::store_item`], [`model::purchase`], [`api::items`], the pages `/store`,
//! `/mypage/store/items`, `/mypage/purchases`), sets of a seller's items sold as one
//! ([`model::item_set`], [`api::item_sets`]), priced items paid for by card, through PayPal or
//! on GMO's payment page through an order that holds its price ([`model::order`], [`checkout`],
//! [`card`], [`paypal`], [`gmo`], [`provider_order`], [`api::orders`], `/store/orders/{uuid}`);
//! housing videos — a user's uploaded video converted (ffmpeg) into an MP4 of bounded size and a
//! thumbnail by a background job ([`video`], [`model::housing_video`],
//! [`jobs::ConvertHousingVideo`], [`api::housing_videos`], the page `/mypage/housing-videos`);
//! box submissions reviewed by staff ([`model::box_submission`], [`api::box_submissions`],
//! `/mypage/box-submissions`); the avatar maker's parts, some for the buyers of a store item
//! only ([`model::avatar_part`], [`api::avatar_parts`]); a user's VRChat account, linked by a code
//! in its bio ([`vrchat`], [`api::vrchat`], `/mypage/vrchat`); VRChat avatars ordered and paid
//! for like an application, then converted and uploaded by converter workers through their own
//! protocol ([`vrchat::order`], [`vrchat::avatar`], [`api::vrchat_avatars`], [`api::converter`],
//! the reference converter `vmarket converter`).
//!
//! A feature sits above the model and below the edges: `api`, `web`, `admin` and the worker
//! registry (`crate::workers`) may import it, it imports none of them. It may import everything below the features (`model`, `db`, `storage`, `http`, `auth`, `forms`, the job queue `queue` and the generic `jobs`, `mail`, and what those stand on), `crate::assets` and `crate::payments`; never `booth` or `ingame`.
//!
//! Where its parts go: its routes (`routes()` below, mounted at `/api/v1/store` by `crate::app`; its API),
//! its queries, rules and client views ([`model`]), its background jobs ([`jobs`], listed in
//! `crate::workers`), and pure parts (no database, no clock) in modules of their own, as
//! `crate::lottery` is for the draw. This file only declares the modules and lists the routes:
//! what several of them share goes in a file of its own (a module never imports its own
//! `mod.rs`, `tests/it/layers`).

pub mod api;
pub mod card;
pub mod checkout;
pub mod demo;
pub mod gmo;
pub mod jobs;
pub mod model;
pub mod paypal;
pub mod pricing;
pub mod provider_order;
pub mod video;
pub mod vrchat;

use rocket::Route;

/// The routes of this feature, mounted at `/api/v1/store`.
pub fn routes() -> Vec<Route> {
    let mut routes = api::housing_videos::routes();
    routes.extend(api::items::routes());
    routes.extend(api::item_images::routes());
    routes.extend(api::item_sets::routes());
    routes.extend(api::orders::routes());
    routes.extend(api::box_submissions::routes());
    routes.extend(api::avatar_parts::routes());
    routes.extend(api::vrchat::routes());
    routes.extend(api::vrchat_avatars::routes());
    routes.extend(api::converter::routes());
    routes
}
