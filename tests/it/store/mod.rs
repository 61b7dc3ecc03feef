//! The store and the avatar side (issue 31): so far, the avatar maker's parts ([`avatar_parts`]), box submissions ([`box_submissions`]), housing videos ([`housing_videos`]) and
//! store items with their purchases ([`items`]) and pictures ([`item_images`]), sets ([`item_sets`]), paid for by card ([`orders`]), through PayPal ([`paypal_orders`]) or on GMO's page ([`gmo_orders`]), and their pages ([`pages`]); linking a VRChat account ([`vrchat`]); VRChat avatar orders and conversions ([`vrchat_avatars`]) and the sweep over them ([`vrchat_avatar_sweep`]).

mod avatar_parts;
mod box_submissions;
mod gmo_orders;
mod housing_videos;
mod item_images;
mod item_sets;
mod items;
mod orders;
mod pages;
mod paypal_orders;
mod vrchat;
mod vrchat_avatar_sweep;
mod vrchat_avatars;
