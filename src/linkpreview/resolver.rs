//! The DNS resolver the link preview's HTTP client connects through: it resolves a name once,
//! refuses the name if ANY of its addresses is not public, and hands the client exactly the
//! addresses it vetted, so a second resolution (DNS rebinding) can never reach the socket.

use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::ip;
use super::policy::{Policy, Refusal};

/// Resolves with the system resolver and vets every address against [`ip::is_public`].
#[derive(Debug, Clone)]
pub struct VettedResolver {
    policy: Arc<Policy>,
}

impl VettedResolver {
    /// A resolver applying `policy` (whose exempt names skip the address rule).
    pub fn new(policy: Arc<Policy>) -> Self {
        Self { policy }
    }

    /// Resolves `name` and returns its addresses if all of them may be reached.
    pub async fn lookup(&self, name: &str) -> Result<Vec<SocketAddr>, LookupError> {
        let addrs: Vec<SocketAddr> =
            tokio::net::lookup_host((name, 0)).await.map_err(|e| LookupError::Dns(e.to_string()))?.collect();
        if addrs.is_empty() {
            return Err(LookupError::Dns(format!("{name} has no addresses")));
        }
        if !self.policy.name_is_exempt(name)
            && let Some(bad) = addrs.iter().map(SocketAddr::ip).find(|a| !ip::is_public(*a))
        {
            return Err(LookupError::Refused(Refusal::Address(bad)));
        }
        Ok(addrs)
    }
}

/// Why a name gave no usable address.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The name resolves to an address that is not public.
    #[error("refused: {0}")]
    Refused(Refusal),
    /// The name does not resolve.
    #[error("dns: {0}")]
    Dns(String),
}

impl Resolve for VettedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let this = self.clone();
        let name = name.as_str().to_string();
        Box::pin(async move {
            let addrs = this.lookup(&name).await?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn localhost_is_refused_after_resolution() {
        let resolver = VettedResolver::new(Arc::new(Policy::default()));
        let err = resolver.lookup("localhost").await.expect_err("loopback refused");
        assert!(matches!(err, LookupError::Refused(Refusal::Address(a)) if a.is_loopback()), "{err}");
    }

    #[tokio::test]
    async fn an_exempt_name_may_resolve_to_loopback() {
        let resolver = VettedResolver::new(Arc::new(Policy::new(&["localhost:8080".into()])));
        let addrs = resolver.lookup("localhost").await.expect("exempt");
        assert!(addrs.iter().all(|a| a.ip().is_loopback()));
    }
}
