//! The uploader's inputs (issue 27): a new asset with its first file, a change of an asset, a
//! download token. JSON bodies of `/uploader`, checked the one way every input is.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::ToSchema;
use validator::{Validate, ValidationError};

use crate::db::entities::asset::SubType;
use crate::forms::Input;
use crate::forms::checks::{clean_text, not_blank};

/// Longest asset name.
pub const NAME_MAX: u64 = 128;
/// Longest description.
pub const DESCRIPTION_MAX: u64 = 2048;

/// A file's name as a client sends it: a plain name — no path separator, no control character,
/// not `.` or `..` — of 1–255 characters (`file_name`).
pub fn file_name(value: &str) -> Result<(), ValidationError> {
    let bad = value.is_empty()
        || value.chars().count() > 255
        || value.chars().any(|c| c.is_control() || c == '/' || c == '\\')
        || value == "."
        || value == "..";
    if bad { Err(ValidationError::new("file_name")) } else { Ok(()) }
}

/// A declared size of at least one byte (`empty_file`).
fn positive_size(value: i64) -> Result<(), ValidationError> {
    if value >= 1 { Ok(()) } else { Err(ValidationError::new("empty_file")) }
}

/// A new asset with its first file (`POST /uploader/assets`), or a new version's file (`GET
/// /uploader/assets/{id}/update_url` takes `file_name` and `byte_size` as query values).
#[derive(Debug, Clone, Deserialize, Validate, ToSchema)]
pub struct NewAsset {
    /// The setting (upload kind) by label.
    #[validate(custom(function = "not_blank"))]
    pub asset_setting_label: String,
    /// 1–128 characters.
    #[validate(length(max = NAME_MAX, code = "too_long"), custom(function = "not_blank"), custom(function = "clean_text"))]
    pub name: String,
    /// Up to 2048 characters.
    #[serde(default)]
    #[validate(length(max = DESCRIPTION_MAX, code = "too_long"), custom(function = "clean_text"))]
    pub description: String,
    /// Furniture: where it goes (floor, wall, ceiling; default floor).
    #[serde(default)]
    pub sub_type: Option<SubType>,
    /// The file's name.
    #[validate(custom(function = "file_name"))]
    pub file_name: String,
    /// The file's size in bytes.
    #[validate(custom(function = "positive_size"))]
    pub byte_size: i64,
    /// A file already sent in one request (`POST /uploader/temporary_uploads`), for files up to
    /// 5 MiB.
    #[serde(default)]
    pub temporary_upload_id: Option<String>,
}

impl Input for NewAsset {
    const FIELDS: &'static [&'static str] =
        &["asset_setting_label", "name", "description", "sub_type", "file_name", "byte_size", "temporary_upload_id"];
}

/// A new version's file (`GET /uploader/assets/{id}/update_url?file_name=&byte_size=`).
#[derive(Debug, Clone, Deserialize, Validate, ToSchema)]
pub struct NewVersion {
    /// The file's name.
    #[validate(custom(function = "file_name"))]
    pub file_name: String,
    /// The file's size in bytes.
    #[validate(custom(function = "positive_size"))]
    pub byte_size: i64,
    /// A file already sent in one request, for files up to 5 MiB.
    #[serde(default)]
    pub temporary_upload_id: Option<String>,
}

impl Input for NewVersion {
    const FIELDS: &'static [&'static str] = &["file_name", "byte_size", "temporary_upload_id"];
}

/// What the owner changes on an asset (`PUT /uploader/assets/{id}`): any of these.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct AssetChange {
    /// 1–128 characters.
    #[validate(length(max = NAME_MAX, code = "too_long"), custom(function = "not_blank"), custom(function = "clean_text"))]
    pub name: Option<String>,
    /// Up to 2048 characters.
    #[validate(length(max = DESCRIPTION_MAX, code = "too_long"), custom(function = "clean_text"))]
    pub description: Option<String>,
    /// Furniture: where it goes.
    pub sub_type: Option<SubType>,
    /// Shown to others.
    pub published: Option<bool>,
    /// Deleted (hidden; files freed after the grace period) or restored.
    pub deleted: Option<bool>,
}

impl Input for AssetChange {
    const FIELDS: &'static [&'static str] = &["name", "description", "sub_type", "published", "deleted"];
}

/// A download token (`POST /uploader/assets/{id}/versions/{versionId}/download_tokens`).
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct NewToken {
    /// An optional password, 8–128 characters.
    #[validate(length(min = 8, max = 128, code = "password_length"))]
    pub password: Option<String>,
    /// Until when (RFC 3339), within 90 days; default 7 days.
    pub expires_at: Option<DateTime<Utc>>,
}

impl Input for NewToken {
    const FIELDS: &'static [&'static str] = &["password", "expires_at"];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_names_not_paths() {
        for good in ["avatar.vrm", "ブース v2 (final).zip", "a", "..vrm"] {
            assert!(file_name(good).is_ok(), "{good}");
        }
        for bad in ["", ".", "..", "../x.glb", "dir/x.glb", "c:\\x.glb", "x\u{0}.glb", "x\n.glb", &"a".repeat(256)] {
            assert!(file_name(bad).is_err(), "{bad:?}");
        }
    }
}
