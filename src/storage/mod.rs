//! Uploaded files through `object_store`: a local directory (`{data_dir}/objects`) by default,
//! any S3-compatible store by URL. Served back under `/media/…`.

use std::sync::Arc;

use bytes::Bytes;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use rocket::http::{ContentType, Header};
use rocket::{Responder, Route, State, get, routes};

use crate::config::Config;
use crate::error::{Error, Result};

/// The configured object store.
#[derive(Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
}

impl Storage {
    /// Opens the store named by `object_store_url`, or the local directory.
    pub fn from_config(config: &Config) -> Result<Self> {
        if config.object_store_url.is_empty() {
            let dir = std::path::Path::new(&config.data_dir).join("objects");
            std::fs::create_dir_all(&dir).map_err(|e| Error::Internal(format!("{}: {e}", dir.display())))?;
            let local = LocalFileSystem::new_with_prefix(&dir).map_err(|e| Error::Internal(e.to_string()))?;
            return Ok(Self { store: Arc::new(local) });
        }
        let url =
            url::Url::parse(&config.object_store_url).map_err(|e| Error::Internal(format!("object_store_url: {e}")))?;
        let options = std::env::vars().filter(|(k, _)| k.starts_with("AWS_")).map(|(k, v)| (k.to_ascii_lowercase(), v));
        let (store, prefix) =
            object_store::parse_url_opts(&url, options).map_err(|e| Error::Internal(e.to_string()))?;
        let store: Arc<dyn ObjectStore> = if prefix.as_ref().is_empty() {
            Arc::from(store)
        } else {
            Arc::new(object_store::prefix::PrefixStore::new(store, prefix))
        };
        Ok(Self { store })
    }

    /// Stores `bytes` under `key`.
    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<()> {
        self.store
            .put(&ObjectPath::from(key), PutPayload::from(bytes))
            .await
            .map(|_| ())
            .map_err(|e| Error::Internal(format!("storing {key}: {e}")))
    }

    /// The bytes under `key`, or `None`.
    pub async fn get(&self, key: &str) -> Result<Option<Bytes>> {
        match self.store.get(&ObjectPath::from(key)).await {
            Ok(found) => Ok(Some(found.bytes().await.map_err(|e| Error::Internal(e.to_string()))?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Error::Internal(format!("reading {key}: {e}"))),
        }
    }
}

/// A stored file with long-lived caching (keys are versioned).
#[derive(Responder)]
pub struct Media(Vec<u8>, ContentType, Header<'static>);

/// Serves a stored file.
#[get("/<path..>")]
pub async fn media(path: std::path::PathBuf, storage: &State<Storage>) -> Result<Media> {
    let key = path.to_str().filter(|k| !k.is_empty()).ok_or_else(Error::not_found)?;
    let bytes = storage.get(key).await?.ok_or_else(Error::not_found)?;
    let kind =
        path.extension().and_then(|e| e.to_str()).and_then(ContentType::from_extension).unwrap_or(ContentType::Binary);
    Ok(Media(bytes.to_vec(), kind, Header::new("Cache-Control", "public, max-age=31536000, immutable")))
}

/// Routes mounted at `/media`.
pub fn routes() -> Vec<Route> {
    routes![media]
}
