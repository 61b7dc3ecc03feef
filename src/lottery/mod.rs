//! The verifiable lottery draw (DOMAIN.md "The lottery"), as pure functions: no database, no
//! clock, no application state. The model loads a draw's inputs from the database, and the CLI's
//! `vmarket lottery verify` recomputes a published draw with the very same code.
//!
//! # What is published, and when
//!
//! 1. **Commit.** Staff create a run: a fresh 32-byte [`Seed`] from the operating system's
//!    random source. Only its SHA-256 ([`Seed::hash`]) is shown on the event page; the seed stays
//!    on the server. Whoever sees the hash before the draw knows the seed can no longer change.
//! 2. **Draw.** The [`Inputs`] — every plan with the slots it offers and every entry with its
//!    wishes — are put in a canonical order and written in a canonical text form
//!    ([`Inputs::canonical`]); their SHA-256 is [`Inputs::digest`]. [`draw`] computes the result
//!    from the seed and the inputs alone; its [`Draw::digest`] covers the seed hash, the inputs
//!    digest and every application's outcome.
//! 3. **Publish.** The seed, the canonical inputs and the result digest are published. Anyone
//!    can check with [`verify`] that the seed matches the hash committed before, that the inputs
//!    are the ones digested, and that the draw gives the published result.
//!
//! # The algorithm
//!
//! *Priority.* A ChaCha20 generator ([`rand_chacha::ChaCha20Rng::from_seed`]) is seeded with the
//! seed. Walking the entries in canonical order (ascending entry id), entry number *i* takes the
//! *i*-th 64-bit word of the stream (`next_u64`) as its key; the priority order is the entries
//! sorted by key ascending, ties (probability ≈ 2⁻⁶⁴ per pair) broken by entry id. This is a
//! uniformly random permutation that a third party reimplements in a few lines from the
//! ChaCha20 keystream alone (no library's shuffle or range sampling, which may change between
//! versions, is involved).
//!
//! *Rounds by choice.* Round 1 walks the entries in priority order and gives each its first wish
//! if that plan has a slot left; round 2 does the same with second wishes, and so on. In round
//! *k* an entry without multiple-win that already won in an earlier round is skipped (its wish
//! loses), and every wish that meets a full plan loses.
//!
//! Why rounds and not "each entry in priority order takes its best plan left": with the latter a
//! high-priority entry's second wish would take the last slot of a plan before a low-priority
//! entry's *first* wish for it. Rounds honour wishes in choice order across entries — a first
//! wish is never displaced by anyone's second wish — and they give these properties (the
//! property tests check each):
//!
//! - a plan never has more winners than its capacity;
//! - an entry wins at most one application unless it is multiple-win;
//! - **first-wish dominance:** when an entry wins its *k*-th wish, each of its earlier wishes
//!   either won too (multiple-win) or met a full plan — a later wish never wins while an earlier
//!   one could have;
//! - **no slot is wasted:** a plan left with free slots turned down only wishes of entries that
//!   had already won an earlier wish;
//! - the same seed and inputs give the same result, on every machine and database.

mod draw;
mod inputs;
mod seed;
mod verify;

pub use draw::{Draw, Outcome, draw};
pub use inputs::{ApplicationInput, EntryInput, InputError, Inputs, PlanInput};
pub use seed::{Seed, SeedError, sha256_hex};
pub use verify::{Published, VerifyError, verify};
