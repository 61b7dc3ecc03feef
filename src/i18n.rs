//! Interface languages and the message catalogues in `locales/{ja,en}.json`.
//!
//! The same files are served to the browser at `/_i18n/{locale}/messages.json`; the server looks
//! keys up with dotted paths (`nav.worlds`) and fills `{name}` placeholders.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An interface language. Japanese is the default and has no path prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Japanese (ja-JP), the default.
    #[default]
    Ja,
    /// English (en-US), served under `/en`.
    En,
}

impl Lang {
    /// Both languages, default first.
    pub const ALL: [Lang; 2] = [Lang::Ja, Lang::En];

    /// The language code, `ja` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
        }
    }

    /// Parses `ja` or `en` (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The path prefix of this language: empty for Japanese, `/en` for English.
    pub fn prefix(self) -> &'static str {
        match self {
            Lang::Ja => "",
            Lang::En => "/en",
        }
    }

    /// Picks the Japanese or English variant of a bilingual field.
    pub fn pick<'a>(self, ja: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ja if !ja.is_empty() => ja,
            Lang::En if !en.is_empty() => en,
            // A missing translation falls back to the other language rather than a blank.
            Lang::Ja => en,
            Lang::En => ja,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The message catalogues of both languages.
#[derive(Debug, Clone)]
pub struct Messages {
    raw: HashMap<Lang, String>,
    tree: HashMap<Lang, Value>,
}

impl Messages {
    /// The catalogues compiled into the binary from `locales/`.
    pub fn bundled() -> Self {
        Self::from_sources(include_str!("../locales/ja.json"), include_str!("../locales/en.json"))
            .expect("bundled locale files are valid JSON")
    }

    /// Builds catalogues from the JSON text of each language.
    pub fn from_sources(ja: &str, en: &str) -> Result<Self, serde_json::Error> {
        let mut raw = HashMap::new();
        let mut tree = HashMap::new();
        for (lang, text) in [(Lang::Ja, ja), (Lang::En, en)] {
            tree.insert(lang, serde_json::from_str(text)?);
            raw.insert(lang, text.to_string());
        }
        Ok(Self { raw, tree })
    }

    /// The catalogue's JSON text, as served to the browser.
    pub fn json(&self, lang: Lang) -> &str {
        &self.raw[&lang]
    }

    /// Looks a dotted key up; `None` when it is missing or not a string.
    pub fn get(&self, lang: Lang, key: &str) -> Option<&str> {
        key.split('.').try_fold(&self.tree[&lang], |node, part| node.get(part))?.as_str()
    }

    /// The message for `key`, or the key itself when missing (so a gap is visible, not blank).
    pub fn t(&self, lang: Lang, key: &str) -> String {
        self.get(lang, key).unwrap_or(key).to_string()
    }

    /// The message for `key` with `{name}` placeholders filled from `args`.
    pub fn tf(&self, lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
        interpolate(&self.t(lang, key), args)
    }

    /// Every dotted key that holds a string, for completeness checks.
    pub fn keys(&self, lang: Lang) -> Vec<String> {
        fn walk(prefix: &str, node: &Value, out: &mut Vec<String>) {
            match node {
                Value::Object(map) => {
                    for (k, v) in map {
                        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                        walk(&key, v, out);
                    }
                }
                _ => out.push(prefix.to_string()),
            }
        }
        let mut out = Vec::new();
        walk("", &self.tree[&lang], &mut out);
        out.sort();
        out
    }
}

/// Replaces each `{name}` in `text` with its value from `args`; unknown names stay as written.
pub fn interpolate(text: &str, args: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_catalogues_have_the_same_keys() {
        let m = Messages::bundled();
        assert_eq!(m.keys(Lang::Ja), m.keys(Lang::En));
        assert!(m.keys(Lang::Ja).len() > 20);
    }

    #[test]
    fn lookup_and_interpolation() {
        let m = Messages::from_sources(r#"{"a":{"b":"{n}件"}}"#, r#"{"a":{"b":"{n} items"}}"#).unwrap();
        assert_eq!(m.tf(Lang::Ja, "a.b", &[("n", "3")]), "3件");
        assert_eq!(m.tf(Lang::En, "a.b", &[("n", "3")]), "3 items");
        assert_eq!(m.t(Lang::En, "a.missing"), "a.missing");
        assert_eq!(m.get(Lang::En, "a"), None, "an object is not a message");
    }

    #[test]
    fn pick_falls_back_to_the_other_language() {
        assert_eq!(Lang::Ja.pick("猫", "Cat"), "猫");
        assert_eq!(Lang::En.pick("猫", "Cat"), "Cat");
        assert_eq!(Lang::En.pick("猫", ""), "猫");
    }
}
