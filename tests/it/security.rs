//! The attacks of the security review, each replayed against the app: code theft through
//! same-origin redirects, stolen or injected codes, login CSRF, open redirects, spoofed client
//! addresses, image bombs, duplicate handles, the sign-out race and loop, sign-out by link,
//! headers and cookies outside development (the staff console's door is in `admin.rs`).

use rocket::http::{ContentType, Cookie, Header, Method};
use sea_orm::{ActiveModelTrait, EntityTrait, PaginatorTrait, Set};
use serde_json::json;
use vmarket::db::entities::{account_code, user};
use vmarket::model::user::Role;

use crate::support::TestApp;
use crate::support::actors::json_of;
use crate::support::auth::{local, multipart};
use crate::support::html::Doc;
use crate::support::images::png_declaring;

const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

fn enc(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// The value of query parameter `name` in a URL.
fn param(location: &str, name: &str) -> String {
    let url = url::Url::parse(location).expect("absolute URL");
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("no {name} in {location}"))
}

/// Signs `handle` up in the app's own browser and returns the callback URL with the code, not
/// yet followed.
async fn code_for_new_account(app: &TestApp, handle: &str) -> String {
    let (_, html) = app.open_account_page("/mypage").await;
    let fields = [
        ("email", format!("{handle}@example.com")),
        ("password", "correct horse battery".to_string()),
        ("vmarket_id", handle.to_string()),
        ("name_ja", "テスト".to_string()),
        ("name_en", "Test".to_string()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, location, body) = app.submit("/account/auth/sign_up", &html, &fields).await;
    assert_eq!(status, 303, "{body}");
    location.expect("back to the callback")
}

#[rocket::async_test]
async fn a_sign_in_code_only_ever_goes_to_the_callback() {
    let app = TestApp::builder().live().build().await;
    app.sign_up("victim@example.com", "victim", "被害者", "Victim", "/").await;
    let codes_before = account_code::Entity::find().count(&app.db).await.unwrap();
    // With a live SSO session, any other same-origin path used to get a fresh code.
    for path in ["/en//evil.example/steal", "/community", "/", "/auth/callback/../community", "/auth/callback?x=1"] {
        let redirect_url = format!("{}{path}", app.origin);
        let res = app
            .get(&format!(
                "/account/auth/vmarket_account?redirect_url={}&state=s1&code_challenge={CHALLENGE}",
                enc(&redirect_url)
            ))
            .await;
        assert_eq!(res.status().code, 400, "{path}");
        assert_eq!(res.headers().get_one("Location"), None, "{path}");
    }
    assert_eq!(account_code::Entity::find().count(&app.db).await.unwrap(), codes_before, "no code was issued");

    // The two ways a code used to leave the site are closed too: the locale redirect …
    let res = app
        .client
        .get("/en//evil.example/steal?code=abc")
        .cookie(Cookie::new("VUEI18N_MANUAL_LOCALE", "ja"))
        .dispatch()
        .await;
    assert_eq!(res.headers().get_one("Location"), Some("/"));
    // … and slug rules, which never hand the query to an external target (the demo's
    // `/community` points to https://community.example.com/vmarket).
    let res = app.get("/community?code=abc&state=def").await;
    assert_eq!(res.headers().get_one("Location"), Some("https://community.example.com/vmarket"));
}

#[rocket::async_test]
async fn a_stolen_code_is_worth_nothing() {
    let app = TestApp::builder().live().build().await;
    let token = |code: &str, redirect_url: &str, verifier: &str| {
        format!("code={}&redirect_url={}&code_verifier={}", enc(code), enc(redirect_url), enc(verifier))
    };
    let exchange = async |body: String| {
        let res = app.client.post("/account/auth/token").header(ContentType::Form).body(body).dispatch().await;
        json_of(res).await
    };
    let callback = format!("{}/auth/callback", app.origin);

    // Without the verifier (which never left the server that started the sign-in): refused, and
    // the failed try spends the code, so the real callback fails too.
    let location = code_for_new_account(&app, "alice").await;
    let code = param(&location, "code");
    let (status, body) = exchange(token(&code, &callback, "")).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("invalid_grant")));
    let (landed, status, _) = app.follow(location).await;
    assert_eq!((landed.as_str(), status), ("/auth/failed?reason=exchange&lang=ja", 401));

    // With a guessed verifier: refused. (Alice's SSO session is alive, so each sign-in started
    // here comes straight back with a code.)
    let location = silent_code(&app).await;
    let code = param(&location, "code");
    assert_eq!(exchange(token(&code, &callback, &"a".repeat(43))).await.0, 400);

    // The real callback works once; the same code is refused afterwards.
    let location = silent_code(&app).await;
    let code = param(&location, "code");
    let (landed, status, _) = app.follow(location).await;
    assert_eq!((landed.as_str(), status), ("/mypage", 200));
    assert_eq!(exchange(token(&code, &callback, &"a".repeat(43))).await.0, 400, "used once");

    // A code lives 60 seconds.
    let location = silent_code(&app).await;
    app.clock.set(app.clock.now() + chrono::Duration::seconds(61));
    let (landed, _, _) = app.follow(location).await;
    assert_eq!(landed, "/auth/failed?reason=exchange&lang=ja");
}

/// Starts a sign-in in a browser whose SSO session is alive: the account service answers at
/// once with the callback URL and a code; returns that URL, not yet followed.
async fn silent_code(app: &TestApp) -> String {
    let sso = app.get("/auth/login?next=%2Fmypage").await.headers().get_one("Location").unwrap().to_string();
    let res = app.get(&local(&sso, &app.origin)).await;
    assert_eq!(res.status().code, 303, "silent sign-in");
    res.headers().get_one("Location").unwrap().to_string()
}

#[rocket::async_test]
async fn a_callback_this_browser_did_not_start_signs_nothing_in() {
    let app = TestApp::builder().live().build().await;
    // The victim is signed in, in their own browser.
    let victim = app.browser().await;
    let victim_token = Cookie::new("vmarket_token", app.with_user("victim").await.token);

    // The attacker (who has an account) starts a sign-in of their own and sends the victim the
    // callback link.
    app.with_user("mallory").await;
    let start = app.get("/auth/login?next=%2Fmypage").await.headers().get_one("Location").unwrap().to_string();
    let (_, location, _) = app.submit_sign_in(&start, "mallory@example.com").await;
    let attack = local(&location.unwrap(), &app.origin);
    let res = victim.get(attack.clone()).cookie(victim_token.clone()).dispatch().await;
    assert_eq!(res.headers().get_one("Location"), Some("/auth/failed?reason=state&lang=ja"));
    let set: Vec<&str> = res.headers().get("Set-Cookie").collect();
    assert!(set.iter().all(|c| !c.starts_with("vmarket_token=")), "no token is set: {set:?}");
    let res = victim.get("/api/v1/user/me").cookie(victim_token).dispatch().await;
    let (status, me) = json_of(res).await;
    assert_eq!((status, me["vmarket_id"].as_str()), (200, Some("victim")), "the victim is still themselves");

    // The code was spent on the way: the attacker cannot use it either.
    let (landed, _, _) = app.follow(attack).await;
    assert!(landed.starts_with("/auth/failed?reason="), "{landed}");

    // The refusal page speaks the visitor's language and offers a fresh start.
    let (status, html) = app.page("/auth/failed?reason=state&lang=en").await;
    assert_eq!(status, 400);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "This sign-in has expired");
    assert_eq!(doc.attr("[data-testid=auth-action]", "href"), "/auth/login?next=%2Fen");
}

#[rocket::async_test]
async fn no_redirect_leaves_the_site_and_none_is_a_500() {
    let app = TestApp::builder().live().build().await;
    let location =
        |res: &rocket::local::asynchronous::LocalResponse<'_>| res.headers().get_one("Location").map(String::from);
    let res = app.get("/__locale?lang=ja&path=/en//evil.example").await;
    assert_eq!(location(&res).as_deref(), Some("/"));
    for path in ["%2F%09%2Fevil.example", "%2F%5Cevil.example", "%2Fen%2F%5Cevil.example", "%2F%0D%0ASet-Cookie%3A%20a"]
    {
        let res = app.get(&format!("/__locale?lang=en&path={path}")).await;
        assert_eq!((res.status().code, location(&res).as_deref()), (303, Some("/en")), "{path}");
    }
    for path in ["/en/%5Cevil.example", "/en//evil.example", "/ja/%5C%5Cevil.example", "/en/\\evil.example"] {
        let res = app.client.get(path).cookie(Cookie::new("VUEI18N_MANUAL_LOCALE", "ja")).dispatch().await;
        assert!(res.status().code < 500, "{path} → {}", res.status());
        if let Some(to) = location(&res) {
            // `%5C` stays encoded in a path: browsers never read it as a backslash.
            assert!(to.starts_with('/') && !to.starts_with("//") && !to.contains('\\'), "{path} → {to}");
            assert!(to.contains("%5C") || !to.contains("evil"), "{path} → {to}");
        }
    }
    // A `next` with odd characters is encoded or dropped, never a 500, and signs in to the site.
    for (next, lands) in [("%2F%20x", "/%20x"), ("%2F%0D%0Ax", "/"), ("%2Fen%2F%2Fevil.example", "/")] {
        let (_, html) = app.open_account_page_raw(&format!("/auth/login?next={next}")).await;
        let handle = format!("next_{}", next.len());
        let fields = [
            ("email", format!("{handle}@example.com")),
            ("password", "correct horse battery".into()),
            ("vmarket_id", handle.clone()),
            ("name_ja", "次".into()),
            ("name_en", "Next".into()),
        ];
        let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (_, callback, _) = app.submit("/account/auth/sign_up", &html, &fields).await;
        let res = app.get(&local(&callback.unwrap(), &app.origin)).await;
        assert_eq!((res.status().code, location(&res).as_deref()), (303, Some(lands)), "{next}");
        app.sign_out().await;
    }
    // Sign-out's `next` as well (the header's sign-out form, tampered with).
    let me = app.with_user("leaver").await;
    let form = me.form("/worlds", ".nav-auth-form").await;
    let (status, to, _) = me.submit(&form, &[("next", "/en//evil.example")], None).await;
    assert_eq!(status, 303);
    assert_eq!(param(&to.unwrap(), "redirect_url"), format!("{}/", app.origin));
}

#[rocket::async_test]
async fn forged_forwarding_headers_do_not_escape_the_limits() {
    let app = TestApp::builder()
        .live()
        .config(|c| {
            c.sign_in_per_minute = 3;
            c.inquiry_rate_per_minute = 2;
        })
        .build()
        .await;
    let (_, html) = app.open_account_page("/").await;
    let mut statuses = Vec::new();
    for i in 0..5 {
        let res = app
            .client
            .post("/account/auth/sign_in")
            .remote("198.51.100.7:4000".parse().unwrap())
            .header(Header::new("X-Real-IP", format!("203.0.113.{i}")))
            .header(Header::new("X-Forwarded-For", format!("192.0.2.{i}")))
            .header(ContentType::Form)
            .body(sign_in_body(&html, &format!("nobody{i}@example.com")))
            .dispatch()
            .await;
        statuses.push(res.status().code);
    }
    assert_eq!(statuses, [401, 401, 401, 429, 429]);
    let mut statuses = Vec::new();
    for i in 0..3 {
        let res = app
            .client
            .post("/api/v1/inquiry")
            .remote("198.51.100.8:4000".parse().unwrap())
            .header(Header::new("X-Real-IP", format!("203.0.113.{i}")))
            .header(ContentType::JSON)
            .body(
                json!({"email": "a@example.com", "message": "質問です", "inquiry_category_id": 1, "agreement": true})
                    .to_string(),
            )
            .dispatch()
            .await;
        statuses.push(res.status().code);
    }
    assert_eq!(statuses, [201, 201, 429]);
}

#[rocket::async_test]
async fn behind_a_trusted_proxy_clients_are_told_apart_and_accounts_are_limited() {
    let app = TestApp::builder()
        .live()
        .config(|c| {
            c.trusted_proxies = vec!["10.0.0.0/8".into()];
            c.sign_in_per_minute = 2;
            c.sign_in_per_account_per_hour = 3;
        })
        .build()
        .await;
    let (_, html) = app.open_account_page("/").await;
    let attempt = async |client_ip: &str, email: &str| {
        app.client
            .post("/account/auth/sign_in")
            .remote("10.1.2.3:4000".parse().unwrap())
            .header(Header::new("X-Forwarded-For", format!("{client_ip}, 10.9.9.9")))
            .header(ContentType::Form)
            .body(sign_in_body(&html, email))
            .dispatch()
            .await
            .status()
            .code
    };
    // Each real client has its own allowance …
    assert_eq!(attempt("203.0.113.1", "a@example.com").await, 401);
    assert_eq!(attempt("203.0.113.1", "b@example.com").await, 401);
    assert_eq!(attempt("203.0.113.1", "c@example.com").await, 429);
    assert_eq!(attempt("203.0.113.2", "d@example.com").await, 401);
    // … and one account is limited wherever the guesses come from.
    let mut statuses = Vec::new();
    for i in 10..14 {
        statuses.push(attempt(&format!("203.0.113.{i}"), "target@example.com").await);
    }
    assert_eq!(statuses, [401, 401, 401, 429]);
}

fn sign_in_body(html: &str, email: &str) -> String {
    let doc = Doc::parse(html);
    let field = |n: &str| enc(&doc.attr(&format!("[data-testid=sign-in-form] input[name={n}]"), "value"));
    format!(
        "email={}&password=wrong+password&redirect_url={}&state={}&code_challenge={}&lang=ja&csrf_token={}",
        enc(email),
        field("redirect_url"),
        field("state"),
        field("code_challenge"),
        field("csrf_token")
    )
}

#[rocket::async_test]
async fn an_image_bomb_is_refused_before_it_is_decoded() {
    let app = TestApp::builder().live().build().await;
    let me = app.with_user("painter").await;
    // 4096 × 4096 RGBA at 16 bits a channel: 128 MiB once decoded, from a tiny file.
    let bomb = png_declaring(4096, 4096, 16, 6);
    let (ct, body) = multipart(&[], Some(&bomb));
    let upload = || me.request(Method::Put, "/api/v1/user/me?lang=en").header(ct.clone()).body(body.clone()).dispatch();
    let (a, b, c, d) = tokio::join!(upload(), upload(), upload(), upload());
    for res in [a, b, c, d] {
        let (status, err) = json_of(res).await;
        assert_eq!(status, 422);
        assert_eq!(err["details"][0]["attribute"], "icon");
        assert_eq!(
            err["details"][0]["message"],
            "This image is too large. Use at most 4096 × 4096 pixels (8-bit colour)."
        );
    }
}

#[rocket::async_test]
async fn a_gif_whose_frame_outgrows_its_screen_is_refused_wherever_images_are_uploaded() {
    // The probe's file (issue 25): a 1 x 1 screen, one 4000 x 5000 frame, ~10 KB. Before
    // (checked against e1df045) each upload was charged 1 MiB of the decode budget and decoded
    // into 80 MB; 32 at once took the server to 2.3 GiB.
    let bomb = include_bytes!("../fixtures/images/gif-frame-bomb.gif").to_vec();
    let app = TestApp::builder().live().build().await;
    let me = app.with_user("painter").await;
    let (ct, body) = multipart(&[], Some(&bomb));
    let upload = || me.request(Method::Put, "/api/v1/user/me?lang=en").header(ct.clone()).body(body.clone()).dispatch();
    let (a, b, c, d) = tokio::join!(upload(), upload(), upload(), upload());
    for res in [a, b, c, d] {
        let (status, err) = json_of(res).await;
        assert_eq!(status, 422, "{err}");
        assert_eq!(err["details"][0]["attribute"], "icon");
        assert_eq!(
            err["details"][0]["message"],
            "This image could not be read. Choose a PNG, JPEG, WebP or GIF up to 4096 px."
        );
    }
}

#[rocket::async_test]
async fn handles_are_unique_whatever_their_case() {
    let app = TestApp::builder().live().build().await;
    let seeded = user::Entity::find().one(&app.db).await.unwrap().expect("the demo has users");
    let (_, html) = app.open_account_page("/").await;
    for handle in [seeded.vmarket_id.clone(), seeded.vmarket_id.to_lowercase()] {
        let fields = [
            ("email", "copycat@example.com"),
            ("password", "correct horse battery"),
            ("vmarket_id", handle.as_str()),
            ("name_ja", "まね"),
            ("name_en", "Copycat"),
        ];
        let (status, _, body) = app.submit("/account/auth/sign_up", &html, &fields).await;
        if handle.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
            assert_eq!(status, 409, "{handle}");
            assert_eq!(
                Doc::parse(&body).text("[data-testid=error-vmarket_id]"),
                "このIDはすでに使われています。別のIDをお選びください。"
            );
        }
    }
    // The database itself refuses a second user with the same handle in another case.
    let now = app.clock.now();
    let twin = user::ActiveModel {
        sub: Set("someone-else".into()),
        vmarket_id: Set(seeded.vmarket_id.to_uppercase()),
        name_ja: Set("双子".into()),
        name_en: Set("Twin".into()),
        icon_version: Set(0),
        score: Set(0),
        role: Set(Role::None),
        attribute: Set(vmarket::model::user::UserAttribute::None),
        min_token_generation: Set(0),
        lang: Set("ja".into()),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    assert!(twin.insert(&app.db).await.is_err());
}

#[rocket::async_test]
async fn signing_out_and_in_within_one_second_works_and_old_tokens_stay_dead() {
    let app = TestApp::builder().live().build().await;
    app.sign_up("quick@example.com", "quick", "早い", "Quick", "/").await;
    let before = app.sso_token().await;
    let instant = app.clock.now();
    app.sign_out().await;
    // Right after signing out, a page that needs sign-in sends the visitor to the account
    // service as usual (not to the loop guard's page).
    let (landed, status, _) = app.follow("/mypage".into()).await;
    assert!(landed.starts_with("/account/auth/vmarket_account?"), "{landed}");
    assert_eq!(status, 200);
    let (_, html) = app.open_account_page("/mypage").await;
    let (_, location, _) = app
        .submit(
            "/account/auth/sign_in",
            &html,
            &[("email", "quick@example.com"), ("password", "correct horse battery")],
        )
        .await;
    let (landed, status, _) = app.follow(location.unwrap()).await;
    assert_eq!(app.clock.now(), instant, "all in the same second");
    assert_eq!((landed.as_str(), status), ("/mypage", 200));
    assert_eq!(app.get("/api/v1/user/me").await.status().code, 200);
    assert_eq!(app.get_bearer("/api/v1/user/me", &before).await.0, 401);
}

#[rocket::async_test]
async fn an_automatic_sign_in_never_loops() {
    let app = TestApp::builder().live().build().await;
    app.sign_up("loop@example.com", "looper", "ループ", "Loop", "/mypage").await;
    // A browser that kept everything but the token right after a successful callback (say,
    // the token cookie was blocked): the next automatic attempt shows a page instead of
    // another round trip.
    let recent =
        app.client.cookies().get("vmarket_auth_recent").expect("a callback just succeeded").value().to_string();
    let blocked = app.browser().await;
    let res = blocked.get("/mypage").dispatch().await;
    let auto = res.headers().get_one("Location").unwrap().to_string();
    assert!(auto.ends_with("&auto=1"), "{auto}");
    let res = blocked.get(auto).cookie(Cookie::new("vmarket_auth_recent", recent)).dispatch().await;
    let status = res.status().code;
    let html = res.into_string().await.unwrap();
    assert_eq!(status, 401);
    assert_eq!(Doc::parse(&html).attr("[data-testid=auth-message]", "data-key"), "loop");
    // A sign-in the visitor asks for still goes through.
    let res = app.get("/auth/login?next=%2Fmypage").await;
    assert_eq!(res.status().code, 303);
}

#[rocket::async_test]
async fn a_link_or_a_foreign_form_signs_nobody_out() {
    let app = TestApp::builder().live().build().await;
    let me = app.with_user("stayer").await;
    let (status, html) = me.page("/auth/logout?next=%2Fworlds").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).text("h1"), "ログアウトしますか？");
    let res = app
        .client
        .post("/auth/logout")
        .cookie(Cookie::new("vmarket_token", me.token.clone()))
        .header(ContentType::Form)
        .body("next=%2F")
        .dispatch()
        .await;
    assert_eq!(res.status().code, 403);
    assert_eq!(me.get_json("/api/v1/user/me").await.0, 200, "still signed in");
    // The account service's sign-out link only asks as well.
    app.sign_up("sso@example.com", "sso_user", "エスエスオー", "SSO", "/").await;
    let (status, html) = app.page("/account/auth/logout?redirect_url=%2F").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=account-sign-out-form]"), 1);
    assert_eq!(app.get_json("/account/vso/me").await.0, 200, "the SSO session is alive");
}

#[rocket::async_test]
async fn outside_development_every_cookie_is_secure_and_pages_carry_the_headers() {
    let app =
        TestApp::builder().live().config(|c| c.environment = vmarket::config::Environment::Production).build().await;
    let mut set_cookies = Vec::new();
    let mut record = |res: &rocket::local::asynchronous::LocalResponse<'_>| {
        set_cookies.extend(res.headers().get("Set-Cookie").map(String::from));
    };
    let res = app.get("/__locale?lang=en&path=/worlds").await;
    record(&res);
    let res = app.get("/en/mypage").await;
    record(&res);
    let res = app.get("/auth/login?next=%2Fen%2Fworlds").await;
    record(&res);
    let account_page = local(res.headers().get_one("Location").unwrap(), &app.origin);
    let res = app.get(&account_page).await;
    record(&res);
    assert!(set_cookies.len() >= 4, "{set_cookies:?}");
    for cookie in &set_cookies {
        assert!(cookie.contains("Secure"), "{cookie}");
    }
    for path in ["/", "/en/worlds", "/api/v1/events"] {
        let res = app.get(path).await;
        let h = res.headers();
        assert_eq!(h.get_one("Strict-Transport-Security"), Some("max-age=31536000; includeSubDomains"), "{path}");
        let csp = h.get_one("Content-Security-Policy").unwrap();
        assert!(csp.contains("script-src 'self';") && csp.contains("style-src 'self';"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("object-src 'none'"), "{csp}");
        assert_eq!(h.get_one("Referrer-Policy"), Some("strict-origin-when-cross-origin"));
        assert_eq!(h.get_one("X-Content-Type-Options"), Some("nosniff"));
    }
    let dev = TestApp::new().await;
    let res = dev.get("/").await;
    assert_eq!(res.headers().get_one("Strict-Transport-Security"), None, "no HSTS in development");
    assert!(res.headers().get_one("Content-Security-Policy").is_some());
}

/// Found by `scripts/attack-check` against a release build: the cookies that sign-in and
/// sign-out delete (state, token, the SSO session) were deleted with a `Set-Cookie` lacking
/// `Secure`, although they had been set with it.
#[rocket::async_test]
async fn outside_development_cookies_are_deleted_with_secure_too() {
    let app =
        TestApp::builder().live().config(|c| c.environment = vmarket::config::Environment::Production).build().await;
    let set_cookies = |res: &rocket::local::asynchronous::LocalResponse<'_>| -> Vec<String> {
        res.headers().get("Set-Cookie").map(String::from).collect()
    };
    let mut seen = Vec::new();
    let (_, html) = app.open_account_page("/mypage").await;
    let fields = [
        ("email", "secure@example.com"),
        ("password", "correct horse battery"),
        ("vmarket_id", "secure_user"),
        ("name_ja", "安全"),
        ("name_en", "Secure"),
    ];
    let (status, callback, _) = app.submit("/account/auth/sign_up", &html, &fields).await;
    assert_eq!(status, 303);
    // The callback deletes the sign-in state and sets the token.
    let res = app.get(&local(&callback.unwrap(), &app.origin)).await;
    seen.extend(set_cookies(&res));
    // Sign-out deletes the token here and the SSO session at the account service.
    let csrf = app.csrf().await;
    let res = app
        .client
        .post("/auth/logout")
        .header(ContentType::Form)
        .body(format!("csrf_token={csrf}&next=%2F"))
        .dispatch()
        .await;
    seen.extend(set_cookies(&res));
    let account_logout = local(res.headers().get_one("Location").unwrap(), &app.origin);
    let res = app.get(&account_logout).await;
    seen.extend(set_cookies(&res));

    let deleted: Vec<&str> =
        seen.iter().filter(|c| c.contains("Max-Age=0")).map(|c| c.split('=').next().unwrap()).collect();
    for name in ["vmarket_sign_in", "vmarket_token", "vmarket_sso"] {
        assert!(deleted.contains(&name), "{name} is deleted: {seen:?}");
    }
    for cookie in &seen {
        assert!(cookie.contains("; Secure"), "{cookie}");
    }
}

/// Every redirect goes through `http::redirect`: no other source file builds a `Redirect`.
#[test]
fn only_the_safe_redirect_function_builds_redirects() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("http/redirect.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("Redirect::") || text.contains("Status::SeeOther") || text.contains("header::LOCATION")
                {
                    offenders.push(path.strip_prefix(&src).unwrap().display().to_string());
                }
            }
        }
    }
    assert!(offenders.is_empty(), "redirects built outside http/redirect.rs: {offenders:?}");
}
