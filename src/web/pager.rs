//! Page links of paginated pages: the `page` query rule (absent is 1, anything but a positive
//! integer is 404 "Page Not Found") and the window of links `macros/pager` renders.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::model::pagination::Pagination;
use crate::types::Id;

/// How many page links are shown on each side of the current page.
const WINDOW: u64 = 3;

/// Parses the `page` query of a page: absent is 1, anything but a positive integer is 404.
pub fn page_number(raw: Option<&str>) -> Result<u64> {
    match raw {
        None => Ok(1),
        Some(p) => Ok(Id::parse(p).map_err(|_| Error::NotFound { code: "invalid_parameter" })?.0 as u64),
    }
}

/// Links to the pages around the current one, with previous, next and first; `link(n)` is the
/// href of page `n`.
pub fn pager(pagination: &Pagination, link: impl Fn(u64) -> String) -> Value {
    let window = (pagination.page.saturating_sub(WINDOW).max(1)..=(pagination.page + WINDOW).min(pagination.last))
        .map(|n| json!({ "n": n, "href": link(n), "current": n == pagination.page }))
        .collect::<Vec<_>>();
    json!({
        "pages": window,
        "prev_href": pagination.prev.map(&link),
        "next_href": pagination.next.map(&link),
        "first_href": link(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::pagination::PageRequest;

    #[test]
    fn window_is_clamped_to_the_pages_that_exist() {
        let p = Pagination::new(PageRequest { page: 2, limit: 10 }, 95, 95);
        let v = pager(&p, |n| format!("/x?page={n}"));
        let numbers: Vec<u64> = v["pages"].as_array().unwrap().iter().map(|p| p["n"].as_u64().unwrap()).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5]);
        assert_eq!(v["prev_href"], "/x?page=1");
        assert_eq!(v["next_href"], "/x?page=3");
        let last = pager(&Pagination::new(PageRequest { page: 10, limit: 10 }, 95, 95), |n| n.to_string());
        assert_eq!(last["next_href"], Value::Null);
        assert_eq!(last["pages"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn page_numbers_are_positive_integers() {
        assert_eq!(page_number(None).unwrap(), 1);
        assert_eq!(page_number(Some("3")).unwrap(), 3);
        for bad in ["0", "-1", "x", "", "1.5"] {
            assert!(page_number(Some(bad)).is_err(), "{bad}");
        }
    }
}
