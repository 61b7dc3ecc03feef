//! Still images: format, dimensions and colour type read by hand from the header — the PNG IHDR
//! chunk, the JPEG frame header (SOFn), the GIF logical screen, the WebP VP8/VP8L/VP8X header,
//! the KTX 2.0 header. No pixel is decoded and nothing is allocated (thumbnails are made
//! elsewhere). Dimensions over [`Limits::max_image_side`] are refused; a zero side is unreadable.

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
    /// Channels and bit depth: `l8`, `la8`, `rgb8`, `rgba8`, `indexed8`, `rgba16`, `cmyk8`, …
    pub color_type: Option<String>,
}

const KTX2_MAGIC: &[u8] = b"\xABKTX 20\xBB\r\n\x1A\n";

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

fn be16(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?)))
}

fn le16(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?)))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn le24(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 3)?;
    Some(u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16)
}

/// Reads the header, or `None` when it is no image this probe knows, is cut short or declares a
/// zero side.
pub fn probe(bytes: &[u8]) -> Option<Header> {
    let format = format_of(bytes)?;
    let (width, height, color) = match format {
        ImageFormat::Png => png(bytes)?,
        ImageFormat::Jpeg => jpeg(bytes)?,
        ImageFormat::Gif => (le16(bytes, 6)?, le16(bytes, 8)?, Some("indexed8".to_string())),
        ImageFormat::Webp => webp(bytes)?,
        ImageFormat::Ktx2 => (le32(bytes, 20)?, le32(bytes, 24)?.max(1), None),
    };
    (width > 0 && height > 0).then_some(Header { format, width, height, color_type: color })
}

type Dimensions = (u32, u32, Option<String>);

fn png(bytes: &[u8]) -> Option<Dimensions> {
    if bytes.get(12..16) != Some(b"IHDR") {
        return None;
    }
    let (depth, colour) = (*bytes.get(24)?, *bytes.get(25)?);
    let channels = match colour {
        0 => "l",
        2 => "rgb",
        3 => "indexed",
        4 => "la",
        6 => "rgba",
        _ => return None,
    };
    Some((be32(bytes, 16)?, be32(bytes, 20)?, Some(format!("{channels}{depth}"))))
}

/// Walks the JPEG segments to the first frame header (SOF0–SOF15 but DHT, JPG and DAC).
fn jpeg(bytes: &[u8]) -> Option<Dimensions> {
    let mut at = 2;
    loop {
        while *bytes.get(at)? != 0xFF {
            at += 1;
        }
        while *bytes.get(at)? == 0xFF {
            at += 1;
        }
        let marker = *bytes.get(at)?;
        at += 1;
        match marker {
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let components = *bytes.get(at + 7)?;
                let color = match components {
                    1 => "l8",
                    3 => "rgb8",
                    4 => "cmyk8",
                    _ => return None,
                };
                return Some((be16(bytes, at + 5)?, be16(bytes, at + 3)?, Some(color.to_string())));
            }
            0x01 | 0xD0..=0xD8 => {}
            0xD9 | 0xDA => return None,
            _ => at += usize::try_from(be16(bytes, at)?).ok()?,
        }
    }
}

fn webp(bytes: &[u8]) -> Option<Dimensions> {
    match bytes.get(12..16)? {
        b"VP8 " => {
            if bytes.get(23..26)? != [0x9D, 0x01, 0x2A] {
                return None;
            }
            Some((le16(bytes, 26)? & 0x3FFF, le16(bytes, 28)? & 0x3FFF, Some("rgb8".to_string())))
        }
        b"VP8L" => {
            if *bytes.get(20)? != 0x2F {
                return None;
            }
            let bits = le32(bytes, 21)?;
            let alpha = if bits >> 28 & 1 == 1 { "rgba8" } else { "rgb8" };
            Some(((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1, Some(alpha.to_string())))
        }
        b"VP8X" => {
            let alpha = if *bytes.get(20)? & 0x10 != 0 { "rgba8" } else { "rgb8" };
            Some((le24(bytes, 24)? + 1, le24(bytes, 27)? + 1, Some(alpha.to_string())))
        }
        _ => None,
    }
}

/// Analyses a still image: its stats, or the finding that refuses it.
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

/// Refuses a header whose width or height is over the ceiling.
pub fn check_side(header: &Header, limits: &Limits) -> Result<(), Finding> {
    if header.width.max(header.height) > limits.max_image_side {
        let actual = format!("{}×{}", header.width, header.height);
        let limit = format!("{0}×{0}", limits.max_image_side);
        return Err(Finding::error(Code::ImageDimensionsOverLimit).values(limit, actual));
    }
    Ok(())
}
