//! The `vmarket` command: serve the site (default), migrate the database, seed demo data.

use clap::{Parser, Subcommand};
use rocket::figment::Figment;

use vmarket::app::{self, AppParts};
use vmarket::clock::Clock;
use vmarket::config::Config;
use vmarket::{db, seed, telemetry};

/// Virtual Market: the web platform of a virtual-world event marketplace.
#[derive(Parser)]
#[command(name = "vmarket", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web server (the default). Migrations run first.
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Write sample data.
    Seed {
        #[command(subcommand)]
        set: SeedSet,
    },
}

#[derive(Subcommand)]
enum SeedSet {
    /// A believable marketplace: four events with phases, concepts and worlds. Idempotent.
    Demo,
}

fn figment() -> Figment {
    rocket::Config::figment()
}

#[rocket::main]
async fn main() -> std::process::ExitCode {
    telemetry::init_logging();
    let cli = Cli::parse();
    match run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    let figment = figment();
    let config = Config::from_figment(&figment).map_err(|e| format!("configuration: {e}"))?;
    let _sentry = telemetry::init_sentry(&config);
    let conn = db::connect(&config.database_url).await.map_err(|e| format!("database: {e}"))?;
    db::migrate(&conn).await.map_err(|e| format!("migration: {e}"))?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            println!("migrations applied to {}", redact(&config.database_url));
            Ok(())
        }
        Command::Seed { set: SeedSet::Demo } => {
            let report = seed::demo(&conn, chrono::Utc::now()).await.map_err(|e| format!("seed: {e}"))?;
            println!("demo data: created {:?}, already present {:?}", report.created, report.skipped);
            Ok(())
        }
        Command::Serve => {
            let clock = Clock::system();
            let rocket = app::build(AppParts { figment, config, db: conn, clock });
            rocket.launch().await.map(|_| ()).map_err(|e| format!("server: {e}"))
        }
    }
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}
