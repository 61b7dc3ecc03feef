//! Which URLs the link preview may request, decided before any connection: scheme, userinfo,
//! host form, special-use names, IP literals (every numeric spelling, as the WHATWG URL parser
//! normalises them), and the configured `host:port` exemptions. Names are resolved later by
//! [`super::resolver::VettedResolver`], which applies the same address rules.

use std::collections::HashSet;
use std::net::IpAddr;

use url::{Host, Url};

use super::ip;

/// Longest URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 2048;

/// Why a URL is refused; logged, while the client only sees `url_not_allowed`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not `http` or `https`.
    #[error("scheme {0} is not allowed")]
    Scheme(String),
    /// `user:password@` in the URL.
    #[error("credentials in the URL")]
    Userinfo,
    /// No host, or an empty one.
    #[error("no host")]
    NoHost,
    /// A name reserved for local or internal use.
    #[error("special-use name {0}")]
    SpecialName(String),
    /// A name that is exempted on another port only.
    #[error("{0} is only allowed on its configured port")]
    OtherPort(String),
    /// An address that is not public unicast.
    #[error("address {0} is not public")]
    Address(IpAddr),
}

/// The address rules plus the configured exemptions.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Exempt `(host, port)` pairs, hosts as the URL parser serialises them.
    exempt: HashSet<(String, u16)>,
    /// Host names (not IP literals) that appear in `exempt`.
    exempt_names: HashSet<String>,
}

impl Policy {
    /// Builds the policy from `link_preview_allowed_hosts` entries (`host:port`); entries that
    /// do not parse are ignored with a warning.
    pub fn new(allowed_hosts: &[String]) -> Self {
        let mut policy = Self::default();
        for entry in allowed_hosts {
            let parsed = Url::parse(&format!("http://{entry}/")).ok().and_then(|u| {
                let port = u.port()?;
                Some((u.host()?.to_owned(), port))
            });
            match parsed {
                Some((host, port)) => {
                    if let Host::Domain(name) = &host {
                        policy.exempt_names.insert(name.clone());
                    }
                    policy.exempt.insert((host.to_string(), port));
                }
                None => tracing::warn!(entry = %entry, "link_preview_allowed_hosts entry is not host:port; ignored"),
            }
        }
        policy
    }

    /// Checks `url` before it is requested. Names pass here and are vetted on resolution.
    pub fn check(&self, url: &Url) -> Result<(), Refusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refusal::Scheme(url.scheme().to_string()));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(Refusal::Userinfo);
        }
        let host = url.host().ok_or(Refusal::NoHost)?;
        let port = url.port_or_known_default().ok_or(Refusal::NoHost)?;
        if self.exempt.contains(&(host.to_string(), port)) {
            return Ok(());
        }
        match host {
            Host::Ipv4(v4) if !ip::is_public_v4(v4) => Err(Refusal::Address(IpAddr::V4(v4))),
            Host::Ipv6(v6) if !ip::is_public_v6(v6) => Err(Refusal::Address(IpAddr::V6(v6))),
            Host::Ipv4(_) | Host::Ipv6(_) => Ok(()),
            Host::Domain(name) => {
                if name.is_empty() {
                    Err(Refusal::NoHost)
                } else if is_special_name(name) {
                    Err(Refusal::SpecialName(name.to_string()))
                } else if self.exempt_names.contains(name) {
                    Err(Refusal::OtherPort(name.to_string()))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Whether addresses of the host name `name` may skip the public-address rule. Only names
    /// listed in the exemptions qualify, and [`Policy::check`] has already refused them on any
    /// port but the listed one.
    pub fn name_is_exempt(&self, name: &str) -> bool {
        self.exempt_names.contains(name)
    }
}

/// Names reserved for local, internal or cloud-metadata use (RFC 6761, RFC 8375, ICANN's
/// `.internal`), refused without a DNS query; `localhost.` may not even resolve.
fn is_special_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    const SUFFIXES: &[&str] = &[".localhost", ".local", ".internal", ".home.arpa", ".onion", ".invalid", ".test"];
    const NAMES: &[&str] = &["localhost", "metadata", "metadata.goog", "instance-data"];
    NAMES.contains(&name.as_str()) || SUFFIXES.iter().any(|s| name.ends_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(policy: &Policy, url: &str) -> Result<(), Refusal> {
        policy.check(&Url::parse(url).expect("test URLs parse"))
    }

    #[test]
    fn numeric_ipv4_spellings_are_normalised_then_refused() {
        let policy = Policy::default();
        for url in [
            "http://2130706433/",
            "http://0x7f000001/",
            "http://0177.0.0.1/",
            "http://127.1/",
            "http://0x7f.1/",
            "http://0/",
            "http://127.0.0.1./",
            "http://017700000001/",
            "http://０x7f000001/",
            "http://①②⑦.0.0.1/",
            "http://169.254.169.254/",
            "http://0xa9fea9fe/",
        ] {
            assert!(matches!(check(&policy, url), Err(Refusal::Address(_))), "{url} must be refused by address");
        }
    }

    #[test]
    fn refuses_schemes_userinfo_and_special_names() {
        let policy = Policy::default();
        assert_eq!(check(&policy, "ftp://example.com/"), Err(Refusal::Scheme("ftp".into())));
        assert_eq!(check(&policy, "file:///etc/passwd"), Err(Refusal::Scheme("file".into())));
        assert_eq!(check(&policy, "http://u:p@example.com/"), Err(Refusal::Userinfo));
        assert_eq!(check(&policy, "http://u@example.com/"), Err(Refusal::Userinfo));
        for url in [
            "http://metadata.google.internal/",
            "http://foo.localhost/",
            "http://printer.local/",
            "http://metadata/",
            "http://METADATA.GOOG./",
        ] {
            assert!(matches!(check(&policy, url), Err(Refusal::SpecialName(_))), "{url}");
        }
        assert_eq!(check(&policy, "https://example.com/a?b#c"), Ok(()));
        assert_eq!(check(&policy, "http://[2606:4700:4700::1111]:8080/"), Ok(()));
        assert!(matches!(check(&policy, "http://localhost./"), Err(Refusal::SpecialName(_))));
        assert_eq!(check(&policy, "http://intranet/"), Ok(()), "left to resolution");
    }

    #[test]
    fn exemptions_match_host_and_port_exactly() {
        let policy =
            Policy::new(&["127.0.0.1:8123".into(), "intranet.example:8080".into(), "[::1]:9000".into(), "junk".into()]);
        assert_eq!(check(&policy, "http://127.0.0.1:8123/x"), Ok(()));
        assert_eq!(check(&policy, "http://2130706433:8123/x"), Ok(()), "the same host, spelled numerically");
        assert!(check(&policy, "http://127.0.0.1:8124/").is_err());
        assert!(check(&policy, "http://127.0.0.1/").is_err());
        assert_eq!(check(&policy, "http://[::1]:9000/"), Ok(()));
        assert_eq!(check(&policy, "http://intranet.example:8080/"), Ok(()));
        assert_eq!(check(&policy, "http://intranet.example/"), Err(Refusal::OtherPort("intranet.example".into())));
        assert!(policy.name_is_exempt("intranet.example"));
        assert!(!policy.name_is_exempt("127.0.0.1"));
    }
}
