//! The `Content-Disposition` of a download, shared by the app's own downloads and the store's
//! presigned ones.

/// A `Content-Disposition` that downloads the file as `file_name` (RFC 6266 with RFC 5987's
/// encoding: attr-chars such as `poster.png`'s stay as they are, everything else is
/// percent-encoded UTF-8) — for the app's own downloads and the store's presigned ones alike.
pub fn attachment(file_name: &str) -> String {
    const ENCODED: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'.').remove(b'-').remove(b'_').remove(b'~');
    format!("attachment; filename*=UTF-8''{}", percent_encoding::utf8_percent_encode(file_name, ENCODED))
}
