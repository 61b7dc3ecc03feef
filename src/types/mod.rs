//! Shared value types: the language, ids and permalinks checked at the edge, bilingual values,
//! and the closed vocabularies several entities store (`kinds`).
//! Every layer may use them; they import nothing else of the application.

pub mod bilingual;
pub mod kinds;
pub mod lang;
pub mod params;

pub use bilingual::{Bilingual, Localized, localized};
pub use lang::Lang;
pub use params::{Id, InvalidParam, Permalink, TransactionUuid};
