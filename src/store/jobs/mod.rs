//! The background jobs of `crate::store` (none yet): serializable structs, one per file, each a
//! [`crate::queue::Job`], enqueued through the job queue (`crate::queue`) and run by the worker
//! registry (`crate::workers`), where each is listed once.
