//! Reading the demo data files (`src/seed/data/*.json`, compiled into the binary). A file is a
//! JSON object of named sections; each section is read into typed serde structs (which deny
//! unknown fields), a list entry by entry, so that a bad file fails with an error that names
//! the file, the section and the entry — before anything is written.

use std::collections::HashSet;
use std::fmt::Display;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// One data file: its name (for errors) and its text.
#[derive(Clone, Copy)]
pub struct Source {
    /// The file name under `src/seed/data/`.
    pub name: &'static str,
    /// The file's contents.
    pub text: &'static str,
}

/// A data file being read, section by section.
pub struct Reader {
    name: &'static str,
    sections: Map<String, Value>,
}

impl Reader {
    /// Parses `source`, which must be a JSON object.
    pub fn open(source: Source) -> Result<Self> {
        match serde_json::from_str(source.text).map_err(|e| fail(source.name, e))? {
            Value::Object(sections) => Ok(Self { name: source.name, sections }),
            _ => Err(fail(source.name, "not a JSON object of sections")),
        }
    }

    /// Section `section` as one value.
    pub fn value<T: DeserializeOwned>(&mut self, section: &str) -> Result<T> {
        let value = self.take(section)?;
        T::deserialize(value).map_err(|e| fail(self.name, format!("{section}: {e}")))
    }

    /// Section `section`, a list, read entry by entry.
    pub fn list<T: DeserializeOwned>(&mut self, section: &str) -> Result<Vec<T>> {
        let Value::Array(items) = self.take(section)? else {
            return Err(fail(self.name, format!("{section}: not a list")));
        };
        let entry = |(i, item): (usize, Value)| {
            let label = label(&item);
            T::deserialize(item).map_err(|e| fail(self.name, format!("{section}[{i}]{label}: {e}")))
        };
        items.into_iter().enumerate().map(entry).collect()
    }

    /// Ends the reading: a section nobody read is a typo or data that would be ignored.
    pub fn finish(self) -> Result<()> {
        match self.sections.keys().next() {
            Some(extra) => Err(fail(self.name, format!("unknown section `{extra}`"))),
            None => Ok(()),
        }
    }

    fn take(&mut self, section: &str) -> Result<Value> {
        self.sections.remove(section).ok_or_else(|| fail(self.name, format!("missing section `{section}`")))
    }
}

/// The fields that name an entry in an error, in order of preference.
const LABELS: [&str; 7] = ["key", "handle", "permalink", "slug", "id", "title_ja", "title"];

/// ` (key "music")`: what identifies a list entry to a reader of the file, if anything does.
fn label(item: &Value) -> String {
    let found = LABELS.iter().find_map(|field| {
        let text = match item.get(field)? {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Array(a) => a.first()?.as_str()?.to_string(),
            _ => return None,
        };
        Some((field, text.chars().take(40).collect::<String>()))
    });
    found.map(|(field, text)| format!(" ({field} {text:?})")).unwrap_or_default()
}

/// An error in data file `file`.
pub fn fail(file: &str, problem: impl Display) -> Error {
    Error::Internal(format!("seed data {file}: {problem}"))
}

/// An error in entry `index` of `section` of `file`.
pub fn bad_entry(file: &str, section: &str, index: usize, problem: impl Display) -> Error {
    fail(file, format!("{section}[{index}]: {problem}"))
}

/// Fails unless `ok`: entry `index` of `section` refers to something that does not exist.
pub fn known(ok: bool, file: &str, section: &str, index: usize, what: impl Display) -> Result<()> {
    if ok { Ok(()) } else { Err(bad_entry(file, section, index, format!("unknown {what}"))) }
}

/// The keys one data file may use to refer to rows of another.
#[derive(Default)]
pub struct Keys {
    /// Event permalinks (`events.json`).
    pub events: HashSet<String>,
    /// World ids (`events.json`).
    pub worlds: HashSet<i32>,
    /// Demo user handles (`users.json`).
    pub users: HashSet<String>,
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Tag {
        #[expect(dead_code, reason = "read to show the shape of an entry")]
        key: String,
        #[expect(dead_code, reason = "read to show the shape of an entry")]
        hours: u32,
    }

    fn read_tags(text: &'static str) -> Result<Vec<Tag>> {
        let mut file = Reader::open(Source { name: "test.json", text })?;
        let tags = file.list("tags")?;
        file.finish()?;
        Ok(tags)
    }

    #[test]
    fn a_broken_entry_is_named_with_its_file_section_and_place() {
        let text = r#"{"tags": [{"key": "music", "hours": 1}, {"key": "talk", "hour": 2}]}"#;
        let err = read_tags(text).unwrap_err().to_string();
        assert!(err.contains("seed data test.json: tags[1] (key \"talk\"): unknown field `hour`"), "{err}");
        let err = read_tags(r#"{"tags": [{"key": "music", "hours": -1}]}"#).unwrap_err().to_string();
        assert!(err.contains("tags[0] (key \"music\"): invalid value: integer `-1`"), "{err}");
    }

    #[test]
    fn broken_files_and_sections_are_named() {
        let err = read_tags(r#"{"tags": [}"#).unwrap_err().to_string();
        assert!(err.contains("seed data test.json: ") && err.contains("line 1"), "{err}");
        let err = read_tags(r#"{"tags": [], "tgas": []}"#).unwrap_err().to_string();
        assert!(err.contains("test.json: unknown section `tgas`"), "{err}");
        let err = read_tags(r#"{"tag": []}"#).unwrap_err().to_string();
        assert!(err.contains("test.json: missing section `tags`"), "{err}");
        let err = read_tags(r#"{"tags": {"key": "music"}}"#).unwrap_err().to_string();
        assert!(err.contains("test.json: tags: not a list"), "{err}");
        assert_eq!(read_tags(r#"{"tags": [{"key": "music", "hours": 1}]}"#).unwrap().len(), 1);
    }

    #[test]
    fn a_reference_to_nothing_names_the_entry() {
        assert!(known(true, "hub.json", "notifications", 3, "tag `musik`").is_ok());
        let err = known(false, "hub.json", "notifications", 3, "tag `musik`").unwrap_err().to_string();
        assert!(err.contains("seed data hub.json: notifications[3]: unknown tag `musik`"), "{err}");
    }
}
