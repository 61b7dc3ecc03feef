//! Password hashing with Argon2id (PHC strings): the account service's passwords and the
//! uploader's download-token passwords.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng};

use crate::error::{Error, Result};

/// Hashes `password` with a fresh salt.
pub fn hash(password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Internal(format!("password hashing: {e}")))
}

/// Whether `password` matches the stored `hash`.
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// A hash of a throwaway password, so unknown emails cost as much time as known ones.
pub fn dummy_verify(password: &str) {
    const DUMMY: &str =
        "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$6Zcq0s5h0bWdPj3u/1NDwJb0s6u1nCj0gDHh8D0oQ0Y";
    let _ = verify(password, DUMMY);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_only_their_password() {
        let h = hash("correct horse battery staple").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse battery staple", &h));
        assert!(!verify("wrong", &h));
        assert!(!verify("anything", "not a hash"));
    }
}
