//! What user text may contain. Control characters (NUL above all, which PostgreSQL cannot
//! store and SQLite's FTS5 cannot parse) are refused in every stored field and split search
//! terms; tabs and line breaks are ordinary text.

/// Whether `c` is a control character user text may not carry.
pub fn is_forbidden(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// Whether `s` is free of forbidden control characters.
pub fn is_clean(s: &str) -> bool {
    !s.chars().any(is_forbidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_are_text_nul_and_escapes_are_not() {
        assert!(is_clean("行1\n行2\r\n\tタブ"));
        for bad in ["a\0b", "\u{1b}[31m", "x\u{7f}", "\u{85}next line"] {
            assert!(!is_clean(bad), "{bad:?}");
        }
    }
}
