//! The domain model: vocabularies, phase rules, pagination, and the queries and client views
//! that each entity owns.

pub mod concept;
pub mod event;
pub mod inquiry;
pub mod kinds;
pub mod link_preview;
pub mod pagination;
pub mod people;
pub mod phase;
pub mod user;
pub mod world;
