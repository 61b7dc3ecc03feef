//! Images, sounds and sniffing.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat as Encoding, RgbaImage};

use super::super::stats::ImageFormat;
use super::super::{Code, Kind, Stats, samples, sniff};
use super::{codes, run};

fn encoded(width: u32, height: u32, encoding: Encoding) -> Vec<u8> {
    let image = DynamicImage::ImageRgba8(RgbaImage::new(width, height));
    let image = if encoding == Encoding::Jpeg { DynamicImage::ImageRgb8(image.to_rgb8()) } else { image };
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, encoding).unwrap();
    out.into_inner()
}

#[test]
fn images_give_format_size_and_colour_type_from_the_header() {
    let cases = [
        (Encoding::Png, Kind::Png, ImageFormat::Png, "rgba8"),
        (Encoding::Jpeg, Kind::Jpeg, ImageFormat::Jpeg, "rgb8"),
        (Encoding::Gif, Kind::Gif, ImageFormat::Gif, "indexed8"),
        (Encoding::WebP, Kind::Webp, ImageFormat::Webp, "rgba8"),
    ];
    for (encoding, kind, format, color) in cases {
        let analysis = run(&encoded(320, 200, encoding));
        assert_eq!(analysis.kind, Some(kind));
        let Stats::Image(image) = &analysis.stats else { panic!("{kind:?}: {:?}", analysis.findings) };
        assert_eq!((image.format, image.width, image.height), (format, 320, 200));
        assert_eq!(image.color_type.as_deref(), Some(color), "{kind:?}");
        assert_eq!(image.gpu_bytes, 320 * 200 * 4 * 4 / 3);
        let detail = analysis.stats.version_detail();
        assert_eq!((detail.width, detail.height), (Some(320), Some(200)));
    }
}

#[test]
fn a_wav_gives_its_duration_channels_and_rate() {
    let analysis = run(&samples::wav(4000, 8000));
    assert_eq!(analysis.kind, Some(Kind::Wav));
    let Stats::Audio(audio) = &analysis.stats else { panic!("{:?}", analysis.findings) };
    assert_eq!((audio.container.as_str(), audio.channels, audio.sample_rate), ("wav", Some(1), Some(8000)));
    assert!(audio.codec.starts_with("pcm"), "{}", audio.codec);
    assert_eq!(audio.duration_seconds, Some(0.5));
}

#[test]
fn a_sound_longer_than_the_ceiling_is_refused() {
    let limits = super::super::Limits { max_audio_seconds: 0.25, ..Default::default() };
    let analysis = super::super::analyse(&samples::wav(4000, 8000), &limits);
    assert_eq!(codes(&analysis), [Code::AudioDurationOverLimit]);
}

#[test]
fn kinds_come_from_magic_numbers_only() {
    let cases: [(&[u8], Option<Kind>); 14] = [
        (b"OggS\0\x02", Some(Kind::Ogg)),
        (b"ID3\x04\0\0", Some(Kind::Mp3)),
        (&[0xFF, 0xFB, 0x90, 0x64], Some(Kind::Mp3)),
        (&[0xFF, 0xF1, 0x50, 0x80], None), // ADTS AAC, not MP3
        (b"fLaC\0\0\0\x22", Some(Kind::Flac)),
        (b"RIFF\0\0\0\0WAVEfmt ", Some(Kind::Wav)),
        (b"PK\x05\x06\0\0\0\0", Some(Kind::Zip)),
        (b"\0\0\0\x18ftypisom", Some(Kind::Mp4)),
        (b"\0\0\0\x14ftypqt  ", Some(Kind::Mov)),
        (&[0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84, b'w', b'e', b'b', b'm'], Some(Kind::Webm)),
        (&[0x1A, 0x45, 0xDF, 0xA3, 0x42, 0x82, 0x88, b'm', b'a', b't', b'r', b'o'], Some(Kind::Matroska)),
        (b"glTF\x01\0\0\0", None),
        (b"  {\"asset\": {\"version\": \"2.0\"}}", Some(Kind::Gltf)),
        (b"{\"asset\": {\"version\": \"1.0\"}}", None),
    ];
    for (bytes, kind) in cases {
        assert_eq!(sniff(bytes), kind, "{bytes:?}");
    }
    assert_eq!(Kind::Vrm.mime_type(), "model/gltf-binary");
    assert_eq!(Kind::Webm.mime_type(), "video/webm");
}
