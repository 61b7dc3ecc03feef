//! Page handlers, one module per route group.

pub mod access;
pub mod booth_maker;
pub mod box_submissions;
pub mod boxes;
pub mod catalog;
pub mod checkout;
pub mod circle_members;
pub mod circles;
pub mod contact;
pub mod entries;
pub mod entry_amp;
pub mod entry_decline;
pub mod entry_fields;
pub mod entry_form;
pub mod entry_history;
pub mod entry_views;
pub mod exhibit;
pub mod exhibitor_notifications;
pub mod exhibitors;
pub mod history;
pub mod home;
pub mod housing_videos;
pub mod hub;
pub mod ingame;
pub mod my_events;
pub mod mypage;
pub mod mypage_nav;
pub mod payment;
pub mod payment_history;
pub mod receipt_pdf;
pub mod redirects;
pub mod store;
pub mod support;
pub mod vrchat;
pub mod vrchat_avatars;
pub mod worlds;

use rocket::{Request, Route};

use crate::http::render_cache::{Clocked, cached};

/// The language of a page request, which the render cache keys on (the locale routing strips
/// the `/en` prefix from the URI the route sees).
fn page_lang(req: &Request<'_>) -> &'static str {
    crate::web::locale::locale_info(req).map_or("", |i| i.lang.code())
}

/// Every page route, declared once and reached at `/…`, `/ja/…` and `/en/…` through the locale
/// fairing. The public pages answer anonymous visitors from the render cache; the top pages
/// (the current event's and each event's at `/{permalink}`) embed the server time for their
/// countdown, so they key on the second.
pub fn routes() -> Vec<Route> {
    let mut routes = Vec::new();
    routes.extend(cached(home::routes(), Clocked::Seconds, page_lang));
    routes.extend(cached(worlds::routes(), Clocked::Phases, page_lang));
    routes.extend(cached(history::routes(), Clocked::Phases, page_lang));
    routes.extend(mypage::routes());
    routes.extend(exhibitor_notifications::routes());
    routes.extend(payment_history::routes());
    routes.extend(receipt_pdf::routes());
    routes.extend(booth_maker::routes());
    routes.extend(housing_videos::routes());
    routes.extend(cached(store::public::routes(), Clocked::Seconds, page_lang));
    routes.extend(cached(boxes::routes(), Clocked::Seconds, page_lang));
    routes.extend(store::public::writes());
    routes.extend(store::seller::routes());
    routes.extend(store::item_images::routes());
    routes.extend(store::item_sets::routes());
    routes.extend(store::buyer::routes());
    routes.extend(store::checkout::routes());
    routes.extend(box_submissions::routes());
    routes.extend(vrchat::routes());
    routes.extend(vrchat_avatars::routes());
    routes.extend(ingame::routes());
    routes.extend(payment::routes());
    routes.extend(checkout::routes());
    routes.extend(my_events::routes());
    routes.extend(circles::routes());
    routes.extend(circle_members::routes());
    routes.extend(entries::routes());
    routes.extend(entry_history::routes());
    routes.extend(exhibit::routes());
    routes.extend(entry_amp::routes());
    routes.extend(entry_decline::routes());
    routes.extend(support::routes());
    routes.extend(contact::routes());
    routes.extend(cached(catalog::routes(), Clocked::Phases, page_lang));
    routes.extend(cached(exhibitors::routes(), Clocked::Phases, page_lang));
    routes.extend(cached(access::routes(), Clocked::Phases, page_lang));
    routes.extend(cached(redirects::routes(), Clocked::Seconds, page_lang));
    routes.extend(cached(hub::routes(), Clocked::Phases, page_lang));
    routes
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_catch_all_ranks_after_every_other_page_route() {
        let max_other = super::routes()
            .iter()
            .filter(|r| r.name.as_deref() != Some("slug"))
            .map(|r| r.rank)
            .max()
            .unwrap_or_default();
        assert!(
            super::redirects::SLUG_RANK > max_other,
            "catch-all rank {} vs {max_other}",
            super::redirects::SLUG_RANK
        );
        let slug =
            super::redirects::routes().into_iter().find(|r| r.name.as_deref() == Some("slug")).expect("slug route");
        assert_eq!(slug.rank, super::redirects::SLUG_RANK);
    }
}
