//! What decoding an uploaded image will allocate, read from its bytes without decoding them, so
//! that [`super::upload::ImageDecoder`] charges its memory budget for the real cost — not for the
//! size a header declares.
//!
//! A header can understate what the decoder allocates: a GIF's logical screen may be 1 × 1 while
//! its frame is 4000 × 5000 (the decoder allocates for the frame), a progressive JPEG keeps every
//! coefficient of the image before it writes a pixel, a lossless WebP decodes into 32-bit pixels
//! and then converts. So each accepted format's structure is read here — every GIF frame's
//! rectangle, the JPEG frame header (progressive or not, components, sampling), the WebP's
//! encoding and canvas, the PNG's interlacing — and:
//!
//! - a GIF whose frames do not all lie inside its logical screen is refused (browsers clip such
//!   frames; the decoder would allocate for them), and so is a frame or image past
//!   [`MAX_SIDE`] on a side or [`MAX_DECODED_BYTES`] once decoded;
//! - the rest get a [`Cost`]: the decoded image's bytes and the decoder's peak allocation, which
//!   the tests below measure with a counting allocator for the largest image of every format and
//!   variant the server accepts (`decoder_peaks_stay_within_the_cost`).

use std::io::Cursor;

/// The largest image side accepted before resizing.
pub const MAX_SIDE: u32 = 4096;

/// The most bytes one decoded image may take: 4096 × 4096 RGBA with 8 bits a channel (64 MiB).
/// A 16-bit or float image of that size is refused before it is decoded.
pub const MAX_DECODED_BYTES: u64 = 64 * 1024 * 1024;

/// Why an uploaded image was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageRefusal {
    /// Not a PNG, JPEG, WebP or GIF that decodes (a GIF frame outside its screen included).
    Unreadable,
    /// Wider or taller than 4096 px, or more than [`MAX_DECODED_BYTES`] once decoded, or more
    /// than the whole decode budget.
    TooLarge,
}

impl ImageRefusal {
    /// The validation message key for this refusal.
    pub fn message_key(self) -> &'static str {
        match self {
            Self::Unreadable => "validation.image",
            Self::TooLarge => "validation.image_pixels",
        }
    }
}

/// What one image costs to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Width of the decoded image.
    pub width: u32,
    /// Height of the decoded image.
    pub height: u32,
    /// Bytes of the decoded image.
    pub output: u64,
    /// The most the decoder holds at once while decoding, the decoded image included.
    pub decoder: u64,
}

impl Cost {
    /// The most memory decoding this image and rendering pictures of it at most `max_side`
    /// pixels a side takes: the decoder's peak, or the decoded image with the pictures (fitted
    /// or filled by [`super::upload::fit`] / [`super::upload::fill`], which allocate only their
    /// output; up to three sizes, each at most the largest) and their PNG encoding.
    pub fn with_render(&self, max_side: u32) -> u64 {
        let pixels = u64::from(self.width) * u64::from(self.height);
        let picture = self.output.div_ceil(pixels.max(1)) * u64::from(max_side).pow(2);
        self.decoder.max(self.output + 3 * picture + ZLIB_AND_TABLES)
    }
}

/// Reads `bytes`' structure and returns what decoding it costs, or why it is refused.
pub fn cost(bytes: &[u8]) -> Result<Cost, ImageRefusal> {
    let format = image::guess_format(bytes).map_err(|_| ImageRefusal::Unreadable)?;
    let reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let decoder = reader.into_decoder().map_err(|_| ImageRefusal::Unreadable)?;
    let (width, height) = image::ImageDecoder::dimensions(&decoder);
    let output = image::ImageDecoder::total_bytes(&decoder);
    if width == 0 || height == 0 {
        return Err(ImageRefusal::Unreadable);
    }
    if width > MAX_SIDE || height > MAX_SIDE || output > MAX_DECODED_BYTES {
        return Err(ImageRefusal::TooLarge);
    }
    let pixels = u64::from(width) * u64::from(height);
    let decoder = match format {
        image::ImageFormat::Png => png(bytes, output)?,
        image::ImageFormat::Jpeg => jpeg(bytes, output)?,
        image::ImageFormat::WebP => webp(bytes, pixels, output)?,
        image::ImageFormat::Gif => gif(bytes, width, height, output)?,
        _ => return Err(ImageRefusal::Unreadable),
    };
    Ok(Cost { width, height, output, decoder })
}

/// PNG: the decoded image and the decoder's rows (two of the widest, as 16-bit RGBA at most).
fn png(bytes: &[u8], output: u64) -> Result<u64, ImageRefusal> {
    let width = bytes.get(16..20).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(MAX_SIDE);
    Ok(output + 2 * 8 * u64::from(width) + ZLIB_AND_TABLES)
}

/// Allocator and state overhead beside the image buffers (zlib windows, Huffman tables, row and
/// macroblock buffers): the measurements found up to 3 MiB; 4 MiB.
const ZLIB_AND_TABLES: u64 = 4 * 1024 * 1024;

/// JPEG: a baseline image is decoded a row of blocks at a time into the decoded image; a
/// progressive one first keeps every component's coefficients for the whole image (16 bits each,
/// at the component's sampling, padded to whole blocks of a whole MCU).
fn jpeg(bytes: &[u8], output: u64) -> Result<u64, ImageRefusal> {
    let frame = jpeg_frame(bytes).ok_or(ImageRefusal::Unreadable)?;
    let coefficients = if frame.progressive { 2 * frame.padded_samples() } else { 0 };
    Ok(output + coefficients + ZLIB_AND_TABLES)
}

/// The frame header of a JPEG: its size, components and whether it is progressive.
#[derive(Debug, Clone, PartialEq, Eq)]
struct JpegFrame {
    width: u32,
    height: u32,
    /// Each component's horizontal and vertical sampling factor.
    sampling: Vec<(u8, u8)>,
    progressive: bool,
}

impl JpegFrame {
    /// Samples of all components, padded to whole MCUs.
    fn padded_samples(&self) -> u64 {
        let h_max = self.sampling.iter().map(|s| s.0).max().unwrap_or(1).max(1);
        let v_max = self.sampling.iter().map(|s| s.1).max().unwrap_or(1).max(1);
        let mcus_x = u64::from(self.width.div_ceil(8 * u32::from(h_max)));
        let mcus_y = u64::from(self.height.div_ceil(8 * u32::from(v_max)));
        self.sampling.iter().map(|(h, v)| mcus_x * 8 * u64::from(*h) * mcus_y * 8 * u64::from(*v)).sum()
    }
}

/// Walks the JPEG markers to the first start-of-frame.
fn jpeg_frame(bytes: &[u8]) -> Option<JpegFrame> {
    let mut at = 2;
    while at + 4 <= bytes.len() {
        if bytes[at] != 0xFF {
            return None;
        }
        let marker = bytes[at + 1];
        if marker == 0xFF {
            at += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker) {
            let body = bytes.get(at + 4..at + 2 + len)?;
            let components = usize::from(*body.get(5)?);
            let sampling = (0..components)
                .map(|i| body.get(6 + 3 * i + 1).map(|s| ((s >> 4).clamp(1, 4), (s & 0x0F).clamp(1, 4))))
                .collect::<Option<Vec<_>>>()?;
            return Some(JpegFrame {
                height: u32::from(u16::from_be_bytes([*body.get(1)?, *body.get(2)?])),
                width: u32::from(u16::from_be_bytes([*body.get(3)?, *body.get(4)?])),
                sampling,
                progressive: matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE),
            });
        }
        at += 2 + len;
    }
    None
}

/// WebP: a still lossy image decodes into YUV planes (1.5 bytes a pixel) and, with alpha, into an
/// RGB frame and an alpha plane besides (5 more); a still lossless one into 32-bit pixels. An
/// animation decodes its first frame into a frame buffer (RGBA at most) and composes it onto an
/// RGBA canvas, a lossy frame through its YUV planes. The decoded image comes on top.
fn webp(bytes: &[u8], pixels: u64, output: u64) -> Result<u64, ImageRefusal> {
    let chunks = webp_chunks(bytes).ok_or(ImageRefusal::Unreadable)?;
    let yuv = 3 * pixels / 2;
    let working = match (chunks.animated, chunks.lossless, chunks.alpha) {
        (true, true, _) => 8 * pixels,
        (true, false, _) => 8 * pixels + yuv,
        (false, true, _) => 4 * pixels,
        (false, false, true) => yuv + 5 * pixels,
        (false, false, false) => yuv,
    };
    Ok(output + working + ZLIB_AND_TABLES)
}

/// What a WebP's chunks say about its encoding (any frame's, for an animation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct WebpChunks {
    animated: bool,
    lossless: bool,
    alpha: bool,
}

/// Walks the RIFF chunks of a WebP, into animation frames (`None`: not a RIFF WebP).
fn webp_chunks(bytes: &[u8]) -> Option<WebpChunks> {
    fn walk(bytes: &[u8], found: &mut WebpChunks) -> Option<()> {
        let mut at = 0;
        while at + 8 <= bytes.len() {
            let fourcc = &bytes[at..at + 4];
            let len = usize::try_from(u32::from_le_bytes(bytes[at + 4..at + 8].try_into().ok()?)).ok()?;
            let body = bytes.get(at + 8..(at + 8).checked_add(len)?)?;
            match fourcc {
                b"ANIM" => found.animated = true,
                b"VP8L" => found.lossless = true,
                b"ALPH" => found.alpha = true,
                // A frame: 16 bytes of placement, then its own chunks.
                b"ANMF" => walk(body.get(16..)?, found)?,
                _ => {}
            }
            at += 8 + len + (len & 1);
        }
        Some(())
    }
    if bytes.get(..4)? != b"RIFF" || bytes.get(8..12)? != b"WEBP" {
        return None;
    }
    let mut found = WebpChunks::default();
    walk(&bytes[12..], &mut found)?;
    Some(found)
}

/// GIF: the first frame is decoded into a buffer of its own size, then composed onto the
/// screen. Every frame must lie inside the logical screen.
fn gif(bytes: &[u8], width: u32, height: u32, output: u64) -> Result<u64, ImageRefusal> {
    let frames = gif_frames(bytes).ok_or(ImageRefusal::Unreadable)?;
    if frames.is_empty() {
        return Err(ImageRefusal::Unreadable);
    }
    for frame in &frames {
        let inside = u32::from(frame.left) + u32::from(frame.width) <= width
            && u32::from(frame.top) + u32::from(frame.height) <= height;
        if !inside || frame.width == 0 || frame.height == 0 {
            return Err(ImageRefusal::Unreadable);
        }
    }
    let first = frames[0];
    let pixels = u64::from(first.width) * u64::from(first.height);
    // The decoder's palette indices of the frame; a frame not as wide as the screen (or not at
    // its left edge) is decoded as RGBA into a buffer of its own, then composed.
    let spans_the_screen = first.left == 0 && u32::from(first.width) == width;
    let frame_buffer = if spans_the_screen { 0 } else { 4 * pixels };
    Ok(output + pixels + frame_buffer + ZLIB_AND_TABLES)
}

/// Where a GIF frame lies on the logical screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GifFrame {
    left: u16,
    top: u16,
    width: u16,
    height: u16,
}

/// Every image descriptor of a GIF, read without decoding any frame (`None`: not a GIF's block
/// structure). Reads at most the file; allocates one entry per frame.
fn gif_frames(bytes: &[u8]) -> Option<Vec<GifFrame>> {
    let u16_at = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let table = |packed: u8| if packed & 0x80 != 0 { 3usize << ((packed & 0x07) + 1) } else { 0 };
    // Skips data sub-blocks from `at` to the block terminator; returns the position after it.
    let sub_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let len = usize::from(*bytes.get(at)?);
            at += 1 + len;
            if len == 0 {
                return Some(at);
            }
        }
    };
    if !bytes.starts_with(b"GIF87a") && !bytes.starts_with(b"GIF89a") {
        return None;
    }
    let mut at = 13 + table(*bytes.get(10)?);
    let mut frames = Vec::new();
    loop {
        match *bytes.get(at)? {
            0x2C => {
                let frame = GifFrame {
                    left: u16_at(at + 1)?,
                    top: u16_at(at + 3)?,
                    width: u16_at(at + 5)?,
                    height: u16_at(at + 7)?,
                };
                frames.push(frame);
                // Descriptor, local colour table, LZW minimum code size, then the data.
                at = sub_blocks(at + 10 + table(*bytes.get(at + 9)?) + 1)?;
            }
            0x21 => at = sub_blocks(at + 2)?,
            0x3B => return Some(frames),
            _ => return None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
