//! The console's resources, one file each. Adding one: a file with a [`Resource`] impl, a line
//! in [`ALL`], and its folder in `admin-ui/src/resources/`.
//!
//! [`Resource`]: crate::admin::api::Resource

pub mod audit_log;
pub mod concepts;
pub mod events;
pub mod exhibitor_notifications;
pub mod hub_notifications;
pub mod inquiries;
pub mod inquiry_categories;
pub mod redirect_rules;
pub mod users;
pub mod vrc_redirects;
pub mod worlds;

use crate::admin::api::{Registered, registered};

/// Every console resource, in menu order.
pub const ALL: &[Registered] = &[
    registered::<events::Events>(),
    registered::<concepts::Concepts>(),
    registered::<worlds::Worlds>(),
    registered::<hub_notifications::HubNotifications>(),
    registered::<exhibitor_notifications::ExhibitorNotifications>(),
    registered::<inquiries::Inquiries>(),
    registered::<inquiry_categories::InquiryCategories>(),
    registered::<redirect_rules::RedirectRules>(),
    registered::<vrc_redirects::VrcRedirects>(),
    registered::<users::Users>(),
    registered::<audit_log::AuditLog>(),
];
