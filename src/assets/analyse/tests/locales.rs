//! Every code has its message and solution in both locale files, using only the placeholders
//! the report fills (`{limit}`, `{actual}`), the same ones in both languages.

use std::collections::BTreeSet;

use serde_json::Value;

use super::super::Code;

const EN: &str = include_str!("../../../../locales/en.json");
const JA: &str = include_str!("../../../../locales/ja.json");

fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect()
}

fn section(text: &str) -> serde_json::Map<String, Value> {
    let json: Value = serde_json::from_str(text).expect("valid JSON");
    json["asset_report"].as_object().cloned().expect("an asset_report object")
}

#[test]
fn every_code_has_a_message_and_a_solution_in_english_and_japanese() {
    let (en, ja) = (section(EN), section(JA));
    assert_eq!(en.len(), Code::ALL.len(), "one entry per code, no more");
    assert_eq!(ja.len(), Code::ALL.len(), "one entry per code, no more");
    let allowed: BTreeSet<&str> = ["limit", "actual"].into();
    for code in Code::ALL {
        for part in ["message", "solution"] {
            let text = |section: &serde_json::Map<String, Value>| {
                let value = section.get(code.as_str()).and_then(|entry| entry[part].as_str()).unwrap_or_default();
                assert!(!value.is_empty(), "asset_report.{}.{part}", code.as_str());
                value.to_string()
            };
            let (en_text, ja_text) = (text(&en), text(&ja));
            assert!(placeholders(&en_text).is_subset(&allowed), "{en_text}");
            assert_eq!(placeholders(&en_text), placeholders(&ja_text), "{code:?} {part}");
        }
    }
}
