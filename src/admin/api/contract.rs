//! The ra-data-simple-rest list contract: `sort=["field","ASC"]`, `range=[0,24]` and
//! `filter={…}` query parameters (JSON), checked against what a resource declares, turned into
//! a SeaORM condition, order and window; and the answer, a JSON array with
//! `Content-Range: <resource> <start>-<end>/<total>` (`<resource> */<total>` when the window
//! holds nothing) and `Access-Control-Expose-Headers: Content-Range`.
//!
//! Filters: `id` (one id or a list: react-admin's `getMany`), `q` (every word somewhere in the
//! resource's search columns, case-insensitive), a declared column with a value (a list means
//! "any of these"), and `<column>_gte` / `<column>_lte` on declared time and number columns. A
//! `null` or empty value is no filter. Anything else is a 422 naming the parameter.

use std::io::Cursor;
use std::str::FromStr;

use rocket::http::{ContentType, Header};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, SimpleExpr};
use sea_orm::{ColumnTrait, ColumnType, Condition, EntityTrait, Order};
use serde_json::Value;

use crate::error::{Error, Invalid, Result};
use crate::forms::checks::parse_instant;
use crate::model::search::escape_like;

/// The most records one list answer holds (react-admin's CSV export asks for 1000).
pub const MAX_WINDOW: u64 = 1000;

/// The last position a range may name: ids are 32-bit, so no table holds more rows, and every
/// position below it fits the database's signed 64-bit `OFFSET` (a `u64` past `i64::MAX` made
/// the query builder panic).
pub const MAX_POSITION: u64 = i32::MAX as u64;

/// The raw list parameters of a request.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawList<'a> {
    /// `sort`, e.g. `["name_ja","ASC"]`.
    pub sort: Option<&'a str>,
    /// `range`, e.g. `[0,24]` (both ends included).
    pub range: Option<&'a str>,
    /// `filter`, e.g. `{"event_id":4,"q":"海"}`.
    pub filter: Option<&'a str>,
}

/// The condition a computed filter's value means (`None`: the value does not fit).
pub type Computed = fn(&Value) -> Option<Condition>;

/// What a resource lets staff sort, filter and search on, by column name.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    /// Sortable columns (`id` always is).
    pub sort: &'static [&'static str],
    /// Filterable columns (`id` always is).
    pub filter: &'static [&'static str],
    /// Text columns `q` searches; empty: no `q`.
    pub search: &'static [&'static str],
    /// Filters that are not one column: a name and the condition a value means (`None`: the
    /// value does not fit).
    pub computed: &'static [(&'static str, Computed)],
}

impl Columns {
    /// No sorting but by id, no filters but `id`, no search.
    pub const NONE: Columns = Columns { sort: &[], filter: &[], search: &[], computed: &[] };
}

/// Checked list parameters for entity `E`.
#[derive(Debug, Clone)]
pub struct ListParams<E: EntityTrait> {
    /// Which rows.
    pub condition: Condition,
    /// Sorted by this column …
    pub sort: E::Column,
    /// … in this direction (then by id).
    pub order: Order,
    /// The first row (0-based).
    pub start: u64,
    /// How many rows at most.
    pub limit: u64,
}

/// The column of `E` named `name`.
pub fn column<E: EntityTrait>(name: &str) -> Option<E::Column> {
    E::Column::from_str(name).ok()
}

impl<E: EntityTrait> ListParams<E> {
    /// Parses and checks `raw` against `columns`.
    pub fn parse(raw: RawList<'_>, columns: &Columns) -> Result<Self> {
        let id = column::<E>("id")
            .ok_or_else(|| Error::Internal(format!("{} has no id column", E::default().table_name())))?;
        let (sort, order) = parse_sort::<E>(raw.sort, columns, id)?;
        let (start, limit) = parse_range(raw.range)?;
        let condition = parse_filter::<E>(raw.filter, columns)?;
        Ok(Self { condition, sort, order, start, limit })
    }
}

fn invalid(invalid: Invalid) -> Error {
    Error::Validation(vec![invalid])
}

fn parse_sort<E: EntityTrait>(raw: Option<&str>, columns: &Columns, id: E::Column) -> Result<(E::Column, Order)> {
    let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else { return Ok((id, Order::Asc)) };
    let fields = std::iter::once("id").chain(columns.sort.iter().copied()).collect::<Vec<_>>();
    let wrong = || invalid(Invalid::new("sort", "validation.list_sort").with("fields", fields.join(", ")));
    let Ok((field, order)) = serde_json::from_str::<(String, String)>(raw) else { return Err(wrong()) };
    let order = match order.to_ascii_uppercase().as_str() {
        "ASC" => Order::Asc,
        "DESC" => Order::Desc,
        _ => return Err(wrong()),
    };
    let column = fields.contains(&field.as_str()).then(|| column::<E>(&field)).flatten().ok_or_else(wrong)?;
    Ok((column, order))
}

fn parse_range(raw: Option<&str>) -> Result<(u64, u64)> {
    let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else { return Ok((0, MAX_WINDOW)) };
    let wrong =
        || invalid(Invalid::new("range", "validation.list_range").with("max", MAX_WINDOW).with("last", MAX_POSITION));
    let (start, end) = serde_json::from_str::<(u64, u64)>(raw).map_err(|_| wrong())?;
    if end < start || end - start >= MAX_WINDOW || end > MAX_POSITION {
        return Err(wrong());
    }
    Ok((start, end - start + 1))
}

/// What kind of value a column holds, for filters. Integers are bound with the column's own
/// width: PostgreSQL prepares a statement once per connection with the types it was first
/// bound with, so an `int8` bound where the model's own queries of the same text bind `int4`
/// fails (a 500), and a value out of the column's range can never match anyway (a 422).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer(Width),
    Text,
    Boolean,
    Time,
}

/// The width of an integer column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    I16,
    I32,
    I64,
}

fn kind_of(column_type: &ColumnType) -> Option<Kind> {
    match column_type {
        ColumnType::Integer => Some(Kind::Integer(Width::I32)),
        ColumnType::BigInteger => Some(Kind::Integer(Width::I64)),
        ColumnType::SmallInteger | ColumnType::TinyInteger => Some(Kind::Integer(Width::I16)),
        ColumnType::String(_) | ColumnType::Text | ColumnType::Char(_) => Some(Kind::Text),
        ColumnType::Boolean => Some(Kind::Boolean),
        ColumnType::TimestampWithTimeZone | ColumnType::Timestamp | ColumnType::DateTime => Some(Kind::Time),
        _ => None,
    }
}

/// One JSON filter value as a database value of `kind`, or `None` when it does not fit.
fn scalar(kind: Kind, value: &Value) -> Option<sea_orm::Value> {
    let sized = |width: Width, n: i64| match width {
        Width::I16 => i16::try_from(n).ok().map(Into::into),
        Width::I32 => i32::try_from(n).ok().map(Into::into),
        Width::I64 => Some(n.into()),
    };
    match (kind, value) {
        (Kind::Integer(width), Value::Number(n)) => n.as_i64().and_then(|n| sized(width, n)),
        (Kind::Integer(width), Value::String(s)) => s.trim().parse::<i64>().ok().and_then(|n| sized(width, n)),
        (Kind::Text, Value::String(s)) => Some(s.clone().into()),
        (Kind::Text, Value::Number(n)) => Some(n.to_string().into()),
        (Kind::Boolean, Value::Bool(b)) => Some((*b).into()),
        (Kind::Boolean, Value::String(s)) if s == "true" || s == "false" => Some((s == "true").into()),
        (Kind::Time, Value::String(s)) => parse_instant(s.trim()).map(Into::into),
        _ => None,
    }
}

/// Whether a filter value means "no filter".
fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

fn parse_filter<E: EntityTrait>(raw: Option<&str>, columns: &Columns) -> Result<Condition> {
    let mut condition = Condition::all();
    let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else { return Ok(condition) };
    let mut fields = vec!["id"];
    fields.extend(columns.filter.iter().copied());
    if !columns.search.is_empty() {
        fields.push("q");
    }
    fields.extend(columns.computed.iter().map(|(name, _)| *name));
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(raw) else {
        return Err(invalid(Invalid::new("filter", "validation.list_filter").with("fields", fields.join(", "))));
    };
    for (key, value) in &map {
        if is_blank(value) {
            continue;
        }
        let unfit =
            || invalid(Invalid::new(format!("filter.{key}"), "validation.list_filter_value").with("field", key));
        if key == "q" && !columns.search.is_empty() {
            let text = value.as_str().ok_or_else(unfit)?;
            condition = condition.add(search::<E>(columns.search, text));
            continue;
        }
        if let Some((_, condition_of)) = columns.computed.iter().find(|(name, _)| name == key) {
            condition = condition.add(condition_of(value).ok_or_else(unfit)?);
            continue;
        }
        let (name, bound) = match (key.strip_suffix("_gte"), key.strip_suffix("_lte")) {
            (Some(name), _) => (name, Some(Bound::AtLeast)),
            (_, Some(name)) => (name, Some(Bound::AtMost)),
            _ => (key.as_str(), None),
        };
        let declared = name == "id" || columns.filter.contains(&name);
        let found =
            declared.then(|| column::<E>(name)).flatten().and_then(|c| Some((c, kind_of(c.def().get_column_type())?)));
        let Some((col, kind)) =
            found.filter(|(_, kind)| bound.is_none() || matches!(kind, Kind::Integer(_) | Kind::Time))
        else {
            return Err(invalid(Invalid::new("filter", "validation.list_filter").with("fields", fields.join(", "))));
        };
        let expr = match (bound, value) {
            (Some(Bound::AtLeast), v) => col.gte(scalar(kind, v).ok_or_else(unfit)?),
            (Some(Bound::AtMost), v) => col.lte(scalar(kind, v).ok_or_else(unfit)?),
            (None, Value::Array(items)) => {
                let values = items.iter().map(|v| scalar(kind, v)).collect::<Option<Vec<_>>>().ok_or_else(unfit)?;
                col.is_in(values)
            }
            (None, v) => col.eq(scalar(kind, v).ok_or_else(unfit)?),
        };
        condition = condition.add(expr);
    }
    Ok(condition)
}

#[derive(Debug, Clone, Copy)]
enum Bound {
    AtLeast,
    AtMost,
}

/// Every word of `text` in at least one of `columns`, ignoring case (portable: `LOWER(col) LIKE
/// '%word%'`). Staff lists are small enough to scan.
fn search<E: EntityTrait>(columns: &[&str], text: &str) -> Condition {
    let mut all = Condition::all();
    for word in crate::model::search::terms(text) {
        let pattern = format!("%{}%", escape_like(&word.to_lowercase()));
        let mut any = Condition::any();
        for col in columns.iter().filter_map(|c| column::<E>(c)) {
            let lowered: SimpleExpr = Func::lower(Expr::col(col)).into();
            any = any.add(lowered.like(LikeExpr::new(pattern.clone()).escape('\\')));
        }
        all = all.add(any);
    }
    all
}

/// A list answer in the ra-data-simple-rest format.
#[derive(Debug)]
pub struct Listed {
    /// The resource name, for `Content-Range`.
    pub resource: &'static str,
    /// Position of the first record.
    pub start: u64,
    /// Matching records in all.
    pub total: u64,
    /// The records of the window.
    pub items: Vec<Value>,
}

impl Listed {
    /// The `Content-Range` value: `events 0-24/319`, or `events */319` when the window is empty
    /// (no records at all, or a window past the end).
    pub fn content_range(&self) -> String {
        match self.items.len() as u64 {
            0 => format!("{} */{}", self.resource, self.total),
            n => format!("{} {}-{}/{}", self.resource, self.start, self.start + n - 1, self.total),
        }
    }
}

impl<'r> Responder<'r, 'static> for Listed {
    fn respond_to(self, _req: &'r Request<'_>) -> response::Result<'static> {
        let body = Value::Array(self.items.clone()).to_string();
        Response::build()
            .header(ContentType::JSON)
            .header(Header::new("Content-Range", self.content_range()))
            .header(Header::new("Access-Control-Expose-Headers", "Content-Range"))
            .header(Header::new("Cache-Control", "no-store"))
            .sized_body(body.len(), Cursor::new(body))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_range_at_the_edges() {
        let listed = |start, total, n: usize| Listed { resource: "events", start, total, items: vec![Value::Null; n] };
        assert_eq!(listed(0, 0, 0).content_range(), "events */0");
        assert_eq!(listed(0, 319, 25).content_range(), "events 0-24/319");
        assert_eq!(listed(300, 319, 19).content_range(), "events 300-318/319");
        assert_eq!(listed(400, 319, 0).content_range(), "events */319");
    }

    #[test]
    fn ranges_stay_within_what_the_database_takes() {
        assert_eq!(parse_range(Some("[0,24]")).unwrap(), (0, 25));
        let last = format!("[{0},{0}]", MAX_POSITION);
        assert_eq!(parse_range(Some(&last)).unwrap(), (MAX_POSITION, 1));
        for raw in ["[9223372036854775808,9223372036854775808]", "[2147483648,2147483648]", "[0,18446744073709551615]"]
        {
            assert!(matches!(parse_range(Some(raw)), Err(Error::Validation(_))), "{raw}");
        }
    }

    #[test]
    fn filter_values_by_column_kind() {
        assert_eq!(scalar(Kind::Integer(Width::I32), &serde_json::json!("12")), Some(12i32.into()));
        assert_eq!(scalar(Kind::Integer(Width::I64), &serde_json::json!(12)), Some(12i64.into()));
        assert_eq!(scalar(Kind::Integer(Width::I32), &serde_json::json!(2_147_483_648i64)), None);
        assert_eq!(scalar(Kind::Integer(Width::I32), &serde_json::json!("x")), None);
        assert_eq!(scalar(Kind::Boolean, &serde_json::json!("true")), Some(true.into()));
        assert_eq!(scalar(Kind::Boolean, &serde_json::json!(1)), None);
        assert!(scalar(Kind::Time, &serde_json::json!("2026-12-12T12:00")).is_some());
        assert_eq!(scalar(Kind::Time, &serde_json::json!("tomorrow")), None);
        assert!(is_blank(&Value::Null) && is_blank(&serde_json::json!(" ")) && !is_blank(&serde_json::json!(0)));
    }
}
