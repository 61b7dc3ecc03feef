//! Uploaded files through `object_store`: a local directory (`{data_dir}/objects`) by default,
//! any S3-compatible store by URL. Pictures are served back under `/media/…`; asset files
//! (`assets/…`) and upload parts (`uploads/…`) never are — they leave only by download token.
//!
//! Large files stream in and out in chunks ([`Storage::write_stream`], [`Storage::reader`],
//! [`Storage::concat`]): never whole in memory. On an S3-compatible store, [`multipart`] opens
//! multipart uploads whose parts browsers send straight to the store through presigned URLs.

mod disposition;
pub mod multipart;

pub use disposition::attachment;

use std::sync::Arc;

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::buffered::BufWriter;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use rocket::http::{ContentType, Header};
use rocket::{Responder, Route, State, get, routes};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use crate::config::Config;
use crate::error::{Error, Result};

/// Key prefixes `/media` never serves: asset files and upload parts are private.
pub const PRIVATE_PREFIXES: [&str; 2] = ["assets/", "uploads/"];

/// Bytes read or written at a time when streaming.
pub const CHUNK: usize = 1024 * 1024;

/// The configured object store.
#[derive(Clone, Debug)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    s3: Option<multipart::S3>,
}

/// What [`Storage::write_stream`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Bytes written.
    pub bytes: u64,
    /// Hex SHA-256 of them.
    pub sha256: String,
}

impl Storage {
    /// Opens the store named by `object_store_url`, or the local directory.
    pub fn from_config(config: &Config) -> Result<Self> {
        if config.object_store_url.is_empty() {
            let dir = std::path::Path::new(&config.data_dir).join("objects");
            std::fs::create_dir_all(&dir).map_err(|e| Error::Internal(format!("{}: {e}", dir.display())))?;
            let local = LocalFileSystem::new_with_prefix(&dir).map_err(|e| Error::Internal(e.to_string()))?;
            return Ok(Self { store: Arc::new(local), s3: None });
        }
        let url =
            url::Url::parse(&config.object_store_url).map_err(|e| Error::Internal(format!("object_store_url: {e}")))?;
        let options = std::env::vars()
            .filter(|(k, _)| k.starts_with("AWS_"))
            .map(|(k, v)| (k.to_ascii_lowercase(), v))
            .chain(config.object_store_options.iter().map(|(k, v)| (k.to_ascii_lowercase(), v.expose().to_string())));
        let prefix = url.path().trim_matches('/').to_string();
        if url.scheme() == "s3" {
            let mut builder = AmazonS3Builder::new().with_url(config.object_store_url.as_str());
            for (key, value) in options {
                if let Ok(key) = key.parse() {
                    builder = builder.with_config(key, value);
                }
            }
            let s3 = Arc::new(builder.build().map_err(|e| Error::Internal(format!("object store: {e}")))?);
            let store: Arc<dyn ObjectStore> = if prefix.is_empty() {
                s3.clone()
            } else {
                Arc::new(object_store::prefix::PrefixStore::new(s3.clone(), prefix.as_str()))
            };
            return Ok(Self { store, s3: Some(multipart::S3::new(s3, prefix)) });
        }
        let (store, path) = object_store::parse_url_opts(&url, options).map_err(|e| Error::Internal(e.to_string()))?;
        let store: Arc<dyn ObjectStore> = if path.as_ref().is_empty() {
            Arc::from(store)
        } else {
            Arc::new(object_store::prefix::PrefixStore::new(store, path))
        };
        Ok(Self { store, s3: None })
    }

    /// The S3-compatible store behind this one, for multipart uploads and presigned URLs.
    pub fn s3(&self) -> Option<&multipart::S3> {
        self.s3.as_ref()
    }

    /// Stores `bytes` under `key`.
    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<()> {
        self.store
            .put(&ObjectPath::from(key), PutPayload::from(bytes))
            .await
            .map(|_| ())
            .map_err(|e| Error::Internal(format!("storing {key}: {e}")))
    }

    /// The bytes under `key`, or `None`. For small files only (pictures); large ones stream
    /// through [`Self::reader`].
    pub async fn get(&self, key: &str) -> Result<Option<Bytes>> {
        match self.store.get(&ObjectPath::from(key)).await {
            Ok(found) => Ok(Some(found.bytes().await.map_err(|e| Error::Internal(e.to_string()))?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Error::Internal(format!("reading {key}: {e}"))),
        }
    }

    /// The size of the object under `key`, or `None`.
    pub async fn size(&self, key: &str) -> Result<Option<u64>> {
        match self.store.head(&ObjectPath::from(key)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Error::Internal(format!("reading {key}: {e}"))),
        }
    }

    /// Streams `reader` into the object `key`, a chunk at a time, refusing (and writing nothing)
    /// past `limit` bytes: 413.
    pub async fn write_stream<R: AsyncRead + Unpin>(&self, key: &str, mut reader: R, limit: u64) -> Result<Written> {
        let mut writer = BufWriter::with_capacity(self.store.clone(), ObjectPath::from(key), CHUNK);
        let mut buf = vec![0u8; 64 * 1024];
        let mut digest = Sha256::new();
        let mut total = 0u64;
        loop {
            let n = match reader.read(&mut buf).await {
                Ok(n) => n,
                Err(e) => {
                    let _ = writer.abort().await;
                    return Err(Error::BadRequest { code: "upload_interrupted" }).inspect_err(|_| {
                        tracing::info!(key, error = %e, "upload body ended early");
                    });
                }
            };
            if n == 0 {
                break;
            }
            total += n as u64;
            if total > limit {
                let _ = writer.abort().await;
                return Err(Error::TooLarge);
            }
            digest.update(&buf[..n]);
            if let Err(e) = writer.write_all(&buf[..n]).await {
                let _ = writer.abort().await;
                return Err(Error::Internal(format!("storing {key}: {e}")));
            }
        }
        writer.shutdown().await.map_err(|e| Error::Internal(format!("storing {key}: {e}")))?;
        Ok(Written { bytes: total, sha256: hex::encode(digest.finalize()) })
    }

    /// The object under `key` as a stream of bytes (`None` when missing).
    pub async fn reader(&self, key: &str) -> Result<Option<impl AsyncRead + Unpin + Send + use<>>> {
        match self.store.get(&ObjectPath::from(key)).await {
            Ok(found) => {
                let stream = found.into_stream().map_err(std::io::Error::other);
                Ok(Some(tokio_util::io::StreamReader::new(stream.boxed())))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(Error::Internal(format!("reading {key}: {e}"))),
        }
    }

    /// Writes the objects `parts`, in order, into one object `key`, streaming; returns what it
    /// wrote.
    pub async fn concat(&self, parts: &[String], key: &str) -> Result<Written> {
        let mut writer = BufWriter::with_capacity(self.store.clone(), ObjectPath::from(key), CHUNK);
        let mut digest = Sha256::new();
        let mut total = 0u64;
        for part in parts {
            let mut stream = match self.store.get(&ObjectPath::from(part.as_str())).await {
                Ok(found) => found.into_stream(),
                Err(e) => {
                    let _ = writer.abort().await;
                    return Err(Error::Internal(format!("reading {part}: {e}")));
                }
            };
            while let Some(chunk) = stream.next().await {
                let chunk = match chunk {
                    Ok(chunk) => chunk,
                    Err(e) => {
                        let _ = writer.abort().await;
                        return Err(Error::Internal(format!("reading {part}: {e}")));
                    }
                };
                digest.update(&chunk);
                total += chunk.len() as u64;
                if let Err(e) = writer.write_all(&chunk).await {
                    let _ = writer.abort().await;
                    return Err(Error::Internal(format!("storing {key}: {e}")));
                }
            }
        }
        writer.shutdown().await.map_err(|e| Error::Internal(format!("storing {key}: {e}")))?;
        Ok(Written { bytes: total, sha256: hex::encode(digest.finalize()) })
    }

    /// Copies the object `key` into the local file `path`, streaming; returns its length.
    pub async fn download_to(&self, key: &str, path: &std::path::Path) -> Result<u64> {
        let mut reader = self.reader(key).await?.ok_or_else(|| Error::Internal(format!("{key} is missing")))?;
        let mut file =
            tokio::fs::File::create(path).await.map_err(|e| Error::Internal(format!("{}: {e}", path.display())))?;
        let copied =
            tokio::io::copy(&mut reader, &mut file).await.map_err(|e| Error::Internal(format!("{key}: {e}")))?;
        file.flush().await.map_err(|e| Error::Internal(format!("{}: {e}", path.display())))?;
        Ok(copied)
    }

    /// Deletes the object `key` (a missing one is fine).
    pub async fn delete(&self, key: &str) -> Result<()> {
        match self.store.delete(&ObjectPath::from(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(Error::Internal(format!("deleting {key}: {e}"))),
        }
    }

    /// Deletes every object under `prefix` (a folder-like key ending without `/`).
    pub async fn delete_prefix(&self, prefix: &str) -> Result<()> {
        let prefix = ObjectPath::from(prefix);
        let keys: Vec<ObjectPath> = self
            .store
            .list(Some(&prefix))
            .map_ok(|meta| meta.location)
            .try_collect()
            .await
            .map_err(|e| Error::Internal(format!("listing {prefix}: {e}")))?;
        for key in keys {
            self.delete(key.as_ref()).await?;
        }
        Ok(())
    }
}

/// A stored file with long-lived caching (keys are versioned).
#[derive(Responder)]
pub struct Media(Vec<u8>, ContentType, Header<'static>);

/// Serves a stored picture; private prefixes are 404.
#[get("/<path..>")]
pub async fn media(path: std::path::PathBuf, storage: &State<Storage>) -> Result<Media> {
    let key = path.to_str().filter(|k| !k.is_empty()).ok_or_else(Error::not_found)?;
    if PRIVATE_PREFIXES.iter().any(|p| key.starts_with(p)) {
        return Err(Error::not_found());
    }
    let bytes = storage.get(key).await?.ok_or_else(Error::not_found)?;
    let kind =
        path.extension().and_then(|e| e.to_str()).and_then(ContentType::from_extension).unwrap_or(ContentType::Binary);
    Ok(Media(bytes.to_vec(), kind, Header::new("Cache-Control", "public, max-age=31536000, immutable")))
}

/// Routes mounted at `/media`.
pub fn routes() -> Vec<Route> {
    routes![media]
}
