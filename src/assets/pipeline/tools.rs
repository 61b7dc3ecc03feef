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

impl<'a> Tools<'a> {
    /// The tools over `db`, `storage` and `images`, with scratch copies under `data_dir/scratch`.
    pub fn new(db: &'a DatabaseConnection, storage: &'a Storage, images: &'a ImageDecoder, data_dir: &str) -> Self {
        Self { db, storage, images, scratch: std::path::Path::new(data_dir).join("scratch") }
    }
}
