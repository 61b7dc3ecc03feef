//! Builds the Rocket application: managed state, fairings, mounts and catchers. The binary and
//! the tests both call [`build`].

use std::path::Path;

use rocket::{Build, Rocket};
use sea_orm::DatabaseConnection;

use crate::account::SignInLimits;
use crate::auth::Sso;
use crate::clock::Clock;
use crate::config::Config;
use crate::http::Site;
use crate::http::client_ip::TrustedProxies;
use crate::http::vite::ViteAssets;
use crate::i18n::Messages;
use crate::linkpreview::LinkPreviewer;
use crate::storage::{self, Storage};
use crate::web::headers::SecurityHeaders;
use crate::web::{errors, locale};
use crate::{account, admin, api, assets, auth, booth, ingame, store, web};

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
pub fn build(parts: AppParts) -> crate::error::Result<Rocket<Build>> {
    let AppParts { figment, config, db, clock } = parts;
    let storage = Storage::from_config(&config)?;
    let sso = Sso::new(&config);
    let limiter = SignInLimits::new(&config, &db);
    let trusted_proxies = TrustedProxies::parse(&config.trusted_proxies).map_err(crate::error::Error::Internal)?;
    let security_headers = SecurityHeaders::new(&config);
    let config_budget = config.image_decode_budget_mib;
    let config_download_per_minute = config.asset_download_per_minute;
    let builtin_sso = config.builtin_sso();
    let messages = Messages::bundled();
    let assets = ViteAssets::load(Path::new(&config.dist_dir));
    let static_dir = config.static_dir.clone();
    let templates = crate::http::template::Templates::load(template_dir(&figment), messages.clone())
        .map_err(crate::error::Error::Internal)?;
    let previewer = LinkPreviewer::new(&config, &db)
        .map_err(|e| crate::error::Error::Internal(format!("link preview client: {e}")))?;
    let inquiry_limiter = crate::http::protect::InquiryLimiter::per_minute(&db, config.inquiry_rate_per_minute);
    let circle_search_limiter = crate::http::limit::UserSearchLimiter::new(&config, &db);
    let ingame_limits = ingame::limits::IngameLimits::new(&config, &db);
    let vrchat = crate::store::vrchat::service::Vrchat::new(&config, &db);
    let chat_hub = ingame::chat::hub::ChatHub::new(
        db.clone(),
        std::time::Duration::from_millis(config.ingame_chat_poll_ms),
        config.ingame_chat_streams_per_player,
    );
    let form_key = crate::http::protect::FormKey::from_figment(&figment);
    let api_docs = crate::openapi::routes(config.environment);
    let queue = crate::queue::Queue::for_db(&db).expect("the database is SQLite or PostgreSQL");
    let mailer = crate::mail::Mailer::new(&config)?;
    let providers = crate::payments::Providers::from_config(&config);
    let watch =
        crate::db::data_version::Watch::new(db.clone(), std::time::Duration::from_millis(config.data_version_poll_ms));
    let render_cache =
        crate::http::render_cache::RenderCache::new(config.render_cache, config.render_cache_mib, auth::TOKEN_COOKIE);
    let list_memory_mib = config.list_memory_mib;
    let redirected_cookies = locale::RedirectedCookies::new(&config);
    let receipt_fonts =
        crate::receipts::font::ReceiptFonts::load(&config.receipt_font).map_err(crate::error::Error::Internal)?;
    match &receipt_fonts.0 {
        Some(font) => tracing::info!(path = %font.path.display(), "PDF receipts are set in this font"),
        None => tracing::warn!("no Japanese font found (set receipt_font): PDF receipts are off"),
    }
    let cache_policy = crate::http::shared_cache::CachePolicy::new(&config);
    let site = Site { config, messages, assets };

    let download_limiter = assets::api::downloads::DownloadLimiter::per_minute(&db, config_download_per_minute);
    let api_bases =
        ["/api", "/_i18n", "/builds", "/api-docs", "/admin", "/account", "/auth", "/media", "/uploader", "/ingame"];
    let mut rocket = rocket::custom(figment)
        .manage(site)
        .manage(db)
        .manage(clock)
        .manage(storage)
        .manage(sso)
        .manage(limiter)
        .manage(trusted_proxies)
        .manage(crate::http::upload::ImageDecoder::new(config_budget))
        .manage(security_headers.clone())
        .manage(redirected_cookies)
        .manage(previewer)
        .manage(inquiry_limiter)
        .manage(circle_search_limiter)
        .manage(form_key)
        .manage(queue)
        .manage(mailer)
        .manage(providers)
        .manage(watch)
        .manage(crate::model::tree::Trees::new(list_memory_mib))
        .manage(render_cache)
        .manage(templates)
        .manage(download_limiter)
        .manage(ingame_limits)
        .manage(vrchat)
        .manage(chat_hub)
        .manage(receipt_fonts)
        // First: it stores what a cached route answered before the others add per-request headers.
        .attach(crate::http::render_cache::Freshness)
        // Before the locale cookie: an answer it makes shareable gets no cookie.
        .attach(cache_policy)
        .attach(locale::LocaleRouting)
        .attach(security_headers)
        .attach(crate::telemetry::RequestLog)
        .attach(crate::http::memory::ReturnMemory::default())
        .mount("/", web::pages::routes())
        .mount("/", rocket::routes![locale::locale_redirect])
        .mount("/api/v1", api::v1::routes())
        .mount("/api/v1", admin::time_travel::routes())
        .mount("/api/v1/booth_maker", booth::routes())
        .mount("/api/v1/store", store::routes())
        .mount("/ingame", ingame::routes())
        .mount("/uploader", assets::routes())
        .mount("/api", api::ogp::routes())
        .mount("/api", api::example::routes())
        .mount("/api", api::tool_version::routes())
        .mount("/_i18n", api::support::i18n_routes())
        .mount("/builds", api::support::build_routes())
        .mount("/api-docs", api_docs)
        .mount("/admin", admin::routes())
        .mount("/auth", web::sign_in::routes())
        .mount("/media", storage::routes())
        .mount("/static", crate::http::static_files::StaticFiles::new(static_dir, 20))
        .register("/", errors::page_catchers());
    if builtin_sso {
        rocket = rocket.mount("/account", account::routes());
    }
    for base in api_bases {
        rocket = rocket.register(base, errors::api_catchers());
    }
    Ok(rocket)
}

/// The template directory: `template_dir` (relative to the configuration file that set it), else
/// `templates`.
fn template_dir(figment: &rocket::figment::Figment) -> std::path::PathBuf {
    figment
        .extract_inner::<rocket::figment::value::magic::RelativePathBuf>("template_dir")
        .map_or_else(|_| "templates".into(), |p| p.relative())
}
