//! ZIP listings from the central directory, through the `zip` crate, with nothing extracted.
//!
//! Before the `zip` crate builds its index, the end-of-central-directory record (and its ZIP64
//! form) is read by hand for the declared entry count, and an archive declaring more entries than
//! [`Limits::max_zip_entries`] is refused without further reading. The listing then gives every
//! entry's path and sizes, and the analyser's own findings: too many entries, a declared total
//! over [`Limits::max_zip_uncompressed`] (a zip bomb), an entry compressing better than
//! [`Limits::max_zip_ratio`], and paths that would escape on extraction (absolute, `..`,
//! backslashes). The rule set's checks of the listing (blocked kinds, path length, name
//! characters) are [`super::rules`]'.

use std::io::{Read, Seek, SeekFrom};

use zip::ZipArchive;

use super::finding::{Code, Finding, Findings};
use super::limits::Limits;
use super::stats::{ZipEntry, ZipStats};

/// Lists a ZIP archive. `None` stats when it cannot be listed (the findings say why).
pub fn analyse<R: Read + Seek>(mut reader: R, limits: &Limits) -> (Option<ZipStats>, Findings) {
    let unreadable = |what: String| (None, vec![Finding::error(Code::Unreadable).actual(what)].into());
    let length = match reader.seek(SeekFrom::End(0)) {
        Ok(length) => length,
        Err(e) => return unreadable(e.to_string()),
    };
    if length > limits.max_bytes {
        return (None, vec![Finding::error(Code::BytesOverLimit).values(limits.max_bytes, length)].into());
    }
    if let Some(declared) = declared_entries(&mut reader, length).filter(|n| *n > limits.max_zip_entries) {
        return (None, vec![Finding::error(Code::ZipTooManyEntries).values(limits.max_zip_entries, declared)].into());
    }
    if reader.seek(SeekFrom::Start(0)).is_err() {
        return unreadable("seek".to_string());
    }
    let archive = match ZipArchive::new(reader) {
        Ok(archive) => archive,
        Err(e) => return unreadable(e.to_string()),
    };
    let mut stats = ZipStats { entry_count: archive.len() as u64, ..ZipStats::default() };
    let mut findings = Findings::default();
    if stats.entry_count > limits.max_zip_entries {
        findings.push(Finding::error(Code::ZipTooManyEntries).values(limits.max_zip_entries, stats.entry_count));
    }
    stats.entries.reserve(archive.len());
    for index in 0..archive.len() {
        let Ok(entry) = archive.by_index_data(index) else { continue };
        // UTF-8 when flagged, else CP437 (the zip crate decodes both); lossy if even that fails.
        let path =
            entry.name().map_or_else(|_| String::from_utf8_lossy(entry.name_raw()).into_owned(), |n| n.into_owned());
        let (compressed, uncompressed) = (entry.compressed_size(), entry.size());
        stats.total_compressed = stats.total_compressed.saturating_add(compressed);
        stats.total_uncompressed = stats.total_uncompressed.saturating_add(uncompressed);
        let is_dir = entry.is_dir();
        if is_dir {
            stats.directory_count += 1;
        } else {
            stats.file_count += 1;
        }
        if uncompressed >= limits.zip_ratio_min_bytes && uncompressed / compressed.max(1) > limits.max_zip_ratio {
            findings.push(Finding::error(Code::ZipRatioOverLimit).values(limits.max_zip_ratio, path.clone()));
        }
        for code in unsafe_path(&path) {
            findings.push(Finding::error(code).actual(path.clone()));
        }
        stats.entries.push(ZipEntry { path, compressed_size: compressed, uncompressed_size: uncompressed, is_dir });
    }
    if stats.total_uncompressed > limits.max_zip_uncompressed {
        findings.push(Finding::error(Code::ZipBomb).values(limits.max_zip_uncompressed, stats.total_uncompressed));
    }
    (Some(stats), findings)
}

/// The codes of a path that would land outside the extraction directory, or be read otherwise on
/// Windows.
pub fn unsafe_path(path: &str) -> Vec<Code> {
    let mut codes = Vec::new();
    let drive = path.as_bytes().get(1) == Some(&b':') && path.as_bytes()[0].is_ascii_alphabetic();
    if path.starts_with('/') || drive {
        codes.push(Code::ZipPathAbsolute);
    }
    if path.split(['/', '\\']).any(|segment| segment == "..") {
        codes.push(Code::ZipPathParent);
    }
    if path.contains('\\') {
        codes.push(Code::ZipPathBackslash);
    }
    codes
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?)))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

/// The entry count the end-of-central-directory record declares (its ZIP64 form when the
/// 16-bit field is saturated). Reads at most 64 KiB + 22 bytes from the end, and 56 more.
fn declared_entries<R: Read + Seek>(reader: &mut R, length: u64) -> Option<u64> {
    let tail_length = length.min(65_535 + 22);
    reader.seek(SeekFrom::Start(length - tail_length)).ok()?;
    let mut tail = vec![0; tail_length as usize];
    reader.read_exact(&mut tail).ok()?;
    let eocd = tail.windows(4).rposition(|w| w == b"PK\x05\x06")?;
    let entries = u16_at(&tail, eocd + 10)?;
    if entries != 0xFFFF {
        return Some(entries);
    }
    let locator = eocd.checked_sub(20)?;
    if tail.get(locator..locator + 4)? != b"PK\x06\x07" {
        return Some(entries);
    }
    let record_at = u64_at(&tail, locator + 8)?;
    reader.seek(SeekFrom::Start(record_at)).ok()?;
    let mut record = [0; 56];
    reader.read_exact(&mut record).ok()?;
    if record.starts_with(b"PK\x06\x06") { u64_at(&record, 32) } else { Some(entries) }
}
