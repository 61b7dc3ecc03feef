//! The client's IP address, as far as it can be known without trusting the client.
//!
//! By default the address is the TCP peer: no header is believed. Behind a load balancer, list
//! its networks in `trusted_proxies` (CIDR); then, and only for requests whose peer is such a
//! proxy, the address comes from `X-Forwarded-For` (the right-most entry that is not itself a
//! trusted proxy) or else `X-Real-IP`. Rate limits key on [`ClientIp::limit_key`], which groups
//! an IPv6 client by its /64 network, since one host usually holds a whole /64.

use std::net::{IpAddr, Ipv6Addr};

use ipnet::IpNet;
use rocket::request::{FromRequest, Outcome, Request};

/// The networks whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses CIDR entries (`10.0.0.0/8`, `::1/128`) or bare addresses; names the first bad one.
    pub fn parse(entries: &[String]) -> Result<Self, String> {
        entries
            .iter()
            .map(|e| {
                let e = e.trim();
                e.parse::<IpNet>()
                    .or_else(|_| e.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("trusted_proxies: {e:?} is not an IP network"))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    /// Whether `ip` belongs to a trusted proxy.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&canonical(ip)))
    }

    /// The client address of a request from `peer` carrying these forwarding headers.
    pub fn client(&self, peer: Option<IpAddr>, forwarded_for: &[&str], real_ip: Option<&str>) -> Option<IpAddr> {
        let peer = canonical(peer?);
        if !self.contains(peer) {
            return Some(peer);
        }
        let hops: Vec<IpAddr> = forwarded_for
            .iter()
            .flat_map(|h| h.split(','))
            .map(|s| s.trim().parse::<IpAddr>().map(canonical))
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        if let Some(client) = hops.iter().rev().find(|ip| !self.contains(**ip)) {
            return Some(*client);
        }
        if let Some(ip) = real_ip.and_then(|r| r.trim().parse::<IpAddr>().ok()).map(canonical) {
            return Some(ip);
        }
        // Every hop is a proxy of ours: the left-most one is as close to the client as we get.
        hops.first().copied().or(Some(peer))
    }
}

/// An IPv4-mapped IPv6 address as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// The client address of a request (see the module rules); `None` when there is no peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub Option<IpAddr>);

impl ClientIp {
    /// The client of `req`.
    pub fn of(req: &Request<'_>) -> Self {
        let peer = req.remote().map(|a| a.ip());
        let ip = match req.rocket().state::<TrustedProxies>() {
            Some(trusted) => {
                let forwarded: Vec<&str> = req.headers().get("X-Forwarded-For").collect();
                trusted.client(peer, &forwarded, req.headers().get_one("X-Real-IP"))
            }
            None => peer.map(canonical),
        };
        Self(ip)
    }

    /// The key rate limits count under: the IPv4 address, or the /64 network of an IPv6 one.
    /// Requests without any address share one key.
    pub fn limit_key(&self) -> IpAddr {
        match self.0.map(canonical) {
            Some(IpAddr::V6(v6)) => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
            Some(v4) => v4,
            None => IpAddr::from([0, 0, 0, 0]),
        }
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for ClientIp {
    type Error = std::convert::Infallible;

    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        Outcome::Success(ClientIp::of(req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn headers_are_ignored_unless_the_peer_is_a_trusted_proxy() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client(Some(ip("198.51.100.7")), &["203.0.113.9"], Some("203.0.113.10")),
            Some(ip("198.51.100.7"))
        );
        let lb = TrustedProxies::parse(&["10.0.0.0/8".into(), "::1".into()]).unwrap();
        assert_eq!(
            lb.client(Some(ip("198.51.100.7")), &["203.0.113.9"], None),
            Some(ip("198.51.100.7")),
            "not a proxy"
        );
        assert_eq!(lb.client(Some(ip("10.1.2.3")), &["203.0.113.9"], None), Some(ip("203.0.113.9")));
        assert_eq!(lb.client(Some(ip("10.1.2.3")), &[], Some("203.0.113.10")), Some(ip("203.0.113.10")));
        assert_eq!(lb.client(Some(ip("::1")), &["203.0.113.9"], None), Some(ip("203.0.113.9")));
    }

    #[test]
    fn a_client_cannot_prepend_its_way_past_the_proxy() {
        let lb = TrustedProxies::parse(&["10.0.0.0/8".into()]).unwrap();
        // The client sent "X-Forwarded-For: 1.2.3.4"; our proxy appended the real peer.
        let forwarded = ["1.2.3.4, 203.0.113.9", "10.0.0.2"];
        assert_eq!(lb.client(Some(ip("10.0.0.1")), &forwarded, None), Some(ip("203.0.113.9")));
        // Garbage in the header is not believed at all.
        assert_eq!(lb.client(Some(ip("10.0.0.1")), &["nonsense"], None), Some(ip("10.0.0.1")));
    }

    #[test]
    fn ipv6_clients_are_limited_per_64() {
        let a = ClientIp(Some(ip("2001:db8:1:2:aaaa::1"))).limit_key();
        let b = ClientIp(Some(ip("2001:db8:1:2:bbbb::9"))).limit_key();
        let c = ClientIp(Some(ip("2001:db8:1:3::1"))).limit_key();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(ClientIp(Some(ip("::ffff:192.0.2.1"))).limit_key(), ClientIp(Some(ip("192.0.2.1"))).limit_key());
        assert!(TrustedProxies::parse(&["not-an-ip".into()]).is_err());
    }
}
