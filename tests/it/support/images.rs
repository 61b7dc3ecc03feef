//! Image files for upload tests, made by hand where encoding them for real would be slow.

/// A PNG whose header declares `width`×`height` at `bit_depth` bits per channel of `color_type`
/// (6 = RGBA), with an empty image stream: what an image bomb looks like to a server that reads
/// the header first. A few dozen bytes.
pub fn png_declaring(width: u32, height: u32, bit_depth: u8, color_type: u8) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([bit_depth, color_type, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    // A zlib stream holding one empty stored block.
    chunk(&mut out, b"IDAT", &[0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01]);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
