//! Logging and error reporting: `tracing` to stderr, and Sentry when a DSN is configured.

use crate::config::Config;

/// Starts logging (idempotent) for the process.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init();
}

/// Starts Sentry when `sentry_dsn` is set (trace sample rate 0.5, spec §9). Keep the guard
/// alive for the life of the process; dropping it flushes pending events.
pub fn init_sentry(config: &Config) -> Option<sentry::ClientInitGuard> {
    if config.sentry_dsn.is_empty() {
        return None;
    }
    let mut options = sentry::ClientOptions::new().environment(config.environment.as_str()).traces_sample_rate(0.5);
    if let Some(release) = sentry::release_name!() {
        options = options.release(release);
    }
    Some(sentry::init((config.sentry_dsn.as_str(), options)))
}
