//! Page parameters and the pagination object of list responses (ARCHITECTURE.md "Wire
//! conventions").

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, Invalid, Result};

/// Items per page when the client does not say.
pub const DEFAULT_LIMIT: u64 = 20;
/// The largest page size a client may ask for.
pub const MAX_LIMIT: u64 = 100;
/// The highest page number a client may ask for: far beyond any list, and small enough that
/// the row offset always fits the databases' signed 64-bit `OFFSET`.
pub const MAX_PAGE: u64 = 1_000_000_000;

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number.
    pub page: u64,
    /// Items per page.
    pub limit: u64,
}

impl PageRequest {
    /// Parses the raw `page` and `limit` query values.
    pub fn parse(page: Option<&str>, limit: Option<&str>, default_limit: u64) -> Result<Self> {
        let positive = |name: &str, raw: Option<&str>, default: u64| -> Result<u64> {
            match raw {
                None | Some("") => Ok(default),
                Some(text) => match text.parse::<u64>() {
                    Ok(n) if n >= 1 => Ok(n),
                    _ => Err(Error::invalid(name, "validation.positive_integer")),
                },
            }
        };
        let page = positive("page", page, 1)?;
        if page > MAX_PAGE {
            return Err(Error::Validation(vec![Invalid::new("page", "validation.at_most").with("max", MAX_PAGE)]));
        }
        let limit = positive("limit", limit, default_limit)?;
        if limit > MAX_LIMIT {
            return Err(Error::Validation(vec![Invalid::new("limit", "validation.at_most").with("max", MAX_LIMIT)]));
        }
        Ok(Self { page, limit })
    }

    /// Rows to skip.
    pub fn offset(self) -> u64 {
        (self.page - 1) * self.limit
    }

    /// How many rows match, when this page's `rows` tell it: a page with fewer rows than its limit
    /// is the last one — if it has any, or is the first — so the count is its offset plus its
    /// rows, and the list needs no count query. `None` when only counting can tell (a full page,
    /// or an empty page past the first).
    pub fn count_from_rows(self, rows: usize) -> Option<u64> {
        let rows = rows as u64;
        (rows < self.limit && (rows > 0 || self.page == 1)).then(|| self.offset() + rows)
    }
}

/// One page of a list as views: what a list response is made of.
#[derive(Debug, Clone)]
pub struct ViewPage<T> {
    /// The views on this page.
    pub data: Vec<T>,
    /// How many items match.
    pub count: u64,
    /// How many the unfiltered list holds.
    pub all: u64,
}

/// The pagination object sent beside every list.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Pagination {
    /// Items matching the filters.
    pub count: u64,
    /// Items per page.
    pub limit: u64,
    /// Rows skipped before this page.
    pub offset: u64,
    /// This page, 1-based.
    pub page: u64,
    /// The previous page, if any.
    pub prev: Option<u64>,
    /// The next page, if any.
    pub next: Option<u64>,
    /// The last page (1 when there are no items).
    pub last: u64,
    /// 1-based position of the first item shown (0 when none).
    pub from: u64,
    /// 1-based position of the last item shown (0 when none).
    pub to: u64,
    /// Items on this page.
    #[serde(rename = "in")]
    pub in_page: u64,
    /// Items in the unfiltered collection.
    pub all: u64,
}

impl Pagination {
    /// The pagination of page `req` over `count` matching items out of `all`.
    pub fn new(req: PageRequest, count: u64, all: u64) -> Self {
        let last = count.div_ceil(req.limit).max(1);
        let offset = req.offset();
        let in_page = count.saturating_sub(offset).min(req.limit);
        let (from, to) = if in_page == 0 { (0, 0) } else { (offset + 1, offset + in_page) };
        Self {
            count,
            limit: req.limit,
            offset,
            page: req.page,
            prev: (req.page > 1).then(|| (req.page - 1).min(last)),
            next: (req.page < last).then_some(req.page + 1),
            last,
            from,
            to,
            in_page,
            all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(page: u64, limit: u64) -> PageRequest {
        PageRequest { page, limit }
    }

    #[test]
    fn only_a_last_page_tells_the_count() {
        assert_eq!(req(1, 20).count_from_rows(6), Some(6));
        assert_eq!(req(1, 20).count_from_rows(0), Some(0));
        assert_eq!(req(3, 20).count_from_rows(5), Some(45));
        // A full page may have more after it; an empty page past the first may be past the end.
        assert_eq!(req(1, 20).count_from_rows(20), None);
        assert_eq!(req(4, 20).count_from_rows(0), None);
    }

    #[test]
    fn middle_page() {
        let p = Pagination::new(req(2, 10), 25, 40);
        assert_eq!((p.prev, p.next, p.last), (Some(1), Some(3), 3));
        assert_eq!((p.from, p.to, p.in_page, p.offset), (11, 20, 10, 10));
    }

    #[test]
    fn last_partial_page_and_beyond() {
        let p = Pagination::new(req(3, 10), 25, 25);
        assert_eq!((p.from, p.to, p.in_page, p.next), (21, 25, 5, None));
        let beyond = Pagination::new(req(9, 10), 25, 25);
        assert_eq!((beyond.from, beyond.to, beyond.in_page, beyond.prev), (0, 0, 0, Some(3)));
    }

    #[test]
    fn empty_list_has_one_page() {
        let p = Pagination::new(req(1, 20), 0, 12);
        assert_eq!((p.last, p.prev, p.next, p.from, p.to, p.all), (1, None, None, 0, 0, 12));
    }

    #[test]
    fn parse_rejects_bad_numbers() {
        assert!(PageRequest::parse(Some("0"), None, 20).is_err());
        assert!(PageRequest::parse(Some("x"), None, 20).is_err());
        assert!(PageRequest::parse(None, Some("101"), 20).is_err());
        assert!(PageRequest::parse(Some("9223372036854775808"), None, 20).is_err());
        assert!(PageRequest::parse(Some("1000000001"), None, 20).is_err());
        let last = PageRequest::parse(Some("1000000000"), Some("100"), 20).unwrap();
        assert!(i64::try_from(last.offset()).is_ok());
        assert_eq!(PageRequest::parse(Some("2"), Some("5"), 20).unwrap(), req(2, 5));
    }
}
