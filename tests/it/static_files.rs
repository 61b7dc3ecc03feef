//! Static files: content-hashed build output is cached for a year, everything else briefly.

use crate::support::TestApp;

#[rocket::async_test]
async fn hashed_build_output_is_immutable_and_other_files_are_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |path: &str, body: &str| {
        let file = dir.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("dirs");
        std::fs::write(file, body).expect("file");
    };
    write("dist/widgets/assets/common-Thw1Iqx8.js", "console.log(1)");
    write("dist/admin/index.html", "<!doctype html>");
    write("css/site.css", "body{}");
    let static_dir = dir.path().display().to_string();
    let app = TestApp::builder().empty().config(move |c| c.static_dir = static_dir).build().await;

    let cache_of = |path: &'static str| {
        let app = &app;
        async move {
            let res = app.get(path).await;
            (res.status().code, res.headers().get_one("Cache-Control").map(str::to_owned))
        }
    };
    let year = Some("public, max-age=31536000, immutable".to_owned());
    let hour = Some("public, max-age=3600".to_owned());
    assert_eq!(cache_of("/static/dist/widgets/assets/common-Thw1Iqx8.js").await, (200, year));
    assert_eq!(cache_of("/static/dist/admin/index.html").await, (200, hour.clone()));
    assert_eq!(cache_of("/static/css/site.css").await, (200, hour));
    let (status, cache) = cache_of("/static/dist/widgets/assets/missing-1234.js").await;
    assert_eq!(status, 404);
    assert_ne!(cache.as_deref(), Some("public, max-age=31536000, immutable"), "a 404 must not be cached for a year");
}
