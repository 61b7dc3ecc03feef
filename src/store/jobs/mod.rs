//! The background jobs of `crate::store`: serializable structs, one per file, each a
//! [`crate::queue::Job`], enqueued through the job queue (`crate::queue`) and run by the worker
//! registry (`crate::workers`), where each is listed once.

pub mod avatar_order_sweep;
pub mod convert_housing_video;

pub use avatar_order_sweep::AvatarOrderSweep;
pub use convert_housing_video::ConvertHousingVideo;
