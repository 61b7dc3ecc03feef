//! The draw's secret: 32 random bytes from the operating system, committed to by their SHA-256
//! before the draw and revealed when the result is published.

use std::fmt;

use rand::TryRngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

/// SHA-256 of `bytes` as lowercase hex (the form every lottery digest is published in).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A draw's seed. Its `Debug` form hides the bytes, so a log line never reveals a seed before
/// it is published.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

/// Why a text is not a seed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits")]
pub struct SeedError;

impl Seed {
    /// A fresh seed from the operating system's random source.
    ///
    /// # Panics
    ///
    /// When the operating system has no random source to give (a broken platform; drawing with
    /// a weaker source would be worse).
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        OsRng.try_fill_bytes(&mut bytes).expect("the operating system's random source");
        Self(bytes)
    }

    /// The seed with these bytes (tests, and a seed read back from storage).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Reads 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Result<Self, SeedError> {
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(text.trim(), &mut bytes).map_err(|_| SeedError)?;
        Ok(Self(bytes))
    }

    /// The seed as 64 lowercase hex digits: how it is stored and published.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The bytes, for the generator.
    pub fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The commitment published before the draw: SHA-256 of the 32 bytes, lowercase hex.
    pub fn hash(&self) -> String {
        sha256_hex(&self.0)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_the_hash_is_the_sha256_of_the_bytes() {
        let seed = Seed::from_bytes([7; 32]);
        assert_eq!(Seed::from_hex(&seed.to_hex()).unwrap(), seed);
        assert_eq!(Seed::from_hex(&seed.to_hex().to_uppercase()).unwrap(), seed);
        // Computed independently: `printf '\x07%.0s' {1..32} | sha256sum`.
        assert_eq!(seed.hash(), "4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0");
        assert_eq!(Seed::from_hex("abc"), Err(SeedError));
        assert_eq!(Seed::from_hex(&"zz".repeat(32)), Err(SeedError));
        assert_eq!(format!("{seed:?}"), "Seed(…)");
    }

    #[test]
    fn generated_seeds_differ() {
        assert_ne!(Seed::generate(), Seed::generate());
    }
}
