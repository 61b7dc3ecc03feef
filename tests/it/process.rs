//! The `vmarket` binary as an operator runs it: refusing to start without what a release needs,
//! and keeping sign-in secrets out of its log.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary with a throwaway database and nothing of the caller's `ROCKET_*` environment.
fn vmarket(tmp: &tempfile::TempDir) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vmarket"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("ROCKET_")) {
        cmd.env_remove(key);
    }
    cmd.current_dir(repo())
        .env("ROCKET_DATABASE_URL", format!("sqlite://{}?mode=rwc", tmp.path().join("v.db").display()))
        .env("ROCKET_DATA_DIR", tmp.path().join("data"));
    cmd
}

fn one_line_error(output: std::process::Output) -> String {
    assert!(!output.status.success(), "it must not start");
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr
}

#[test]
fn a_release_profile_refuses_to_start_without_a_secret_key() {
    let tmp = tempfile::tempdir().unwrap();
    let out = vmarket(&tmp).arg("serve").env("ROCKET_PROFILE", "release").output().unwrap();
    let line = one_line_error(out);
    assert!(line.contains("ROCKET_SECRET_KEY"), "{line}");
}

#[test]
fn it_refuses_to_start_without_its_templates() {
    let tmp = tempfile::tempdir().unwrap();
    let out = vmarket(&tmp)
        .arg("serve")
        .env("ROCKET_PROFILE", "release")
        .env("ROCKET_SECRET_KEY", "hPRYyVRiMyxpw5sBB1XeCMN1kFsDCqKvBi2QJxBVHQk=")
        .env("ROCKET_TEMPLATE_DIR", tmp.path().join("nowhere"))
        .output()
        .unwrap();
    let line = one_line_error(out);
    assert!(line.contains("template_dir"), "{line}");
}

#[rocket::async_test]
async fn sign_in_codes_and_states_never_reach_the_log() {
    let tmp = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = vmarket(&tmp)
        .arg("serve")
        .env("ROCKET_PORT", port.to_string())
        .env("ROCKET_SITE_URL", format!("http://127.0.0.1:{port}"))
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while http.get(format!("{base}/_ah/warmup")).send().await.is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let res = http.get(format!("{base}/auth/callback?code=SECRETCODE123&state=SECRETSTATE456")).send().await.unwrap();
    assert_eq!(res.status(), 303);
    let sign_in = format!(
        "{base}/account/auth/vmarket_account?redirect_url={}&state=SECRETSTATE789&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        url::form_urlencoded::byte_serialize(format!("{base}/auth/callback").as_bytes()).collect::<String>()
    );
    assert_eq!(http.get(sign_in).send().await.unwrap().status(), 200);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut log = String::new();
    child.stdout.take().unwrap().read_to_string(&mut log).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    assert!(log.contains("GET /auth/callback?code=…&state=… 303"), "requests are logged: {log}");
    assert!(!log.contains("SECRET"), "no code or state in the log: {log}");
}
