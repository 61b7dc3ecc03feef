//! Keyword search in memory, with the database search's results (`model::search`): the same terms
//! ([`search::terms`]), the same rule for each term on each database, the same name-first rank.
//! What the database search does, per term `t` and searched column `c` (a row matches when every
//! term is in one of its columns):
//!
//! | term | SQLite | PostgreSQL |
//! |---|---|---|
//! | 3+ characters | FTS5 trigram: `fold(c)` contains `fold(t)` | `lower(c)` contains `lower(t)` (`ILIKE`) |
//! | 1–2 characters, with case | `LIKE`: `c` contains `lc(t)`, ASCII letters in either case | `ILIKE`: `lower(c)` contains `lower(lc(t))` |
//! | 1–2 characters, caseless | the same | `LIKE`: `c` contains `lc(t)` |
//!
//! where `fold` and `lower` are [`Folding`] and `lc` is Rust's `to_lowercase`, which the query
//! builder applies. A term stands for its [`search::variants`] (hiragana or katakana, either
//! width): it holds when one of them does, each by the rule of its own length. The rank (name
//! matches first) tests the first term's variants against the name columns by the rule of short
//! terms, whatever their length.
//!
//! Each row keeps its searched columns folded ([`FoldedText`]: a copy only of a column that
//! folding changes); a term is looked for in the folded columns first, and where the rule is not
//! the folded one, confirmed on the columns as stored.

use memchr::memmem::Finder;

use crate::model::fold::{Folding, sqlite_char};
use crate::model::search::{self, TRIGRAM};

/// A keyword, ready to test rows.
#[derive(Debug)]
pub struct KeywordMatch {
    /// Per term, a check per variant ([`search::variants`]): the term holds when one does.
    terms: Vec<Vec<Check>>,
    rank: Vec<Check>,
}

/// One condition: the folded needle, and the rule it stands for.
#[derive(Debug)]
struct Check {
    needle: Finder<'static>,
    exact: Exact,
}

/// How a folded hit is confirmed.
#[derive(Debug)]
enum Exact {
    /// It is the rule.
    Folded,
    /// SQLite `LIKE`: a column contains this text (lowercase), ASCII letters compared in either case.
    AsciiCaseless(String),
    /// PostgreSQL `LIKE`: a column contains this text as it is.
    Verbatim(String),
}

impl Check {
    fn new(folding: &Folding, needle: &str, exact: Exact) -> Self {
        Self { needle: Finder::new(folding.fold(needle).as_bytes()).into_owned(), exact }
    }

    /// A term of 3 or more characters.
    fn long(folding: &Folding, term: &str) -> Self {
        Self::new(folding, term, Exact::Folded)
    }

    /// A term of 1 or 2 characters (and the rank's term).
    fn short(folding: &Folding, term: &str) -> Self {
        let lower = term.to_lowercase();
        let exact = match folding {
            Folding::Sqlite => Exact::AsciiCaseless(lower.clone()),
            Folding::Postgres(_) if lower == term.to_uppercase() => Exact::Verbatim(lower.clone()),
            Folding::Postgres(_) => Exact::Folded,
        };
        Self::new(folding, &lower, exact)
    }

    fn holds(&self, folded: &[&str], columns: &[&str]) -> bool {
        if !folded.iter().any(|f| self.needle.find(f.as_bytes()).is_some()) {
            return false;
        }
        match &self.exact {
            Exact::Folded => true,
            Exact::AsciiCaseless(text) => columns.iter().any(|c| contains_ascii_caseless(c, text)),
            Exact::Verbatim(text) => columns.iter().any(|c| c.contains(text.as_str())),
        }
    }
}

impl KeywordMatch {
    /// The match of `keyword` on a database folding as `folding`; `None` when the keyword has no
    /// terms (every row matches).
    pub fn new(folding: &Folding, keyword: &str) -> Option<Self> {
        let terms = search::terms(keyword);
        let rank = search::variants(terms.first()?).iter().map(|v| Check::short(folding, v)).collect();
        let terms = terms
            .iter()
            .map(|t| {
                let check = |v: &String| {
                    if v.chars().count() >= TRIGRAM { Check::long(folding, v) } else { Check::short(folding, v) }
                };
                search::variants(t).iter().map(check).collect()
            })
            .collect();
        Some(Self { terms, rank })
    }

    /// Whether a row matches every term: `folded` is its searched columns folded, `columns` the
    /// same columns as stored.
    pub fn matches(&self, folded: &[&str], columns: &[&str]) -> bool {
        self.terms.iter().all(|variants| variants.iter().any(|v| v.holds(folded, columns)))
    }

    /// The row's rank: 0 when the first term is in one of its names, 1 otherwise. `folded_names`
    /// and `names` are its name columns, folded and as stored.
    pub fn rank(&self, folded_names: &[&str], names: &[&str]) -> u8 {
        u8::from(!self.rank.iter().any(|v| v.holds(folded_names, names)))
    }
}

/// The folded text of the searched columns of many rows, in one string: a column gets a copy
/// only when folding changes it (Japanese text mostly folds to itself).
#[derive(Debug, Default)]
pub struct FoldedText {
    text: String,
}

/// Where a column's folded text is: `None` when it is the column itself.
pub type Span = Option<(u32, u32)>;

impl FoldedText {
    /// Folds `column` as `folding` does, keeping a copy only when folding changes it.
    pub fn push(&mut self, folding: &Folding, column: &str) -> Span {
        let start = self.text.len();
        folding.fold_into(column, &mut self.text);
        if self.text[start..] == *column {
            self.text.truncate(start);
            return None;
        }
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Some((at(start), at(self.text.len())))
    }

    /// The folded text of a column stored as `column`, at `span`.
    pub fn get<'a>(&'a self, span: Span, column: &'a str) -> &'a str {
        match span {
            None => column,
            Some((start, end)) => self.text.get(start as usize..end as usize).unwrap_or(""),
        }
    }

    /// The bytes it holds.
    pub fn size(&self) -> usize {
        self.text.capacity()
    }

    /// Gives back what it does not use.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
    }
}

/// Whether `haystack` contains `needle` with ASCII letters compared in either case (SQLite's
/// `LIKE`); other characters must be equal, as SQLite reads them ([`sqlite_char`]).
fn contains_ascii_caseless(haystack: &str, needle: &str) -> bool {
    let read = |s: &str| -> String { s.chars().map(sqlite_char).collect() };
    let odd = |s: &str| s.contains(['\u{FFFE}', '\u{FFFF}']);
    if odd(haystack) || odd(needle) {
        return contains_ascii_caseless(&read(haystack), &read(needle));
    }
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fold::PgLower;

    fn hit(folding: &Folding, keyword: &str, columns: &[&str]) -> bool {
        let folded: Vec<String> = columns.iter().map(|c| folding.fold(c)).collect();
        let folded: Vec<&str> = folded.iter().map(String::as_str).collect();
        KeywordMatch::new(folding, keyword).unwrap().matches(&folded, columns)
    }

    fn rank(folding: &Folding, keyword: &str, names: &[&str]) -> u8 {
        let folded: Vec<String> = names.iter().map(|c| folding.fold(c)).collect();
        let folded: Vec<&str> = folded.iter().map(String::as_str).collect();
        KeywordMatch::new(folding, keyword).unwrap().rank(&folded, names)
    }

    #[test]
    fn sqlite_rules() {
        let f = Folding::Sqlite;
        assert!(hit(&f, "HEADBAND", &["Cat-Ear Headband", ""]));
        assert!(hit(&f, "ｈｅａ", &["ＨＥＡＤ"]), "3+ characters: FTS5 folds full-width letters");
        assert!(!hit(&f, "ｈｅ", &["ＨＥＡＤ"]), "1–2 characters: LIKE folds ASCII letters only");
        assert!(hit(&f, "ＨＥ", &["ｈｅａｄ"]), "the short term is lowercased before LIKE");
        assert!(hit(&f, "Éa", &["éA"]), "ASCII letters of the text fold");
        assert!(!hit(&f, "éa", &["ÉA"]), "non-ASCII letters of the text do not");
        assert!(hit(&f, "ÉAB", &["xéab"]), "3+: both folded");
        assert!(hit(&f, "ab cd", &["xab", "cdx"]), "each term in any column");
        assert!(!hit(&f, "ab cd", &["xab", "c d"]));
        assert!(!hit(&f, "bcd", &["ab", "cd"]), "no match across columns");
        assert!(hit(&f, "a\u{0}bc", &["xbc", "a"]), "a control character separates terms");
        assert!(hit(&f, "\u{FFFE}", &["x\u{FFFF}"]), "SQLite reads both noncharacters as U+FFFD");
        assert_eq!(rank(&f, "ＨＥＡＤ", &["ＨＥＡＤ"]), 1, "the rank tests names by LIKE, lowercased term");
        assert_eq!(rank(&f, "ＨＥＡＤ", &["ｈｅａｄ"]), 0);
    }

    #[test]
    fn folded_text_copies_only_what_folding_changes() {
        let mut t = FoldedText::default();
        let ja = t.push(&Folding::Sqlite, "猫耳カチューシャ");
        assert_eq!(ja, None);
        let en = t.push(&Folding::Sqlite, "Cat-Ear");
        assert_eq!((t.get(ja, "猫耳カチューシャ"), t.get(en, "Cat-Ear")), ("猫耳カチューシャ", "cat-ear"));
        assert!(t.size() >= 7);
    }

    #[test]
    fn postgres_rules() {
        let f = Folding::Postgres(PgLower::new(
            ('A'..='Z').map(|c| (c, c.to_ascii_lowercase().to_string())).chain([('Ｈ', "ｈ".to_string())]),
        ));
        assert!(hit(&f, "ｈ", &["Ｈ"]), "1–2 characters with case: ILIKE folds the text");
        assert!(!hit(&f, "ｅ", &["Ｅ"]), "as the server's lower() does, no more");
        assert!(hit(&f, "HEADBAND", &["Cat-Ear Headband"]));
        assert!(hit(&f, "猫", &["黒猫"]), "caseless: LIKE");
        assert!(!hit(&f, "bcd", &["ab", "cd"]), "no match across columns");
        assert_eq!(rank(&f, "Head quest", &["head"]), 0);
        assert_eq!(rank(&f, "Head quest", &["hat", "quest"]), 1, "the first term only");
    }
}
