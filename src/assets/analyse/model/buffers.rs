//! Where each glTF buffer's bytes are: the GLB's BIN chunk (borrowed, never copied), a base64
//! `data:` URI (decoded only in the windows that are read), or another file, which an upload
//! cannot carry.

use std::borrow::Cow;

use gltf::json::Root;

/// One buffer's bytes.
#[derive(Debug, Clone, Copy)]
pub enum BufferData<'a> {
    /// The GLB's BIN chunk.
    Bin(&'a [u8]),
    /// The base64 payload of a `data:` URI.
    DataUri(&'a str),
    /// A URI to another file.
    External,
    /// No bytes at all (a buffer without URI in a glTF without BIN chunk, or not buffer 0).
    Missing,
}

impl<'a> BufferData<'a> {
    /// How many bytes are there.
    pub fn available(&self) -> Option<u64> {
        match self {
            Self::Bin(bytes) => Some(bytes.len() as u64),
            Self::DataUri(payload) => Some(decoded_len(payload)),
            Self::External => None,
            Self::Missing => Some(0),
        }
    }

    /// `length` bytes from `offset`, decoded if need be; `None` when they are not all there.
    pub fn window(&self, offset: u64, length: u64) -> Option<Cow<'a, [u8]>> {
        let offset = usize::try_from(offset).ok()?;
        let length = usize::try_from(length).ok()?;
        match *self {
            Self::Bin(bytes) => bytes.get(offset..offset.checked_add(length)?).map(Cow::Borrowed),
            Self::DataUri(payload) => decode_window(payload, offset, length).map(Cow::Owned),
            Self::External | Self::Missing => None,
        }
    }
}

/// Resolves every buffer of the document.
pub fn resolve<'a>(root: &'a Root, bin: Option<&'a [u8]>) -> Vec<BufferData<'a>> {
    let resolve_one = |(index, buffer): (usize, &'a gltf::json::Buffer)| match buffer.uri.as_deref() {
        None => match bin {
            Some(bin) if index == 0 => BufferData::Bin(bin),
            _ => BufferData::Missing,
        },
        Some(uri) => match base64_payload(uri) {
            Some(payload) => BufferData::DataUri(payload),
            None => BufferData::External,
        },
    };
    root.buffers.iter().enumerate().map(resolve_one).collect()
}

/// The payload of a `data:…;base64,` URI.
pub fn base64_payload(uri: &str) -> Option<&str> {
    let rest = uri.strip_prefix("data:")?;
    let (header, payload) = rest.split_once(',')?;
    header.ends_with(";base64").then_some(payload)
}

/// Decoded length of a base64 payload (padding excluded).
pub fn decoded_len(payload: &str) -> u64 {
    let trimmed = payload.trim_end_matches('=');
    trimmed.len() as u64 / 4 * 3 + (trimmed.len() as u64 % 4).saturating_sub(1)
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    }))
}

/// Decodes bytes `offset..offset + length` of a base64 payload, touching only the groups of four
/// characters that hold them.
pub fn decode_window(payload: &str, offset: usize, length: usize) -> Option<Vec<u8>> {
    let end = offset.checked_add(length)?;
    if end as u64 > decoded_len(payload) {
        return None;
    }
    let first_group = offset / 3;
    let last_group = end.div_ceil(3);
    let chars = payload.as_bytes().get(first_group * 4..(last_group * 4).min(payload.len()))?;
    let mut out = Vec::with_capacity(chars.len() / 4 * 3 + 3);
    for group in chars.chunks(4) {
        let mut word = 0u32;
        let mut digits = 0;
        for &c in group.iter().take_while(|c| **c != b'=') {
            word |= sextet(c)? << (18 - 6 * digits);
            digits += 1;
        }
        out.extend_from_slice(&word.to_be_bytes()[1..digits.max(1)]);
    }
    let skip = offset - first_group * 3;
    out.get(skip..skip + length).map(<[u8]>::to_vec)
}

#[cfg(test)]
mod tests {
    use super::{decode_window, decoded_len};

    #[test]
    fn windows_of_base64_decode_like_the_whole() {
        // "Hello, glTF!" in base64.
        let payload = "SGVsbG8sIGdsVEYh";
        assert_eq!(decoded_len(payload), 12);
        assert_eq!(decode_window(payload, 0, 12).unwrap(), b"Hello, glTF!");
        assert_eq!(decode_window(payload, 4, 5).unwrap(), b"o, gl");
        assert_eq!(decode_window("SGk=", 0, 2).unwrap(), b"Hi");
        assert!(decode_window(payload, 10, 5).is_none());
        assert!(decode_window("S!Vs", 0, 2).is_none());
    }
}
