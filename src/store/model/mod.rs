//! The queries, rules and client views of `crate::store`, on the entities of `crate::db` as every
//! model of `crate::model` does: one file per entity.

pub mod avatar_part;
pub mod box_submission;
pub mod housing_video;
pub mod item_set;
pub mod order;
pub mod purchase;
pub mod store_item;
pub mod store_item_image;
