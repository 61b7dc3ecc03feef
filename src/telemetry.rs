//! Logging and error reporting: `tracing` to stderr, and Sentry when a DSN is configured.

use crate::config::Config;

/// Starts logging (idempotent) for the process.
///
/// Rocket's own request lines (`GET /auth/callback?code=…:` at target `rocket::server`, and its
/// indented `_` lines) would print full query strings — sign-in codes and states — so they stay
/// at `warn` whatever `RUST_LOG` says; [`RequestLog`] logs requests instead.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn"));
    let filter = ["rocket::server=warn", "_=warn"]
        .into_iter()
        .filter_map(|d| d.parse().ok())
        .fold(filter, |filter, directive| filter.add_directive(directive));
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

/// Logs one line per request — method, path, the names (never the values) of query parameters,
/// status — so sign-in codes, states and tokens in URLs never reach a log. Rocket's own request
/// log stays off (`log_level = "critical"` in every profile).
pub struct RequestLog;

/// `path?a=…&b=…`: the path with the query's parameter names and no values.
pub fn loggable_uri(path: &str, query: Option<&str>) -> String {
    match query.filter(|q| !q.is_empty()) {
        None => path.to_string(),
        Some(q) => {
            let names: Vec<String> = q
                .split('&')
                .map(|pair| pair.split('=').next().unwrap_or_default())
                .map(|name| {
                    name.chars().filter(|c| c.is_ascii_alphanumeric() || "_-[].".contains(*c)).take(40).collect()
                })
                .map(|name: String| format!("{name}=…"))
                .collect();
            format!("{path}?{}", names.join("&"))
        }
    }
}

#[rocket::async_trait]
impl rocket::fairing::Fairing for RequestLog {
    fn info(&self) -> rocket::fairing::Info {
        rocket::fairing::Info {
            name: "request log",
            kind: rocket::fairing::Kind::Response | rocket::fairing::Kind::Liftoff,
        }
    }

    async fn on_liftoff(&self, rocket: &rocket::Rocket<rocket::Orbit>) {
        let c = rocket.config();
        tracing::info!("vmarket listening on http://{}:{}", c.address, c.port);
    }

    async fn on_response<'r>(&self, req: &'r rocket::Request<'_>, res: &mut rocket::Response<'r>) {
        if !tracing::enabled!(target: "vmarket::request", tracing::Level::INFO) {
            return;
        }
        let uri = req.uri();
        let shown = loggable_uri(uri.path().as_str(), uri.query().map(|q| q.as_str()));
        tracing::info!(target: "vmarket::request", "{} {} {}", req.method(), shown, res.status().code);
    }
}

#[cfg(test)]
mod tests {
    use super::loggable_uri;

    #[test]
    fn query_values_never_reach_the_log() {
        assert_eq!(loggable_uri("/auth/callback", Some("code=SECRET&state=S2")), "/auth/callback?code=…&state=…");
        assert_eq!(loggable_uri("/worlds", None), "/worlds");
        assert!(!loggable_uri("/x", Some("a%0Ab=1")).contains('\n'));
    }
}
