//! Tera functions and filters: `t()` for messages and `jst` for Japan-time dates.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use chrono_tz::Asia::Tokyo;
use rocket_dyn_templates::tera::{self, Value};

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
pub fn jst_filter(value: &Value, args: &HashMap<String, Value>) -> tera::Result<Value> {
    let text = value.as_str().ok_or("jst expects an RFC 3339 string")?;
    let at = DateTime::parse_from_rfc3339(text).map_err(|e| format!("jst: {e}"))?.to_utc();
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

/// Registers the functions, filters and escaping on `tera`.
pub fn register(tera: &mut tera::Tera, messages: Messages) {
    tera.set_escape_fn(escape_html);
    tera.register_function("t", Translate::new(messages));
    tera.register_filter("jst", jst_filter);
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
