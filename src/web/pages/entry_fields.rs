//! Where a problem of the entry API's input shows on the pages that edit an entry's wishes (the
//! entry form, the AMP options): the one mapping from the API's attributes to the page's fields.

use std::collections::HashMap;

use crate::error::FieldError;

/// The page field of a problem with `attribute` when it is about the applications (the wishes):
/// `applications[i].options.amp_id` → `amp_id_{n}`, anything else about item `i` → `{wish}_{n}`
/// (the wish's own field on that page: `plan` on the entry form, `wish` on the AMP form), where
/// `n` is the page's slot of item `i` (`slots[i]`); an item the page does not hold, or the
/// applications as a whole, → `wishes`. `None` for a problem that is not about the applications.
pub fn wish_field(attribute: &str, slots: &[usize], wish: &str) -> Option<String> {
    let Some(rest) = attribute.strip_prefix("applications[") else {
        return (attribute == "applications").then(|| "wishes".into());
    };
    let item = rest.split_once(']').and_then(|(i, tail)| Some((slots.get(i.parse::<usize>().ok()?)?, tail)));
    Some(match item {
        Some((n, ".options.amp_id")) => format!("amp_id_{n}"),
        Some((n, _)) => format!("{wish}_{n}"),
        None => "wishes".into(),
    })
}

/// `errors` by page field (`field` names each problem's field).
pub fn errors_by_field(errors: Vec<FieldError>, field: impl Fn(&str) -> String) -> HashMap<String, Vec<String>> {
    let mut by_field: HashMap<String, Vec<String>> = HashMap::new();
    for e in errors {
        by_field.entry(field(&e.attribute)).or_default().push(e.message);
    }
    by_field
}
