//! Builds the Rocket application: managed state, fairings, mounts and catchers. The binary and
//! the tests both call [`build`].

use std::path::Path;

use rocket::fs::FileServer;
use rocket::{Build, Rocket};
use rocket_dyn_templates::Template;
use sea_orm::DatabaseConnection;

use crate::clock::Clock;
use crate::config::Config;
use crate::i18n::Messages;
use crate::web::vite::ViteAssets;
use crate::web::{Site, errors, locale};
use crate::{admin, api, web};

/// Everything the application is built from.
pub struct AppParts {
    /// Rocket's own configuration source (port, secrets, template dir…).
    pub figment: rocket::figment::Figment,
    /// The typed application configuration.
    pub config: Config,
    /// An open, migrated database.
    pub db: DatabaseConnection,
    /// The clock.
    pub clock: Clock,
}

/// Assembles the application.
pub fn build(parts: AppParts) -> Rocket<Build> {
    let AppParts { figment, config, db, clock } = parts;
    let messages = Messages::bundled();
    let assets = ViteAssets::load(Path::new(&config.dist_dir));
    let static_dir = config.static_dir.clone();
    let tera_messages = messages.clone();
    let limiter = crate::web::protect::InquiryLimiter::per_minute(config.inquiry_rate_per_minute);
    let form_key = crate::web::protect::FormKey::from_figment(&figment);
    let queue = crate::jobs::Queue::for_db(&db).expect("the database is SQLite or PostgreSQL");
    let site = Site { config, messages, assets };

    let api_bases = ["/api", "/_i18n", "/builds", "/api-docs", "/admin"];
    let mut rocket = rocket::custom(figment)
        .manage(site)
        .manage(db)
        .manage(clock)
        .manage(limiter)
        .manage(form_key)
        .manage(queue)
        .attach(locale::LocaleRouting)
        .attach(Template::custom(move |engines| web::tera::register(&mut engines.tera, tera_messages.clone())))
        .mount("/", web::pages::routes())
        .mount("/", rocket::routes![locale::locale_redirect])
        .mount("/api/v1", api::v1::routes())
        .mount("/_i18n", api::support::i18n_routes())
        .mount("/builds", api::support::build_routes())
        .mount("/api-docs", api::docs::routes())
        .mount("/admin", admin::routes())
        .mount("/static", FileServer::from(static_dir).rank(20))
        .register("/", errors::page_catchers());
    for base in api_bases {
        rocket = rocket.register(base, errors::api_catchers());
    }
    rocket
}
