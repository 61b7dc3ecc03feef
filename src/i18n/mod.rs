//! Interface languages and the message catalogues in `locales/{ja,en}.json`.
//!
//! The same files are served to the browser at `/_i18n/{locale}/messages.json`; the server looks
//! keys up with dotted paths (`nav.worlds`) and fills `{name}` placeholders.

pub mod tera;

use std::collections::HashMap;

use serde_json::Value;

/// Re-exported: every catalogue lookup takes the language.
pub use crate::types::Lang;

/// The message catalogues of both languages.
#[derive(Debug, Clone)]
pub struct Messages {
    raw: HashMap<Lang, String>,
    tree: HashMap<Lang, Value>,
}

impl Messages {
    /// The catalogues compiled into the binary from `locales/`.
    pub fn bundled() -> Self {
        Self::from_sources(include_str!("../../locales/ja.json"), include_str!("../../locales/en.json"))
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

    /// Issue 26 item 9: counters read "16ワールド", never "16のワールド" (a number before の reads
    /// as an ordinal or a typo), on every key — the ones a first-time user met included.
    #[test]
    fn japanese_counters_never_put_no_after_a_number() {
        let m = Messages::bundled();
        let odd: Vec<String> = m
            .keys(Lang::Ja)
            .into_iter()
            .filter(|k| m.t(Lang::Ja, k).contains("}のワールド"))
            .map(|k| format!("{k}: {}", m.t(Lang::Ja, &k)))
            .collect();
        assert!(odd.is_empty(), "{odd:?}");
        assert_eq!(m.t(Lang::Ja, "home.see_all_worlds"), "{n}ワールドをすべて見る");
        assert_ne!(
            m.t(Lang::Ja, "home.open_now_heading"),
            "ただいま受付中",
            "a draw is not something open to apply for"
        );
    }

    #[test]
    fn lookup_and_interpolation() {
        let m = Messages::from_sources(r#"{"a":{"b":"{n}件"}}"#, r#"{"a":{"b":"{n} items"}}"#).unwrap();
        assert_eq!(m.tf(Lang::Ja, "a.b", &[("n", "3")]), "3件");
        assert_eq!(m.tf(Lang::En, "a.b", &[("n", "3")]), "3 items");
        assert_eq!(m.t(Lang::En, "a.missing"), "a.missing");
        assert_eq!(m.get(Lang::En, "a"), None, "an object is not a message");
    }
}
