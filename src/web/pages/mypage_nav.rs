//! The mypage menu, shown on every signed-in page (the dashboard, news, circles, entries,
//! payments, the profile).

use serde_json::json;

use crate::web::page::Page;

/// The mypage sections that exist, in menu order: (path, message key).
const SECTIONS: &[(&str, &str)] = &[
    ("/mypage", "mypage.nav.dashboard"),
    ("/mypage/news", "mypage.nav.news"),
    ("/mypage/circles", "mypage.nav.circles"),
    ("/mypage/events", "mypage.nav.events"),
    ("/mypage/entry_history", "mypage.nav.entry_history"),
    ("/mypage/payment_history", "mypage.nav.payment_history"),
    ("/mypage/booth-maker", "mypage.nav.booth_maker"),
    ("/mypage/housing-videos", "mypage.nav.housing_videos"),
    ("/mypage/box-submissions", "mypage.nav.box_submissions"),
    ("/mypage/store/items", "mypage.nav.store_items"),
    ("/mypage/purchases", "mypage.nav.purchases"),
    ("/mypage/vrchat", "mypage.nav.vrchat"),
    ("/mypage/ingame", "mypage.nav.ingame"),
    ("/mypage/profile", "mypage.nav.profile"),
];

/// The mypage menu; a section is current on its own path and on the paths below it.
pub(crate) fn nav(page: &Page<'_>) -> Vec<serde_json::Value> {
    SECTIONS
        .iter()
        .map(|(path, key)| {
            let below = *path != "/mypage" && page.path.strip_prefix(path).is_some_and(|rest| rest.starts_with('/'));
            // One circle's pages (`/mypage/circle/{id}/…`) belong to the circles section.
            let below = below || (*path == "/mypage/circles" && page.path.starts_with("/mypage/circle/"));
            // Applying to an event (`/mypage/event/{permalink}/apply/…`) belongs to the events.
            let applying = page.path.starts_with("/mypage/event/") && page.path.contains("/apply/");
            let below = below || (*path == "/mypage/events" && applying);
            // Paying (`/payment`, `/payment/confirm`, `/payment/complete`) belongs to the payments.
            let paying = page.path == "/payment" || page.path.starts_with("/payment/");
            let below = below || (*path == "/mypage/payment_history" && paying);
            json!({ "href": page.href(path), "label": page.t(key), "current": page.path == *path || below })
        })
        .collect()
}
