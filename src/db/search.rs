//! Which tables the keyword search reads, and which of their columns: the schema half of
//! search. The migrations build the indexes from these descriptors (SQLite FTS5 tables, the
//! PostgreSQL trigram index); `model::search` builds the queries that use them.

/// A table whose text columns the keyword search reads.
#[derive(Debug, Clone, Copy)]
pub struct Searchable {
    /// The table.
    pub table: &'static str,
    /// Its FTS5 shadow table on SQLite.
    pub fts_table: &'static str,
    /// The columns searched, names first.
    pub columns: &'static [&'static str],
    /// How many of `columns` are names (ranked before description-only matches).
    pub name_columns: usize,
}

/// Catalogue items: names and descriptions in both languages.
pub const ITEMS: Searchable = Searchable {
    table: "catalog_items",
    fts_table: "catalog_items_fts",
    columns: &["name_ja", "name_en", "description_ja", "description_en"],
    name_columns: 2,
};

/// Circles (the exhibitors' groups): names and descriptions in both languages.
pub const CIRCLES: Searchable = Searchable {
    table: "circles",
    fts_table: "circles_fts",
    columns: &["name_ja", "name_en", "description_ja", "description_en"],
    name_columns: 2,
};

/// Companies: names, descriptions and site names in both languages.
pub const COMPANIES: Searchable = Searchable {
    table: "companies",
    fts_table: "companies_fts",
    columns: &["name_ja", "name_en", "description_ja", "description_en"],
    name_columns: 2,
};

/// Hub notifications: title and content (one language per notification).
pub const HUB_NOTIFICATIONS: Searchable = Searchable {
    table: "hub_notifications",
    fts_table: "hub_notifications_fts",
    columns: &["title", "content"],
    name_columns: 1,
};

/// Store items: names in both languages and the description (one text, the seller's language).
pub const STORE_ITEMS: Searchable = Searchable {
    table: "store_items",
    fts_table: "store_items_fts",
    columns: &["name", "name_en", "description"],
    name_columns: 2,
};

/// Every searchable table, for the migration.
pub const SEARCHABLE: [Searchable; 3] = [ITEMS, CIRCLES, COMPANIES];

impl Searchable {
    /// The PostgreSQL expression the GIN trigram index is built on (and queries must repeat
    /// verbatim for the planner to use it). The columns are NOT NULL.
    pub fn pg_document(&self) -> String {
        self.columns.iter().map(|c| format!("\"{}\".\"{c}\"", self.table)).collect::<Vec<_>>().join(" || ' ' || ")
    }
}
