//! Tera functions and filters: `t()` for messages and `jst` for Japan-time dates.

use std::collections::HashMap;

use ::tera::{self, Value};
use chrono::{DateTime, Utc};
use chrono_tz::Asia::Tokyo;

use crate::i18n::Messages;
use crate::types::Lang;

/// `t(key="nav.worlds", lang=lang, n=3)`: the message in `lang` with placeholders filled.
pub struct Translate {
    messages: Messages,
}

impl Translate {
    /// A `t()` function over `messages`.
    pub fn new(messages: Messages) -> Self {
        Self { messages }
    }
}

impl tera::Function for Translate {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let key = args.get("key").and_then(Value::as_str).ok_or("t() needs key=")?;
        let lang = args.get("lang").and_then(Value::as_str).and_then(Lang::parse).ok_or("t() needs lang=ja|en")?;
        let mut text = self.messages.t(lang, key);
        for (name, value) in args.iter().filter(|(k, _)| k.as_str() != "key" && k.as_str() != "lang") {
            let value = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            text = text.replace(&format!("{{{name}}}"), &value);
        }
        Ok(Value::String(text))
    }

    fn is_safe(&self) -> bool {
        false
    }
}

/// Formats an instant in Asia/Tokyo: `date` → `YYYY/MM/DD`, `datetime` → `YYYY/MM/DD HH:mm`.
pub fn format_jst(at: DateTime<Utc>, with_time: bool) -> String {
    let local = at.with_timezone(&Tokyo);
    if with_time { local.format("%Y/%m/%d %H:%M").to_string() } else { local.format("%Y/%m/%d").to_string() }
}

/// The `jst` filter: `{{ at | jst }}` or `{{ at | jst(time=true) }}` on an RFC 3339 string.
/// Years past 9999 (written `+10000-…`, which RFC 3339 has no room for) are read too.
pub fn jst_filter(value: &Value, args: &HashMap<String, Value>) -> tera::Result<Value> {
    let text = value.as_str().ok_or("jst expects an RFC 3339 string")?;
    // `DateTime`'s own parser also reads the signed years past 9999 that chrono writes.
    let at = DateTime::parse_from_rfc3339(text)
        .map(|at| at.to_utc())
        .or_else(|_| text.parse::<DateTime<chrono::Utc>>())
        .map_err(|e| format!("jst: {e}"))?;
    let with_time = args.get("time").and_then(Value::as_bool).unwrap_or(false);
    Ok(Value::String(format_jst(at, with_time)))
}

/// HTML escaping for autoescaped output: `& < > " '` only, so URLs keep their slashes.
pub fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether `c` is Japanese script: kana, kanji or half-width katakana.
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{ff66}'..='\u{ff9f}')
}

/// The language a fragment of user or demo text is written in when it differs from the page's:
/// `en` for Latin-only text on a Japanese page (an English world name), `ja` for text with
/// Japanese script on an English page; `None` when it reads in the page's language.
pub fn fragment_lang(text: &str, page: &str) -> Option<&'static str> {
    let japanese = text.chars().any(is_japanese);
    match page {
        "ja" if !japanese && text.chars().any(|c| c.is_ascii_alphabetic()) => Some("en"),
        "en" if japanese => Some("ja"),
        _ => None,
    }
}

/// The `lang_attr` filter: `<h3{{ name | lang_attr(page=lang) }}>{{ name }}</h3>` adds
/// ` lang="en"` / ` lang="ja"` when the text is in the other language (see [`fragment_lang`]),
/// so screen readers pronounce it right.
pub struct LangAttr;

impl tera::Filter for LangAttr {
    fn filter(&self, value: &Value, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let page = args.get("page").and_then(Value::as_str).ok_or("lang_attr needs page=lang")?;
        let text = value.as_str().unwrap_or_default();
        Ok(Value::String(fragment_lang(text, page).map(|l| format!(" lang=\"{l}\"")).unwrap_or_default()))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// A Tera error with its causes, on one line (Tera's own message only names the template).
pub fn describe(e: &tera::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Registers the functions, filters and escaping on `tera`.
pub fn register(tera: &mut tera::Tera, messages: Messages) {
    tera.set_escape_fn(escape_html);
    tera.register_function("t", Translate::new(messages));
    tera.register_filter("jst", jst_filter);
    tera.register_filter("lang_attr", LangAttr);
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera::Function;

    #[test]
    fn jst_formats_in_tokyo_time() {
        let at = DateTime::parse_from_rfc3339("2026-12-11T18:30:00Z").unwrap().to_utc();
        assert_eq!(format_jst(at, false), "2026/12/12");
        assert_eq!(format_jst(at, true), "2026/12/12 03:30");
        let mut args = HashMap::new();
        args.insert("time".to_string(), Value::Bool(true));
        assert_eq!(jst_filter(&Value::String("2026-01-01T00:00:00Z".into()), &args).unwrap(), "2026/01/01 09:00");
        assert!(jst_filter(&Value::String("yesterday".into()), &args).is_err());
        // Chrono writes years past 9999 with a sign (`+10000-…`), which RFC 3339 cannot read.
        let far = DateTime::parse_from_rfc3339("9999-12-31T23:59:59-23:59").unwrap().to_utc();
        assert_eq!(jst_filter(&Value::String(far.to_rfc3339()), &args).unwrap(), "+10000/01/02 08:58");
        assert_eq!(format_jst(far, false), "+10000/01/02");
    }

    #[test]
    fn lang_attr_marks_text_in_the_other_language() {
        use tera::Filter;
        let mut args = HashMap::new();
        args.insert("page".to_string(), Value::String("ja".into()));
        let attr =
            |text: &str, args: &HashMap<String, Value>| LangAttr.filter(&Value::String(text.into()), args).unwrap();
        assert_eq!(attr("Lumina Station", &args), " lang=\"en\"");
        assert_eq!(attr("珊瑚の大閲覧室", &args), "");
        assert_eq!(attr("ネオン横丁 Night", &args), "", "mixed text reads as Japanese");
        assert_eq!(attr("2026", &args), "", "no letters, no language");
        args.insert("page".to_string(), Value::String("en".into()));
        assert_eq!(attr("ともしび工房", &args), " lang=\"ja\"");
        assert_eq!(attr("Lumina Station", &args), "");
        assert!(LangAttr.filter(&Value::String("x".into()), &HashMap::new()).is_err());
    }

    #[test]
    fn escaping_keeps_slashes() {
        assert_eq!(escape_html(r#"<a href="/x?a=1&b='2'">"#), "&lt;a href=&quot;/x?a=1&amp;b=&#39;2&#39;&quot;&gt;");
    }

    #[test]
    fn t_fills_placeholders() {
        let m = Messages::from_sources(r#"{"x":"{n}件のワールド"}"#, r#"{"x":"{n} worlds"}"#).unwrap();
        let t = Translate::new(m);
        let mut args = HashMap::new();
        args.insert("key".to_string(), Value::String("x".into()));
        args.insert("lang".to_string(), Value::String("en".into()));
        args.insert("n".to_string(), Value::from(16));
        assert_eq!(t.call(&args).unwrap(), "16 worlds");
        args.insert("lang".to_string(), Value::String("fr".into()));
        assert!(t.call(&args).is_err(), "an unknown language is a template bug");
    }
}
