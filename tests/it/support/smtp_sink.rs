//! A real SMTP server for the mail tests: `scripts/smtp-sink.py` (Python, aiosmtpd), started on
//! a loopback port and stopped when the handle is dropped. Every message it accepts is a file
//! the test can read.
//!
//! The interpreter is `VMARKET_TEST_PYTHON`, else the repository's `.venv` (made by
//! `scripts/install-test-deps`), else `python3`, whichever can import aiosmtpd. Without one, a
//! test that needs the server is skipped with a loud message, except under `CI=true`, where it
//! fails.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One message the server accepted.
#[derive(Debug, Clone)]
pub struct Received {
    /// The bytes after DATA.
    pub raw: Vec<u8>,
    /// The SMTP envelope: `mail_from`, `rcpt_tos`, `login`.
    pub envelope: Value,
}

/// A running sink.
pub struct SmtpSink {
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    dir: tempfile::TempDir,
    child: Child,
}

/// The repository's root directory.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The interpreter to run the sink with. `None` means "skip this test" (outside CI only).
pub fn python() -> Option<PathBuf> {
    python_with("aiosmtpd", "the SMTP tests")
}

/// A Python interpreter that can import `module` (`VMARKET_TEST_PYTHON`, the repository's
/// `.venv`, then `python3`). Without one, `None` skips the test with a loud message, except
/// under `CI=true`, where it fails: `for_what` names the tests in that message.
pub fn python_with(module: &str, for_what: &str) -> Option<PathBuf> {
    let imports = |python: &Path| {
        Command::new(python)
            .args(["-c", &format!("import {module}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut candidates = Vec::new();
    if let Ok(p) = std::env::var("VMARKET_TEST_PYTHON") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(repo_root().join(".venv/bin/python"));
    candidates.push(PathBuf::from("python3"));
    if let Some(found) = candidates.into_iter().find(|p| imports(p)) {
        return Some(found);
    }
    let help =
        format!("no Python with {module} for {for_what}: run scripts/install-test-deps (or set VMARKET_TEST_PYTHON)");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{help}");
    }
    eprintln!("\n*** SKIPPED: {help} ***\n");
    None
}

/// Waits until `child` (a helper server the test started, named `what` in failures) listens on
/// loopback `port`: panics when it exits first or does not listen `within`.
pub fn wait_listening(child: &mut std::process::Child, port: u16, what: &str, within: Duration) {
    let deadline = Instant::now() + within;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited ({status}) before listening on {port}");
        }
        assert!(Instant::now() < deadline, "{what} did not listen on port {port} within {within:?}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl SmtpSink {
    /// Starts the sink on `port`; with `auth = Some("user:pass")` clients must log in.
    pub fn start(python: &Path, port: u16, auth: Option<&str>) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut cmd = Command::new(python);
        cmd.args(["-W", "ignore"])
            .arg(repo_root().join("scripts/smtp-sink.py"))
            .arg(dir.path())
            .args(["--port", &port.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(auth) = auth {
            cmd.args(["--auth", auth]);
        }
        let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {}: {e}", python.display()));
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Self { port, dir, child };
            }
            if let Ok(Some(status)) = child.try_wait() {
                let mut err = String::new();
                let _ = child.stderr.take().map(|mut s| s.read_to_string(&mut err));
                panic!("the SMTP sink exited ({status}) before listening on {port}:\n{err}");
            }
            assert!(Instant::now() < deadline, "the SMTP sink did not listen on port {port} within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Every message accepted so far, in order.
    pub fn received(&self) -> Vec<Received> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .expect("sink dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|eml| {
                let envelope =
                    std::fs::read_to_string(eml.with_extension("json")).expect("envelope beside the message");
                Received {
                    raw: std::fs::read(&eml).expect("message"),
                    envelope: serde_json::from_str(&envelope).expect("envelope JSON"),
                }
            })
            .collect()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
