//! The asset uploader (issue 27, ASSETS.md "The asset uploader"), mounted at `/uploader`: users
//! upload 3D models, pictures, sounds, archives and videos in resumable multipart uploads; a
//! background pipeline (`waiting → analyzing → validating → converting → uploaded`, or `failed`)
//! reads each file ([`analyse`], pure), checks it against its kind's rule set and writes a report;
//! owners hand out download tokens.
//!
//! - [`analyse`]: the analysers, rule sets and report, as pure functions over bytes;
//! - [`model`]: settings and rule sets, assets, versions, uploads, tokens — their queries and
//!   rules;
//! - [`pipeline`]: what each step of the pipeline does (storage and analysis);
//! - [`jobs`]: the background jobs that run the steps and expire unfinished uploads;
//! - [`api`]: the `/uploader` routes ([`routes`]).

pub mod analyse;
pub mod api;
pub mod jobs;
pub mod model;
pub mod pipeline;

pub use api::routes;
