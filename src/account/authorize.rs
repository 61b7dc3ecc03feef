//! What a sign-in request to the account service carries and what it must satisfy: a registered
//! callback as `redirect_url`, an opaque `state` to hand back, and a PKCE S256 challenge. The
//! page keeps them in hidden fields, so the forms post them back unchanged.

use serde::Serialize;
use url::Url;

use crate::auth::secret::is_challenge;
use crate::config::Config;

/// The path every registered callback has.
pub const CALLBACK_PATH: &str = "/auth/callback";

/// A checked sign-in request.
#[derive(Debug, Clone, Serialize)]
pub struct AuthRequest {
    /// The registered callback the code goes to.
    pub redirect_url: String,
    /// Handed back unchanged with the code.
    pub state: String,
    /// The PKCE S256 challenge the code is bound to.
    pub code_challenge: String,
}

impl AuthRequest {
    /// Checks the parameters of a sign-in request; `None` when any is missing or wrong.
    pub fn parse(
        config: &Config,
        redirect_url: Option<&str>,
        state: Option<&str>,
        code_challenge: Option<&str>,
        method: Option<&str>,
    ) -> Option<Self> {
        let callback = registered_callback(config, redirect_url?)?;
        let state = state.filter(|s| is_state(s))?;
        let code_challenge = code_challenge.filter(|c| is_challenge(c))?;
        if method.is_some_and(|m| m != "S256") {
            return None;
        }
        Some(Self {
            redirect_url: callback.to_string(),
            state: state.to_string(),
            code_challenge: code_challenge.into(),
        })
    }

    /// The callback URL with the code and the state added.
    pub fn return_url(&self, code: &str) -> Option<Url> {
        let mut url = Url::parse(&self.redirect_url).ok()?;
        url.query_pairs_mut().append_pair("code", code).append_pair("state", &self.state);
        Some(url)
    }
}

/// A state is 1–512 URL-safe characters.
fn is_state(s: &str) -> bool {
    (1..=512).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

fn allowed_origins(config: &Config) -> Vec<String> {
    let mut origins = Vec::new();
    if let Ok(site) = Url::parse(&config.site_url) {
        origins.push(site.origin().ascii_serialization());
    }
    origins.extend(config.sso_allowed_origins.iter().map(|o| o.trim_end_matches('/').to_string()));
    origins
}

fn on_allowed_origin(config: &Config, raw: &str) -> Option<Url> {
    let url = Url::parse(raw).ok()?;
    let ok = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && allowed_origins(config).contains(&url.origin().ascii_serialization());
    ok.then_some(url)
}

/// `raw` if it is exactly the callback (`/auth/callback`, no query, no fragment) of this site or
/// of an origin in `sso_allowed_origins`: the only addresses a code is ever sent to.
pub fn registered_callback(config: &Config, raw: &str) -> Option<Url> {
    let url = on_allowed_origin(config, raw)?;
    (url.path() == CALLBACK_PATH && url.query().is_none() && url.fragment().is_none()).then_some(url)
}

/// Where the account service may send a browser after signing out: any page of this site or of
/// an allowed origin (no code travels with it), else this site's top page.
pub fn after_sign_out(config: &Config, raw: Option<&str>) -> Url {
    raw.and_then(|r| on_allowed_origin(config, r))
        .or_else(|| Url::parse(&config.site_url).ok())
        .unwrap_or_else(|| Url::parse("http://127.0.0.1/").expect("a valid URL literal"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            site_url: "https://vmarket.test".into(),
            sso_allowed_origins: vec!["https://partner.example".into()],
            ..Config::default()
        }
    }

    #[test]
    fn codes_only_go_to_registered_callbacks() {
        let c = config();
        assert!(registered_callback(&c, "https://vmarket.test/auth/callback").is_some());
        assert!(registered_callback(&c, "https://partner.example/auth/callback").is_some());
        for bad in [
            "https://vmarket.test/",
            "https://vmarket.test/community",
            "https://vmarket.test/en//evil.example/steal",
            "https://vmarket.test/auth/callback?next=%2F",
            "https://vmarket.test/auth/callback#x",
            "https://vmarket.test/auth/callback/../x",
            "https://evil.example/auth/callback",
            "https://vmarket.test.evil.example/auth/callback",
            "https://user@vmarket.test/auth/callback",
            "http://vmarket.test/auth/callback",
            "/auth/callback",
            "javascript:alert(1)",
            "",
        ] {
            assert!(registered_callback(&c, bad).is_none(), "{bad:?} is refused");
        }
    }

    #[test]
    fn requests_need_a_state_and_an_s256_challenge() {
        let c = config();
        let cb = Some("https://vmarket.test/auth/callback");
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(AuthRequest::parse(&c, cb, Some("abc"), Some(challenge), Some("S256")).is_some());
        assert!(AuthRequest::parse(&c, cb, Some("abc"), Some(challenge), None).is_some());
        assert!(AuthRequest::parse(&c, cb, Some("abc"), Some(challenge), Some("plain")).is_none());
        assert!(AuthRequest::parse(&c, cb, None, Some(challenge), None).is_none());
        assert!(AuthRequest::parse(&c, cb, Some("a b"), Some(challenge), None).is_none());
        assert!(AuthRequest::parse(&c, cb, Some("abc"), None, None).is_none());
        assert!(AuthRequest::parse(&c, cb, Some("abc"), Some("short"), None).is_none());
        let r = AuthRequest::parse(&c, cb, Some("abc"), Some(challenge), None).unwrap();
        assert_eq!(r.return_url("C0DE").unwrap().as_str(), "https://vmarket.test/auth/callback?code=C0DE&state=abc");
    }

    #[test]
    fn sign_out_returns_stay_on_allowed_origins() {
        let c = config();
        assert_eq!(after_sign_out(&c, Some("https://vmarket.test/worlds")).as_str(), "https://vmarket.test/worlds");
        assert_eq!(after_sign_out(&c, Some("https://evil.example/")).as_str(), "https://vmarket.test/");
        assert_eq!(after_sign_out(&c, None).as_str(), "https://vmarket.test/");
    }
}
