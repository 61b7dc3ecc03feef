//! The one way the site redirects. Every `Location` the site sends — locale redirects, `next`
//! after sign-in and sign-out, the account service's return to a callback, slug rules, VRC
//! redirects, post-redirect-get after a form — is built by [`redirect`], so one set of rules
//! decides what may appear there (a test checks that no other module builds a redirect):
//!
//! - **A site path** ([`Target::Site`]) must be a single `/` followed by a character that is
//!   neither `/` nor `\` — also after the `/ja` or `/en` prefix is stripped, which is what the
//!   locale rules do next — with no control characters and no backslash anywhere. Spaces and
//!   other characters a URI may not hold are percent-encoded. Anything else becomes `/`: a bad
//!   target is never an error, and never leaves the site.
//! - **An absolute URL** ([`Target::Url`]) must be `http` or `https` without credentials. Callers
//!   pass only URLs they vetted (the configured account service, a registered callback, a rule
//!   staff stored); anything else becomes `/` as well.
//! - **A payment provider's page** ([`Target::Provider`], [`provider_url`]): an absolute URL as
//!   above whose origin (scheme, host and port) is one of the configured provider origins
//!   (`paypal_web_base`, `gmo_link_base`). A provider's answer is data from the network: a link it
//!   hands us to anywhere else (a compromised or impersonated provider, a bug) is refused, so the
//!   payment redirect can never become an open redirect.

use rocket::http::uri::Reference;
use rocket::response::Redirect;
use url::Url;

use crate::types::lang::split_prefix;

/// Where a redirect goes.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// A path (with optional query) on this site.
    Site(&'a str),
    /// An absolute http(s) URL the caller vetted.
    Url(&'a Url),
    /// A payment provider's page: only on one of these origins.
    Provider(&'a Url, &'a [Url]),
}

/// The status of a redirect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 303 See Other: after a form post, or to move a browser on.
    SeeOther,
    /// 302 Found: a temporary pointer (slug rules, VRC redirects).
    Found,
    /// 301 Moved Permanently: a permanent slug rule.
    Moved,
}

/// The redirect to `target`, with every rule of this module applied.
pub fn redirect(kind: Kind, target: Target<'_>) -> Redirect {
    let location = match target {
        Target::Site(raw) => site_path(raw),
        Target::Url(url) => external(url).unwrap_or_else(|| "/".to_string()),
        Target::Provider(url, origins) => {
            provider_url(url.as_str(), origins).map(|u| u.to_string()).unwrap_or_else(|| "/".to_string())
        }
    };
    match kind {
        Kind::SeeOther => Redirect::to(location),
        Kind::Found => Redirect::found(location),
        Kind::Moved => Redirect::moved(location),
    }
}

/// 303 to a site path (see [`redirect`]).
pub fn to_site(raw: &str) -> Redirect {
    redirect(Kind::SeeOther, Target::Site(raw))
}

/// 303 to a vetted absolute URL (see [`redirect`]).
pub fn to_url(url: &Url) -> Redirect {
    redirect(Kind::SeeOther, Target::Url(url))
}

/// 303 to a payment provider's page on one of `origins` (see [`provider_url`]; anything else: `/`).
pub fn to_provider(url: &Url, origins: &[Url]) -> Redirect {
    redirect(Kind::SeeOther, Target::Provider(url, origins))
}

/// `raw` when it is an http(s) URL without credentials on one of `origins` (same scheme, host
/// and port as one of them), else `None`.
pub fn provider_url(raw: &str, origins: &[Url]) -> Option<Url> {
    if raw.chars().any(|c| c.is_control() || c == '\\') {
        return None;
    }
    let url = Url::parse(raw.trim()).ok()?;
    external(&url)?;
    let same = |allowed: &Url| {
        matches!(allowed.scheme(), "http" | "https") && allowed.host_str().is_some() && allowed.origin() == url.origin()
    };
    origins.iter().any(same).then_some(url)
}

/// `raw` as a safe site path (see the module rules), or `/`.
pub fn site_path(raw: &str) -> String {
    clean_site_path(raw).unwrap_or_else(|| "/".to_string())
}

/// Whether `raw` is already a safe site path, exactly as given.
pub fn is_safe_site_path(raw: &str) -> bool {
    clean_site_path(raw).is_some_and(|clean| clean == raw)
}

fn clean_site_path(raw: &str) -> Option<String> {
    if raw.chars().any(|c| c.is_control() || c == '\\') {
        return None;
    }
    let encoded = encode_unsafe(raw);
    let path = encoded.split(['?', '#']).next().unwrap_or_default();
    if !single_slash(path) || !single_slash(&split_prefix(path).1) {
        return None;
    }
    // Whatever Rocket could not put into a `Location` header is refused here, never a 500.
    Reference::parse(&encoded).ok()?;
    Some(encoded)
}

/// A path that starts with exactly one `/` (browsers read `//host` and `/\host` as another
/// site).
fn single_slash(path: &str) -> bool {
    path.starts_with('/') && !matches!(path.as_bytes().get(1), Some(b'/' | b'\\'))
}

/// Percent-encodes what a URI may not hold as is (spaces, quotes, angle brackets, non-ASCII).
fn encode_unsafe(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let keep = c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?#%[]".contains(c);
        if keep {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

fn external(url: &Url) -> Option<String> {
    let ok = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none();
    ok.then(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_paths_stay_on_the_site() {
        for good in ["/", "/worlds", "/en/worlds?x=1", "/en", "/catalog/search?keyword=%E7%8C%AB", "/a#b"] {
            assert_eq!(site_path(good), good, "{good:?} is kept");
            assert!(is_safe_site_path(good));
        }
        for bad in [
            "",
            "worlds",
            "//evil.example",
            "/\\evil.example",
            "/en//evil.example/steal?code=x",
            "/ja//evil.example",
            "/en/\\evil.example",
            "/en\\evil",
            "/\t/evil.example",
            "/%09x\n",
            "/x\r\nSet-Cookie: a=b",
            "https://evil.example/",
            "javascript:alert(1)",
            "\\\\evil",
        ] {
            assert_eq!(site_path(bad), "/", "{bad:?} falls back to /");
            assert!(!is_safe_site_path(bad));
        }
    }

    #[test]
    fn odd_but_harmless_characters_are_encoded_not_refused() {
        assert_eq!(site_path("/ x"), "/%20x");
        assert_eq!(site_path("/catalog/search?keyword=猫"), "/catalog/search?keyword=%E7%8C%AB");
        assert_eq!(site_path("/a\"<b>"), "/a%22%3Cb%3E");
        assert_eq!(site_path("/%2F%2Fevil.example"), "/%2F%2Fevil.example", "an encoded slash is a path");
    }

    #[test]
    fn provider_pages_must_be_on_a_configured_origin() {
        let origins =
            [Url::parse("https://www.sandbox.paypal.com").unwrap(), Url::parse("http://127.0.0.1:8421/").unwrap()];
        for good in [
            "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T",
            "http://127.0.0.1:8421/v1/plus/tshop/checkout/abc",
        ] {
            assert_eq!(provider_url(good, &origins).map(|u| u.to_string()).as_deref(), Some(good), "{good}");
        }
        for bad in [
            "https://evil.example/checkoutnow?token=1",
            "https://www.sandbox.paypal.com.evil.example/",
            "https://www.sandbox.paypal.com@evil.example/",
            "https://user:pw@www.sandbox.paypal.com/",
            "http://www.sandbox.paypal.com/checkoutnow",
            "https://www.sandbox.paypal.com:8443/",
            "http://127.0.0.1:8422/",
            "//www.sandbox.paypal.com/",
            "/checkout",
            "javascript:alert(1)",
            "https://www.sandbox.paypal.com\\@evil.example/",
        ] {
            assert_eq!(provider_url(bad, &origins), None, "{bad}");
        }
        assert_eq!(provider_url("https://www.sandbox.paypal.com/", &[]), None, "no provider configured");
    }

    #[test]
    fn urls_must_be_http_without_credentials() {
        let ok = Url::parse("https://account.example/auth/callback?code=1").unwrap();
        assert_eq!(external(&ok).as_deref(), Some("https://account.example/auth/callback?code=1"));
        for bad in ["javascript:alert(1)", "https://u:p@example.com/", "data:text/html,x", "ftp://example.com/"] {
            assert_eq!(external(&Url::parse(bad).unwrap()), None, "{bad:?}");
        }
    }
}
