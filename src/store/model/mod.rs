//! The queries, rules and client views of `crate::store` (none yet), on the entities of
//! `crate::db` as every model of `crate::model` does: one file per entity when there are several.
