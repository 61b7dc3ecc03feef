//! Money rows are never deleted: `orders` (every payment attempt, the failed and duplicate ones
//! staff must refund included) and `payment_histories` (the settled payments). Their foreign
//! keys cascade like every other, so deleting an event, a world, an entry plan, an entry, an
//! application or a user would have taken them along; a `BEFORE DELETE` trigger on each table
//! refuses any delete of their rows, a cascaded one included, which makes the whole statement
//! fail (the console refuses such deletes earlier, naming what still uses the row). The error
//! carries [`KEPT`] (on PostgreSQL with SQLSTATE 23503, a foreign key violation) so that callers
//! can tell it from other failures.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

/// The marker in the error a refused delete raises.
pub const KEPT: &str = "money_rows_kept";

/// The tables whose rows are kept.
const TABLES: [&str; 2] = ["orders", "payment_histories"];

/// Adds the triggers (one marked switch: SQLite's `RAISE`, PostgreSQL's plpgsql function).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DatabaseBackend::Sqlite => {
                for table in TABLES {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} BEGIN \
                         SELECT RAISE(ABORT, '{KEPT}: {table} rows are never deleted'); END"
                    ))
                    .await?;
                }
            }
            DatabaseBackend::Postgres => {
                db.execute_unprepared(&format!(
                    "CREATE FUNCTION {KEPT}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                     RAISE EXCEPTION '{KEPT}: % rows are never deleted', TG_TABLE_NAME \
                     USING ERRCODE = 'foreign_key_violation'; END $$"
                ))
                .await?;
                for table in TABLES {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} FOR EACH ROW EXECUTE FUNCTION {KEPT}()"
                    ))
                    .await?;
                }
            }
            other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
        }
        Ok(())
    }
}
