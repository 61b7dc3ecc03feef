//! A real S3-compatible store for the uploader tests: moto's S3 server (PyPI `moto[server]`,
//! installed into `.venv` by `scripts/install-test-deps`), started on a free loopback port and
//! stopped when the handle is dropped. It speaks S3's HTTP API — multipart uploads, `ListParts`,
//! presigned URLs checked against their signature and expiry — as the app's `object_store` client
//! and a browser use it.
//!
//! Without an interpreter that can import it, a test that needs it is skipped with a loud
//! message, except under `CI=true`, where it fails.

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use vmarket::config::Config;
use vmarket::config::values::Secret;

use super::smtp_sink::{free_port, python_with, wait_listening};

/// The access key the tests use (moto takes any).
const ACCESS_KEY: &str = "vmarket-test-key";
/// Its secret.
const SECRET_KEY: &str = "vmarket-test-secret";

/// A running moto S3 server.
pub struct MotoS3 {
    /// Its base URL (`http://127.0.0.1:<port>`).
    pub base: String,
    child: Child,
}

impl Drop for MotoS3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl MotoS3 {
    /// Starts moto's server on a free port, or `None` when it is not installed (outside CI).
    pub fn start() -> Option<Self> {
        let python = python_with("moto.server", "the S3 tests")?;
        let port = free_port();
        let mut child = Command::new(&python)
            .args(["-W", "ignore", "-m", "moto.server", "-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start moto with {}: {e}", python.display()));
        wait_listening(&mut child, port, "moto", Duration::from_secs(30));
        Some(Self { base: format!("http://127.0.0.1:{port}"), child })
    }

    /// Creates bucket `name` (moto's server takes an unsigned `PUT`).
    pub async fn bucket(&self, name: &str) {
        let res = reqwest::Client::new().put(format!("{}/{name}", self.base)).send().await.expect("moto answers");
        assert!(res.status().is_success(), "creating bucket {name}: {}", res.status());
    }

    /// Points `config`'s object store at `s3://{bucket_and_prefix}` on the server at `base`
    /// (a [`MotoS3`]'s; a function of the URL so that a config hook can own it).
    pub fn configure_at(base: &str, config: &mut Config, bucket_and_prefix: &str) {
        config.object_store_url = format!("s3://{bucket_and_prefix}");
        let options: BTreeMap<String, Secret> = [
            ("aws_endpoint", base),
            ("aws_access_key_id", ACCESS_KEY),
            ("aws_secret_access_key", SECRET_KEY),
            ("aws_region", "us-east-1"),
            ("aws_allow_http", "true"),
            ("aws_virtual_hosted_style_request", "false"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Secret::from(v)))
        .collect();
        config.object_store_options = options;
    }
}
