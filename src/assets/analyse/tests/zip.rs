//! ZIP listings: entries, sizes, the analyser's findings, and a 100,000-entry archive.

use std::io::Cursor;

use super::super::samples::{self, ZipSample};
use super::super::{Code, Kind, Limits, analyse_zip};
use super::{codes, listing, run};

#[test]
fn entries_are_listed_with_their_sizes() {
    let bytes = samples::zip(&[
        ZipSample::dir("Booth/"),
        ZipSample::file("Booth/Booth.prefab", &[7; 300]),
        ZipSample::file("Booth/Textures/wood (1).png", &samples::png(4, 4)),
    ]);
    let analysis = run(&bytes);
    assert_eq!(analysis.kind, Some(Kind::Zip));
    assert!(codes(&analysis).is_empty(), "{:?}", analysis.findings);
    let zip = listing(&analysis);
    assert_eq!((zip.entry_count, zip.file_count, zip.directory_count), (3, 2, 1));
    assert_eq!(zip.entries[1].path, "Booth/Booth.prefab");
    assert_eq!((zip.entries[1].compressed_size, zip.entries[1].uncompressed_size), (300, 300));
    assert_eq!(analysis.stats.version_detail().zip_entries, Some(3));
}

#[test]
fn paths_escaping_the_extraction_directory_are_reported() {
    let bytes = samples::zip(&[
        ZipSample::file("/etc/passwd", b"x"),
        ZipSample::file("C:/boot.ini", b"x"),
        ZipSample::file("a/../../b.txt", b"x"),
        ZipSample::file("Windows\\path.txt", b"x"),
        ZipSample::file("fine/name.txt", b"x"),
    ]);
    let analysis = run(&bytes);
    let mut found = codes(&analysis);
    found.sort_by_key(|c| c.as_str());
    assert_eq!(found, [Code::ZipPathAbsolute, Code::ZipPathAbsolute, Code::ZipPathBackslash, Code::ZipPathParent]);
    assert_eq!(listing(&analysis).entry_count, 5);
}

#[test]
fn a_zip_bomb_is_caught_by_its_declared_sizes() {
    // Five entries of 10 bytes each declaring ~4 GB: 20 GB declared in a ~400-byte file.
    let entries: Vec<ZipSample> =
        (0..5).map(|i| ZipSample::file(&format!("zeros{i}.bin"), &[0; 10]).declaring(0xFFFF_FFF0)).collect();
    let analysis = run(&samples::zip(&entries));
    let zip = listing(&analysis);
    assert_eq!(zip.total_uncompressed, 5 * 0xFFFF_FFF0);
    let found = codes(&analysis);
    assert!(found.contains(&Code::ZipBomb), "{found:?}");
    assert_eq!(found.iter().filter(|c| **c == Code::ZipRatioOverLimit).count(), 5);
}

#[test]
fn a_declared_entry_count_over_the_ceiling_is_refused_before_listing() {
    let entries: Vec<ZipSample> = (0..50).map(|i| ZipSample::file(&format!("f{i}"), b"")).collect();
    let limits = Limits { max_zip_entries: 10, ..Limits::default() };
    let analysis = analyse_zip(Cursor::new(samples::zip(&entries)), &limits);
    assert_eq!(codes(&analysis), [Code::ZipTooManyEntries]);
    assert_eq!(analysis.findings.list[0].actual, Some(50.into()));
}

#[test]
fn a_100000_entry_zip_is_listed_and_counted() {
    let entries: Vec<ZipSample> =
        (0..100_000).map(|i| ZipSample::file(&format!("d{}/f{i}.txt", i % 100), b"")).collect();
    let bytes = samples::zip(&entries);
    let analysis = analyse_zip(Cursor::new(&bytes), &Limits::default());
    assert!(codes(&analysis).is_empty(), "{:?}", analysis.findings);
    let zip = listing(&analysis);
    assert_eq!((zip.entry_count, zip.entries.len()), (100_000, 100_000));
    assert_eq!(zip.entries[99_999].path, "d99/f99999.txt");
}

#[test]
fn an_empty_archive_and_a_non_archive() {
    let empty = run(&samples::zip(&[]));
    assert_eq!(listing(&empty).entry_count, 0);
    let not_zip = analyse_zip(Cursor::new(b"hello world".to_vec()), &Limits::default());
    assert_eq!(codes(&not_zip), [Code::Unreadable]);
    assert_eq!(codes(&analyse_zip(Cursor::new(Vec::new()), &Limits::default())), [Code::EmptyFile]);
}
