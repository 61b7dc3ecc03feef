//! Checking a published draw: the revealed seed against the hash committed before the draw, the
//! published inputs against their digest, and the recomputed result against the published one.

use super::draw::{Draw, draw};
use super::inputs::{InputError, Inputs};
use super::seed::{Seed, SeedError};

/// What a published draw shows (all hex in lowercase, inputs in canonical text form).
#[derive(Debug, Clone, Copy)]
pub struct Published<'a> {
    /// The seed, revealed when the result was published.
    pub seed: &'a str,
    /// The seed's SHA-256, published before the draw.
    pub seed_hash: &'a str,
    /// The canonical inputs.
    pub inputs: &'a str,
    /// SHA-256 of the canonical inputs, published with the result.
    pub inputs_digest: &'a str,
    /// The published result's digest.
    pub result_digest: &'a str,
}

/// Why a published draw does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The seed is not 64 hex digits.
    #[error("the published seed is malformed: {0}")]
    Seed(#[from] SeedError),
    /// The seed is not the one committed to before the draw.
    #[error("the seed's hash is {actual}, but {committed} was committed before the draw")]
    SeedHash {
        /// The hash published before the draw.
        committed: String,
        /// The hash of the revealed seed.
        actual: String,
    },
    /// The inputs text cannot be read.
    #[error("the published inputs are malformed: {0}")]
    Inputs(#[from] InputError),
    /// The inputs are not the ones the draw digested (a tampered list).
    #[error("the inputs digest to {actual}, but {published} was published")]
    InputsDigest {
        /// The published digest.
        published: String,
        /// The digest of the inputs given.
        actual: String,
    },
    /// The draw recomputed from seed and inputs gives another result.
    #[error("the recomputed result digests to {actual}, but {published} was published")]
    Result {
        /// The published digest.
        published: String,
        /// The recomputed digest.
        actual: String,
    },
}

/// Recomputes a published draw and checks every link of the chain; on success returns the draw,
/// whose outcomes the caller may compare with the statuses it shows.
pub fn verify(published: &Published<'_>) -> Result<Draw, VerifyError> {
    let seed = Seed::from_hex(published.seed)?;
    let seed_hash = seed.hash();
    if !seed_hash.eq_ignore_ascii_case(published.seed_hash.trim()) {
        return Err(VerifyError::SeedHash { committed: published.seed_hash.to_string(), actual: seed_hash });
    }
    let inputs = Inputs::parse(published.inputs)?;
    let digest = inputs.digest();
    if !digest.eq_ignore_ascii_case(published.inputs_digest.trim()) {
        return Err(VerifyError::InputsDigest { published: published.inputs_digest.to_string(), actual: digest });
    }
    let draw = draw(&seed, &inputs);
    if !draw.digest.eq_ignore_ascii_case(published.result_digest.trim()) {
        return Err(VerifyError::Result { published: published.result_digest.to_string(), actual: draw.digest });
    }
    Ok(draw)
}
