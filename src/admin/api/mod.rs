//! `/admin/api/{resource}`: the console's REST facade in the ra-data-simple-rest format, one
//! small file per resource in [`resources`].
//!
//! A resource is a [`Resource`]: its name, its area of the role table, the actions it offers,
//! the columns staff may sort, filter and search on, its typed input (`validator` rules) and
//! how its rows become records and inputs become rows. This module does the rest, the same way
//! for every resource:
//!
//! - `GET /admin/api/{resource}?sort=…&range=…&filter=…` lists ([`contract`]),
//! - `GET /admin/api/{resource}/{id}` shows one record,
//! - `POST`, `PUT /{id}` (the whole record or only the fields that change) and `DELETE /{id}`
//!   write, each in one transaction that also stores
//!   the audit entry (who, when, what, record before → after). A resource's write methods only
//!   ever see that transaction, which they cannot commit: a write without its audit row is not
//!   possible.
//! - `GET /{id}/file` streams the upload a record shows (a box submission's model) to those who
//!   may show the record ([`Resource::file`]),
//! - `POST /{id}/reconcile` (payments only) asks the outside world where a record stands and
//!   applies it, through the same code as the background job that does it ([`Resource::reconcile`]);
//!   its audit entry (before → after, and the outcome) follows in a transaction of its own,
//!   because the reconcile calls a provider over the network and its own settle must stand
//!   whatever happens next (a database transaction must not wait on the network).
//!
//! Who may do what is checked by the [`Allowed`] guard from `crate::admin::permissions`.
//!
//! Where things are: what a resource is ([`resource`]); its registration and the one
//! implementation of every operation ([`registered`]); the routes ([`records`]) behind the
//! request guards ([`access`], [`cx`]); the list parameters ([`contract`]), input parsing
//! ([`input`]), picture fields and their uploads ([`image_slot`], [`images`]) and the references that block a delete ([`uses`]).

pub mod access;
pub mod contract;
pub mod cx;
pub mod image_slot;
pub mod images;
pub mod input;
pub mod records;
pub mod registered;
pub mod resource;
pub mod resources;
pub mod uses;

pub use access::Allowed;
pub use access::Console;
pub use cx::Cx;
pub use image_slot::ImageSlot;
pub use records::{Doc, routes};
pub use registered::{Registered, registered};
pub use resource::{NoInput, Reconciliation, Resource, Row, id_column, must_exist};
pub use uses::Uses;

/// Every registered resource.
pub fn resources() -> &'static [Registered] {
    resources::ALL
}

#[cfg(test)]
mod tests {
    use crate::admin::api::resources::ALL;
    use crate::admin::permissions::Action;

    #[test]
    fn every_resource_declares_real_columns_and_a_unique_name() {
        let mut names = std::collections::BTreeSet::new();
        for resource in ALL {
            (resource.check_columns)().unwrap();
            assert!(names.insert(resource.name), "{} is registered twice", resource.name);
            assert!(resource.actions.contains(&Action::List), "{} lists", resource.name);
        }
    }
}
