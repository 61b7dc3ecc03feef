//! Case folding as the databases apply it in the keyword search (`model::search`), so that text
//! searched in memory ([`crate::model::keyword`]) matches exactly what the database would match.
//!
//! - **SQLite**: the FTS5 `trigram` tokenizer (`case_sensitive 0`, no diacritic removal) folds
//!   every character with SQLite's own table, [`fts5_fold`], ported from `sqlite3Fts5UnicodeFold`
//!   of the SQLite that `libsqlite3-sys` bundles (Unicode's simple case folding as SQLite knows it;
//!   `tests/it/keyword_memory.rs` compares it with FTS5 itself over every character of the
//!   Basic Multilingual Plane and Deseret). The tokenizer also skips NUL characters.
//! - **PostgreSQL**: `ILIKE` compares `lower()` of the text with `lower()` of the pattern, under
//!   the database's collation. The mapping is read from the server once ([`Folding::load`]):
//!   `lower()` of every character up to U+1FFFF that it changes (no character above has a case),
//!   so whatever the collation's case rules (libc or ICU, any Unicode version), memory folds as
//!   the server does. (ICU's context-dependent rules — a final sigma — are not per-character; the
//!   per-character mapping is what a libc collation such as `C.UTF-8` applies.)

use std::collections::HashMap;

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

use crate::error::Result;

/// How the connected database folds case in the keyword search.
#[derive(Debug, Clone)]
pub enum Folding {
    /// SQLite: [`fts5_fold`] for the trigram index; `LIKE` compares ASCII letters only.
    Sqlite,
    /// PostgreSQL: `lower()` of the database's collation.
    Postgres(PgLower),
}

/// `lower()` of a PostgreSQL database, per character.
#[derive(Debug, Clone)]
pub struct PgLower {
    /// The lowercase of each ASCII character when it is one ASCII character, else 0.
    ascii: [u8; 128],
    /// Every other character `lower()` changes, and what it becomes.
    other: HashMap<char, Box<str>>,
}

/// The highest character whose case `lower()` is asked for.
const CASED_UP_TO: u32 = 0x1_FFFF;

impl Folding {
    /// The folding of `db`: SQLite's is built in; PostgreSQL's is read from the server (one
    /// statement).
    pub async fn load(db: &impl ConnectionTrait) -> Result<Self> {
        let backend = db.get_database_backend();
        if backend != DatabaseBackend::Postgres {
            return Ok(Self::Sqlite);
        }
        let sql = format!(
            "SELECT CAST(i AS INTEGER) AS code, lower(chr(i)) AS lowered FROM generate_series(1, {CASED_UP_TO}) AS g(i) \
             WHERE (i < 55296 OR i > 57343) AND lower(chr(i)) <> chr(i)"
        );
        let rows = db.query_all_raw(Statement::from_string(backend, sql)).await?;
        let mut pairs = Vec::with_capacity(rows.len());
        for row in rows {
            let code: i32 = row.try_get_by_index(0)?;
            let lowered: String = row.try_get_by_index(1)?;
            if let Some(c) = u32::try_from(code).ok().and_then(char::from_u32) {
                pairs.push((c, lowered));
            }
        }
        Ok(Self::Postgres(PgLower::new(pairs)))
    }

    /// Appends `text` folded for the trigram match to `out`.
    pub fn fold_into(&self, text: &str, out: &mut String) {
        match self {
            Self::Sqlite => out.extend(text.chars().filter(|c| *c != '\0').map(fts5_fold)),
            Self::Postgres(lower) => {
                for c in text.chars() {
                    lower.push(c, out);
                }
            }
        }
    }

    /// `text` folded.
    pub fn fold(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.fold_into(text, &mut out);
        out
    }
}

impl PgLower {
    /// The mapping from `(character, lower() of it)` for every character `lower()` changes.
    pub fn new(pairs: impl IntoIterator<Item = (char, String)>) -> Self {
        let mut ascii = [0u8; 128];
        for (i, slot) in ascii.iter_mut().enumerate() {
            *slot = i as u8;
        }
        let mut other = HashMap::new();
        for (c, lowered) in pairs {
            let single_ascii = match lowered.as_bytes() {
                [b] if b.is_ascii() => Some(*b),
                _ => None,
            };
            match (c.is_ascii(), single_ascii) {
                (true, Some(b)) => ascii[c as usize] = b,
                (true, None) => {
                    ascii[c as usize] = 0;
                    other.insert(c, lowered.into_boxed_str());
                }
                (false, _) => {
                    other.insert(c, lowered.into_boxed_str());
                }
            }
        }
        Self { ascii, other }
    }

    fn push(&self, c: char, out: &mut String) {
        if c.is_ascii() {
            let b = self.ascii[c as usize];
            if b != 0 || c == '\0' {
                out.push(b as char);
                return;
            }
        }
        match self.other.get(&c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
}

/// SQLite FTS5's case fold of one character (`sqlite3Fts5UnicodeFold(c, 0)`): ASCII and the
/// ranges of [`ENTRIES`] below U+10000, Deseret above; every other character stays — except the
/// noncharacters U+FFFE and U+FFFF, which SQLite reads as U+FFFD ([`sqlite_char`]).
pub fn fts5_fold(c: char) -> char {
    let code = sqlite_char(c) as u32;
    let folded = if code < 128 {
        if c.is_ascii_uppercase() { code + 32 } else { code }
    } else if code < 0x1_0000 {
        // The last entry starting at or before `code`.
        let at = ENTRIES.partition_point(|(start, _, _)| u32::from(*start) <= code);
        match at.checked_sub(1).map(|i| ENTRIES[i]) {
            Some((start, flags, len))
                if code < u32::from(start) + u32::from(len) && (flags & 1 & ((start as u32 ^ code) as u8)) == 0 =>
            {
                (code + u32::from(OFFSETS[usize::from(flags >> 1)])) & 0xFFFF
            }
            _ => code,
        }
    } else if (66_560..66_600).contains(&code) {
        code + 40
    } else {
        code
    };
    char::from_u32(folded).unwrap_or(c)
}

/// A character as SQLite's UTF-8 reader (`READ_UTF8`, `sqlite3Utf8Read`) sees it: the
/// noncharacters U+FFFE and U+FFFF become U+FFFD (the other invalid code points never occur in a
/// Rust string).
pub fn sqlite_char(c: char) -> char {
    if matches!(c, '\u{FFFE}' | '\u{FFFF}') { '\u{FFFD}' } else { c }
}

// The tables of `sqlite3Fts5UnicodeFold` (SQLite 3.51, `ext/fts5/fts5_unicode2.c`, generated by
// SQLite from Unicode's CaseFolding.txt): each entry is (first code point, flags, range length);
// when bit 0 of flags is set only every second code point of the range folds; flags >> 1 indexes
// the offset added (modulo 0x10000).
const ENTRIES: [(u16, u8, u8); 163] = [
    (65, 14, 26),
    (181, 64, 1),
    (192, 14, 23),
    (216, 14, 7),
    (256, 1, 48),
    (306, 1, 6),
    (313, 1, 16),
    (330, 1, 46),
    (376, 116, 1),
    (377, 1, 6),
    (383, 104, 1),
    (385, 50, 1),
    (386, 1, 4),
    (390, 44, 1),
    (391, 0, 1),
    (393, 42, 2),
    (395, 0, 1),
    (398, 32, 1),
    (399, 38, 1),
    (400, 40, 1),
    (401, 0, 1),
    (403, 42, 1),
    (404, 46, 1),
    (406, 52, 1),
    (407, 48, 1),
    (408, 0, 1),
    (412, 52, 1),
    (413, 54, 1),
    (415, 56, 1),
    (416, 1, 6),
    (422, 60, 1),
    (423, 0, 1),
    (425, 60, 1),
    (428, 0, 1),
    (430, 60, 1),
    (431, 0, 1),
    (433, 58, 2),
    (435, 1, 4),
    (439, 62, 1),
    (440, 0, 1),
    (444, 0, 1),
    (452, 2, 1),
    (453, 0, 1),
    (455, 2, 1),
    (456, 0, 1),
    (458, 2, 1),
    (459, 1, 18),
    (478, 1, 18),
    (497, 2, 1),
    (498, 1, 4),
    (502, 122, 1),
    (503, 134, 1),
    (504, 1, 40),
    (544, 110, 1),
    (546, 1, 18),
    (570, 70, 1),
    (571, 0, 1),
    (573, 108, 1),
    (574, 68, 1),
    (577, 0, 1),
    (579, 106, 1),
    (580, 28, 1),
    (581, 30, 1),
    (582, 1, 10),
    (837, 36, 1),
    (880, 1, 4),
    (886, 0, 1),
    (902, 18, 1),
    (904, 16, 3),
    (908, 26, 1),
    (910, 24, 2),
    (913, 14, 17),
    (931, 14, 9),
    (962, 0, 1),
    (975, 4, 1),
    (976, 140, 1),
    (977, 142, 1),
    (981, 146, 1),
    (982, 144, 1),
    (984, 1, 24),
    (1008, 136, 1),
    (1009, 138, 1),
    (1012, 130, 1),
    (1013, 128, 1),
    (1015, 0, 1),
    (1017, 152, 1),
    (1018, 0, 1),
    (1021, 110, 3),
    (1024, 34, 16),
    (1040, 14, 32),
    (1120, 1, 34),
    (1162, 1, 54),
    (1216, 6, 1),
    (1217, 1, 14),
    (1232, 1, 88),
    (1329, 22, 38),
    (4256, 66, 38),
    (4295, 66, 1),
    (4301, 66, 1),
    (7680, 1, 150),
    (7835, 132, 1),
    (7838, 96, 1),
    (7840, 1, 96),
    (7944, 150, 8),
    (7960, 150, 6),
    (7976, 150, 8),
    (7992, 150, 8),
    (8008, 150, 6),
    (8025, 151, 8),
    (8040, 150, 8),
    (8072, 150, 8),
    (8088, 150, 8),
    (8104, 150, 8),
    (8120, 150, 2),
    (8122, 126, 2),
    (8124, 148, 1),
    (8126, 100, 1),
    (8136, 124, 4),
    (8140, 148, 1),
    (8152, 150, 2),
    (8154, 120, 2),
    (8168, 150, 2),
    (8170, 118, 2),
    (8172, 152, 1),
    (8184, 112, 2),
    (8186, 114, 2),
    (8188, 148, 1),
    (8486, 98, 1),
    (8490, 92, 1),
    (8491, 94, 1),
    (8498, 12, 1),
    (8544, 8, 16),
    (8579, 0, 1),
    (9398, 10, 26),
    (11264, 22, 47),
    (11360, 0, 1),
    (11362, 88, 1),
    (11363, 102, 1),
    (11364, 90, 1),
    (11367, 1, 6),
    (11373, 84, 1),
    (11374, 86, 1),
    (11375, 80, 1),
    (11376, 82, 1),
    (11378, 0, 1),
    (11381, 0, 1),
    (11390, 78, 2),
    (11392, 1, 100),
    (11499, 1, 4),
    (11506, 0, 1),
    (42560, 1, 46),
    (42624, 1, 24),
    (42786, 1, 14),
    (42802, 1, 62),
    (42873, 1, 4),
    (42877, 76, 1),
    (42878, 1, 10),
    (42891, 0, 1),
    (42893, 74, 1),
    (42896, 1, 4),
    (42912, 1, 10),
    (42922, 72, 1),
    (65313, 14, 26),
];
const OFFSETS: [u16; 77] = [
    1, 2, 8, 15, 16, 26, 28, 32, 37, 38, 40, 48, 63, 64, 69, 71, 79, 80, 116, 202, 203, 205, 206, 207, 209, 210, 211,
    213, 214, 217, 218, 219, 775, 7264, 10792, 10795, 23228, 23256, 30204, 54721, 54753, 54754, 54756, 54787, 54793,
    54809, 57153, 57274, 57921, 58019, 58363, 61722, 65268, 65341, 65373, 65406, 65408, 65410, 65415, 65424, 65436,
    65439, 65450, 65462, 65472, 65476, 65478, 65480, 65482, 65488, 65506, 65511, 65514, 65521, 65527, 65528, 65529,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fts5_folds_like_sqlite() {
        assert_eq!(fts5_fold('A'), 'a');
        assert_eq!(fts5_fold('z'), 'z');
        assert_eq!(fts5_fold('É'), 'é');
        assert_eq!(fts5_fold('Ｈ'), 'ｈ', "full-width Latin folds");
        assert_eq!(fts5_fold('Σ'), 'σ');
        assert_eq!(fts5_fold('ς'), 'σ', "case folding, not lowercase");
        assert_eq!(fts5_fold('ẞ'), 'ß');
        assert_eq!(fts5_fold('Ā'), 'ā', "every second code point of a range");
        assert_eq!(fts5_fold('ā'), 'ā');
        assert_eq!(fts5_fold('İ'), 'İ', "no simple folding");
        assert_eq!(fts5_fold('𐐀'), '𐐨', "Deseret");
        assert_eq!(fts5_fold('ア'), 'ア');
        assert_eq!(fts5_fold('\u{FFFF}'), '\u{FFFD}', "read as U+FFFD");
        assert_eq!(Folding::Sqlite.fold("Ab\0Ｃ"), "abｃ");
    }

    #[test]
    fn postgres_lower_maps_each_character() {
        let lower = Folding::Postgres(PgLower::new([('A', "a".into()), ('I', "ı".into()), ('İ', "i̇".into())]));
        assert_eq!(lower.fold("AIİB"), "aıi̇B", "only what the server listed changes");
    }
}
