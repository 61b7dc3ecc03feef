//! Japanese search as people type: the forms a search term is looked for in, so that hiragana
//! and katakana are alike (えぷろん finds エプロン), and so are full and half width (ｴﾌﾟﾛﾝ and ＡＢＣ
//! find エプロン and ABC, and the other way round). The long-vowel mark counts as typed: ラーメン
//! does not find ラメン.
//!
//! The database search (`model::search`) and its in-memory twin (`model::keyword`) take the same
//! variants, and a term matches a row when any variant does, each by the rule of its own length,
//! so SQLite, PostgreSQL and memory keep answering alike (`tests/it/keyword_memory.rs`).
//! Matching variants rather than a normalised copy of every row keeps the stored text and its
//! indexes as they are; what it does not cover is a row that mixes forms in one word (ｴﾌﾟロン).

use unicode_normalization::UnicodeNormalization;

/// Hiragana ぁ (U+3041) to ゖ (U+3096) are katakana ァ (U+30A1) to ヶ (U+30F6) less this.
const KANA_OFFSET: u32 = 0x60;
/// Full-width ASCII ！ (U+FF01) to ～ (U+FF5E) are `!` to `~` plus this.
const WIDE_OFFSET: u32 = 0xFEE0;

/// The forms `term` is looked for in, `term` itself first, without repeats: its NFKC form (half-
/// width kana made full, full-width letters and digits made ASCII), that form in katakana and in
/// hiragana, each of these three with its ASCII made full width, and the katakana in half width.
pub fn variants(term: &str) -> Vec<String> {
    let plain: String = term.nfkc().collect();
    let katakana = to_katakana(&plain);
    let hiragana = to_hiragana(&plain);
    let candidates = [
        term.to_owned(),
        widen_ascii(&plain),
        widen_ascii(&katakana),
        widen_ascii(&hiragana),
        narrow_katakana(&katakana),
        plain,
        katakana,
        hiragana,
    ];
    let mut out: Vec<String> = Vec::with_capacity(candidates.len());
    for c in candidates {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Hiragana made katakana (ゝゞ too); everything else as it is.
fn to_katakana(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{3041}'..='\u{3096}' | '\u{309D}'..='\u{309E}' => shift(c, KANA_OFFSET),
            _ => c,
        })
        .collect()
}

/// Katakana made hiragana where hiragana has the letter; everything else as it is.
fn to_hiragana(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{30A1}'..='\u{30F6}' | '\u{30FD}'..='\u{30FE}' => unshift(c, KANA_OFFSET),
            _ => c,
        })
        .collect()
}

/// Printable ASCII made full width (the space stays: it separates terms).
fn widen_ascii(text: &str) -> String {
    text.chars().map(|c| if ('!'..='~').contains(&c) { shift(c, WIDE_OFFSET) } else { c }).collect()
}

/// Full-width katakana (and the long-vowel mark, 「」、。・) made half width, a voiced letter as
/// its letter and ﾞ or ﾟ (ガ → ｶﾞ); everything else, a letter with no half-width form among them
/// (ヰ, ヸ), as it is.
fn narrow_katakana(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if let Some(h) = half_width(c) {
            out.push(h);
            continue;
        }
        let mut parts = std::iter::once(c).nfd();
        let (base, mark, rest) = (parts.next(), parts.next(), parts.next());
        let mark = match mark {
            Some('\u{3099}') => Some('\u{FF9E}'),
            Some('\u{309A}') => Some('\u{FF9F}'),
            _ => None,
        };
        match (base.and_then(half_width), mark, rest) {
            (Some(h), Some(m), None) => out.extend([h, m]),
            _ => out.push(c),
        }
    }
    out
}

/// What each character of the half-width katakana block, U+FF61 ｡ to U+FF9D ﾝ, is at full width
/// (its NFKC), in the block's order: the n-th is U+FF61 + n's full form (a unit test checks it).
const FULL_OF_HALF: &str = "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン";

/// The half-width form of `c`: the character of the half-width katakana block whose NFKC is `c`.
fn half_width(c: char) -> Option<char> {
    let n = FULL_OF_HALF.chars().position(|full| full == c)?;
    char::from_u32(0xFF61 + u32::try_from(n).ok()?)
}

fn shift(c: char, by: u32) -> char {
    char::from_u32(c as u32 + by).unwrap_or(c)
}

fn unshift(c: char, by: u32) -> char {
    char::from_u32(c as u32 - by).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(term: &str, form: &str) -> bool {
        variants(term).iter().any(|v| v == form)
    }

    #[test]
    fn the_table_of_half_width_katakana_is_the_block_s_nfkc() {
        let block: Vec<char> = ('\u{FF61}'..='\u{FF9D}').collect();
        assert_eq!(FULL_OF_HALF.chars().count(), block.len());
        for (half, full) in block.iter().zip(FULL_OF_HALF.chars()) {
            assert_eq!(std::iter::once(*half).nfkc().collect::<String>(), full.to_string(), "{half}");
            assert_eq!(half_width(full), Some(*half), "{full}");
        }
        assert_eq!(half_width('ヰ'), None);
        assert_eq!(half_width('a'), None);
    }

    #[test]
    fn kana_of_either_kind_and_width_find_each_other() {
        assert!(has("えぷろん", "エプロン"));
        assert!(has("エプロン", "えぷろん"));
        assert!(has("ｴﾌﾟﾛﾝ", "エプロン"));
        assert!(has("ｴﾌﾟﾛﾝ", "えぷろん"));
        assert!(has("エプロン", "ｴﾌﾟﾛﾝ"));
        assert!(has("がっこう", "ｶﾞｯｺｳ"));
        assert!(has("ヴァ", "ゔぁ"));
        assert!(has("いすゞ", "イスヾ"));
    }

    #[test]
    fn letters_of_either_width_find_each_other() {
        assert!(has("ＡＢＣ", "ABC"));
        assert!(has("ABC", "ＡＢＣ"));
        assert!(has("１００%", "100%"));
        assert!(has("cat耳", "ｃａｔ耳"));
    }

    #[test]
    fn the_long_vowel_mark_is_kept_as_typed() {
        assert!(has("らーめん", "ラーメン"));
        assert!(has("ﾗｰﾒﾝ", "ラーメン"));
        assert!(variants("らーめん").iter().all(|v| v.chars().any(|c| c == 'ー' || c == 'ｰ')));
        assert!(!has("らめん", "ラーメン"));
    }

    #[test]
    fn the_typed_form_comes_first_and_none_repeats() {
        let v = variants("猫");
        assert_eq!(v, ["猫"]);
        let v = variants("ねこ");
        assert_eq!(v[0], "ねこ");
        assert_eq!(v.len(), 3, "{v:?}: as typed, katakana, half-width katakana");
        let v = variants("ｶﾀｶﾅ");
        assert_eq!(v[0], "ｶﾀｶﾅ");
        let mut sorted = v.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), v.len());
    }

    #[test]
    fn letters_without_a_half_width_form_stay_whole() {
        // ヰ has no half-width form; ヷ (ワ + ゙) has ﾜﾞ.
        assert_eq!(narrow_katakana("ヰ"), "ヰ");
        assert_eq!(narrow_katakana("ヷ"), "ﾜﾞ");
        assert_eq!(narrow_katakana("ヸ"), "ヸ");
    }
}
