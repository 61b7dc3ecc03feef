//! The queries and rules of `crate::ingame`, on the entities of `crate::db`: the device grants
//! of the sign-in ([`grant`]) and the in-game sessions they end in ([`session`]), players and follows ([`people`]) and where they are ([`presence`]), emotes and pallets ([`emotes`]), and the user's assets as the game lists them
//! ([`assets`]).

pub mod assets;
pub mod emotes;
pub mod grant;
pub mod people;
pub mod presence;
pub mod session;
