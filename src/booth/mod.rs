//! The booth maker (issue 29, ASSETS.md "The booth maker"): exhibitors build a booth in a preset
//! home from their own uploaded furniture (and furniture they bought in the store) in the browser, watch it checked against the booth's
//! rule set as they drag, and submit it for a slot, where it is inspected like any other upload.
//!
//! A feature sits above the model and below the edges: `api`, `web`, `admin` and the worker
//! registry (`crate::workers`) may import it, it imports none of them. It may import everything
//! below the features (`model`, `db`, `storage`, `http`, `auth`, `forms`, the job queue `queue`
//! and the generic `jobs`, `mail`, and what those stand on), `crate::assets` (the furniture and
//! its reports, the uploader's request guard) and `crate::exhibit` (slots, the submission term,
//! the submission record) and `crate::store` (the furniture a user bought); never `ingame`.
//!
//! Where its parts go: its routes ([`api`], mounted at `/api/v1/booth_maker` by `crate::app`),
//! its queries and client views ([`model`]), its background jobs ([`jobs`]), and the pure parts
//! (no database, no clock): the scene's shape and structural check ([`scene`]) and the totals
//! and rule check the editor shares ([`totals`]). This file only declares the modules and lists
//! the routes (a module never imports its own `mod.rs`, `tests/it/layers`).

pub mod api;
pub mod demo;
pub mod jobs;
pub mod model;
pub mod scene;
pub mod totals;

use rocket::Route;

/// The routes of this feature, mounted at `/api/v1/booth_maker`.
pub fn routes() -> Vec<Route> {
    api::routes()
}
