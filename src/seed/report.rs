//! What a seed run did, and what it may write besides the demo data.

/// What a seed run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// Permalinks of the events written.
    pub created: Vec<String>,
    /// Permalinks of the events that were already there.
    pub skipped: Vec<String>,
    /// Emails of the demo sign-in accounts written by this run.
    pub accounts: Vec<String>,
}

/// What a seed run may write besides the demo data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedOptions {
    /// Whether to write the demo sign-in accounts, whose password is published (never in
    /// production).
    pub sign_in_accounts: bool,
}
