//! The asset uploader (issue 27, ASSETS.md "The asset uploader"), mounted at `/uploader`: users
//! upload 3D models, pictures, sounds, archives and videos in resumable multipart uploads; a
//! background pipeline (`waiting → analyzing → validating → converting → uploaded`, or `failed`)
//! reads each file ([`analyse`], pure), checks it against its kind's rule set and writes a report;
//! owners hand out download tokens.
//!
//! A feature sits above the model and below the edges: `api`, `web`, `admin`, `openapi` and the
//! worker registry (`crate::workers`) may import it, it imports none of them. It may import
//! everything below the features (`model`, `db`, `storage`, `http`, `auth`, `forms`, the job
//! queue `queue` and the generic `jobs`, `mail`, and what those stand on); no other feature
//! (`tests/it/layers`, README "Layout").
//!
//! - [`analyse`]: the analysers, rule sets and report, as pure functions over bytes;
//! - [`model`]: settings and rule sets, assets, versions, uploads, tokens — their queries and
//!   rules;
//! - [`pipeline`]: what each step of the pipeline does (storage and analysis);
//! - [`jobs`]: the background jobs that run the steps and expire unfinished uploads (listed in
//!   `crate::workers`);
//! - [`demo`]: the demo exhibitor's assets (`vmarket seed demo`);
//! - [`api`]: the `/uploader` routes ([`routes`], mounted by `crate::app`).

pub mod analyse;
pub mod api;
pub mod demo;
pub mod jobs;
pub mod model;
pub mod pipeline;

pub use api::routes;
