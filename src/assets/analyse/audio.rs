//! Sounds through symphonia's demuxers: container, codec, channels, sample rate and duration.
//! Nothing is decoded. The duration is the default track's frame count (`n_frames`) when the
//! container says it; otherwise the packets are read (not decoded), at most
//! [`Limits::max_audio_packets`] of them, and the end of the last one is the duration.
//!
//! symphonia reads from an owned `'static` source, so the bytes (already bounded by
//! [`Limits::max_bytes`]) are copied once. A panic inside symphonia is caught and reported as
//! [`Code::Unreadable`].

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use symphonia::core::codecs::{self, CodecType};
use symphonia::core::formats::{FormatOptions, FormatReader};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use symphonia::core::probe::Hint;
use symphonia::core::units::TimeBase;

use super::finding::{Code, Finding};
use super::limits::Limits;
use super::sniff::Kind;
use super::stats::AudioStats;

/// Analyses a sound of `kind` (one of [`Kind::is_audio`]).
pub fn analyse(bytes: &[u8], kind: Kind, limits: &Limits) -> Result<AudioStats, Finding> {
    let caught = catch_unwind(AssertUnwindSafe(|| read(bytes, kind, limits)));
    let stats = caught.unwrap_or_else(|_| Err(Finding::error(Code::Unreadable).actual("audio decoder panicked")))?;
    if let Some(seconds) = stats.duration_seconds.filter(|s| *s > limits.max_audio_seconds) {
        let finding = Finding::error(Code::AudioDurationOverLimit);
        return Err(finding.values(limits.max_audio_seconds, (seconds * 1000.0).round() / 1000.0));
    }
    Ok(stats)
}

fn read(bytes: &[u8], kind: Kind, limits: &Limits) -> Result<AudioStats, Finding> {
    let unreadable = |what: &str| Finding::error(Code::Unreadable).actual(what.to_string());
    let source = MediaSourceStream::new(Box::new(Cursor::new(bytes.to_vec())), Default::default());
    let mut hint = Hint::new();
    hint.with_extension(kind.as_str());
    let probed = symphonia::default::get_probe()
        .format(&hint, source, &FormatOptions::default(), &MetadataOptions::default())
        .map_err(|e| unreadable(&e.to_string()))?;
    let mut format = probed.format;
    let track = format.default_track().ok_or_else(|| unreadable("no audio track"))?;
    let (track_id, params) = (track.id, track.codec_params.clone());
    let time_base = params.time_base.or_else(|| params.sample_rate.map(|rate| TimeBase { numer: 1, denom: rate }));
    let frames = match params.n_frames {
        Some(frames) => Some(frames),
        None => last_timestamp(format.as_mut(), track_id, limits.max_audio_packets),
    };
    Ok(AudioStats {
        container: kind.as_str().to_string(),
        codec: codec_name(params.codec),
        channels: params.channels.map(|c| c.count() as u32),
        sample_rate: params.sample_rate,
        duration_seconds: frames.zip(time_base).and_then(|(frames, base)| seconds(frames, base)),
    })
}

/// The end of the last packet of `track`, reading at most `max_packets` packets.
fn last_timestamp(format: &mut dyn FormatReader, track: u32, max_packets: u64) -> Option<u64> {
    let mut end = None;
    for _ in 0..max_packets {
        let Ok(packet) = format.next_packet() else { return end };
        if packet.track_id() == track {
            end = end.max(Some(packet.ts().saturating_add(packet.dur())));
        }
    }
    None
}

/// `ts` in seconds; `None` for a zero time base (symphonia's own `calc_time` would panic).
fn seconds(ts: u64, base: TimeBase) -> Option<f64> {
    (base.numer > 0 && base.denom > 0).then(|| ts as f64 * f64::from(base.numer) / f64::from(base.denom))
}

fn codec_name(codec: CodecType) -> String {
    let known = [
        (codecs::CODEC_TYPE_VORBIS, "vorbis"),
        (codecs::CODEC_TYPE_OPUS, "opus"),
        (codecs::CODEC_TYPE_MP3, "mp3"),
        (codecs::CODEC_TYPE_MP2, "mp2"),
        (codecs::CODEC_TYPE_MP1, "mp1"),
        (codecs::CODEC_TYPE_FLAC, "flac"),
        (codecs::CODEC_TYPE_AAC, "aac"),
    ];
    if let Some((_, name)) = known.iter().find(|(c, _)| *c == codec) {
        return (*name).to_string();
    }
    symphonia::default::get_codecs()
        .get_codec(codec)
        .map_or_else(|| format!("unknown ({codec})"), |descriptor| descriptor.short_name.to_string())
}
