//! The store and the avatar side (issue 31): so far, box submissions ([`box_submissions`]), housing videos ([`housing_videos`]) and
//! store items with their purchases ([`items`]), paid for by card ([`orders`]), and their pages ([`pages`]).

mod box_submissions;
mod housing_videos;
mod items;
mod orders;
mod pages;
