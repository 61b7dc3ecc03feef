//! The locale-routing matrix of spec §2: manual-locale cookie × path prefix × language.

use crate::support::TestApp;
use crate::support::html::Doc;

/// (cookie, path) → expected outcome: `Ok(lang)` answers in that language, `Err(location)`
/// redirects there.
const MATRIX: &[(Option<&str>, &str, Result<&str, &str>)] = &[
    (None, "/", Ok("ja")),
    (None, "/worlds", Ok("ja")),
    (None, "/ja", Ok("ja")),
    (None, "/ja/worlds", Ok("ja")),
    (None, "/en", Ok("en")),
    (None, "/en/", Ok("en")),
    (None, "/en/worlds", Ok("en")),
    (None, "/en/world/130001", Ok("en")),
    (Some("ja"), "/worlds", Ok("ja")),
    (Some("ja"), "/ja/worlds", Ok("ja")),
    (Some("ja"), "/en", Err("/")),
    (Some("ja"), "/en/worlds", Err("/worlds")),
    (Some("ja"), "/en/worlds?x=1", Err("/worlds?x=1")),
    (Some("ja"), "/en/2025Summer/world/10001", Err("/2025Summer/world/10001")),
    (Some("en"), "/", Err("/en")),
    (Some("en"), "/worlds", Err("/en/worlds")),
    (Some("en"), "/ja/worlds", Err("/en/worlds")),
    (Some("en"), "/event_history?page=2", Err("/en/event_history?page=2")),
    (Some("en"), "/en/worlds", Ok("en")),
    (Some("en"), "/en", Ok("en")),
    (Some("fr"), "/en/worlds", Ok("en")),
    (Some("fr"), "/worlds", Ok("ja")),
];

#[rocket::async_test]
async fn cookie_and_path_decide_the_language() {
    let app = TestApp::new().await;
    for (cookie, path, expected) in MATRIX {
        let res = match cookie {
            Some(lang) => app.get_with_locale(path, lang).await,
            None => app.get(path).await,
        };
        let status = res.status().code;
        let location = res.headers().get_one("Location").map(str::to_string);
        let body = res.into_string().await.unwrap_or_default();
        match expected {
            Ok(lang) => {
                assert_eq!(status, 200, "{cookie:?} {path}: status");
                let doc = Doc::parse(&body);
                assert_eq!(doc.attr("html", "lang"), *lang, "{cookie:?} {path}: html lang");
                let site = if *lang == "en" { "Virtual Market" } else { "バーチャルマーケット" };
                assert!(doc.text("title").ends_with(site), "{cookie:?} {path}: title {}", doc.text("title"));
            }
            Err(target) => {
                assert!((300..400).contains(&status), "{cookie:?} {path}: expected a redirect, got {status}");
                assert_eq!(location.as_deref(), Some(*target), "{cookie:?} {path}: Location");
            }
        }
    }
}

#[rocket::async_test]
async fn the_redirected_cookie_remembers_the_language_for_a_year_but_never_on_a_shareable_page() {
    let app = TestApp::new().await;
    // The manual choice sends an unprefixed path to English: the redirect records it.
    let res = app.get_with_locale("/worlds", "en").await;
    assert_eq!(res.headers().get_one("Location"), Some("/en/worlds"));
    let cookie = res.cookies().get("i18n_redirected").expect("i18n_redirected is set").clone();
    assert_eq!(cookie.value(), "en");
    assert_eq!(cookie.max_age(), Some(rocket::time::Duration::days(365)));
    assert_eq!(cookie.path(), Some("/"));
    let res = app.get_with_locale("/en/worlds", "ja").await;
    assert_eq!(res.cookies().get("i18n_redirected").map(|c| c.value().to_string()).as_deref(), Some("ja"));
    // A page a shared cache may keep carries no cookie; a private one does.
    let res = app.get("/en/worlds").await;
    assert!(res.headers().get_one("Cache-Control").unwrap().starts_with("public"));
    assert!(res.cookies().get("i18n_redirected").is_none(), "a cookie would make it unshareable");
    let res = app.get("/en/mypage").await;
    assert_eq!(res.headers().get_one("Cache-Control"), Some("private, no-store"));
    assert_eq!(res.cookies().get("i18n_redirected").map(|c| c.value().to_string()).as_deref(), Some("en"));
}

#[rocket::async_test]
async fn the_language_switch_stores_the_choice_and_never_leaves_the_site() {
    let app = TestApp::new().await;
    let res = app.get("/__locale?lang=en&path=%2Fworlds").await;
    assert_eq!(res.headers().get_one("Location"), Some("/en/worlds"));
    let cookie = res.cookies().get("VUEI18N_MANUAL_LOCALE").expect("manual locale stored").clone();
    assert_eq!(cookie.value(), "en");

    let res = app.get("/__locale?lang=ja&path=%2Fen%2Fworld%2F130001").await;
    assert_eq!(res.headers().get_one("Location"), Some("/world/130001"));

    for hostile in
        ["%2F%2Fevil.example%2Fx", "https%3A%2F%2Fevil.example", "%2F%5Cevil.example", "%2Fapi%2Fv1%2Fevents"]
    {
        let res = app.get(&format!("/__locale?lang=en&path={hostile}")).await;
        assert_eq!(res.headers().get_one("Location"), Some("/en"), "{hostile} falls back to the top page");
    }
    let res = app.get("/__locale?lang=fr&path=%2F").await;
    assert_eq!(res.status().code, 400);
}

#[rocket::async_test]
async fn every_page_has_alternates_and_a_canonical_link_per_language() {
    let app = TestApp::new().await;
    for (path, canonical) in [
        ("/", "https://vmarket.test/"),
        ("/en", "https://vmarket.test/en"),
        ("/ja/worlds", "https://vmarket.test/worlds"),
        ("/en/worlds", "https://vmarket.test/en/worlds"),
        ("/en/2025Summer/world/10001", "https://vmarket.test/en/2025Summer/world/10001"),
        ("/event_history", "https://vmarket.test/event_history"),
    ] {
        let (status, body) = app.page(path).await;
        assert_eq!(status, 200, "{path}");
        let doc = Doc::parse(&body);
        assert_eq!(doc.attr("link[rel=canonical]", "href"), canonical, "{path}");
        let unprefixed = canonical.trim_start_matches("https://vmarket.test").trim_start_matches("/en");
        let ja = format!("https://vmarket.test{}", if unprefixed.is_empty() { "/" } else { unprefixed });
        let en = format!("https://vmarket.test/en{}", if unprefixed == "/" { "" } else { unprefixed });
        assert_eq!(doc.attr("link[rel=alternate][hreflang=ja]", "href"), ja, "{path}");
        assert_eq!(doc.attr("link[rel=alternate][hreflang=en]", "href"), en, "{path}");
        assert_eq!(doc.attr("link[rel=alternate][hreflang=x-default]", "href"), ja, "{path}");
    }
}
