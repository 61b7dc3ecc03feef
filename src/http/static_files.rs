//! Static files under `/static`, with cache lifetimes browsers and CDNs can act on.
//!
//! Vite writes the built widgets and console under `static/dist/<app>/assets/` with a content
//! hash in every file name, so such a file never changes under its name: it is served as
//! `public, max-age=31536000, immutable`. Everything else (`static/css`, images, the favicon)
//! keeps its name across releases and gets [`SHORT_LIFETIME`].

use rocket::fs::FileServer;
use rocket::http::uri::{Segments, fmt::Path};
use rocket::http::{Header, Method};
use rocket::route::{Handler, Outcome, Route};
use rocket::{Data, Request};

/// `Cache-Control` of content-hashed build output.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` of static files whose names do not change when their content does.
pub const SHORT_LIFETIME: &str = "public, max-age=3600";

/// Serves a directory like [`FileServer`] and sets `Cache-Control` on what it finds.
#[derive(Debug, Clone)]
pub struct StaticFiles {
    files: FileServer,
    rank: isize,
}

impl StaticFiles {
    /// Serves `dir` at rank `rank`.
    pub fn new(dir: impl AsRef<std::path::Path>, rank: isize) -> Self {
        Self { files: FileServer::from(dir).rank(rank), rank }
    }
}

/// The `Cache-Control` value for a path under the mount point (e.g. `dist/widgets/assets/x-1a2b.js`).
pub fn cache_control(path: &str) -> &'static str {
    let mut parts = path.trim_start_matches('/').split('/');
    let hashed = parts.next() == Some("dist") && parts.next().is_some() && parts.next() == Some("assets");
    if hashed { IMMUTABLE } else { SHORT_LIFETIME }
}

#[rocket::async_trait]
impl Handler for StaticFiles {
    async fn handle<'r>(&self, req: &'r Request<'_>, data: Data<'r>) -> Outcome<'r> {
        let outcome = self.files.handle(req, data).await;
        match outcome {
            Outcome::Success(mut response) if response.status().class().is_success() => {
                let path: Vec<&str> = req.segments::<Segments<'_, Path>>(0..).map(|s| s.collect()).unwrap_or_default();
                response.set_header(Header::new("Cache-Control", cache_control(&path.join("/"))));
                Outcome::Success(response)
            }
            other => other,
        }
    }
}

impl From<StaticFiles> for Vec<Route> {
    fn from(server: StaticFiles) -> Self {
        let rank = server.rank;
        let mut route = Route::ranked(rank, Method::Get, "/<path..>", server);
        route.name = Some("StaticFiles".into());
        vec![route]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hashed_build_output_is_immutable() {
        assert_eq!(cache_control("dist/widgets/assets/common-Thw1Iqx8.js"), IMMUTABLE);
        assert_eq!(cache_control("/dist/admin/assets/index-abc.css"), IMMUTABLE);
        assert_eq!(cache_control("dist/admin/index.html"), SHORT_LIFETIME);
        assert_eq!(cache_control("dist/assets/x.js"), SHORT_LIFETIME);
        assert_eq!(cache_control("css/site.css"), SHORT_LIFETIME);
        assert_eq!(cache_control("favicon.svg"), SHORT_LIFETIME);
    }
}
