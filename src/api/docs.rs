//! Building the OpenAPI document from parts: each API module lists its operations in a `Doc`
//! (`#[derive(OpenApi)]`) right beside its `routes()`; [`resource`] prefixes their operation ids
//! with the module's name and [`merged`] joins parts into one document. The whole document (the
//! product API, the account service and the console) is put together by `crate::openapi`.

use utoipa::openapi::OpenApi as Document;

/// The operations of one resource module, their operation ids prefixed with `name` (the
/// module's name) so that they are unique across the document: `list` in `events` becomes
/// `events_list`. Generated clients name their operations after these ids.
pub fn resource(name: &str, mut doc: Document) -> Document {
    for item in doc.paths.paths.values_mut() {
        let methods = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
            &mut item.query,
        ];
        let operations = methods.into_iter().flatten().chain(item.additional_operations.values_mut());
        for operation in operations {
            if let Some(id) = &mut operation.operation_id {
                *id = format!("{name}_{id}");
            }
        }
    }
    doc
}

/// One document holding the operations and schemas of all `parts`.
pub fn merged(parts: impl IntoIterator<Item = Document>) -> Document {
    let mut doc = Document::default();
    for part in parts {
        doc.merge(part);
    }
    doc
}
