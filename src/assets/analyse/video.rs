//! Videos through `ffprobe` (Debian package `ffmpeg`) — **the one analyser that runs a process**
//! and the one that needs a file path rather than bytes.
//!
//! It runs `ffprobe -v error -print_format json -show_format -show_streams <path>`, reads at
//! most [`MAX_OUTPUT`] bytes of its answer on a thread, and kills it when it has not finished
//! within the timeout. Only the streams' and the format's headers are read by ffprobe; nothing is
//! decoded here.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::finding::{Code, Finding};
use super::stats::VideoStats;

/// Most bytes of ffprobe's JSON answer read.
pub const MAX_OUTPUT: u64 = 1024 * 1024;

/// The program run; found on `PATH`.
pub const FFPROBE: &str = "ffprobe";

/// Probes the video at `path`, killing ffprobe after `timeout`.
pub fn probe(path: &Path, timeout: Duration) -> Result<VideoStats, Finding> {
    probe_with(Path::new(FFPROBE), path, timeout)
}

/// [`probe`] with another program (the tests use a stand-in that hangs).
pub fn probe_with(program: &Path, path: &Path, timeout: Duration) -> Result<VideoStats, Finding> {
    let failed = |what: String| Finding::error(Code::VideoProbeFailed).actual(what);
    let mut child = Command::new(program)
        .args(["-v", "error", "-print_format", "json", "-show_format", "-show_streams"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| failed(format!("{}: {e}", program.display())))?;
    let stdout = child.stdout.take().ok_or_else(|| failed("no output".to_string()))?;
    let reader = thread::spawn(move || {
        let mut output = Vec::new();
        // Stops at the cap; ffprobe then blocks on a full pipe until it is killed.
        let _ = stdout.take(MAX_OUTPUT).read_to_end(&mut output);
        output
    });
    match wait(&mut child, timeout) {
        Some(status) if status.success() => {
            let output = reader.join().unwrap_or_default();
            parse(&output).ok_or_else(|| failed("unparseable output".to_string()))
        }
        Some(status) => Err(failed(format!("exit {status}"))),
        // The reader is not joined: it ends when the last holder of the pipe is gone.
        None => Err(Finding::error(Code::VideoProbeTimeout).values(timeout.as_secs_f64(), Value::Null)),
    }
}

/// Waits for the child at most `timeout`; kills and reaps it after that (`None`).
fn wait(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Reads ffprobe's JSON answer.
pub fn parse(output: &[u8]) -> Option<VideoStats> {
    let json: Value = serde_json::from_slice(output).ok()?;
    let format = json.get("format");
    let streams = json.get("streams").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let of_type = |kind: &str| streams.iter().find(|s| s.get("codec_type").and_then(Value::as_str) == Some(kind));
    let text = |v: Option<&Value>, key: &str| v.and_then(|v| v.get(key)).and_then(Value::as_str).map(str::to_string);
    let number = |v: Option<&Value>, key: &str| text(v, key).and_then(|t| t.parse::<f64>().ok());
    let video = of_type("video");
    let dimension =
        |key: &str| video.and_then(|v| v.get(key)).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    let rate =
        ["avg_frame_rate", "r_frame_rate"].into_iter().find_map(|key| text(video, key).and_then(|r| fraction(&r)));
    Some(VideoStats {
        container: text(format, "format_name"),
        duration_seconds: number(format, "duration").or_else(|| number(video, "duration")),
        video_codec: text(video, "codec_name"),
        width: dimension("width"),
        height: dimension("height"),
        frame_rate: rate,
        bit_rate: text(format, "bit_rate").and_then(|b| b.parse().ok()),
        audio_codec: text(of_type("audio"), "codec_name"),
    })
}

/// `30000/1001` as a number; `None` for `0/0`.
fn fraction(text: &str) -> Option<f64> {
    let (numerator, denominator) = text.split_once('/')?;
    let (n, d): (f64, f64) = (numerator.parse().ok()?, denominator.parse().ok()?);
    (d > 0.0 && n > 0.0).then(|| (n / d * 1000.0).round() / 1000.0)
}
