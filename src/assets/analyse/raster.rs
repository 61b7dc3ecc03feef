//! Still images: format, dimensions and colour type from the header alone (the `image` crate's
//! decoders stop after the header; KTX 2.0 is read by hand). No pixel is decoded here —
//! thumbnails are made elsewhere. Dimensions over [`Limits::max_image_side`] are refused.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use image::{ImageDecoder, ImageReader};

use super::finding::{Code, Finding};
use super::limits::Limits;
use super::stats::{ImageFormat, ImageStats, gpu_bytes};

/// What a header says.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Format.
    pub format: ImageFormat,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Colour type as the decoder names it, lower case (`rgba8`, `l16`, …).
    pub color_type: Option<String>,
}

/// The format from the magic number.
pub fn format_of(bytes: &[u8]) -> Option<ImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageFormat::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageFormat::Jpeg)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(ImageFormat::Gif)
    } else if bytes.get(0..4) == Some(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        Some(ImageFormat::Webp)
    } else if bytes.starts_with(KTX2_MAGIC) {
        Some(ImageFormat::Ktx2)
    } else {
        None
    }
}

const KTX2_MAGIC: &[u8] = b"\xABKTX 20\xBB\r\n\x1A\n";

/// Reads the header, or `None` when it is no image this probe knows or is broken.
pub fn probe(bytes: &[u8]) -> Option<Header> {
    let format = format_of(bytes)?;
    if format == ImageFormat::Ktx2 {
        let word = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        return Some(Header { format, width: word(20)?, height: word(24)?.max(1), color_type: None });
    }
    // The decoders are fuzzed upstream; a panic in one still must not take the job down.
    catch_unwind(AssertUnwindSafe(|| {
        let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().ok()?;
        // No allocation limit: only the header is read, and the side ceiling is ours to check.
        reader.no_limits();
        let decoder = reader.into_decoder().ok()?;
        let (width, height) = decoder.dimensions();
        let color_type = format!("{:?}", decoder.color_type()).to_lowercase();
        Some(Header { format, width, height, color_type: Some(color_type) })
    }))
    .ok()
    .flatten()
}

/// Analyses a still image: its stats, or the findings that refuse it.
pub fn analyse(bytes: &[u8], limits: &Limits) -> Result<ImageStats, Finding> {
    let header = probe(bytes).ok_or_else(|| Finding::error(Code::Unreadable).actual("image header"))?;
    check_side(&header, limits)?;
    Ok(ImageStats {
        format: header.format,
        width: header.width,
        height: header.height,
        color_type: header.color_type,
        gpu_bytes: gpu_bytes(header.width, header.height),
    })
}

/// Refuses a header whose width or height is over the ceiling (or zero).
pub fn check_side(header: &Header, limits: &Limits) -> Result<(), Finding> {
    let side = header.width.max(header.height);
    if side > limits.max_image_side || header.width == 0 || header.height == 0 {
        let actual = format!("{}×{}", header.width, header.height);
        let limit = format!("{0}×{0}", limits.max_image_side);
        return Err(Finding::error(Code::ImageDimensionsOverLimit).values(limit, actual));
    }
    Ok(())
}
