//! What still uses a row. Every foreign key of the schema cascades, so a row deleted while other
//! records refer to it would take them along — an event its entries, a world its entry plans and
//! with them applications (payments are kept by the database itself: see the migration
//! `money_rows_kept`). A resource's `delete` therefore counts what refers to the row
//! ([`Uses::count`]) and refuses with 409 naming each kind and how many ([`Uses::refuse`],
//! [`Error::InUse`]); only the row's own parts (an event's phases, a world's keyword links and
//! areas, a notification's tag links) go with it. `tests/it/admin/deletes.rs` deletes every
//! record of every resource of the demo and checks that no other table lost a row.

use sea_orm::{ConnectionTrait, EntityTrait, PaginatorTrait, Select};

use crate::error::{Error, Result, Use};

/// The records found to use a row, by console resource, in the order they were counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uses(Vec<Use>);

impl Uses {
    /// Nothing found yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the rows `select` finds, as records of console resource `resource` (added to what
    /// that resource already counts).
    pub async fn count<E: EntityTrait<Model: Sync>, C: ConnectionTrait>(
        self,
        db: &C,
        resource: &'static str,
        select: Select<E>,
    ) -> Result<Self> {
        let found = select.count(db).await?;
        Ok(self.add(resource, found))
    }

    /// Adds `count` records of `resource`.
    pub fn add(mut self, resource: &'static str, count: u64) -> Self {
        if count > 0 {
            match self.0.iter_mut().find(|u| u.resource == resource) {
                Some(known) => known.count += count,
                None => self.0.push(Use { resource, count }),
            }
        }
        self
    }

    /// How many records in all.
    pub fn total(&self) -> u64 {
        self.0.iter().map(|u| u.count).sum()
    }

    /// `Ok` when nothing uses the row; otherwise 409 `code` naming what does.
    pub fn refuse(self, code: &'static str) -> Result<()> {
        if self.0.is_empty() { Ok(()) } else { Err(Error::InUse { code, uses: self.0 }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Messages;
    use crate::types::Lang;

    #[test]
    fn uses_add_up_per_resource_and_are_named_in_the_message() {
        assert_eq!(Uses::new().add("worlds", 0).refuse("in_use").ok(), Some(()));
        let uses = Uses::new().add("entry_plans", 2).add("applications", 5).add("entry_plans", 1);
        assert_eq!(uses.total(), 8);
        let error = uses.refuse("in_use").unwrap_err();
        let messages = Messages::bundled();
        let en = error.body(&messages, Lang::En);
        assert_eq!(en.code, "in_use");
        assert!(en.message.ends_with("Still used by: Entry plans (3), Applications (5)."), "{}", en.message);
        assert_eq!(
            en.details.iter().map(|d| d.attribute.as_str()).collect::<Vec<_>>(),
            ["entry_plans", "applications"]
        );
        let ja = error.body(&messages, Lang::Ja);
        assert!(ja.message.ends_with("（使用中：出展プラン 3件、申し込み 5件）"), "{}", ja.message);
        assert_eq!(error.status().code, 409);
    }
}
