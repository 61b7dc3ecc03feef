//! `vmarket lottery …`: checking a published draw from its published material alone — the
//! seed, the seed hash committed before the draw, the canonical inputs file and the digests —
//! with no database, so that anyone can run it.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::lottery::{Published, verify};

/// `vmarket lottery …`
#[derive(Debug, Subcommand)]
pub enum LotteryAction {
    /// Recompute a published draw from its seed and inputs and tell whether it matches the
    /// published result.
    Verify(VerifyArgs),
}

/// What `vmarket lottery verify` checks: everything the event page publishes.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The revealed seed (64 hex digits).
    #[arg(long)]
    pub seed: String,
    /// The seed hash published before the draw.
    #[arg(long)]
    pub seed_hash: String,
    /// The published inputs file (canonical text, `vmarket lottery inputs v1`).
    #[arg(long)]
    pub inputs: PathBuf,
    /// The published digest of the inputs.
    #[arg(long)]
    pub inputs_digest: String,
    /// The published digest of the result.
    #[arg(long)]
    pub result_digest: String,
    /// Also print every application's outcome (`<application id> win|lose`).
    #[arg(long)]
    pub list: bool,
}

/// Runs `vmarket lottery verify` on published material; `Err` carries the one-line reason a
/// draw does not verify (the command then exits with a failure).
pub fn verify_published(args: &VerifyArgs) -> Result<(), String> {
    let inputs = std::fs::read_to_string(&args.inputs).map_err(|e| format!("{}: {e}", args.inputs.display()))?;
    let draw = verify(&Published {
        seed: &args.seed,
        seed_hash: &args.seed_hash,
        inputs: &inputs,
        inputs_digest: &args.inputs_digest,
        result_digest: &args.result_digest,
    })
    .map_err(|e| format!("does not verify: {e}"))?;
    if args.list {
        for o in &draw.outcomes {
            println!("{} {}", o.application_id, if o.won { "win" } else { "lose" });
        }
    }
    println!(
        "verified: the seed matches its commitment, the inputs their digest, and the draw gives the published \
         result ({} winners of {} applications, result digest {})",
        draw.winners().count(),
        draw.outcomes.len(),
        draw.digest
    );
    Ok(())
}
