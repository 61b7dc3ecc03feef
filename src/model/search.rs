//! Keyword search over the catalogue, for Japanese and English alike: partial words, no
//! dictionary, case-insensitive.
//!
//! **Backend switch.** This module is the one place where search SQL differs per database:
//! - SQLite: an FTS5 table with the `trigram` tokenizer per searchable table (`<table>_fts`,
//!   external content, kept in sync by triggers; created by migration
//!   `m20261122_000300_catalog`). A term of 3 or more characters becomes an FTS5 phrase,
//!   answered from the trigram index.
//! - PostgreSQL: a `pg_trgm` GIN index over the concatenated searchable columns
//!   ([`Searchable::pg_document`]); a term becomes `document ILIKE '%term%'`, answered by a
//!   Bitmap Index Scan on that index.
//!
//! Terms of 1 or 2 characters (`猫`, `和風` …) contain no trigram, so neither index can answer
//! them. They fall back to a case-insensitive `LIKE` over the same columns, evaluated on the
//! rows the other conditions leave (always one event's rows, through the `event_id` index; the
//! 100k-item latency of this fallback is measured in `bench/`). When the keyword also has a
//! longer term, the index narrows the rows first.

use sea_orm::DatabaseBackend;
use sea_orm::sea_query::{Expr, ExprTrait, SimpleExpr};

pub use crate::model::search_variants::variants;

/// The searchable tables and their columns (the schema half, which the migrations index).
pub use crate::db::search::{CIRCLES, COMPANIES, HUB_NOTIFICATIONS, ITEMS, STORE_ITEMS, Searchable};

/// The fewest characters a term needs for the trigram indexes.
pub const TRIGRAM: usize = 3;
/// At most this many terms of a keyword are used.
pub const MAX_TERMS: usize = 5;
/// At most this many characters of a term are used.
pub const MAX_TERM_CHARS: usize = 64;

impl Searchable {
    fn qualified(&self, column: &str) -> String {
        format!("\"{}\".\"{column}\"", self.table)
    }
}

/// Splits a keyword into search terms: whitespace (ASCII or the ideographic space) and control
/// characters separate them, at most [`MAX_TERMS`] of at most [`MAX_TERM_CHARS`] characters each.
pub fn terms(keyword: &str) -> Vec<String> {
    keyword
        .split(|c: char| c.is_whitespace() || c == '\u{3000}' || c.is_control())
        .filter(|t| !t.is_empty())
        .take(MAX_TERMS)
        .map(|t| t.chars().take(MAX_TERM_CHARS).collect())
        .collect()
}

/// The condition "the row of `target` contains every term of `keyword`" (on its own table,
/// e.g. `catalog_items.id IN (…)`), or `None` when the keyword has no terms. A term is in a row
/// when one of its [`variants`] is (hiragana or katakana, either width), each variant by the rule
/// of its length.
pub fn matches(backend: DatabaseBackend, target: Searchable, keyword: &str) -> Option<SimpleExpr> {
    terms(keyword).iter().map(|term| term_matches(backend, target, term)).reduce(|a, b| a.and(b))
}

/// The condition "the row contains one of the variants of `term`".
fn term_matches(backend: DatabaseBackend, target: Searchable, term: &str) -> SimpleExpr {
    let (long, short): (Vec<_>, Vec<_>) = variants(term).into_iter().partition(|t| t.chars().count() >= TRIGRAM);
    let mut parts: Vec<SimpleExpr> = Vec::new();
    match backend {
        DatabaseBackend::Postgres => {
            let document = target.pg_document();
            for variant in &long {
                parts.push(Expr::cust_with_values(
                    format!("({document}) ILIKE $1"),
                    [format!("%{}%", escape_like(variant))],
                ));
            }
        }
        _ => {
            if !long.is_empty() {
                let phrase =
                    long.iter().map(|t| format!("\"{}\"", t.replace('"', "\"\""))).collect::<Vec<_>>().join(" OR ");
                parts.push(Expr::cust_with_values(
                    format!(
                        "{id} IN (SELECT rowid FROM {f} WHERE {f} MATCH ?)",
                        id = target.qualified("id"),
                        f = target.fts_table
                    ),
                    [phrase],
                ));
            }
        }
    }
    for variant in &short {
        parts.push(like_any(backend, target, target.columns, variant));
    }
    parts.into_iter().reduce(|a, b| a.or(b)).unwrap_or_else(|| Expr::val(false))
}

/// `0` when the first term (one of its variants) appears in a name, `1` otherwise: sorting by it
/// puts name matches before description-only matches. `None` without terms.
pub fn name_rank(backend: DatabaseBackend, target: Searchable, keyword: &str) -> Option<SimpleExpr> {
    let term = terms(keyword).into_iter().next()?;
    let names = &target.columns[..target.name_columns];
    let hit = variants(&term).iter().map(|v| like_any(backend, target, names, v)).reduce(|a, b| a.or(b))?;
    Some(Expr::case(hit, 0).finally(1).into())
}

/// `col LIKE '%term%'` over `columns`, OR-ed. SQLite's `LIKE` ignores ASCII case by itself; on
/// PostgreSQL a term with cased letters uses `ILIKE`, and one without (Japanese, digits) a plain
/// `LIKE`, which skips the per-row case folding.
fn like_any(backend: DatabaseBackend, target: Searchable, columns: &[&str], term: &str) -> SimpleExpr {
    let caseless = term.to_lowercase() == term.to_uppercase();
    let pattern = format!("%{}%", escape_like(&term.to_lowercase()));
    // Placeholders: `$n` on PostgreSQL (numbered within this expression), `?` elsewhere.
    let sql = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let col = target.qualified(c);
            match (backend, caseless) {
                (DatabaseBackend::Postgres, true) => format!("{col} LIKE ${}", i + 1),
                (DatabaseBackend::Postgres, false) => format!("{col} ILIKE ${}", i + 1),
                _ => format!("{col} LIKE ? ESCAPE '\\'"),
            }
        })
        .collect::<Vec<_>>()
        .join(" OR ");
    Expr::cust_with_values(format!("({sql})"), std::iter::repeat_n(pattern, columns.len()))
}

/// Escapes the LIKE wildcards `%` and `_` (and the escape character) in user input.
pub fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_on_any_space() {
        assert_eq!(terms("  猫耳\u{3000}カチューシャ  pink "), ["猫耳", "カチューシャ", "pink"]);
        assert!(terms(" \u{3000} ").is_empty());
        assert_eq!(terms("a b c d e f g").len(), MAX_TERMS);
        assert_eq!(terms("ab\0cd\u{1b}\0"), ["ab", "cd"]);
    }

    #[test]
    fn long_terms_use_the_index_short_ones_like() {
        let sql = |b, k| {
            let q = sea_orm::sea_query::Query::select().expr(matches(b, ITEMS, k).unwrap()).to_owned();
            match b {
                DatabaseBackend::Postgres => q.to_string(sea_orm::sea_query::PostgresQueryBuilder),
                _ => q.to_string(sea_orm::sea_query::SqliteQueryBuilder),
            }
        };
        let long = sql(DatabaseBackend::Sqlite, "猫耳カ");
        assert!(long.contains("catalog_items_fts MATCH '\"猫耳カ\" OR \"猫耳か\" OR \"猫耳ｶ\"'"), "{long}");
        let kana = sql(DatabaseBackend::Sqlite, "えぷろん ﾈｺ");
        assert!(kana.contains("MATCH '\"えぷろん\" OR \"エプロン\""), "{kana}");
        assert!(kana.contains("')) AND (((\"catalog_items\".\"name_ja\" LIKE '%ﾈｺ%'"), "{kana}");
        assert!(kana.contains("LIKE '%ねこ%'"), "{kana}");
        let short = sql(DatabaseBackend::Sqlite, "猫");
        assert!(short.contains("(\"catalog_items\".\"name_ja\" LIKE '%猫%'"), "{short}");
        let short = sql(DatabaseBackend::Sqlite, "Ab");
        assert!(short.contains("(\"catalog_items\".\"name_ja\" LIKE '%ab%'"), "{short}");
        let quoted = sql(DatabaseBackend::Sqlite, "a\"bc");
        assert!(quoted.contains("'\"a\"\"bc\" OR "), "{quoted}");
        let pg = sql(DatabaseBackend::Postgres, "Head%");
        assert!(pg.contains("\"catalog_items\".\"name_ja\" || ' ' ||"), "{pg}");
        assert!(pg.contains(r"ILIKE E'%Head\\%%'") || pg.contains(r"ILIKE '%Head\%%'"), "{pg}");
    }
}
