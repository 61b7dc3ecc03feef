//! The queries, rules and client views of `crate::booth`, on the entities of `crate::db`: the
//! preset homes ([`home`]), the user's scenes and their drafts ([`housing`]), the one check of a
//! scene against what the user may place ([`check`]), the editor's palette ([`palette`]) and the
//! submission of a scene ([`submit`]).

pub mod check;
pub mod home;
pub mod housing;
pub mod palette;
pub mod submit;
