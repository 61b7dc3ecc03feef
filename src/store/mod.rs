//! The store (visitors buy exhibitors' items, paid through `crate::payments`). Nothing is built yet; this folder holds its place and its layer (`tests/it/layers`,
//! README "Layout").
//!
//! A feature sits above the model and below the edges: `api`, `web`, `admin` and the worker
//! registry (`crate::workers`) may import it, it imports none of them. It may import everything below the features (`model`, `db`, `storage`, `http`, `auth`, `forms`, the job queue `queue` and the generic `jobs`, `mail`, and what those stand on), `crate::assets` and `crate::payments`; never `booth` or `ingame`.
//!
//! Where its parts go: its routes (`routes()` below, mounted at `/api/v1/store` by `crate::app`; its API),
//! its queries, rules and client views ([`model`]), its background jobs ([`jobs`], listed in
//! `crate::workers`), and pure parts (no database, no clock) in modules of their own, as
//! `crate::lottery` is for the draw. This file only declares the modules and lists the routes:
//! what several of them share goes in a file of its own (a module never imports its own
//! `mod.rs`, `tests/it/layers`).

pub mod jobs;
pub mod model;

use rocket::Route;

/// The routes of this feature, mounted at `/api/v1/store` (none yet).
pub fn routes() -> Vec<Route> {
    Vec::new()
}
