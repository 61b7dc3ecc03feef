//! The GLB container (glTF 2.0 §4.4): a 12-byte header, a JSON chunk, an optional BIN chunk.
//!
//! Read by hand, not by `gltf::binary::Glb`: that one copies the BIN chunk and subtracts the
//! header size from the declared length without a check. Here every length is checked against
//! the bytes actually present before a slice is taken, and nothing is copied.

use super::finding::{Code, Finding};

const HEADER: usize = 12;
const CHUNK_HEADER: usize = 8;
const JSON_CHUNK: u32 = 0x4E4F_534A;
const BIN_CHUNK: u32 = 0x004E_4942;

/// The chunks of a GLB, borrowed from its bytes.
#[derive(Debug, Clone, Copy)]
pub struct Container<'a> {
    /// The JSON chunk.
    pub json: &'a [u8],
    /// The BIN chunk, if present.
    pub bin: Option<&'a [u8]>,
    /// The offset of the BIN chunk's data in the file (for findings).
    pub bin_offset: usize,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let word = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(word.try_into().ok()?))
}

fn invalid(offset: usize, actual: &str) -> Finding {
    Finding::error(Code::GlbInvalid).at_offset(offset as u64).actual(actual)
}

/// Splits a GLB into its chunks, or says which field is wrong (a [`Code::GlbInvalid`] finding
/// with its byte offset). Bytes after the declared total length are ignored.
pub fn split(bytes: &[u8]) -> Result<Container<'_>, Finding> {
    if bytes.get(0..4) != Some(b"glTF".as_slice()) {
        return Err(invalid(0, "magic"));
    }
    match u32_at(bytes, 4) {
        Some(2) => {}
        _ => return Err(invalid(4, "version")),
    }
    let declared = u32_at(bytes, 8).ok_or_else(|| invalid(8, "length"))? as usize;
    if declared > bytes.len() {
        return Err(invalid(8, "length past the end of the file"));
    }
    let file = &bytes[..declared];
    let json_length = u32_at(file, HEADER).ok_or_else(|| invalid(HEADER, "JSON chunk missing"))? as usize;
    if u32_at(file, HEADER + 4) != Some(JSON_CHUNK) {
        return Err(invalid(HEADER + 4, "first chunk is not JSON"));
    }
    let json_start = HEADER + CHUNK_HEADER;
    let json_end = json_start.checked_add(json_length).filter(|end| *end <= file.len());
    let Some(json_end) = json_end else {
        return Err(invalid(HEADER, "JSON chunk length past the end of the file"));
    };
    let json = &file[json_start..json_end];
    // Chunks are 4-byte aligned; a writer that forgot the padding is tolerated.
    let is_bin = |at: &usize| u32_at(file, at + 4) == Some(BIN_CHUNK);
    let Some(bin_start) = [json_end.next_multiple_of(4), json_end].into_iter().find(is_bin) else {
        return Ok(Container { json, bin: None, bin_offset: 0 });
    };
    let bin_length = u32_at(file, bin_start).unwrap_or_default() as usize;
    let data_start = bin_start + CHUNK_HEADER;
    let Some(bin) = data_start.checked_add(bin_length).and_then(|end| file.get(data_start..end)) else {
        return Err(invalid(bin_start, "BIN chunk length past the end of the file"));
    };
    Ok(Container { json, bin: Some(bin), bin_offset: data_start })
}
