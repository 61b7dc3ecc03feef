//! The `vmarket` command: serve the site with its background workers (default), run workers
//! only, migrate, seed demo data, manage users and signing keys.

use clap::{Parser, Subcommand};

use vmarket::app::{self, AppParts};
use vmarket::clock::Clock;
use vmarket::config::Config;
use vmarket::{cli, db, queue, seed, telemetry, workers};

/// Virtual Market: the web platform of a virtual-world event marketplace.
#[derive(Parser)]
#[command(name = "vmarket", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web server and the background workers (the default). Migrations run first.
    Serve {
        /// Serve only: the background work is left to `vmarket worker` processes (a cluster's
        /// web nodes).
        #[arg(long)]
        no_workers: bool,
    },
    /// Run the background workers only (inquiry forwarding, mail, …), until Ctrl-C.
    Worker,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Write sample data.
    Seed {
        #[command(subcommand)]
        set: SeedSet,
    },
    /// Manage accounts and staff roles (built-in account service).
    User {
        #[command(subcommand)]
        action: cli::UserAction,
    },
    /// Rotate the token signing key: the old key keeps verifying until its tokens expire.
    Keygen,
    /// Mail tools for operators.
    Mail {
        #[command(subcommand)]
        action: cli::MailAction,
    },
    /// The lottery: commit, preview and publish a round's draw; verify a published draw.
    Lottery {
        #[command(subcommand)]
        action: cli::lottery::LotteryAction,
    },
    /// Write a generated 3D file (GLB, VRM 0.x or 1.0) to try the uploader with.
    Sample(cli::sample::SampleArgs),
    /// The reference converter worker: converts VRChat avatar orders' avatars through a vmarket
    /// server's converter API (validates the VRM, writes a normalised GLB; never uploads).
    Converter(cli::converter::ConverterArgs),
    /// Print the OpenAPI document of every API operation (the front end builds its types from
    /// `widgets/openapi.json`: `vmarket openapi > widgets/openapi.json`).
    Openapi,
}

#[derive(Subcommand)]
enum SeedSet {
    /// A believable marketplace: four events with phases, concepts and worlds, demo users and
    /// their circles, and demo sign-in accounts (not in production). Idempotent.
    Demo,
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
    if matches!(cli.command, Some(Command::Openapi)) {
        // Needs neither configuration nor a database: the document is the code's.
        let json = vmarket::openapi::document_json().map_err(|e| format!("openapi: {e}"))?;
        print!("{json}");
        return Ok(());
    }
    if let Some(Command::Sample(args)) = &cli.command {
        let bytes = cli::sample::write(args)?;
        println!("{} ({bytes} bytes)", args.out.display());
        return Ok(());
    }
    if let Some(Command::Converter(args)) = &cli.command {
        // A client of the converter API: needs neither configuration nor a database.
        let done = cli::converter::run(args).await?;
        println!("converted or refused {} job(s); nothing more waits", done.len());
        return Ok(());
    }
    if let Some(Command::Lottery { action: cli::lottery::LotteryAction::Verify(args) }) = &cli.command
        && args.event.is_none()
    {
        // Published material only: anyone can run it, without configuration or a database.
        return cli::lottery::verify_published(args);
    }
    let figment = rocket::Config::figment();
    let config = Config::from_figment(&figment).map_err(|e| format!("configuration: {e}"))?;
    let command = cli.command.unwrap_or(Command::Serve { no_workers: false });
    if matches!(command, Command::Serve { .. }) {
        startup_checks(&figment, &config)?;
    }
    let _sentry = telemetry::init_sentry(&config);
    let conn = db::connect(&config.database_url).await.map_err(|e| format!("database: {e}"))?;
    db::migrate(&conn).await.map_err(|e| format!("migration: {e}"))?;
    queue::setup(&conn).await.map_err(|e| format!("job queue: {e}"))?;
    let now = chrono::Utc::now();
    vmarket::assets::model::defaults::ensure(&conn, now).await.map_err(|e| format!("asset settings: {e}"))?;
    match command {
        Command::Migrate => {
            println!("migrations applied to {}", cli::redact(&config.database_url));
            Ok(())
        }
        Command::Seed { set: SeedSet::Demo } => {
            let production = config.environment == vmarket::config::Environment::Production;
            let options = seed::SeedOptions { sign_in_accounts: !production };
            let report = seed::demo_with(&conn, now, options).await.map_err(|e| format!("seed: {e}"))?;
            println!("demo data: created {:?}, already present {:?}", report.created, report.skipped);
            let storage = vmarket::storage::Storage::from_config(&config).map_err(|e| format!("storage: {e}"))?;
            let assets = vmarket::assets::demo::seed(&conn, &storage, &config.data_dir, now)
                .await
                .map_err(|e| format!("demo assets: {e}"))?;
            println!("demo assets: created {assets:?}");
            let after_win = vmarket::exhibit::demo::seed(&conn, now).await.map_err(|e| format!("demo slots: {e}"))?;
            println!("demo slots: created {after_win:?}");
            let booths = vmarket::booth::demo::seed(&conn, now).await.map_err(|e| format!("demo booths: {e}"))?;
            println!("demo booths: created {booths:?}");
            let store = vmarket::store::demo::seed(&conn, now).await.map_err(|e| format!("demo store: {e}"))?;
            println!("demo store items: created {store:?}");
            if production {
                println!(
                    "demo sign-in accounts not created: environment is production, and their password is \
                     published in the README (anyone could sign in, as admin too)"
                );
            } else {
                let all = seed::demo_account_emails().map_err(|e| format!("seed: {e}"))?;
                println!("demo sign-in accounts (password in the README): {}", all.join(", "));
                if !report.accounts.is_empty() {
                    println!("  created now: {}", report.accounts.join(", "));
                }
            }
            Ok(())
        }
        Command::User { action } => cli::user(&conn, &config, action, now).await,
        Command::Mail { action } => cli::mail(&conn, &config, action, &Clock::system()).await,
        Command::Openapi | Command::Sample(_) | Command::Converter(_) => {
            unreachable!("answered before the database is opened")
        }
        Command::Lottery { action } => {
            // Draws follow the site's clock: a time-travel offset set by staff (never in
            // production) moves the windows the CLI checks as it moves the site's.
            let offset = vmarket::model::time_travel::offset(&conn).await.map_err(|e| format!("time travel: {e}"))?;
            let clock = Clock::system();
            clock.set_travel(offset);
            let ctx =
                vmarket::queue::JobContext::new(conn.clone(), config.clone(), clock).map_err(|e| e.to_string())?;
            cli::lottery::run(&ctx, action).await
        }
        Command::Keygen => {
            let key = vmarket::account::keys::rotate(&conn, now).await.map_err(|e| format!("keygen: {e}"))?;
            println!("new signing key {}; the previous key verifies until its tokens expire", key.kid);
            Ok(())
        }
        Command::Serve { no_workers } => {
            let clock = Clock::system();
            let _follow = vmarket::model::time_travel::follow(clock.clone(), conn.clone(), &config);
            let workers = if no_workers { None } else { Some(start_workers(&conn, &config, &clock).await?) };
            let rocket =
                app::build(AppParts { figment, config, db: conn, clock }).map_err(|e| format!("startup: {e}"))?;
            let served = rocket.launch().await.map(|_| ()).map_err(|e| format!("server: {e}"));
            if let Some(workers) = workers {
                workers.stop().await;
            }
            served
        }
        Command::Worker => {
            let clock = Clock::system();
            let _follow = vmarket::model::time_travel::follow(clock.clone(), conn.clone(), &config);
            let workers = start_workers(&conn, &config, &clock).await?;
            println!("workers running; Ctrl-C stops them");
            tokio::signal::ctrl_c().await.map_err(|e| format!("signal: {e}"))?;
            workers.stop().await;
            Ok(())
        }
    }
}

/// What a server needs before it may start, each refused with one line: outside the debug
/// profile a secret key (sessions, CSRF and form tokens depend on it), and the template and
/// static directories (the binary does not embed them; run it from the repository or point
/// `template_dir` / `static_dir` at them).
fn startup_checks(figment: &rocket::figment::Figment, config: &Config) -> Result<(), String> {
    let debug = figment.profile() == rocket::Config::DEBUG_PROFILE;
    // Rocket's defaults carry an all-zero key, so the key is present whenever it is asked for;
    // only a non-zero key is one the operator set.
    let has_key = figment.extract::<rocket::Config>().is_ok_and(|c| !c.secret_key.is_zero());
    if !debug && !has_key {
        return Err("ROCKET_SECRET_KEY is not set; a release build needs one (e.g. `openssl rand -base64 32`)".into());
    }
    let template_dir = figment.extract_inner::<String>("template_dir").unwrap_or_else(|_| "templates".into());
    for (what, dir) in [("template_dir", template_dir.as_str()), ("static_dir", config.static_dir.as_str())] {
        if !std::path::Path::new(dir).is_dir() {
            return Err(format!(
                "{what} {dir:?} is not a directory; run from the repository or set ROCKET_{}",
                what.to_uppercase()
            ));
        }
    }
    Ok(())
}

/// Starts the background workers on this runtime.
async fn start_workers(
    conn: &sea_orm::DatabaseConnection,
    config: &Config,
    clock: &Clock,
) -> Result<workers::Workers, String> {
    let ctx =
        queue::JobContext::new(conn.clone(), config.clone(), clock.clone()).map_err(|e| format!("workers: {e}"))?;
    workers::start(ctx).await.map_err(|e| format!("workers: {e}"))
}
