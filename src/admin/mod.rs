//! The staff console: the react-admin single-page app served at `/admin`. Its REST facade
//! (`/admin/api`) arrives with the resources.

use std::path::PathBuf;

use rocket::fs::NamedFile;
use rocket::{Route, State, get, routes};

use crate::error::{Error, Result};
use crate::web::Site;

async fn shell(site: &Site) -> Result<NamedFile> {
    let index = PathBuf::from(&site.config.dist_dir).join("admin/index.html");
    NamedFile::open(&index).await.map_err(|_| Error::Internal(format!("admin console not built: {}", index.display())))
}

/// The console's entry page.
#[get("/")]
pub async fn index(site: &State<Site>) -> Result<NamedFile> {
    shell(site).await
}

/// Client-side routes of the console all load the same page.
#[get("/<_path..>", rank = 20)]
pub async fn client_route(_path: PathBuf, site: &State<Site>) -> Result<NamedFile> {
    shell(site).await
}

/// Routes mounted at `/admin`.
pub fn routes() -> Vec<Route> {
    routes![index, client_route]
}
