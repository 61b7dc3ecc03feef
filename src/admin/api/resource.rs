//! What a console resource is: the [`Resource`] trait each file of `resources/` implements,
//! and the helpers their writes share.

use std::future::Future;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, EntityTrait, ModelTrait, QueryFilter};
use serde::Serialize;
use serde::de::DeserializeOwned;
use validator::Validate;

use crate::admin::api::contract::{Columns, column};
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::asset_version;
use crate::error::{Error, Result};

/// The row type of a resource.
pub type Row<R> = <<R as Resource>::Entity as EntityTrait>::Model;

/// A console resource. Implement it in one file under `resources/` and list it in
/// `resources::ALL`; routes, permissions, the audit log and the session's permission table
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
    /// Its picture fields, which take uploads (`crate::admin::api::images`); their inputs take the address.
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

    /// Refunds `row` for `reason` (a store purchase: the money back at its provider, then what it
    /// bought revoked). By default a resource does not refund (405).
    fn refund(row: Row<Self>, cx: &Cx<'_>, reason: &str) -> impl Future<Output = Result<Reconciliation>> + Send {
        let _ = (row, cx, reason);
        async { Err(Error::MethodNotAllowed) }
    }

    /// The stored upload behind `row` that staff may open (a box submission's model, an asset
    /// version's file): `GET /admin/api/{NAME}/{id}/file`, for the roles that may show the record.
    /// By default a resource has none (404).
    fn file(row: Row<Self>, cx: &Cx<'_>) -> impl Future<Output = Result<asset_version::Model>> + Send {
        let _ = (row, cx);
        async { Err(Error::not_found()) }
    }

    /// Removes `row` (by default the row alone; its children go with it by foreign key, so a
    /// resource whose rows others refer to overrides it and refuses while they do: `crate::admin::api::uses::Uses`).
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

/// The `id` column of `E`.
pub fn id_column<E: EntityTrait>() -> Result<E::Column> {
    column::<E>("id").ok_or_else(|| Error::Internal(format!("{} has no id column", E::default().table_name())))
}

/// `Ok` when row `id` of `E` exists; otherwise a validation error on `field` ("choose an existing
/// one").
pub async fn must_exist<E: EntityTrait, C: ConnectionTrait>(db: &C, id: i32, field: &str) -> Result<()> {
    let found = E::find().filter(id_column::<E>()?.eq(id)).one(db).await?;
    if found.is_none() { Err(Error::invalid(field, "validation.unknown_reference")) } else { Ok(()) }
}
