//! What the two Rust suites of `make test` rely on (`scripts/test-all`).

use std::path::PathBuf;

/// The PostgreSQL run covers the integration tests only (`-E 'kind(test)'`): the library's unit
/// tests never open a test database, so on PostgreSQL they would only run a second time. This
/// fails when code in `src/` starts reading the test database setting.
#[test]
fn unit_tests_never_pick_the_test_database() {
    let mut found = Vec::new();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    crate::support::sources::each_rust_file(&src, &mut |path, text| {
        if text.contains("VMARKET_TEST_DATABASE_URL") {
            found.push(path.display().to_string());
        }
    });
    assert!(
        found.is_empty(),
        "unit tests in src/ read the test database setting, so the PostgreSQL run of scripts/test-all must include them: {found:?}"
    );
}
