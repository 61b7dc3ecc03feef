//! The README's table of where each feature lives ("Layout" → "Features") names folders and files
//! that exist, and holds the lottery and the features to come.

use std::path::Path;

/// The README's features table: each row's feature and the paths its cells name in backticks
/// (`src/lottery/`, `tests/it/payment_*.rs`).
fn feature_table(readme: &str) -> Vec<(String, Vec<String>)> {
    let section = readme.split("\n### Features\n").nth(1).expect("README has a \"Features\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| feature") && !l.starts_with("|---"))
        .map(|row| {
            let feature = row.split('|').nth(1).unwrap_or_default().trim().to_string();
            let paths = row
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|p| p.contains('/') && !p.starts_with('/'))
                .map(str::to_string)
                .collect();
            (feature, paths)
        })
        .collect()
}

/// Whether `path` (relative to the repository; a `*` in its file name matches any text) exists.
fn exists(root: &Path, path: &str) -> bool {
    let Some((dir, pattern)) = path.rsplit_once('/').filter(|(_, name)| name.contains('*')) else {
        return root.join(path).exists();
    };
    let (before, after) = pattern.split_once('*').unwrap_or((pattern, ""));
    std::fs::read_dir(root.join(dir)).into_iter().flatten().flatten().any(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        name.starts_with(before) && name.ends_with(after) && name.len() >= before.len() + after.len()
    })
}

#[test]
fn every_path_of_the_feature_table_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let table = feature_table(&readme);
    let features: Vec<&str> = table.iter().map(|(f, _)| f.as_str()).collect();
    for feature in ["lottery", "asset uploader", "booth maker", "in-game API", "store"] {
        assert!(features.contains(&feature), "the table has a row for {feature}: {features:?}");
    }
    let lottery = &table.iter().find(|(f, _)| f == "lottery").unwrap().1;
    assert!(lottery.len() >= 9, "the lottery's places: {lottery:?}");
    let missing: Vec<String> = table
        .iter()
        .flat_map(|(feature, paths)| paths.iter().map(move |p| (feature, p)))
        .filter(|(_, p)| !exists(root, p))
        .map(|(feature, p)| format!("{feature}: {p}"))
        .collect();
    assert!(
        missing.is_empty(),
        "paths the README's feature table names but the repository lacks:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_missing_path_is_noticed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = "x\n### Features\n\n| feature | code |\n|---|---|\n| lottery | `src/lottery/`, `src/nothing_here.rs`, `tests/it/lottery*.rs` |\n\n## Tests\n| other | `src/gone/` |\n";
    let table = feature_table(readme);
    assert_eq!(table.len(), 1, "rows of the section only");
    let paths = &table[0].1;
    assert_eq!(paths, &["src/lottery/", "src/nothing_here.rs", "tests/it/lottery*.rs"]);
    assert_eq!(paths.iter().map(|p| exists(root, p)).collect::<Vec<_>>(), [true, false, true]);
}
