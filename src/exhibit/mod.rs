//! After the win (issue 28, ASSETS.md "Slots and the exhibitor's work after paying"): a circle's
//! event slots and where their booths stand, the circle's catalogue items, its booth submissions
//! and their inspection, the per-event checklist, the exhibitor page's preview, and what the
//! desktop submission tool reads.
//!
//! A slot is an application whose stored status is `paid` or `win` (DOMAIN.md's diagram): it is
//! derived, never stored twice, so paying, declining and staff corrections need not keep a second
//! table in step; its id is the application's. What a slot adds — its placement, a world area
//! and booth number assigned by staff — is `event_slot_placements`, one booth per area and number
//! by a unique index.
//!
//! A feature sits above the model and below the edges: `api` (`GET /api/v1/user/{event}/event_slots`,
//! `src/api/v1/event_slots.rs`, with the API's request context) and `admin` (the console's
//! `event_slots`) import it; it imports none of them (`tests/it/layers`).

pub mod catalog;
pub mod catalog_form;
pub mod checklist;
pub mod demo;
pub mod exhibitor_row;
pub mod placement;
pub mod preview;
pub mod slot;
pub mod submission;
pub mod term;
pub mod tool_release;
pub mod upcoming;
