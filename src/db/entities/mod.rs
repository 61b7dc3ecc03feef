//! SeaORM entities, one file per table.

pub mod artist;
pub mod catalog_item;
pub mod catalog_item_category;
pub mod catalog_item_category_group;
pub mod circle;
pub mod company;
pub mod company_highlight;
pub mod company_world;
pub mod concept;
pub mod concept_artist;
pub mod concept_keyword;
pub mod event;
pub mod event_phase;
pub mod exhibitor;
pub mod exhibitor_slot;
pub mod keyword;
pub mod poster;
pub mod world;
pub mod world_area;
pub mod world_artist;
pub mod world_keyword;
