//! Small media samples: a PNG of one colour (or only its header), a WAV of silence, and the
//! CRC-32 both PNG and ZIP need.

use image::{ImageEncoder, Rgba, RgbaImage};

/// A PNG of one colour, `width` × `height`.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_pixel(width, height, Rgba([200, 120, 60, 255]));
    let mut out = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new(&mut out);
    // Encoding a buffer of the declared size cannot fail.
    let _ = encoder.write_image(image.as_raw(), width, height, image::ExtendedColorType::Rgba8);
    out
}

/// A PNG header declaring `width` × `height` with no image data (a hostile sample: a decoder
/// would need `width · height · 4` bytes).
pub fn png_header_only(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&ihdr);
    out.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    out
}

/// A 16-bit PCM mono WAV of `frames` samples at `rate` Hz (a quiet saw wave).
pub fn wav(frames: u32, rate: u32) -> Vec<u8> {
    let data_len = frames * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..frames {
        out.extend_from_slice(&(((i % 100) as i16 - 50) * 40).to_le_bytes());
    }
    out
}

/// CRC-32 (IEEE), bit by bit: samples are small.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
