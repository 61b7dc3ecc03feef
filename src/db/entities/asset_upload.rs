//! A multipart upload of one asset version in progress: its parts' size and count, where the
//! bytes go (the local store, or an S3-compatible one and its upload id) and until when.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where an upload stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(16))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum UploadState {
    /// Parts are being sent.
    Open,
    /// Completed: the version's file is whole.
    Completed,
    /// Given up by the owner (the asset or version deleted).
    Aborted,
    /// Not completed within 24 hours; parts freed.
    Expired,
}

/// Which store takes the parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(8))", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum StoreKind {
    /// The local directory: parts go to the server's own part endpoint.
    Local,
    /// An S3-compatible store: parts go straight to it, through presigned URLs.
    S3,
}

/// A row of `asset_uploads`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "asset_uploads")]
pub struct Model {
    /// A UUID v4, the upload's public id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub asset_version_id: i32,
    pub user_id: i32,
    pub byte_size: i64,
    pub part_size: i64,
    pub part_count: i32,
    pub store: StoreKind,
    /// The S3 multipart upload id.
    pub multipart_id: Option<String>,
    pub status: UploadState,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
    pub completed_at: Option<DateTimeUtc>,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
