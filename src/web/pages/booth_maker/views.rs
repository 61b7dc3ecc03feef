//! What the booth maker's pages show of an asset version: its status and report verdict as
//! labels, its size in words, and where its pages are.

use serde_json::{Value, json};

use crate::assets::model::views::VersionView;
use crate::db::entities::asset_version::UploadStatus;
use crate::web::page::Page;

/// Whether a version is still moving through the pipeline (its page keeps watching it).
pub fn in_progress(status: UploadStatus) -> bool {
    status == UploadStatus::Waiting || status.in_pipeline()
}

/// `12345678` → `11.8 MB` (binary megabytes, one decimal; KB below one MB).
pub fn size_label(bytes: i64) -> String {
    let bytes = bytes.max(0) as f64;
    if bytes >= 1024.0 * 1024.0 {
        format!("{:.1} MB", bytes / (1024.0 * 1024.0))
    } else {
        format!("{:.0} KB", (bytes / 1024.0).ceil())
    }
}

/// A version for a template: the view plus its status and verdict labels and size.
pub fn version_json(page: &Page<'_>, v: &VersionView) -> Value {
    let status = v.upload_status.as_str();
    let verdict = v.report.as_ref().map(|r| {
        json!({
            "status": r.status,
            "label": page.t(&format!("booth_maker.verdict.{}", r.status)),
            "counts": page.site.messages.tf(
                page.lang,
                "booth_maker.verdict.counts",
                &[("errors", &r.num_errors.to_string()), ("warnings", &r.num_warnings.to_string())],
            ),
        })
    });
    let mut out = json!(v);
    out["status"] = json!(status);
    out["status_label"] = json!(page.t(&format!("booth_maker.status.{status}")));
    out["in_progress"] = json!(in_progress(v.upload_status));
    out["size_label"] = json!(size_label(v.byte_size));
    out["verdict"] = json!(verdict);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_kilobytes_then_megabytes() {
        assert_eq!(size_label(0), "0 KB");
        assert_eq!(size_label(1), "1 KB");
        assert_eq!(size_label(300 * 1024), "300 KB");
        assert_eq!(size_label(6 * 1024 * 1024 + 512 * 1024), "6.5 MB");
    }
}
