//! Which IP addresses the link preview may connect to: only globally reachable unicast
//! addresses. Everything special-purpose (IANA registries for IPv4 and IPv6) is refused, and
//! IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the
//! embedded address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether `ip` is a public unicast address that a server-side fetch may reach.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

/// IPv4 blocks that are not globally reachable unicast (RFC 6890 and later assignments).
const BLOCKED_V4: &[(u32, u8)] = &[
    (0x0000_0000, 8),  // 0.0.0.0/8 "this network", incl. the unspecified address
    (0x0A00_0000, 8),  // 10.0.0.0/8 private
    (0x6440_0000, 10), // 100.64.0.0/10 carrier-grade NAT
    (0x7F00_0000, 8),  // 127.0.0.0/8 loopback
    (0xA9FE_0000, 16), // 169.254.0.0/16 link-local, incl. cloud metadata 169.254.169.254
    (0xAC10_0000, 12), // 172.16.0.0/12 private
    (0xC000_0000, 24), // 192.0.0.0/24 IETF protocol assignments
    (0xC000_0200, 24), // 192.0.2.0/24 documentation (TEST-NET-1)
    (0xC058_6300, 24), // 192.88.99.0/24 6to4 relay anycast (deprecated)
    (0xC0A8_0000, 16), // 192.168.0.0/16 private
    (0xC612_0000, 15), // 198.18.0.0/15 benchmarking
    (0xC633_6400, 24), // 198.51.100.0/24 documentation (TEST-NET-2)
    (0xCB00_7100, 24), // 203.0.113.0/24 documentation (TEST-NET-3)
    (0xE000_0000, 4),  // 224.0.0.0/4 multicast
    (0xF000_0000, 4),  // 240.0.0.0/4 reserved, incl. broadcast 255.255.255.255
];

/// Whether `ip` is a public IPv4 unicast address.
pub fn is_public_v4(ip: Ipv4Addr) -> bool {
    let bits = u32::from(ip);
    !BLOCKED_V4.iter().any(|&(net, len)| bits >> (32 - len) == net >> (32 - len))
}

/// Whether `ip` is a public IPv6 unicast address. Only global unicast (2000::/3) qualifies,
/// minus its special-purpose blocks; IPv4-embedding forms are judged by the IPv4 address.
pub fn is_public_v6(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    let in_net = |net: u128, len: u32| bits >> (128 - len) == net >> (128 - len);
    // ::ffff:a.b.c.d (IPv4-mapped): the socket would reach a.b.c.d.
    if in_net(0xffff_0000_0000, 96) {
        return is_public_v4(embedded_v4(bits));
    }
    // 64:ff9b::/96 (well-known NAT64 prefix): the translator would reach the embedded address.
    if in_net(0x0064_ff9b << 96, 96) {
        return is_public_v4(embedded_v4(bits));
    }
    // 2002::/16 (6to4): the relay would reach the IPv4 address in bits 16..48.
    if in_net(0x2002 << 112, 16) {
        return is_public_v4(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    // Outside 2000::/3 nothing is global unicast: ::, ::1, IPv4-compatible ::/96, discard-only
    // 100::/64, local NAT64 64:ff9b:1::/48, ULA fc00::/7, link-local fe80::/10, site-local
    // fec0::/10, multicast ff00::/8 and the unassigned rest.
    if !in_net(0x2000 << 112, 3) {
        return false;
    }
    let blocked_global: &[(u128, u32)] = &[
        (0x2001 << 112, 23),     // 2001::/23 IETF protocol assignments (Teredo, ORCHID, benchmarking…)
        (0x2001_0db8 << 96, 32), // 2001:db8::/32 documentation
        (0x3fff << 112, 20),     // 3fff::/20 documentation (RFC 9637)
    ];
    !blocked_global.iter().any(|&(net, len)| in_net(net, len))
}

/// The IPv4 address in the low 32 bits of an IPv6 address.
fn embedded_v4(bits: u128) -> Ipv4Addr {
    Ipv4Addr::from((bits & 0xffff_ffff) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().unwrap_or_else(|_| panic!("{text} is an IP address")))
    }

    #[test]
    fn refuses_every_special_ipv4_block_at_its_edges() {
        let refused = [
            "0.0.0.0",
            "0.255.255.255",
            "10.0.0.0",
            "10.255.255.255",
            "100.64.0.0",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.0.1",
            "169.254.169.254",
            "172.16.0.0",
            "172.31.255.255",
            "192.0.0.0",
            "192.0.0.255",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.0.1",
            "192.168.255.255",
            "198.18.0.0",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ];
        for ip in refused {
            assert!(!public(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn allows_public_ipv4_next_to_the_blocks() {
        let allowed = [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.0",
            "192.0.3.0",
            "192.88.98.255",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "198.51.99.255",
            "203.0.112.255",
            "203.0.114.0",
            "223.255.255.255",
        ];
        for ip in allowed {
            assert!(public(ip), "{ip} is public");
        }
    }

    #[test]
    fn refuses_special_ipv6_addresses() {
        let refused = [
            "::",
            "::1",
            "::127.0.0.1",
            "::8.8.8.8",
            "100::1",
            "64:ff9b:1::1",
            "fc00::1",
            "fd00:ec2::254",
            "fdff:ffff::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
            "2001::1",
            "2001:1ff::1",
            "2001:2::1",
            "2001:db8::1",
            "2001:db8:ffff::1",
            "3fff::1",
            "3fff:fff::1",
            "1fff:ffff::1",
            "4000::1",
            "e000::1",
        ];
        for ip in refused {
            assert!(!public(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn judges_embedded_ipv4_by_the_ipv4_rules() {
        for ip in [
            "::ffff:127.0.0.1",
            "::ffff:7f00:1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:0.0.0.0",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::192.168.1.1",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c0a8:101::1",
            "2002:a9fe:a9fe::",
        ] {
            assert!(!public(ip), "{ip} embeds a private IPv4 address");
        }
        for ip in ["::ffff:8.8.8.8", "64:ff9b::1.1.1.1", "2002:808:808::1"] {
            assert!(public(ip), "{ip} embeds a public IPv4 address");
        }
    }

    #[test]
    fn allows_global_ipv6_unicast() {
        for ip in ["2001:4860:4860::8888", "2606:4700:4700::1111", "2400:cb00::1", "2a00:1450::1", "2001:200::1"] {
            assert!(public(ip), "{ip} is public");
        }
    }
}
