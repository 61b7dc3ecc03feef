//! Multipart uploads and presigned URLs on an S3-compatible store: the server opens an upload,
//! presigns each part's `PUT` (SigV4, with `partNumber` and `uploadId` in the signature) for the
//! browser to send straight to the store, lists what the store received (`ListParts`, to resume
//! after a dropped connection), and completes or aborts it. Keys are the application's; the
//! store's prefix is added here.

use std::sync::Arc;
use std::time::Duration;

use object_store::aws::AmazonS3;
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path as ObjectPath;
use object_store::signer::{SignedUrlOptions, Signer};
use reqwest::Method;

use crate::error::{Error, Result};

/// An S3-compatible store and the prefix every key lives under.
#[derive(Clone, Debug)]
pub struct S3 {
    client: Arc<AmazonS3>,
    prefix: String,
}

/// A part the store holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPart {
    /// From 1.
    pub part_number: i32,
    /// As the store quotes it.
    pub etag: String,
    /// Bytes.
    pub size: u64,
}

impl S3 {
    /// The store behind `client`, keys under `prefix`.
    pub fn new(client: Arc<AmazonS3>, prefix: String) -> Self {
        Self { client, prefix }
    }

    fn path(&self, key: &str) -> ObjectPath {
        if self.prefix.is_empty() { ObjectPath::from(key) } else { ObjectPath::from(format!("{}/{key}", self.prefix)) }
    }

    /// Opens a multipart upload of `key`; returns its upload id.
    pub async fn create(&self, key: &str) -> Result<String> {
        self.client.create_multipart(&self.path(key)).await.map_err(|e| store_error("opening an upload", e))
    }

    /// A presigned `PUT` of part `part_number` of the upload.
    pub async fn part_url(&self, key: &str, upload_id: &str, part_number: i32, valid: Duration) -> Result<String> {
        let options = SignedUrlOptions::new()
            .with_query([("partNumber", part_number.to_string()), ("uploadId", upload_id.into())]);
        let url = self
            .client
            .signed_url_opts(Method::PUT, &self.path(key), valid, &options)
            .await
            .map_err(|e| store_error("signing a part", e))?;
        Ok(url.to_string())
    }

    /// A presigned `GET` of `key` that names `file_name` as the download's.
    pub async fn get_url(&self, key: &str, file_name: &str, valid: Duration) -> Result<String> {
        let options = SignedUrlOptions::new()
            .with_query([("response-content-disposition", super::disposition::attachment(file_name))]);
        let url = self
            .client
            .signed_url_opts(Method::GET, &self.path(key), valid, &options)
            .await
            .map_err(|e| store_error("signing a download", e))?;
        Ok(url.to_string())
    }

    /// The parts the store holds for the upload (`ListParts`, through a presigned `GET`; at most
    /// 10,000, S3's own cap).
    pub async fn list_parts(&self, http: &reqwest::Client, key: &str, upload_id: &str) -> Result<Vec<StoredPart>> {
        let options =
            SignedUrlOptions::new().with_query([("uploadId", upload_id.to_string()), ("max-parts", "10000".into())]);
        let url = self
            .client
            .signed_url_opts(Method::GET, &self.path(key), Duration::from_secs(60), &options)
            .await
            .map_err(|e| store_error("signing a part list", e))?;
        let res = http.get(url).send().await.map_err(|e| Error::Internal(format!("listing parts: {e}")))?;
        if res.status() == reqwest::StatusCode::NOT_FOUND {
            return Ok(Vec::new());
        }
        if !res.status().is_success() {
            return Err(Error::Internal(format!("listing parts: the store answered {}", res.status())));
        }
        let text = res.text().await.map_err(|e| Error::Internal(format!("listing parts: {e}")))?;
        Ok(parse_parts(&text))
    }

    /// Completes the upload from its parts' ETags, in part order.
    pub async fn complete(&self, key: &str, upload_id: &str, etags: Vec<String>) -> Result<()> {
        let parts = etags.into_iter().map(|content_id| PartId { content_id }).collect();
        self.client
            .complete_multipart(&self.path(key), &upload_id.to_string(), parts)
            .await
            .map(|_| ())
            .map_err(|e| store_error("completing an upload", e))
    }

    /// Aborts the upload, freeing its parts.
    pub async fn abort(&self, key: &str, upload_id: &str) -> Result<()> {
        match self.client.abort_multipart(&self.path(key), &upload_id.to_string()).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(store_error("aborting an upload", e)),
        }
    }
}

fn store_error(doing: &str, e: object_store::Error) -> Error {
    Error::Internal(format!("object store, {doing}: {e}"))
}

/// The `<Part>` entries of a `ListPartsResult`.
fn parse_parts(xml: &str) -> Vec<StoredPart> {
    let field = |block: &str, tag: &str| -> Option<String> {
        let open = format!("<{tag}>");
        let start = block.find(&open)? + open.len();
        let end = block[start..].find(&format!("</{tag}>"))? + start;
        Some(block[start..end].replace("&quot;", "\"").replace("&#34;", "\""))
    };
    xml.split("<Part>")
        .skip(1)
        .filter_map(|block| {
            let block = block.split("</Part>").next()?;
            Some(StoredPart {
                part_number: field(block, "PartNumber")?.parse().ok()?,
                etag: field(block, "ETag")?,
                size: field(block, "Size")?.parse().ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parts_answers_are_read() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket><Key>k</Key>
<UploadId>u</UploadId><Part><PartNumber>1</PartNumber><LastModified>2026-11-27T00:00:00.000Z</LastModified>
<ETag>&quot;7ac66c0f148de9519b8bd264312c4d64&quot;</ETag><Size>5242880</Size></Part>
<Part><PartNumber>2</PartNumber><ETag>"abc"</ETag><Size>10</Size></Part></ListPartsResult>"#;
        assert_eq!(
            parse_parts(xml),
            [
                StoredPart { part_number: 1, etag: "\"7ac66c0f148de9519b8bd264312c4d64\"".into(), size: 5_242_880 },
                StoredPart { part_number: 2, etag: "\"abc\"".into(), size: 10 },
            ]
        );
        assert!(parse_parts("<Error><Code>NoSuchUpload</Code></Error>").is_empty());
    }
}
