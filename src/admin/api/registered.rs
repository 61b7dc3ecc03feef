//! A resource as the routes see it ([`Registered`]), and the one implementation of list, show,
//! create, update, delete and reconcile that serves every resource, each write in one
//! transaction with its audit entry.

use std::future::Future;
use std::pin::Pin;

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, ModelTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, SqlErr,
};
use serde::Serialize;
use serde_json::Value;

use crate::admin::api::contract::{Columns, ListParams, Listed, RawList, column};
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input;
use crate::admin::api::resource::{Reconciliation, Resource, Row, id_column};
use crate::admin::permissions::{Action, Area};
use crate::db::entities::asset_version;
use crate::error::{Error, Result};
use crate::model::audit;

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A new record's id and the record.
pub(super) type Created = (i32, Value);

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
    pub(super) list: for<'a> fn(&'a Cx<'a>, RawList<'a>) -> BoxFuture<'a, Result<Listed>>,
    pub(super) show: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    pub(super) create: for<'a> fn(&'a Cx<'a>, Value) -> BoxFuture<'a, Result<Created>>,
    pub(super) update: for<'a> fn(&'a Cx<'a>, i32, Value) -> BoxFuture<'a, Result<Value>>,
    pub(super) delete: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    pub(super) reconcile: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<Value>>,
    pub(super) refund: for<'a> fn(&'a Cx<'a>, i32, String) -> BoxFuture<'a, Result<Value>>,
    pub(super) file: for<'a> fn(&'a Cx<'a>, i32) -> BoxFuture<'a, Result<asset_version::Model>>,
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
        refund: |cx, id, reason| Box::pin(refund::<R>(cx, id, reason)),
        file: |cx, id| Box::pin(file::<R>(cx, id)),
        check_columns: check_columns::<R>,
    }
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
    acted::<R>(cx, id, Action::Reconcile, before, done, None).await
}

/// The upload behind record `id` (in the staff member's scope, like any record they open).
async fn file<R: Resource>(cx: &Cx<'_>, id: i32) -> Result<asset_version::Model> {
    let (row, _) = one::<R, _>(cx.db, id, cx).await?;
    R::file(row, cx).await
}

/// The longest refund reason staff may give.
pub const REFUND_REASON_MAX: usize = 500;

async fn refund<R: Resource>(cx: &Cx<'_>, id: i32, reason: String) -> Result<Value> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > REFUND_REASON_MAX {
        return Err(Error::invalid("reason", "admin.store_purchases.reason_invalid"));
    }
    let (row, before) = one::<R, _>(cx.db, id, cx).await?;
    let done = R::refund(row, cx, reason).await?;
    acted::<R>(cx, id, Action::Refund, before, done, Some(reason)).await
}

/// After an action that reached outside (a provider) and stands on its own: the audit entry of
/// `action` on record `id` (before → after, with the outcome and any `reason`) in a
/// transaction of its own; the record as it is now with `outcome`, or the action's error.
async fn acted<R: Resource>(
    cx: &Cx<'_>,
    id: i32,
    action: Action,
    before: Value,
    done: Reconciliation,
    reason: Option<&str>,
) -> Result<Value> {
    let (_, after) = one::<R, _>(cx.db, id, cx).await?;
    let outcome = Value::String(done.outcome.into());
    let mut logged = with_key(&snapshot::<R>(&after), "outcome", outcome.clone());
    if let Some(reason) = reason {
        logged = with_key(&logged, "reason", Value::String(reason.into()));
    }
    let txn = crate::db::begin_write(cx.db).await?;
    audited(txn, cx, R::NAME, id, action, Some(snapshot::<R>(&before)), Some(logged)).await?;
    match done.error {
        Some(error) => Err(error),
        None => Ok(with_key(&after, "outcome", outcome)),
    }
}
