//! The routes of `/admin/api/{resource}[/{id}]`: each finds the resource and the role table's
//! yes through the [`Allowed`] guard and hands over to the resource's registration.

use rocket::data::Data;
use rocket::response::status;
use rocket::serde::json::Json;
use rocket::{Route, delete, get, post, put, routes};
use serde::Deserialize;
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

use crate::admin::api::access::Allowed;
use crate::admin::api::contract::{Listed, RawList};
use crate::admin::api::input;
use crate::assets::api::downloads::File;
use crate::error::{Error, Result};
use crate::storage::Storage;
use crate::types::Id;

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

/// Why staff refund.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RefundInput {
    /// Shown to staff and kept with the purchase and the audit entry (1–500 characters).
    pub reason: Option<String>,
}

/// Refunds a record (store purchases: the money back at the provider for one paid by card,
/// then the purchase `refunded` and its downloads revoked); audited with the reason. Answers the
/// record as it is now with `outcome` (`refunded`). 409 `purchase_refunded` when refunded
/// already, 422 without a reason, 502 when the provider did not answer (nothing changed; the
/// audit entry is stored all the same).
#[utoipa::path(post, path = "/admin/api/{resource}/{id}/refund", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource that refunds (`store_purchases`)"),
           ("id" = i32, Path, description = "Record id")),
    request_body = RefundInput,
    responses((status = 200, body = Object, description = "The record with `outcome`: `refunded`"),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 405, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody)))]
#[post("/api/<resource>/<id>/refund", data = "<body>")]
pub async fn refund_record(
    resource: &str,
    id: Id,
    allowed: std::result::Result<Allowed<'_>, Error>,
    body: std::result::Result<Json<RefundInput>, rocket::serde::json::Error<'_>>,
) -> Result<Json<Value>> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    let Json(input) = body.map_err(|_| Error::BadRequest { code: "bad_request" })?;
    let reason = input.reason.unwrap_or_default();
    (found.refund)(&cx, id.0, reason).await.map(Json)
}

/// The stored upload a record shows, streamed to staff who may show the record: a box
/// submission's model, an asset version's file (what the console's 3-D preview draws). 404 for a
/// resource without files, a record outside the staff member's scope, or a file the store no
/// longer holds.
#[utoipa::path(get, path = "/admin/api/{resource}/{id}/file", tag = "admin", security(("bearer" = [])),
    params(("resource" = String, Path, description = "A console resource with files (`box_submissions`, `asset_versions`)"),
           ("id" = i32, Path, description = "Record id")),
    responses((status = 200, description = "The file", content_type = "application/octet-stream"),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 405, body = crate::error::ErrorBody)))]
#[get("/api/<resource>/<id>/file")]
pub async fn record_file(
    resource: &str,
    id: Id,
    allowed: std::result::Result<Allowed<'_>, Error>,
    storage: &rocket::State<Storage>,
) -> Result<File> {
    let Allowed { resource: found, cx, .. } = allowed?;
    debug_assert_eq!(found.name, resource);
    let version = (found.file)(&cx, id.0).await?;
    File::of(storage, &version).await?.ok_or_else(Error::not_found)
}

/// The OpenAPI operations of the resource routes.
#[derive(OpenApi)]
#[openapi(paths(
    list_records,
    show_record,
    create_record,
    update_record,
    delete_record,
    reconcile_record,
    refund_record,
    record_file
))]
pub struct Doc;

/// Routes of every console resource (mounted at `/admin`).
pub fn routes() -> Vec<Route> {
    routes![
        list_records,
        show_record,
        create_record,
        update_record,
        delete_record,
        reconcile_record,
        refund_record,
        record_file
    ]
}
