//! ffprobe (video) and, when the `ffmpeg` tools are installed, sounds and videos they encode.
//! Without them these tests say so on stderr and check only what needs no tool.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::super::{Code, Kind, Limits, Stats, analyse, analyse_video, video};
use super::codes;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vmarket-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Encodes a one-second test source with ffmpeg, or `None` when ffmpeg is missing — which fails
/// under CI (`CI=true`, where `scripts/install-test-deps` installs it).
fn ffmpeg(name: &str, args: &[&str]) -> Option<PathBuf> {
    let out = scratch(name);
    let Ok(status) = Command::new("ffmpeg").args(["-v", "error", "-y"]).args(args).arg(&out).status() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ffmpeg is missing: scripts/install-test-deps installs it"
        );
        return None;
    };
    if status.success() {
        Some(out)
    } else {
        eprintln!("ffmpeg could not encode {name}; skipped");
        None
    }
}

#[test]
fn videos_are_probed_for_codec_size_rate_and_duration() {
    let args = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440"];
    let Some(path) = ffmpeg("clip.webm", &[&args[..], &["-t", "1", "-c:v", "libvpx", "-c:a", "libvorbis"]].concat())
    else {
        eprintln!("ffmpeg is not installed: video probing not exercised");
        return;
    };
    let analysis = analyse_video(&path, &Limits::default());
    assert_eq!(analysis.kind, Some(Kind::Webm));
    let Stats::Video(stats) = &analysis.stats else { panic!("{:?}", analysis.findings) };
    assert_eq!((stats.width, stats.height, stats.frame_rate), (Some(64), Some(48), Some(10.0)));
    assert_eq!((stats.video_codec.as_deref(), stats.audio_codec.as_deref()), (Some("vp8"), Some("vorbis")));
    assert!(stats.duration_seconds.is_some_and(|d| (d - 1.0).abs() < 0.1), "{stats:?}");
    assert!(codes(&analysis).is_empty());
}

#[test]
fn sounds_encoded_by_ffmpeg_give_their_duration() {
    for (name, codec, expected) in
        [("tone.ogg", "libvorbis", "vorbis"), ("tone.mp3", "libmp3lame", "mp3"), ("tone.flac", "flac", "flac")]
    {
        let Some(path) = ffmpeg(name, &["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", codec]) else {
            continue;
        };
        let analysis = analyse(&std::fs::read(&path).unwrap(), &Limits::default());
        let Stats::Audio(audio) = &analysis.stats else { panic!("{name}: {:?}", analysis.findings) };
        assert_eq!(audio.codec, expected);
        assert!(audio.duration_seconds.is_some_and(|d| (d - 2.0).abs() < 0.1), "{name}: {audio:?}");
    }
}

#[test]
fn a_hanging_probe_is_killed_at_the_timeout() {
    let script = scratch("hang.sh");
    std::fs::write(&script, "#!/bin/sh\nexec sleep 30\n").unwrap();
    let chmod = Command::new("chmod").arg("+x").arg(&script).status();
    assert!(chmod.is_ok_and(|s| s.success()));
    let started = Instant::now();
    let result = video::probe_with(&script, Path::new("/dev/null"), Duration::from_millis(200));
    assert_eq!(result.unwrap_err().code, Code::VideoProbeTimeout);
    // Not a timing assertion on the analyser: the process was killed, not waited for.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_missing_program_or_a_non_video_is_a_finding() {
    let missing = video::probe_with(Path::new("/nonexistent/ffprobe"), Path::new("/dev/null"), Duration::from_secs(1));
    assert_eq!(missing.unwrap_err().code, Code::VideoProbeFailed);
    let text = scratch("not-a-video.mp4");
    std::fs::write(&text, b"hello").unwrap();
    assert_eq!(codes(&analyse_video(&text, &Limits::default())), [Code::Unreadable]);
}

#[test]
fn ffprobe_output_is_parsed() {
    let output = br#"{"streams": [
        {"codec_type": "audio", "codec_name": "aac"},
        {"codec_type": "video", "codec_name": "h264", "width": 1920, "height": 1080,
         "avg_frame_rate": "30000/1001", "r_frame_rate": "30/1"}],
      "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "12.345", "bit_rate": "4000000"}}"#;
    let stats = video::parse(output).unwrap();
    assert_eq!((stats.width, stats.height, stats.frame_rate), (Some(1920), Some(1080), Some(29.97)));
    assert_eq!((stats.video_codec.as_deref(), stats.audio_codec.as_deref()), (Some("h264"), Some("aac")));
    assert_eq!((stats.duration_seconds, stats.bit_rate), (Some(12.345), Some(4_000_000)));
}
