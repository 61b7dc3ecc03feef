//! The console's resources, one file each. Adding one: a file with a [`Resource`] impl, a line
//! in [`ALL`], and its folder in `admin-ui/src/resources/`.
//!
//! [`Resource`]: crate::admin::api::Resource

pub mod audit_log;
pub mod events;

use crate::admin::api::{Registered, registered};

/// Every console resource, in menu order.
pub const ALL: &[Registered] = &[registered::<events::Events>(), registered::<audit_log::AuditLog>()];
