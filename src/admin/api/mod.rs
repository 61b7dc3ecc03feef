//! `/admin/api/{resource}`: the console's REST facade in the ra-data-simple-rest format, one
//! small file per resource in [`resources`].
//!
//! A resource is a [`Resource`]: its name, its area of the role table, the actions it offers,
//! the columns staff may sort, filter and search on, its typed input (`validator` rules) and
//! how its rows become records and inputs become rows. This module does the rest, the same way
//! for every resource:
//!
//! - `GET /admin/api/{resource}?sort=…&range=…&filter=…` lists ([`contract`]),
//! - `GET /admin/api/{resource}/{id}` shows one record,
//! - `POST`, `PUT /{id}` (the whole record or only the fields that change) and `DELETE /{id}`
//!   write, each in one transaction that also stores
//!   the audit entry (who, when, what, record before → after). A resource's write methods only
//!   ever see that transaction, which they cannot commit: a write without its audit row is not
//!   possible.
//! - `POST /{id}/reconcile` (payments only) asks the outside world where a record stands and
//!   applies it, through the same code as the background job that does it ([`Resource::reconcile`]);
//!   its audit entry (before → after, and the outcome) follows in a transaction of its own,
//!   because the reconcile calls a provider over the network and its own settle must stand
//!   whatever happens next (a database transaction must not wait on the network).
//!
//! Who may do what is checked by the [`Allowed`] guard from `crate::admin::permissions`.

pub mod access;
pub mod contract;
pub mod images;
pub mod input;
pub mod resources;
pub mod uses;

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use rocket::data::Data;
use rocket::response::status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, ModelTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, SqlErr,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::OpenApi;
use validator::Validate;

pub use access::{Allowed, Console, Cx};
use contract::{Columns, ListParams, Listed, RawList, column};
pub use images::ImageSlot;
pub use uses::Uses;

use crate::admin::permissions::{Action, Area};
use crate::error::{Error, Result};
use crate::model::audit;
use crate::types::Id;

/// The row type of a resource.
pub type Row<R> = <<R as Resource>::Entity as EntityTrait>::Model;

/// A console resource. Implement it in one file under [`resources`] and list it in
/// [`resources::ALL`]; routes, permissions, the audit log and the session's permission table
/// follow.
pub trait Resource: Send + Sync + 'static {
    /// The table it lists (a primary key column named `id`, an `i32`).
    type Entity: EntityTrait<Model: Send + Sync + Clone>;
    /// What staff see of one row (list items, show, audit snapshots). Its fields are named like
    /// the input's, so that react-admin's edit form round-trips.
    type Record: Serialize + Send + Sync;
    /// What staff send to create or change a row. Every field must be optional to serde
    /// (`#[serde(default)]` on the struct; `required` is a `validator` rule), so that a value of
    /// the wrong type is reported on its own field.
    type Input: DeserializeOwned + Validate + Send;

    /// The REST name (`/admin/api/{NAME}`), also react-admin's resource name.
    const NAME: &'static str;
    /// Its area in DOMAIN.md's role table.
    const AREA: Area;
    /// What it offers.
    const ACTIONS: &'static [Action];
    /// Sortable, filterable and searchable columns.
    const COLUMNS: Columns;
    /// Its picture fields, which take uploads ([`images`]); their inputs take the address.
    const IMAGES: &'static [ImageSlot] = &[];
    /// The record's fields its audit entries keep (`None`: all). A record with personal data
    /// (an email address, a message) keeps what says which record changed and how, no more: the
    /// log is read by roles that may not read the record itself, and it is kept for good.
    const AUDIT_FIELDS: Option<&'static [&'static str]> = None;

    /// The rows `cx`'s staff member may see, beyond the role table's yes for the resource (by
    /// default all of them): applied to lists (`getMany` and CSV export are lists) and to single
    /// records alike, so a row outside it is a 404.
    fn scope(cx: &Cx<'_>) -> Condition {
        let _ = cx;
        Condition::all()
    }

    /// Records for `rows`, in the same order (loading whatever they refer to).
    fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<Row<Self>>,
    ) -> impl Future<Output = Result<Vec<Self::Record>>> + Send;

    /// Records for `rows` as they stand at `now` on the application clock (what the console
    /// calls). By default [`Resource::records`]; a resource whose records depend on the time
    /// (a lottery status that a closed window changes) overrides it.
    fn records_at<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<Row<Self>>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Vec<Self::Record>>> + Send {
        let _ = now;
        Self::records(db, rows)
    }

    /// Why staff made this change, when the resource asks for a reason (a corrective status
    /// change): stored with the audit entry, as `reason` beside the record after the write.
    fn reason(input: &Self::Input) -> Option<String> {
        let _ = input;
        None
    }

    /// Stores a new row from a checked input; returns its id.
    fn create(txn: &DatabaseTransaction, input: Self::Input, cx: &Cx<'_>) -> impl Future<Output = Result<i32>> + Send {
        let _ = (txn, input, cx);
        async { Err(Error::MethodNotAllowed) }
    }

    /// Changes `row` after a checked input.
    fn update(
        txn: &DatabaseTransaction,
        row: Row<Self>,
        input: Self::Input,
        cx: &Cx<'_>,
    ) -> impl Future<Output = Result<()>> + Send {
        let _ = (txn, row, input, cx);
        async { Err(Error::MethodNotAllowed) }
    }

    /// Reconciles `row` with the outside world (a stuck payment with its provider), writing what
    /// it learns with its own transactions; answers what happened.
    fn reconcile(row: Row<Self>, cx: &Cx<'_>) -> impl Future<Output = Result<Reconciliation>> + Send {
        let _ = (row, cx);
        async { Err(Error::MethodNotAllowed) }
    }

    /// Removes `row` (by default the row alone; its children go with it by foreign key, so a
    /// resource whose rows others refer to overrides it and refuses while they do: [`Uses`]).
    fn delete(txn: &DatabaseTransaction, row: Row<Self>, cx: &Cx<'_>) -> impl Future<Output = Result<()>> + Send {
        let _ = cx;
        async move {
            let id = id_column::<Self::Entity>()?;
            let value = row.get(id);
            Self::Entity::delete_many().filter(id.eq(value)).exec(txn).await?;
            Ok(())
        }
    }
}

/// What a reconcile found.
#[derive(Debug)]
pub struct Reconciliation {
    /// The outcome, snake_case (`settled`, `closed`, `expired`, `waiting`, …), stored with the
    /// audit entry and answered as `outcome` beside the record.
    pub outcome: &'static str,
    /// The error to answer with when it could not finish (the provider did not answer); the
    /// audit entry is stored all the same.
    pub error: Option<Error>,
}

/// The input of a read-only resource: it takes none.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
pub struct NoInput {}

impl Validate for NoInput {
    fn validate(&self) -> std::result::Result<(), validator::ValidationErrors> {
        Ok(())
    }
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A new record's id and the record.
type Created = (i32, Value);

/// A resource as the routes see it: its name, area and actions, and its operations with the
/// types erased.
pub struct Registered {
    /// The REST name.
    pub name: &'static str,
    /// Its area.
    pub area: Area,
    /// What it offers.
    pub actions: &'static [Action],
    /// What staff may sort, filter and search on.
    pub columns: Columns,
    /// Its picture fields.
    pub images: &'static [ImageSlot],
    list: for<'a> fn(&'a Cx<'a>, RawList<'a>) -> BoxFuture<'a, Result<Listed>>,
    show: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    create: for<'a> fn(&'a Cx<'a>, Value) -> BoxFuture<'a, Result<Created>>,
    update: for<'a> fn(&'a Cx<'a>, i32, Value) -> BoxFuture<'a, Result<Value>>,
    delete: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    reconcile: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    /// Whether every declared column exists (checked by a test).
    pub check_columns: fn() -> std::result::Result<(), String>,
}

/// The registration of resource `R`.
pub const fn registered<R: Resource>() -> Registered {
    Registered {
        name: R::NAME,
        area: R::AREA,
        actions: R::ACTIONS,
        columns: R::COLUMNS,
        images: R::IMAGES,
        list: |cx, raw| Box::pin(list::<R>(cx, raw)),
        show: |cx, id| Box::pin(async move { one::<R, _>(cx.db, id, cx).await.map(|(_, v)| v) }),
        create: |cx, body| Box::pin(create::<R>(cx, body)),
        update: |cx, id, body| Box::pin(update::<R>(cx, id, body)),
        delete: |cx, id| Box::pin(delete::<R>(cx, id)),
        reconcile: |cx, id| Box::pin(reconcile::<R>(cx, id)),
        check_columns: check_columns::<R>,
    }
}

/// Every registered resource.
pub fn resources() -> &'static [Registered] {
    resources::ALL
}

/// The `id` column of `E`.
pub fn id_column<E: EntityTrait>() -> Result<E::Column> {
    column::<E>("id").ok_or_else(|| Error::Internal(format!("{} has no id column", E::default().table_name())))
}

fn check_columns<R: Resource>() -> std::result::Result<(), String> {
    let Columns { sort, filter, search, .. } = R::COLUMNS;
    let missing: Vec<_> = ["id"]
        .iter()
        .chain(sort)
        .chain(filter)
        .chain(search)
        .filter(|name| column::<R::Entity>(name).is_none())
        .collect();
    if missing.is_empty() { Ok(()) } else { Err(format!("{}: no column {missing:?}", R::NAME)) }
}

fn id_of<E: EntityTrait>(row: &E::Model) -> Result<i32> {
    match row.get(id_column::<E>()?) {
        sea_orm::Value::Int(Some(id)) => Ok(id),
        other => Err(Error::Internal(format!("{}: id {other:?} is not an i32", E::default().table_name()))),
    }
}

fn to_json(record: &impl Serialize) -> Result<Value> {
    serde_json::to_value(record).map_err(|e| Error::Internal(format!("record as JSON: {e}")))
}

async fn list<R: Resource>(cx: &Cx<'_>, raw: RawList<'_>) -> Result<Listed> {
    let params = ListParams::<R::Entity>::parse(raw, &R::COLUMNS)?;
    let select = R::Entity::find().filter(params.condition).filter(R::scope(cx));
    let total = select.clone().count(cx.db).await?;
    let rows = select
        .order_by(params.sort, params.order)
        .order_by(id_column::<R::Entity>()?, sea_orm::Order::Asc)
        .offset(params.start)
        .limit(params.limit)
        .all(cx.db)
        .await?;
    let items = R::records_at(cx.db, rows, cx.now).await?.iter().map(to_json).collect::<Result<Vec<_>>>()?;
    Ok(Listed { resource: R::NAME, start: params.start, total, items })
}

/// Row `id` of `R` and its record as JSON (as `cx`'s staff member may see it), or `not_found`.
async fn one<R: Resource, C: ConnectionTrait + Sync>(db: &C, id: i32, cx: &Cx<'_>) -> Result<(Row<R>, Value)> {
    let found = R::Entity::find().filter(id_column::<R::Entity>()?.eq(id)).filter(R::scope(cx)).one(db).await?;
    let row = found.ok_or_else(Error::not_found)?;
    let record = R::records_at(db, vec![row.clone()], cx.now).await?.into_iter().next().ok_or_else(Error::not_found)?;
    Ok((row, to_json(&record)?))
}

/// What the audit entry of `R` keeps of `record` ([`Resource::AUDIT_FIELDS`]).
fn snapshot<R: Resource>(record: &Value) -> Value {
    match (R::AUDIT_FIELDS, record) {
        (Some(fields), Value::Object(all)) => Value::Object(
            all.iter().filter(|(k, _)| fields.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect(),
        ),
        _ => record.clone(),
    }
}

/// `Ok` when row `id` of `E` exists; otherwise a validation error on `field` ("choose an existing
/// one").
pub async fn must_exist<E: EntityTrait, C: ConnectionTrait>(db: &C, id: i32, field: &str) -> Result<()> {
    let found = E::find().filter(id_column::<E>()?.eq(id)).one(db).await?;
    if found.is_none() { Err(Error::invalid(field, "validation.unknown_reference")) } else { Ok(()) }
}

/// A database refusal the client caused (a duplicate key, a row still referred to) as a 409;
/// anything else stays a server error.
fn refusal(error: Error) -> Error {
    match &error {
        // The database keeping a money row (a trigger on SQLite, where it is no foreign key
        // error): the console's own checks name the records before this is reached.
        Error::Db(db) if db.to_string().contains(crate::db::migrations::m20261128_001900_money_rows_kept::KEPT) => {
            Error::Conflict { code: "in_use" }
        }
        Error::Db(db) => match db.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(_)) => Error::Conflict { code: "already_exists" },
            Some(SqlErr::ForeignKeyConstraintViolation(_)) => Error::Conflict { code: "in_use" },
            _ => error,
        },
        _ => error,
    }
}

/// Stores the audit entry of a write on its transaction, then commits both.
async fn audited(
    txn: DatabaseTransaction,
    cx: &Cx<'_>,
    resource: &str,
    id: i32,
    action: Action,
    before: Option<Value>,
    after: Option<Value>,
) -> Result<()> {
    let entry = audit::Entry {
        actor: &cx.staff,
        at: cx.acted_at(),
        resource,
        record_id: id.to_string(),
        action: action.as_str(),
        before,
        after,
    };
    entry.record(&txn).await?;
    txn.commit().await.map_err(|e: DbErr| refusal(e.into()))?;
    cx.send_queued().await;
    Ok(())
}

async fn create<R: Resource>(cx: &Cx<'_>, body: Value) -> Result<Created> {
    let input = input::parse::<R::Input>(body)?;
    let txn = crate::db::begin_write(cx.db).await?;
    let id = R::create(&txn, input, cx).await.map_err(refusal)?;
    let (_, after) = one::<R, _>(&txn, id, cx).await?;
    audited(txn, cx, R::NAME, id, Action::Create, None, Some(snapshot::<R>(&after))).await?;
    Ok((id, after))
}

/// `body`'s fields over `record`'s: a `PUT` may carry the whole record (react-admin's edit form)
/// or only what changes (its bulk actions: `{"is_public": true}`).
fn merged(record: &Value, body: Value) -> Value {
    match (record, body) {
        (Value::Object(current), Value::Object(changes)) => {
            let mut all = current.clone();
            all.extend(changes);
            Value::Object(all)
        }
        (_, body) => body,
    }
}

async fn update<R: Resource>(cx: &Cx<'_>, id: i32, body: Value) -> Result<Value> {
    let txn = crate::db::begin_write(cx.db).await?;
    let (row, before) = one::<R, _>(&txn, id, cx).await?;
    let input = input::parse::<R::Input>(merged(&before, body))?;
    let reason = R::reason(&input);
    R::update(&txn, row, input, cx).await.map_err(refusal)?;
    let (_, after) = one::<R, _>(&txn, id, cx).await?;
    let logged = match (reason, snapshot::<R>(&after)) {
        (Some(reason), Value::Object(mut record)) => {
            record.insert("reason".into(), Value::String(reason));
            Value::Object(record)
        }
        (_, logged) => logged,
    };
    audited(txn, cx, R::NAME, id, Action::Edit, Some(snapshot::<R>(&before)), Some(logged)).await?;
    Ok(after)
}

async fn delete<R: Resource>(cx: &Cx<'_>, id: i32) -> Result<Value> {
    let txn = crate::db::begin_write(cx.db).await?;
    let (row, before) = one::<R, _>(&txn, id, cx).await?;
    debug_assert_eq!(id_of::<R::Entity>(&row).ok(), Some(id));
    R::delete(&txn, row, cx).await.map_err(refusal)?;
    audited(txn, cx, R::NAME, id, Action::Delete, Some(snapshot::<R>(&before)), None).await?;
    Ok(before)
}

/// `record` (an object) with `key` set to `value`.
fn with_key(record: &Value, key: &str, value: Value) -> Value {
    match record {
        Value::Object(fields) => {
            let mut fields = fields.clone();
            fields.insert(key.into(), value);
            Value::Object(fields)
        }
        other => other.clone(),
    }
}

async fn reconcile<R: Resource>(cx: &Cx<'_>, id: i32) -> Result<Value> {
    let (row, before) = one::<R, _>(cx.db, id, cx).await?;
    let done = R::reconcile(row, cx).await?;
    let (_, after) = one::<R, _>(cx.db, id, cx).await?;
    let outcome = Value::String(done.outcome.into());
    let logged = with_key(&snapshot::<R>(&after), "outcome", outcome.clone());
    let txn = crate::db::begin_write(cx.db).await?;
    audited(txn, cx, R::NAME, id, Action::Reconcile, Some(snapshot::<R>(&before)), Some(logged)).await?;
    match done.error {
        Some(error) => Err(error),
        None => Ok(with_key(&after, "outcome", outcome)),
    }
}

/// A list of records in the ra-data-simple-rest format (see [`contract`]).
#[utoipa::path(get, path = "/admin/api/{resource}", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource, e.g. `events`"),
           ("sort" = Option<String>, Query, description = r#"JSON `["field","ASC"|"DESC"]`, a sortable field"#),
           ("range" = Option<String>, Query, description = "JSON `[start,end]`, both included, at most 1000 records"),
           ("filter" = Option<String>, Query, description = r#"JSON object: `{"id":[1,2]}`, `{"q":"words"}`, `{"field":value}`, `{"field_gte":…}`"#)),
    responses((status = 200, description = "The records; `Content-Range: <resource> <start>-<end>/<total>`", body = [Object]),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/api/<resource>?<sort>&<range>&<filter>")]
pub async fn list_records(
    resource: &str,
    sort: Option<String>,
    range: Option<String>,
    filter: Option<String>,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<Listed> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    let raw = RawList { sort: sort.as_deref(), range: range.as_deref(), filter: filter.as_deref() };
    (found.list)(&cx, raw).await
}

/// One record.
#[utoipa::path(get, path = "/admin/api/{resource}/{id}", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource"), ("id" = i32, Path, description = "Record id")),
    responses((status = 200, body = Object), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
#[get("/api/<resource>/<id>")]
pub async fn show_record(
    resource: &str,
    id: Id,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<Json<Value>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    (found.show)(&cx, id.0).await.map(Json)
}

/// Creates a record (audited); answers it with its id.
#[utoipa::path(post, path = "/admin/api/{resource}", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource")),
    request_body(content = Object, description = "The resource's input"),
    responses((status = 201, body = Object), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 405, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody)))]
#[post("/api/<resource>", data = "<body>")]
pub async fn create_record(
    resource: &str,
    body: Data<'_>,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<status::Created<Json<Value>>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    let body = input::read_json(body).await?;
    let (id, record) = (found.create)(&cx, body).await?;
    Ok(status::Created::new(format!("/admin/api/{resource}/{id}")).body(Json(record)))
}

/// Changes a record (audited); answers it as it is now.
#[utoipa::path(put, path = "/admin/api/{resource}/{id}", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource"), ("id" = i32, Path, description = "Record id")),
    request_body(content = Object, description = "The resource's input (the whole record)"),
    responses((status = 200, body = Object), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 405, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[put("/api/<resource>/<id>", data = "<body>")]
pub async fn update_record(
    resource: &str,
    id: Id,
    body: Data<'_>,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<Json<Value>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    let body = input::read_json(body).await?;
    (found.update)(&cx, id.0, body).await.map(Json)
}

/// Deletes a record (audited); answers it as it was.
#[utoipa::path(delete, path = "/admin/api/{resource}/{id}", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource"), ("id" = i32, Path, description = "Record id")),
    responses((status = 200, body = Object), (status = 401, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 405, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
#[delete("/api/<resource>/<id>")]
pub async fn delete_record(
    resource: &str,
    id: Id,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<Json<Value>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    (found.delete)(&cx, id.0).await.map(Json)
}

/// Reconciles a record with the outside world (payments: asks the provider where a stuck
/// attempt stands and settles, fails or expires it); audited. Answers the record as it is now
/// with `outcome`. 409 when there is nothing to reconcile (not pending), 502 when the provider
/// did not answer (the audit entry is stored all the same).
#[utoipa::path(post, path = "/admin/api/{resource}/{id}/reconcile", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource that reconciles (`payments`)"),
           ("id" = i32, Path, description = "Record id")),
    responses((status = 200, body = Object, description = "The record with `outcome`: `settled`, `closed`, `expired`, `waiting`, `never_opened`"),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 405, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 502, body = crate::error::ErrorBody)))]
#[post("/api/<resource>/<id>/reconcile")]
pub async fn reconcile_record(
    resource: &str,
    id: Id,
    allowed: std::result::Result<Allowed<'_>, Error>,
) -> Result<Json<Value>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    (found.reconcile)(&cx, id.0).await.map(Json)
}

/// The OpenAPI operations of the resource routes.
#[derive(OpenApi)]
#[openapi(paths(list_records, show_record, create_record, update_record, delete_record, reconcile_record))]
pub struct Doc;

/// Routes of every console resource (mounted at `/admin`).
pub fn routes() -> Vec<Route> {
    routes![list_records, show_record, create_record, update_record, delete_record, reconcile_record]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_resource_declares_real_columns_and_a_unique_name() {
        let mut names = std::collections::BTreeSet::new();
        for resource in resources() {
            (resource.check_columns)().unwrap();
            assert!(names.insert(resource.name), "{} is registered twice", resource.name);
            assert!(resource.actions.contains(&Action::List), "{} lists", resource.name);
        }
    }
}
