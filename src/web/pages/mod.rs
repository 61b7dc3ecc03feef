//! Page handlers, one module per route group.

pub mod access;
pub mod catalog;
pub mod circle_members;
pub mod circles;
pub mod contact;
pub mod entries;
pub mod entry_amp;
pub mod entry_decline;
pub mod entry_history;
pub mod exhibitors;
pub mod history;
pub mod home;
pub mod hub;
pub mod my_events;
pub mod mypage;
pub mod news;
pub mod payment_history;
pub mod redirects;
pub mod support;
pub mod worlds;

use rocket::Route;

/// Every page route, declared once and reached at `/…`, `/ja/…` and `/en/…` through the locale
/// fairing.
pub fn routes() -> Vec<Route> {
    let mut routes = Vec::new();
    routes.extend(home::routes());
    routes.extend(worlds::routes());
    routes.extend(history::routes());
    routes.extend(mypage::routes());
    routes.extend(news::routes());
    routes.extend(payment_history::routes());
    routes.extend(my_events::routes());
    routes.extend(circles::routes());
    routes.extend(circle_members::routes());
    routes.extend(entries::routes());
    routes.extend(entry_history::routes());
    routes.extend(entry_amp::routes());
    routes.extend(entry_decline::routes());
    routes.extend(support::routes());
    routes.extend(contact::routes());
    routes.extend(catalog::routes());
    routes.extend(exhibitors::routes());
    routes.extend(access::routes());
    routes.extend(redirects::routes());
    routes.extend(hub::routes());
    routes
}
