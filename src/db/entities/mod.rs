//! SeaORM entities, one file per table.

pub mod account;
pub mod account_code;
pub mod account_session;
pub mod artist;
pub mod concept;
pub mod concept_artist;
pub mod concept_keyword;
pub mod event;
pub mod event_phase;
pub mod inquiry;
pub mod inquiry_category;
pub mod keyword;
pub mod link_preview;
pub mod poster;
pub mod signing_key;
pub mod user;
pub mod user_external_link;
pub mod world;
pub mod world_area;
pub mod world_artist;
pub mod world_keyword;
