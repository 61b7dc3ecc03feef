//! The product's own source files, for the tests that check a rule over all of them.

use std::path::Path;

/// Calls `each` with the path and text of every `.rs` file under `dir`.
pub fn each_rust_file(dir: &Path, each: &mut dyn FnMut(&Path, &str)) {
    for entry in std::fs::read_dir(dir).expect("the source folder is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            each_rust_file(&path, each);
        } else if path.extension().is_some_and(|e| e == "rs") {
            each(&path, &std::fs::read_to_string(&path).expect("a source file"));
        }
    }
}
