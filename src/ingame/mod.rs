//! The in-game API (issue 30, ASSETS.md "In-game"), mounted at `/ingame`: what the virtual
//! venues ask of the site while a visitor walks an event. Built so far: the game client's
//! sign-in by a device grant (RFC 8628) ending in an opaque in-game token, who the token belongs
//! to, players' profiles and follows, emotes and pallets (staff publish emotes in the console), and
//! the user's assets, presence (invitations, joining, portals) and chat (lists and live streams,
//! fanned out by each node's hub; staff hide messages and bar players in the console).
//!
//! A feature sits above the model and below the edges: `api`, `web`, `admin` and the worker
//! registry (`crate::workers`) may import it, it imports none of them. It may import everything
//! below the features (`model`, `db`, `storage`, `http`, `auth`, `forms`, the job queue `queue`
//! and the generic `jobs`, `mail`, and what those stand on) and `crate::assets`; never `booth`
//! or `store` (`tests/it/layers`, README "Layout").
//!
//! - [`codes`]: user codes, device codes and tokens (pure); [`window`]: lists' limit and offset
//!   (pure);
//! - [`model`]: device grants, in-game sessions, people, presence, emotes and the asset lists —
//!   their queries and rules;
//! - [`chat`]: chat messages, the node's chat hub, and following a table through out-of-order
//!   commits;
//! - [`player`] and [`state`]: the request guards of `/ingame` handlers;
//! - [`limits`]: the sign-in's and chat's rate limits (managed state);
//! - [`api`]: the routes ([`routes`], mounted by `crate::app`); the mypage page that confirms a
//!   code is a page, in `crate::web::pages::ingame`;
//! - [`jobs`]: its background jobs (none yet).

pub mod api;
pub mod chat;
pub mod codes;
pub mod jobs;
pub mod limits;
pub mod model;
pub mod player;
pub mod state;
pub mod window;

pub use api::routes;
