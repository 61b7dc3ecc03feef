//! Interface languages: [`Lang`] (Japanese by default, English under `/en`), picking a
//! bilingual value, and the path rules of the two languages (prefix `/en`, none for Japanese).

use std::fmt;

use serde::{Deserialize, Serialize};

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

    /// The other language.
    pub fn other(self) -> Self {
        match self {
            Lang::Ja => Lang::En,
            Lang::En => Lang::Ja,
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

/// Splits a language prefix off `path`: `/en/worlds` → (`Some(En)`, `/worlds`).
pub fn split_prefix(path: &str) -> (Option<Lang>, String) {
    for lang in Lang::ALL {
        let prefix = format!("/{}", lang.code());
        if path == prefix {
            return (Some(lang), "/".into());
        }
        if let Some(rest) = path.strip_prefix(&prefix).filter(|r| r.starts_with('/')) {
            return (Some(lang), rest.to_string());
        }
    }
    (None, path.to_string())
}

/// The path of `path` (unprefixed) in `lang`: `/worlds` → `/en/worlds`, `/` → `/en`.
pub fn localized_path(lang: Lang, path: &str) -> String {
    match (lang, path) {
        (Lang::Ja, _) => path.to_string(),
        (Lang::En, "/") => "/en".to_string(),
        (Lang::En, _) => format!("/en{path}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_falls_back_to_the_other_language() {
        assert_eq!(Lang::Ja.pick("猫", "Cat"), "猫");
        assert_eq!(Lang::En.pick("猫", "Cat"), "Cat");
        assert_eq!(Lang::En.pick("猫", ""), "猫");
    }

    #[test]
    fn prefixes_split() {
        assert_eq!(split_prefix("/en"), (Some(Lang::En), "/".into()));
        assert_eq!(split_prefix("/en/worlds"), (Some(Lang::En), "/worlds".into()));
        assert_eq!(split_prefix("/ja/world/3"), (Some(Lang::Ja), "/world/3".into()));
        assert_eq!(split_prefix("/english"), (None, "/english".into()));
        assert_eq!(split_prefix("/"), (None, "/".into()));
    }

    #[test]
    fn localized_paths() {
        assert_eq!(localized_path(Lang::Ja, "/worlds"), "/worlds");
        assert_eq!(localized_path(Lang::En, "/worlds"), "/en/worlds");
        assert_eq!(localized_path(Lang::En, "/"), "/en");
    }
}
