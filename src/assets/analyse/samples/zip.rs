//! A minimal ZIP writer for samples: stored entries, UTF-8 names taken verbatim (so hostile
//! names — absolute, `..`, backslashes — can be written), optional lying declared sizes, and
//! ZIP64 end records past 65,535 entries.

use super::media::crc32;

/// One entry to write.
#[derive(Debug, Clone, PartialEq)]
pub struct ZipSample {
    /// The path, verbatim.
    pub path: String,
    /// The bytes stored.
    pub data: Vec<u8>,
    /// An uncompressed size to declare instead of the data's (written as a deflated entry whose
    /// bytes are not deflate: a zip-bomb sample, listable but not extractable).
    pub declared_size: Option<u32>,
}

impl ZipSample {
    /// A file entry.
    pub fn file(path: &str, data: &[u8]) -> Self {
        Self { path: path.to_string(), data: data.to_vec(), declared_size: None }
    }

    /// A directory entry (`path` should end with `/`).
    pub fn dir(path: &str) -> Self {
        Self::file(path, b"")
    }

    /// The same entry declaring `size` uncompressed bytes.
    pub fn declaring(mut self, size: u32) -> Self {
        self.declared_size = Some(size);
        self
    }
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u64le(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Writes a ZIP archive of `entries`.
pub fn zip(entries: &[ZipSample]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let offset = out.len() as u32;
        let name = entry.path.as_bytes();
        let (method, uncompressed) = match entry.declared_size {
            Some(size) => (8u16, size),
            None => (0u16, entry.data.len() as u32),
        };
        let crc = crc32(&entry.data);
        let common = |out: &mut Vec<u8>| {
            u16le(out, 20); // version needed
            u16le(out, 0x0800); // UTF-8 names
            u16le(out, method);
            u16le(out, 0); // time
            u16le(out, 0x21); // 1980-01-01
            u32le(out, crc);
            u32le(out, entry.data.len() as u32);
            u32le(out, uncompressed);
            u16le(out, name.len() as u16);
            u16le(out, 0); // extra
        };
        u32le(&mut out, 0x0403_4b50);
        common(&mut out);
        out.extend_from_slice(name);
        out.extend_from_slice(&entry.data);

        u32le(&mut central, 0x0201_4b50);
        u16le(&mut central, 0x031E); // made by Unix, 3.0
        common(&mut central);
        u16le(&mut central, 0); // comment
        u16le(&mut central, 0); // disk
        u16le(&mut central, 0); // internal attributes
        let mode: u32 = if entry.path.ends_with('/') { 0o40755 << 16 | 0x10 } else { 0o100644 << 16 };
        u32le(&mut central, mode);
        u32le(&mut central, offset);
        central.extend_from_slice(name);
    }
    let central_offset = out.len() as u64;
    let central_size = central.len() as u64;
    out.extend_from_slice(&central);
    let count = entries.len() as u64;
    if count > 0xFFFF {
        let record_offset = out.len() as u64;
        u32le(&mut out, 0x0606_4b50);
        u64le(&mut out, 44);
        u16le(&mut out, 45);
        u16le(&mut out, 45);
        u32le(&mut out, 0);
        u32le(&mut out, 0);
        u64le(&mut out, count);
        u64le(&mut out, count);
        u64le(&mut out, central_size);
        u64le(&mut out, central_offset);
        u32le(&mut out, 0x0706_4b50);
        u32le(&mut out, 0);
        u64le(&mut out, record_offset);
        u32le(&mut out, 1);
    }
    let short = count.min(0xFFFF) as u16;
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0);
    u16le(&mut out, 0);
    u16le(&mut out, short);
    u16le(&mut out, short);
    u32le(&mut out, central_size as u32);
    u32le(&mut out, central_offset as u32);
    u16le(&mut out, 0);
    out
}
