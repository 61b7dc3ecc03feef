//! The model's images: format and dimensions from each embedded image's header (PNG, JPEG, GIF,
//! WebP, KTX 2.0, read by [`super::super::raster`]), never a pixel decode.
//! Only the first [`HEADER_WINDOW`] bytes of a `data:` URI image are decoded.

use gltf::json::Root;

use super::super::finding::{Code, Finding, Findings};
use super::super::limits::Limits;
use super::super::raster;
use super::super::stats::{TextureStats, gpu_bytes};
use super::buffers::{BufferData, base64_payload, decode_window, decoded_len};

/// Bytes of a base64 image decoded to read its header (a JPEG's frame header may follow large
/// EXIF or ICC segments).
pub const HEADER_WINDOW: u64 = 256 * 1024;

/// One entry per image, and findings for those unreadable, external or too large.
pub fn probe(root: &Root, buffers: &[BufferData<'_>], limits: &Limits, findings: &mut Findings) -> Vec<TextureStats> {
    let mut out = Vec::with_capacity(root.images.len());
    for (index, image) in root.images.iter().enumerate() {
        let pointer = format!("/images/{index}");
        let (bytes, byte_size) = if let Some(view) = image.buffer_view.and_then(|v| root.buffer_views.get(v.value())) {
            let data = buffers.get(view.buffer.value()).copied().unwrap_or(BufferData::Missing);
            let offset = view.byte_offset.map_or(0, |o| o.0);
            // A view out of its buffer is reported by the range check; read what is there.
            let readable = data.available().unwrap_or(0).saturating_sub(offset).min(view.byte_length.0);
            let window = if matches!(data, BufferData::Bin(_)) { readable } else { readable.min(HEADER_WINDOW) };
            (data.window(offset, window), view.byte_length.0)
        } else if let Some(uri) = image.uri.as_deref() {
            match base64_payload(uri) {
                Some(payload) => {
                    let length = decoded_len(payload);
                    (decode_window(payload, 0, length.min(HEADER_WINDOW) as usize).map(Into::into), length)
                }
                None => {
                    findings.push(Finding::error(Code::ExternalUri).at(pointer).actual(uri.to_string()));
                    out.push(unread(index, 0));
                    continue;
                }
            }
        } else {
            (None, 0)
        };
        let Some(header) = bytes.as_deref().and_then(raster::probe) else {
            findings.push(Finding::warning(Code::TextureUnreadable).at(pointer));
            out.push(unread(index, byte_size));
            continue;
        };
        if let Err(finding) = raster::check_side(&header, limits) {
            findings.push(finding.at(pointer));
            out.push(TextureStats { format: Some(header.format), ..unread(index, byte_size) });
            continue;
        }
        out.push(TextureStats {
            image: index,
            format: Some(header.format),
            width: Some(header.width),
            height: Some(header.height),
            byte_size,
            gpu_bytes: gpu_bytes(header.width, header.height),
        });
    }
    out
}

fn unread(image: usize, byte_size: u64) -> TextureStats {
    TextureStats { image, format: None, width: None, height: None, byte_size, gpu_bytes: 0 }
}
