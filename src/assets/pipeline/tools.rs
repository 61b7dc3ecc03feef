//! What every step of the pipeline works with.

use sea_orm::DatabaseConnection;

use crate::http::upload::ImageDecoder;
use crate::storage::Storage;

/// What the pipeline works with.
pub struct Tools<'a> {
    /// The database.
    pub db: &'a DatabaseConnection,
    /// The object store.
    pub storage: &'a Storage,
    /// The shared image decoder (the pictures are decoded within its budget).
    pub images: &'a ImageDecoder,
    /// A directory for temporary copies of files.
    pub scratch: std::path::PathBuf,
}
