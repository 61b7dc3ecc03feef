//! The codes of the device sign-in (RFC 8628 §6.1), pure: no database, no clock.
//!
//! A user code is eight letters from twenty consonants that no font confuses with a digit or
//! with each other (no vowels, so no words either), shown as `BCDF-GHJK`. Its first half finds
//! the grant (`lookup`), the whole code proves the user read it from the game: typing a code
//! whose first half matches and whose second does not counts a wrong check against that grant,
//! five of them kill it. What the user types is read leniently: case, spaces and dashes do not
//! matter.

use crate::auth::secret::new_secret;

/// The letters of user codes (RFC 8628 §6.1's example set).
pub const ALPHABET: &[u8; 20] = b"BCDFGHJKLMNPQRSTVWXZ";

/// Letters in a user code.
pub const LENGTH: usize = 8;

/// Letters of the half that finds the grant.
pub const LOOKUP_LENGTH: usize = 4;

/// A user code, normalised: eight letters of [`ALPHABET`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserCode(String);

impl UserCode {
    /// A new random code.
    pub fn generate() -> Self {
        let letters = (0..LENGTH).map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char).collect();
        Self(letters)
    }

    /// The code in what a user typed (`bcdf-ghjk`, `BCDF GHJK`), if it is one.
    pub fn parse(typed: &str) -> Option<Self> {
        let letters: String =
            typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
        let well_formed = letters.len() == LENGTH && letters.bytes().all(|b| ALPHABET.contains(&b));
        well_formed.then_some(Self(letters))
    }

    /// The first half, which finds the grant.
    pub fn lookup(&self) -> &str {
        &self.0[..LOOKUP_LENGTH]
    }

    /// The eight letters.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// As shown to people: `BCDF-GHJK`.
    pub fn display(&self) -> String {
        format!("{}-{}", &self.0[..LOOKUP_LENGTH], &self.0[LOOKUP_LENGTH..])
    }
}

/// A new device code: 256 random bits, hex.
pub fn device_code() -> String {
    new_secret()
}

/// A new in-game token: 256 random bits, hex, after a prefix that tells it from the site's
/// tokens in a log or a leak scan (`vmig_`).
pub fn ingame_token() -> String {
    format!("{TOKEN_PREFIX}{}", new_secret())
}

/// What every in-game token starts with.
pub const TOKEN_PREFIX: &str = "vmig_";

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_code_has_no_look_alike_letters() {
        for confusable in [b'A', b'E', b'I', b'O', b'U', b'Y', b'0', b'1', b'5', b'8'] {
            assert!(!ALPHABET.contains(&confusable), "{}", confusable as char);
        }
        let code = UserCode::generate();
        assert_eq!(code.as_str().len(), LENGTH);
        assert!(code.display().chars().nth(4) == Some('-'), "{}", code.display());
    }

    #[test]
    fn what_users_type_is_read_leniently_and_nothing_else_passes() {
        let code = UserCode::parse(" bcdf-ghjk ").expect("lower case with a dash and spaces");
        assert_eq!((code.as_str(), code.lookup(), code.display().as_str()), ("BCDFGHJK", "BCDF", "BCDF-GHJK"));
        for wrong in ["", "BCDFGHJ", "BCDFGHJKL", "BCDF-GHJA", "ＢＣＤＦＧＨＪＫ", "BCDF_GHJK"] {
            assert_eq!(UserCode::parse(wrong), None, "{wrong:?}");
        }
    }

    proptest! {
        #[test]
        fn parsing_never_panics_and_round_trips(typed in "\\PC{0,24}") {
            if let Some(code) = UserCode::parse(&typed) {
                prop_assert_eq!(UserCode::parse(&code.display()), Some(code.clone()));
                prop_assert_eq!(code.as_str().len(), LENGTH);
            }
        }

        #[test]
        fn generated_codes_parse_as_themselves(_n in 0u8..32) {
            let code = UserCode::generate();
            prop_assert_eq!(UserCode::parse(&code.display()), Some(code));
        }
    }
}
