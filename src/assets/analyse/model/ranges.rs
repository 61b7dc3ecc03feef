//! Byte ranges: every buffer's declared length is within the bytes the file holds for it, every
//! buffer view lies inside its buffer, every accessor (and sparse part) inside its buffer view.
//! Only lengths and offsets are compared (u64, checked arithmetic); no element is read.

use gltf::json::Root;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::validation::Checked;

use super::super::finding::{Code, Finding, Findings};
use super::buffers::BufferData;

/// Checks all ranges and appends a finding for each one out of bounds.
pub fn check(root: &Root, buffers: &[BufferData<'_>], findings: &mut Findings) {
    let mut out = Ranges { findings };
    for (index, (buffer, data)) in root.buffers.iter().zip(buffers).enumerate() {
        let pointer = format!("/buffers/{index}");
        match data.available() {
            None => {
                out.push(Finding::error(Code::ExternalUri).at(pointer).actual(buffer.uri.clone().unwrap_or_default()))
            }
            Some(available) if buffer.byte_length.0 > available => {
                out.push(Finding::error(Code::BufferOutOfRange).at(pointer).values(available, buffer.byte_length.0));
            }
            Some(_) => {}
        }
    }
    for (index, view) in root.buffer_views.iter().enumerate() {
        let Some(buffer) = root.buffers.get(view.buffer.value()) else { continue };
        let end = view.byte_offset.map_or(0, |o| o.0).checked_add(view.byte_length.0);
        if end.is_none_or(|end| end > buffer.byte_length.0) {
            let finding = Finding::error(Code::BufferViewOutOfRange).at(format!("/bufferViews/{index}"));
            out.push(finding.values(buffer.byte_length.0, end.unwrap_or(u64::MAX)));
        }
    }
    for (index, accessor) in root.accessors.iter().enumerate() {
        let pointer = format!("/accessors/{index}");
        let (Checked::Valid(component), Checked::Valid(kind)) = (&accessor.component_type, &accessor.type_) else {
            continue;
        };
        if let Some(view) = accessor.buffer_view {
            let element = element_size(component.0, *kind);
            let offset = accessor.byte_offset.map_or(0, |o| o.0);
            out.check_in_view(root, view.value(), offset, accessor.count.0, element, &pointer);
        }
        if let Some(sparse) = &accessor.sparse {
            let count = sparse.count.0;
            if let Checked::Valid(index_type) = &sparse.indices.component_type {
                let size = index_type.0.size() as u64;
                let (view, offset) = (sparse.indices.buffer_view.value(), sparse.indices.byte_offset.0);
                out.check_in_view_packed(root, view, offset, count, size, &format!("{pointer}/sparse/indices"));
            }
            let size = element_size(component.0, *kind);
            let (view, offset) = (sparse.values.buffer_view.value(), sparse.values.byte_offset.0);
            out.check_in_view_packed(root, view, offset, count, size, &format!("{pointer}/sparse/values"));
        }
    }
}

/// Bytes of one element, with the column padding of small matrices (glTF 2.0 §3.6.2.4).
pub fn element_size(component: ComponentType, kind: Type) -> u64 {
    let size = component.size() as u64;
    match (kind, size) {
        (Type::Mat2, 1) => 8,
        (Type::Mat3, 1) => 12,
        (Type::Mat3, 2) => 24,
        _ => size * kind.multiplicity() as u64,
    }
}

/// The range checks of views' contents.
struct Ranges<'a> {
    findings: &'a mut Findings,
}

impl Ranges<'_> {
    fn push(&mut self, finding: Finding) {
        self.findings.push(finding);
    }

    /// `count` elements of `element` bytes, `byteStride` apart (or packed), from `offset`.
    fn check_in_view(&mut self, root: &Root, view: usize, offset: u64, count: u64, element: u64, pointer: &str) {
        let Some(json_view) = root.buffer_views.get(view) else { return };
        let stride = json_view.byte_stride.map_or(element, |s| s.0 as u64).max(element);
        self.check(json_view.byte_length.0, offset, count, stride, element, pointer);
    }

    /// `count` tightly packed elements (sparse parts ignore `byteStride`).
    fn check_in_view_packed(&mut self, root: &Root, view: usize, offset: u64, count: u64, size: u64, pointer: &str) {
        let Some(json_view) = root.buffer_views.get(view) else { return };
        self.check(json_view.byte_length.0, offset, count, size, size, pointer);
    }

    fn check(&mut self, view_length: u64, offset: u64, count: u64, stride: u64, element: u64, pointer: &str) {
        if count == 0 {
            return;
        }
        let end =
            (count - 1).checked_mul(stride).and_then(|n| n.checked_add(element)).and_then(|n| n.checked_add(offset));
        if end.is_none_or(|end| end > view_length) {
            let finding = Finding::error(Code::AccessorOutOfRange).at(pointer);
            self.push(finding.values(view_length, end.unwrap_or(u64::MAX)));
        }
    }
}
