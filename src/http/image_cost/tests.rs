//! The costs against what the decoders really allocate: a counting allocator (this test binary's
//! global allocator) records the peak bytes live on the decoding thread, for the largest image of
//! every format and variant the server accepts, decoded and rendered as the product renders them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Cursor;

use super::*;
use crate::http::upload::{ImageDecoder, fill, fit, png as encode_png};

/// Counts the bytes each thread holds and the most it held since [`peak_of`] started.
struct Meter;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn count(delta: i64) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the counting touches only
// const-initialised thread-local cells, which never allocate.
unsafe impl GlobalAlloc for Meter {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(layout.size() as i64);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            count(layout.size() as i64);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Both blocks are live while the system allocator copies.
            count(new_size as i64);
            count(-(layout.size() as i64));
        }
        new
    }
}

#[global_allocator]
static METER: Meter = Meter;

/// Runs `f` and returns the most bytes this thread held at once meanwhile, above what it held
/// before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, u64::try_from(PEAK.with(Cell::get) - base).unwrap_or(0))
}

const MIB: u64 = 1024 * 1024;

fn encode(img: image::DynamicImage, format: image::ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), format).unwrap();
    out
}

fn jpeg(
    width: u16,
    height: u16,
    color: jpeg_encoder::ColorType,
    progressive: bool,
    sampling: jpeg_encoder::SamplingFactor,
) -> Vec<u8> {
    let channels = match color {
        jpeg_encoder::ColorType::Luma => 1,
        jpeg_encoder::ColorType::Rgb => 3,
        _ => 4,
    };
    let pixels = vec![90u8; usize::from(width) * usize::from(height) * channels];
    let mut out = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, 90);
    encoder.set_progressive(progressive);
    encoder.set_sampling_factor(sampling);
    encoder.encode(&pixels, width, height, color).unwrap();
    out
}

/// A 4096 × 4096 JPEG of `components` (1: grey, 3: RGB 4:4:4, 4: CMYK).
fn jpeg_sample(progressive: bool, components: u8) -> Vec<u8> {
    let color = match components {
        1 => jpeg_encoder::ColorType::Luma,
        3 => jpeg_encoder::ColorType::Rgb,
        _ => jpeg_encoder::ColorType::Cmyk,
    };
    jpeg(4096, 4096, color, progressive, jpeg_encoder::SamplingFactor::F_1_1)
}

/// A PNG of `side` × `side` 8-bit RGBA, Adam7-interlaced, all zero.
fn interlaced_png(side: u32) -> Vec<u8> {
    use std::io::Write;
    const PASSES: [(u32, u32, u32, u32); 7] =
        [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)];
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    for (x0, y0, dx, dy) in PASSES {
        let (cols, rows) = ((side - x0).div_ceil(dx), (side - y0).div_ceil(dy));
        let row = vec![0u8; 1 + 4 * cols as usize];
        for _ in 0..rows {
            z.write_all(&row).unwrap();
        }
    }
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend_from_slice(kind);
        c.extend_from_slice(data);
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        c.extend_from_slice(&crc.sum().to_be_bytes());
        c
    };
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 1]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(chunk(b"IHDR", &ihdr));
    out.extend(chunk(b"IDAT", &z.finish().unwrap()));
    out.extend(chunk(b"IEND", b""));
    out
}

/// A GIF of a `screen` whose frames are `frame` at `at` (uniform colour 0), the way
/// `scripts/attack-check`'s `gif_frame_bomb` writes it: LZW in closed form for a uniform run.
fn gif(screen: (u16, u16), frame: (u16, u16), at: (u16, u16), frames: usize) -> Vec<u8> {
    let pixels = u64::from(frame.0) * u64::from(frame.1);
    let width = |next: u64| (64 - next.leading_zeros()).clamp(3, 12);
    let mut codes: Vec<(u64, u32)> = vec![(4, 3)];
    let (mut emitted, mut left, mut length) = (0u64, pixels, 1u64);
    while left > 0 {
        let run = length.min(left);
        let next = 6 + emitted.saturating_sub(1);
        codes.push((if run == 1 { 0 } else { run + 4 }, width(next.min(4096))));
        emitted += 1;
        left -= run;
        if length < 4091 {
            length += 1;
        }
    }
    codes.push((5, width((6 + emitted.saturating_sub(1)).min(4096))));
    let (mut packed, mut acc, mut bits) = (Vec::new(), 0u64, 0u32);
    for (code, w) in codes {
        acc |= code << bits;
        bits += w;
        while bits >= 8 {
            packed.push((acc & 0xFF) as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        packed.push((acc & 0xFF) as u8);
    }
    let mut data = vec![2u8];
    for chunk in packed.chunks(255) {
        data.push(chunk.len() as u8);
        data.extend_from_slice(chunk);
    }
    data.push(0);
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&screen.0.to_le_bytes());
    out.extend_from_slice(&screen.1.to_le_bytes());
    out.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]);
    for _ in 0..frames {
        out.push(0x2C);
        for v in [at.0, at.1, frame.0, frame.1] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(0);
        out.extend_from_slice(&data);
    }
    out.push(0x3B);
    out
}

/// The largest image of every accepted format and variant.
fn samples() -> Vec<(&'static str, Vec<u8>)> {
    use image::{DynamicImage as D, ImageBuffer as B, ImageFormat as F};
    use jpeg_encoder::{ColorType as C, SamplingFactor as S};
    vec![
        ("png rgba8 4096", encode(D::ImageRgba8(B::new(4096, 4096)), F::Png)),
        ("png rgba16 4096x2048", encode(D::ImageRgba16(B::new(4096, 2048)), F::Png)),
        ("png luma8 4096", encode(D::ImageLuma8(B::new(4096, 4096)), F::Png)),
        ("png interlaced rgba8 4096", interlaced_png(4096)),
        ("jpeg baseline rgb 4:4:4 4096", jpeg(4096, 4096, C::Rgb, false, S::F_1_1)),
        ("jpeg baseline rgb 4:2:0 4096", jpeg(4096, 4096, C::Rgb, false, S::F_2_2)),
        ("jpeg progressive rgb 4:4:4 4096", jpeg(4096, 4096, C::Rgb, true, S::F_1_1)),
        ("jpeg progressive rgb 4:2:0 4096", jpeg(4096, 4096, C::Rgb, true, S::F_2_2)),
        ("jpeg progressive luma 4096", jpeg(4096, 4096, C::Luma, true, S::F_1_1)),
        ("jpeg progressive cmyk 4096", jpeg(4096, 4096, C::Cmyk, true, S::F_1_1)),
        ("jpeg baseline cmyk 4096", jpeg(4096, 4096, C::Cmyk, false, S::F_1_1)),
        ("webp lossy 4096", include_bytes!("../../../tests/fixtures/images/flat-4096-lossy.webp").to_vec()),
        ("webp lossy alpha 4096", include_bytes!("../../../tests/fixtures/images/flat-4096-lossy-alpha.webp").to_vec()),
        ("webp lossless 4096", include_bytes!("../../../tests/fixtures/images/flat-4096-lossless.webp").to_vec()),
        ("webp animated 4096", include_bytes!("../../../tests/fixtures/images/flat-4096-animated.webp").to_vec()),
        (
            "webp animated alpha 4096",
            include_bytes!("../../../tests/fixtures/images/flat-4096-animated-alpha.webp").to_vec(),
        ),
        (
            "webp animated lossless 4096",
            include_bytes!("../../../tests/fixtures/images/flat-4096-animated-lossless.webp").to_vec(),
        ),
        ("gif 4096", gif((4096, 4096), (4096, 4096), (0, 0), 1)),
        ("gif 4096 with a small first frame", gif((4096, 4096), (64, 64), (10, 10), 1)),
        ("gif 4096, 200 frames", gif((4096, 4096), (512, 512), (100, 100), 200)),
        ("gif 4096 with a narrow frame", gif((4096, 4096), (1000, 4096), (96, 0), 1)),
    ]
}

/// How the product renders uploads: icons (filled 64/128/256), circle thumbnails (fitted
/// 160/320/640), user-event thumbnails (fitted 1280 × 720), console pictures (up to 2048 × 2048).
#[expect(clippy::type_complexity, reason = "a table of closures")]
fn renders() -> Vec<(&'static str, u32, Box<dyn Fn(&image::DynamicImage) -> Vec<Vec<u8>>>)> {
    vec![
        ("icon", 256, Box::new(|img| [64, 128, 256].iter().map(|s| encode_png(&fill(img, *s)).unwrap()).collect())),
        (
            "thumbnail",
            640,
            Box::new(|img| [160, 320, 640].iter().map(|s| encode_png(&fit(img, *s, *s)).unwrap()).collect()),
        ),
        ("user event", 1280, Box::new(|img| vec![encode_png(&fit(img, 1280, 720)).unwrap()])),
        ("console", 2048, Box::new(|img| vec![encode_png(&fit(img, 2048, 2048)).unwrap()])),
    ]
}

/// MiB, for the reports.
fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB as f64)
}

#[test]
fn decoder_peaks_stay_within_the_cost() {
    let mut report = Vec::new();
    let mut over = Vec::new();
    for (name, bytes) in samples() {
        let cost = cost(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let (img, peak) = peak_of(|| super::super::upload::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}")));
        drop(img);
        report.push(format!("{name}: decoder peak {}, cost {}", mib(peak), mib(cost.decoder)));
        if peak > cost.decoder {
            over.push(format!("{name}: {peak} > {}", cost.decoder));
        }
    }
    assert!(over.is_empty(), "decoding took more than its cost:\n{}\n\n{}", over.join("\n"), report.join("\n"));
}

#[test]
fn rendering_stays_within_the_charge() {
    use image::{DynamicImage as D, ImageBuffer as B, ImageFormat as F};
    // The render's charge depends on the decoded image's size and bytes per pixel only: the
    // deepest, the widest and a palette image, rendered every way the product renders.
    let samples = [
        ("png rgba16 4096x2048", encode(D::ImageRgba16(B::new(4096, 2048)), F::Png)),
        ("png rgba8 4096", encode(D::ImageRgba8(B::new(4096, 4096)), F::Png)),
        ("gif 4096 with a small first frame", gif((4096, 4096), (64, 64), (10, 10), 1)),
    ];
    let mut report = Vec::new();
    let mut over = Vec::new();
    for (name, bytes) in samples {
        let cost = cost(&bytes).unwrap();
        for (render, side, make) in renders() {
            let (_, peak) = peak_of(|| make(&super::super::upload::decode(&bytes).unwrap()));
            let charged = cost.with_render(side);
            report.push(format!("{name} + {render}: peak {}, charged {}", mib(peak), mib(charged)));
            if peak > charged {
                over.push(format!("{name} + {render}: {peak} > {charged}"));
            }
        }
    }
    assert!(over.is_empty(), "rendering took more than its charge:\n{}\n\n{}", over.join("\n"), report.join("\n"));
}

#[test]
fn gif_frames_outside_their_screen_are_refused_before_decoding() {
    // The probe's file: a 1 x 1 screen and a 4000 x 5000 frame, ~10 KB. Before (checked against
    // e1df045) it was charged 1 MiB and the decoder allocated 80 MB for the frame.
    let bomb = gif((1, 1), (4000, 5000), (0, 0), 1);
    assert!(bomb.len() < 12_000, "{}", bomb.len());
    assert_eq!(cost(&bomb), Err(ImageRefusal::Unreadable));
    // A frame placed past the screen's edge, a later frame larger than the screen.
    assert_eq!(cost(&gif((100, 100), (50, 50), (60, 0), 1)), Err(ImageRefusal::Unreadable));
    let mut two = gif((100, 100), (100, 100), (0, 0), 1);
    let later = gif((100, 100), (200, 10), (0, 0), 1);
    two.pop();
    two.extend_from_slice(&later[19..]);
    assert_eq!(cost(&two), Err(ImageRefusal::Unreadable));
    // Within the screen: charged for the frame's indices on top of the screen.
    let fine = cost(&gif((1000, 1000), (1000, 1000), (0, 0), 3)).unwrap();
    assert_eq!((fine.width, fine.height, fine.output), (1000, 1000, 4_000_000));
    // Truncated or not a GIF's block structure.
    let whole = gif((10, 10), (10, 10), (0, 0), 1);
    assert_eq!(cost(&whole[..whole.len() - 3]), Err(ImageRefusal::Unreadable));
}

#[test]
fn jpeg_and_webp_headers_are_read() {
    let frame =
        jpeg_frame(&jpeg(100, 60, jpeg_encoder::ColorType::Rgb, true, jpeg_encoder::SamplingFactor::F_2_2)).unwrap();
    assert_eq!((frame.width, frame.height, frame.progressive), (100, 60, true));
    assert_eq!(frame.sampling, [(2, 2), (1, 1), (1, 1)]);
    assert_eq!(frame.padded_samples(), 112 * 64 + 2 * 56 * 32);
    let still = webp_chunks(include_bytes!("../../../tests/fixtures/images/flat-4096-lossy-alpha.webp")).unwrap();
    assert_eq!(still, WebpChunks { animated: false, lossless: false, alpha: true });
    let animated =
        webp_chunks(include_bytes!("../../../tests/fixtures/images/flat-4096-animated-lossless.webp")).unwrap();
    assert_eq!(animated, WebpChunks { animated: true, lossless: true, alpha: false });
    assert_eq!(webp_chunks(b"RIFF\0\0\0\0WEBPVP8L\xff\xff\xff\xff"), None, "a chunk past the end");
}

#[test]
fn an_image_dearer_than_the_whole_budget_is_refused() {
    let decoder = ImageDecoder::new(128);
    let gif = gif((4096, 4096), (4096, 4096), (0, 0), 1);
    let charge = cost(&gif).unwrap();
    assert_eq!(decoder.share(&charge, 256), Ok(84), "64 MiB decoded, 16 MiB of palette indices");
    let progressive_cmyk = cost(&jpeg_sample(true, 4)).unwrap();
    assert_eq!(decoder.share(&progressive_cmyk, 256), Err(ImageRefusal::TooLarge), "180 MiB > 128");
    assert_eq!(ImageDecoder::new(192).share(&progressive_cmyk, 256), Ok(180));
}
