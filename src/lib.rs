//! vmarket: the web platform of a virtual-world event marketplace ("Virtual Market").
//!
//! One Rocket application serves the bilingual public pages, the REST API, the staff console
//! and support endpoints; see `ARCHITECTURE.md` for the map.
//!
//! The modules are layered; each imports only what lies below it (checked by
//! `tests/it/layers.rs`, see the README's "Layout"):
//!
//! ```text
//! types            shared values (Lang, Id, Permalink, bilingual text); imports nothing of the app
//! lottery          the verifiable draw as pure functions; imports nothing of the app either
//!   ← db           connection, entities with their enums, migrations
//!   ← model        queries, rules, client views (also error, clock, config)
//!   ← forms        the typed input of every write, validated one way   (http: shared edge
//!   ← api | web    the JSON API | the pages; neither imports the other   plumbing, below both)
//! ```

#![warn(missing_docs)]

pub mod account;
pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod forms;
pub mod http;
pub mod i18n;
pub mod jobs;
pub mod linkpreview;
pub mod lottery;
pub mod assets;
pub mod mail;
pub mod booth;
pub mod model;
pub mod payments;
pub mod seed;
pub mod storage;
pub mod telemetry;
pub mod types;
pub mod web;
pub mod queue;
pub mod ingame;
pub mod workers;
pub mod openapi;
pub mod store;
