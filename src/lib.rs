//! vmarket: the web platform of a virtual-world event marketplace ("Virtual Market").
//!
//! One Rocket application serves the bilingual public pages, the REST API, the staff console
//! and support endpoints; see `ARCHITECTURE.md` for the map.
//!
//! The modules are layered; each imports only modules of the rows above it in this diagram,
//! i.e. below it in the stack (`tests/it/layers/rules.rs` holds each module's exact list and
//! checks every file, and that no file of `src` reaches itself through its imports; README
//! "Layout"):
//!
//! ```text
//! types  lottery  clock  config     pure values, the verifiable draw, the clock, typed configuration
//!   ← i18n ← error  telemetry  storage
//!   ← db                            connection, entities, migrations (not the job queue's tables)
//!   ← mail                          rendering and storing mails
//!   ← model                         queries, rules, client views, one file per entity
//!   ← queue                         the job queue: Queue, the Job trait, JobContext
//!   ← jobs                          the jobs of mail, inquiries and the lottery
//!   ← http                          what the edges share (Site, cookies, limits, redirects, uploads…)
//!   ← auth                          tokens, guards, CSRF, sign-in links
//!   ← forms  linkpreview  payments  typed input; the link preview; the payment providers and flows
//!   ← assets ← booth | ingame       features: the asset uploader, the booth maker, the in-game API,
//!     assets, payments ← store        the store (each with routes(), model, jobs)
//!   ← api | web                     the JSON API | the pages; neither imports the other
//!   ← account  admin                the built-in account service, the staff console (both use web's page shell)
//!   ← openapi  workers              the OpenAPI document of every API; the worker registry
//!   ← app  seed  cli  (main)        the Rocket instance, the demo data, the command line, the binary
//! ```

#![warn(missing_docs)]

pub mod account;
pub mod admin;
pub mod api;
pub mod app;
pub mod assets;
pub mod auth;
pub mod booth;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod exhibit;
pub mod forms;
pub mod http;
pub mod i18n;
pub mod ingame;
pub mod jobs;
pub mod linkpreview;
pub mod lottery;
pub mod mail;
pub mod model;
pub mod openapi;
pub mod payments;
pub mod queue;
pub mod receipts;
pub mod seed;
pub mod storage;
pub mod store;
pub mod telemetry;
pub mod types;
pub mod web;
pub mod workers;
