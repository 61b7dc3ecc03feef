//! What several migrations build: foreign keys that cascade, plain indexes named after their
//! columns, and the keyword-search index of a searchable table.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

use crate::db::search::Searchable;

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

/// The keyword-search index of `s`. Backend switch: an FTS5 trigram table on SQLite, a pg_trgm
/// GIN index on PostgreSQL (the expressions are the ones `crate::model::search` queries).
pub(crate) async fn search_index(m: &SchemaManager<'_>, s: Searchable) -> Result<(), DbErr> {
    let db = m.get_connection();
    match m.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let cols = s.columns.join(", ");
            let new_cols = s.columns.iter().map(|c| format!("new.{c}")).collect::<Vec<_>>().join(", ");
            let old_cols = s.columns.iter().map(|c| format!("old.{c}")).collect::<Vec<_>>().join(", ");
            let (t, f) = (s.table, s.fts_table);
            db.execute_unprepared(&format!(
                "CREATE VIRTUAL TABLE {f} USING fts5({cols}, content='{t}', content_rowid='id', tokenize='trigram')"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_ai AFTER INSERT ON {t} BEGIN \
                 INSERT INTO {f}(rowid, {cols}) VALUES (new.id, {new_cols}); END"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_ad AFTER DELETE ON {t} BEGIN \
                 INSERT INTO {f}({f}, rowid, {cols}) VALUES ('delete', old.id, {old_cols}); END"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {t}_search_au AFTER UPDATE ON {t} BEGIN \
                 INSERT INTO {f}({f}, rowid, {cols}) VALUES ('delete', old.id, {old_cols}); \
                 INSERT INTO {f}(rowid, {cols}) VALUES (new.id, {new_cols}); END"
            ))
            .await?;
        }
        DatabaseBackend::Postgres => {
            db.execute_unprepared("CREATE EXTENSION IF NOT EXISTS pg_trgm").await?;
            db.execute_unprepared(&format!(
                "CREATE INDEX idx_{t}_search ON {t} USING gin (({expr}) gin_trgm_ops)",
                t = s.table,
                expr = s.pg_document()
            ))
            .await?;
        }
        other => return Err(DbErr::Custom(format!("unsupported database backend {other:?}"))),
    }
    Ok(())
}
