//! Schema migrations, applied in order on start and by `vmarket migrate`.

use sea_orm_migration::prelude::*;

mod m20261121_000001_events_and_worlds;
mod m20261122_000010_accounts_and_users;
mod m20261122_000100_link_previews;
mod m20261122_000200_inquiries;
mod m20261122_000300_catalog;
mod m20261122_000400_hub;
mod m20261122_000500_redirects;

/// The list of every migration the schema is built from.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_events_and_worlds::Migration),
            Box::new(m20261122_000010_accounts_and_users::Migration),
            Box::new(m20261122_000100_link_previews::Migration),
            Box::new(m20261122_000200_inquiries::Migration),
            Box::new(m20261122_000300_catalog::Migration),
            Box::new(m20261122_000400_hub::Migration),
            Box::new(m20261122_000500_redirects::Migration),
        ]
    }
}

/// A foreign key from `table.column` to `target.id`, deleted with its parent.
pub(crate) fn fk(table: &'static str, column: &'static str, target: &'static str) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(table, column).to(target, "id").on_delete(ForeignKeyAction::Cascade).take()
}

/// A plain index over `columns` of `table`, named after them.
pub(crate) fn index(table: &'static str, columns: &[&'static str]) -> IndexCreateStatement {
    let mut stmt = Index::create();
    stmt.name(format!("idx_{table}_{}", columns.join("_"))).table(table);
    for column in columns {
        stmt.col(*column);
    }
    stmt.take()
}
