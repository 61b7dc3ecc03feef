//! The domain model: phase rules, pagination, and the queries, rules and client views that each
//! entity owns.

pub mod catalog;
pub mod circle;
pub mod circle_invitation;
pub mod company;
pub mod concept;
pub mod entry;
pub mod entry_events;
pub mod entry_plan;
pub mod entry_status;
pub mod event;
pub mod exhibitor;
pub mod exhibitor_notification;
pub mod hub;
pub mod inquiry;
pub mod link_preview;
pub mod pagination;
pub mod people;
pub mod phase;
pub mod redirect;
pub mod search;
pub mod text;
pub mod user;
pub mod user_event;
pub mod world;
