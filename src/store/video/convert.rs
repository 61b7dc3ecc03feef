//! The conversion of a housing video with ffmpeg (Debian package `ffmpeg`): whatever the user
//! uploaded (MP4 or WebM, the `housing_video` rule set) becomes an H.264/AAC MP4 of at most
//! [`MAX_WIDTH`] × [`MAX_HEIGHT`] at a bounded bitrate, with its `moov` atom first (it plays while
//! it loads), and a JPEG thumbnail.
//!
//! The input is hostile: it is probed first (ffprobe, headers only, within a timeout) and refused
//! before any decoding when it has no video stream or is longer than [`MAX_DURATION`]; the
//! encoder is killed past its time ceiling and stops writing at [`MAX_OUTPUT_BYTES`]. Every refusal
//! is a [`ConvertError`] whose code the owner is shown.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::assets::analyse::video;

/// The longest video converted: housing videos loop on a booth's screen.
pub const MAX_DURATION: Duration = Duration::from_secs(10 * 60);
/// The widest picture made (narrower ones keep their width).
pub const MAX_WIDTH: u32 = 1280;
/// The tallest picture made.
pub const MAX_HEIGHT: u32 = 720;
/// The video bitrate ceiling, kbit/s.
pub const VIDEO_KBPS: u32 = 2_500;
/// The audio bitrate, kbit/s (stereo AAC).
pub const AUDIO_KBPS: u32 = 128;
/// The largest MP4 written: [`MAX_DURATION`] at the two bitrates, with room for the container.
pub const MAX_OUTPUT_BYTES: u64 = 256 * 1024 * 1024;
/// The thumbnail's width.
pub const THUMBNAIL_WIDTH: u32 = 640;
/// How long ffprobe may read the headers.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a video was not converted (stored as `housing_videos.convert_error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConvertError {
    /// ffprobe found no video stream (or could not read the file as a video).
    NotAVideo,
    /// Longer than [`MAX_DURATION`].
    TooLong,
    /// The encoder did not finish within its time ceiling.
    TimedOut,
    /// The MP4 reached [`MAX_OUTPUT_BYTES`].
    TooLarge,
    /// The encoder failed (or the job gave up after its retries).
    Failed,
}

impl ConvertError {
    /// The code stored and shown (`housing_video.error.{code}` in the locales).
    pub fn code(self) -> &'static str {
        match self {
            Self::NotAVideo => "not_a_video",
            Self::TooLong => "too_long",
            Self::TimedOut => "timed_out",
            Self::TooLarge => "too_large",
            Self::Failed => "conversion_failed",
        }
    }
}

/// What a conversion made, in the directory it was given.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The MP4.
    pub video: PathBuf,
    /// The JPEG thumbnail.
    pub thumbnail: PathBuf,
    /// Its length in bytes.
    pub bytes: u64,
    /// Its duration.
    pub duration_ms: u32,
    /// Its picture's width.
    pub width: u32,
    /// Its picture's height.
    pub height: u32,
}

/// ffmpeg's arguments to encode `input` into `output` (the first video stream and, when there is
/// one, the first audio stream), within the ceilings above.
pub fn encode_args(input: &Path, output: &Path) -> Vec<OsString> {
    let scale = format!(
        "scale='min({MAX_WIDTH},iw)':'min({MAX_HEIGHT},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2"
    );
    let mut args: Vec<OsString> = ["-v", "error", "-nostdin", "-y", "-i"].iter().map(OsString::from).collect();
    args.push(input.into());
    let rest = [
        "-map".to_string(),
        "0:v:0".into(),
        "-map".into(),
        "0:a:0?".into(),
        "-t".into(),
        MAX_DURATION.as_secs().to_string(),
        "-vf".into(),
        scale,
        "-c:v".into(),
        "libx264".into(),
        "-preset".into(),
        "veryfast".into(),
        "-crf".into(),
        "23".into(),
        "-maxrate".into(),
        format!("{VIDEO_KBPS}k"),
        "-bufsize".into(),
        format!("{}k", VIDEO_KBPS * 2),
        "-pix_fmt".into(),
        "yuv420p".into(),
        "-c:a".into(),
        "aac".into(),
        "-b:a".into(),
        format!("{AUDIO_KBPS}k"),
        "-ac".into(),
        "2".into(),
        "-movflags".into(),
        "+faststart".into(),
        "-fs".into(),
        MAX_OUTPUT_BYTES.to_string(),
        "-f".into(),
        "mp4".into(),
    ];
    args.extend(rest.into_iter().map(OsString::from));
    args.push(output.into());
    args
}

/// ffmpeg's arguments for the thumbnail of `video` (of `duration_ms`): the frame at one second,
/// or halfway through a shorter one.
pub fn thumbnail_args(video: &Path, duration_ms: u32, output: &Path) -> Vec<OsString> {
    let at = (f64::from(duration_ms) / 2000.0).min(1.0);
    let mut args: Vec<OsString> = ["-v", "error", "-nostdin", "-y", "-ss"].iter().map(OsString::from).collect();
    args.push(format!("{at:.3}").into());
    args.push("-i".into());
    args.push(video.into());
    for a in ["-frames:v", "1", "-vf"] {
        args.push(a.into());
    }
    args.push(format!("scale={THUMBNAIL_WIDTH}:-2").into());
    for a in ["-q:v", "4", "-f", "image2"] {
        args.push(a.into());
    }
    args.push(output.into());
    args
}

/// Whether a probed file may be converted: a video stream, and not too long.
pub fn admissible(stats: &crate::assets::analyse::stats::VideoStats) -> Result<(), ConvertError> {
    if stats.video_codec.is_none() || stats.width.is_none() {
        return Err(ConvertError::NotAVideo);
    }
    match stats.duration_seconds {
        Some(s) if s.is_finite() && s <= MAX_DURATION.as_secs_f64() => Ok(()),
        Some(s) if s.is_finite() => Err(ConvertError::TooLong),
        // No duration in the headers: the encoder's `-t` still stops at the ceiling.
        _ => Ok(()),
    }
}

/// Converts `input` into `dir/video.mp4` and `dir/thumbnail.jpg`, the encoder killed after
/// `timeout`.
pub async fn convert(input: &Path, dir: &Path, timeout: Duration) -> Result<Converted, ConvertError> {
    let stats = probe(input).await?;
    admissible(&stats)?;
    let output = dir.join("video.mp4");
    run("ffmpeg", encode_args(input, &output), timeout).await?;
    let bytes = tokio::fs::metadata(&output).await.map_err(|_| ConvertError::Failed)?.len();
    // `-fs` stops writing at the ceiling and ends "successfully": a file that reached it is cut.
    if bytes >= MAX_OUTPUT_BYTES {
        return Err(ConvertError::TooLarge);
    }
    let made = probe(&output).await.map_err(|_| ConvertError::Failed)?;
    if made.video_codec.as_deref() != Some("h264") {
        return Err(ConvertError::Failed);
    }
    let duration_ms = made.duration_seconds.map(|s| (s * 1000.0).round() as u32).unwrap_or(0);
    let thumbnail = dir.join("thumbnail.jpg");
    run("ffmpeg", thumbnail_args(&output, duration_ms, &thumbnail), PROBE_TIMEOUT).await?;
    Ok(Converted {
        video: output,
        thumbnail,
        bytes,
        duration_ms,
        width: made.width.unwrap_or(0),
        height: made.height.unwrap_or(0),
    })
}

/// ffprobe's reading of `path` (on a blocking thread); a file it cannot read is not a video.
async fn probe(path: &Path) -> Result<crate::assets::analyse::stats::VideoStats, ConvertError> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || video::probe(&path, PROBE_TIMEOUT))
        .await
        .map_err(|_| ConvertError::Failed)?
        .map_err(|_| ConvertError::NotAVideo)
}

/// Runs `program` with `args`, killed after `timeout`.
async fn run(program: &str, args: Vec<OsString>, timeout: Duration) -> Result<(), ConvertError> {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|_| ConvertError::Failed)?;
    match tokio::time::timeout(timeout, child.wait()).await {
        Ok(Ok(status)) if status.success() => Ok(()),
        Ok(_) => Err(ConvertError::Failed),
        Err(_) => {
            let _ = child.kill().await;
            Err(ConvertError::TimedOut)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::analyse::stats::VideoStats;

    fn stats(codec: Option<&str>, seconds: Option<f64>) -> VideoStats {
        VideoStats {
            video_codec: codec.map(String::from),
            width: codec.map(|_| 1920),
            duration_seconds: seconds,
            ..VideoStats::default()
        }
    }

    #[test]
    fn only_videos_within_the_duration_are_converted() {
        assert_eq!(admissible(&stats(Some("h264"), Some(599.0))), Ok(()));
        assert_eq!(admissible(&stats(Some("vp9"), Some(600.0))), Ok(()));
        assert_eq!(admissible(&stats(Some("h264"), Some(600.5))), Err(ConvertError::TooLong));
        assert_eq!(admissible(&stats(Some("h264"), Some(4.0 * 3600.0))), Err(ConvertError::TooLong));
        assert_eq!(admissible(&stats(None, Some(10.0))), Err(ConvertError::NotAVideo));
        assert_eq!(admissible(&stats(Some("h264"), None)), Ok(()), "the encoder's -t still bounds it");
    }

    #[test]
    fn the_encoder_is_bounded_in_size_time_and_picture() {
        let args: Vec<String> =
            encode_args(Path::new("in"), Path::new("out.mp4")).into_iter().map(|a| a.into_string().unwrap()).collect();
        let after = |flag: &str| args[args.iter().position(|a| a == flag).unwrap() + 1].clone();
        assert_eq!(after("-fs"), MAX_OUTPUT_BYTES.to_string());
        assert_eq!(after("-t"), "600");
        assert_eq!(after("-c:v"), "libx264");
        assert_eq!(after("-c:a"), "aac");
        assert_eq!(after("-maxrate"), "2500k");
        assert!(after("-vf").contains("min(1280,iw)") && after("-vf").contains("min(720,ih)"));
        assert_eq!(args.last().unwrap(), "out.mp4");
        assert_eq!(after("-i"), "in", "the input is one argument, never parsed by a shell");
    }

    #[test]
    fn the_thumbnail_is_taken_inside_short_videos() {
        let at = |ms| thumbnail_args(Path::new("v"), ms, Path::new("t.jpg"))[5].clone().into_string().unwrap();
        assert_eq!(at(10_000), "1.000");
        assert_eq!(at(800), "0.400");
    }
}
