//! Sign-in end to end over HTTP: sign up → SSO session → code exchange → token cookie → API →
//! profile update → sign out; plus the account service's checks (credentials, rate limit,
//! redirects, CSRF) and the guards on mypage.

use rocket::http::{ContentType, Cookie, Header, Method};

use crate::support::TestApp;
use crate::support::actors::{Via, json_of};
use crate::support::auth::{local, multipart, png};
use crate::support::html::Doc;

#[rocket::async_test]
async fn the_whole_sign_in_story() {
    let app = TestApp::builder().live().build().await;

    // Signed out: the header offers sign-in, mypage sends the visitor to sign in and back.
    let doc = Doc::parse(&app.page("/worlds").await.1);
    assert_eq!(doc.attr("[data-testid=sign-in]", "href"), "/auth/login?next=%2Fworlds");
    let res = app.get("/mypage").await;
    assert_eq!(res.headers().get_one("Location"), Some("/auth/login?next=%2Fmypage&auto=1"));

    // Sign up on the account service, come back to mypage, signed in.
    let landed = app.sign_up("akari@example.com", "akari_h", "星野あかり", "Akari Hoshino", "/mypage").await;
    assert_eq!(landed, "/mypage");
    let doc = Doc::parse(&app.page("/mypage").await.1);
    assert_eq!(doc.text("[data-testid=greeting]"), "星野あかりさん、こんにちは。");
    assert_eq!(doc.text("[data-testid=header-user-name]"), "星野あかり");
    assert_eq!(doc.count("[data-testid=sign-in]"), 0);
    let doc = Doc::parse(&app.page("/en/mypage").await.1);
    assert_eq!(doc.text("[data-testid=header-user-name]"), "Akari Hoshino");

    // The token cookie is HttpOnly; scripts get only the CSRF token.
    let res = app.get("/worlds").await;
    let jar = app.client.cookies();
    let token_cookie = jar.get("vmarket_token").expect("token cookie");
    assert_eq!(token_cookie.path(), Some("/"));
    assert!(res.into_string().await.unwrap_or_default().contains("name=\"csrf-token\""));

    // The account service knows the session; its token works as a bearer token on the API.
    let (status, me) = app.get_json("/account/vso/me").await;
    assert_eq!((status, me["vmarket_id"].as_str()), (200, Some("akari_h")));
    let jwt = app.sso_token().await;
    let (status, me) = app.get_bearer("/api/v1/user/me?lang=en", &jwt).await;
    assert_eq!(status, 200);
    assert_eq!(me["name"], "Akari Hoshino");
    assert_eq!(me["vmarket_id"], "akari_h");
    assert_eq!(me["icon"]["url"], serde_json::Value::Null);

    // Profile update through the cookie session (with CSRF), icon included.
    let csrf = app.csrf().await;
    let (ct, body) = multipart(
        &[
            ("name_ja", "ほしの あかり"),
            ("name_en", "Akari H."),
            ("external_links", r#"["https://akari.example/gallery"]"#),
        ],
        Some(&png(300, 200)),
    );
    let res = app
        .client
        .put("/api/v1/user/me")
        .header(ct)
        .header(Header::new("X-CSRF-Token", csrf))
        .body(body)
        .dispatch()
        .await;
    assert_eq!(res.status().code, 200);
    let me: serde_json::Value = serde_json::from_str(&res.into_string().await.unwrap()).unwrap();
    assert_eq!(me["name"], "ほしの あかり");
    assert_eq!(me["external_links"][0]["url"], "https://akari.example/gallery");
    let small = me["icon"]["small"].as_str().expect("icon stored").to_string();
    let res = app.get(&small).await;
    assert_eq!(res.status().code, 200);
    assert_eq!(res.content_type(), Some(ContentType::PNG));
    let icon = image::load_from_memory(&res.into_bytes().await.unwrap()).unwrap();
    assert_eq!((icon.width(), icon.height()), (64, 64));

    // The new name and icon appear wherever the user does.
    let doc = Doc::parse(&app.page("/worlds").await.1);
    assert_eq!(doc.text("[data-testid=header-user-name]"), "ほしの あかり");
    assert_eq!(doc.attr("[data-testid=header-user-icon]", "src"), small);
    let doc = Doc::parse(&app.page("/en/mypage").await.1);
    assert_eq!(doc.text("[data-testid=header-user-name]"), "Akari H.");

    // Sign out: a link only asks; the form (with the CSRF token) signs out. The cookie goes, the
    // SSO session goes, and even the old bearer token is dead.
    let (status, html) = app.page("/auth/logout?next=%2Fworlds").await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).count("[data-testid=sign-out-form]"), 1);
    assert_eq!(app.get("/mypage").await.status().code, 200, "a GET signs nobody out");
    let body = format!("csrf_token={}&next=%2Fworlds", app.csrf().await);
    let res = app.client.post("/auth/logout").header(ContentType::Form).body(body).dispatch().await;
    let to_account = res.headers().get_one("Location").expect("logout redirects").to_string();
    assert!(to_account.starts_with(&format!("{}/account/auth/logout?redirect_url=", app.origin)));
    let back = app.get(&local(&to_account, &app.origin)).await;
    assert_eq!(back.headers().get_one("Location"), Some(format!("{}/worlds", app.origin).as_str()));
    let doc = Doc::parse(&app.page("/worlds").await.1);
    assert_eq!(doc.count("[data-testid=sign-in]"), 1);
    assert_eq!(app.get("/mypage").await.status().code, 303);
    assert_eq!(app.get_json("/account/vso/me").await.0, 401);
    let (status, body) = app.get_bearer("/api/v1/user/me", &jwt).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));

    // Signing in again works at once — in the very second of the sign-out (the clock has not
    // moved) — and an existing SSO session skips the form.
    let (_, html) = app.open_account_page("/").await;
    let (status, location, _) = app
        .submit(
            "/account/auth/sign_in",
            &html,
            &[("email", "AKARI@example.com"), ("password", "correct horse battery")],
        )
        .await;
    assert_eq!(status, 303);
    app.follow(location.unwrap()).await;
    assert_eq!(app.get("/mypage").await.status().code, 200);
    assert_eq!(app.get_bearer("/api/v1/user/me", &jwt).await.0, 401, "the token from before the sign-out stays dead");
    let res = app
        .get(&local(app.get("/auth/login?next=%2Fworlds").await.headers().get_one("Location").unwrap(), &app.origin))
        .await;
    let silent = res.headers().get_one("Location").unwrap().to_string();
    assert!(silent.starts_with(&format!("{}/auth/callback?code=", app.origin)), "silent sign-in: {silent}");
    let (landed, status, _) = app.follow(silent).await;
    assert_eq!((landed.as_str(), status), ("/worlds", 200));
}

#[rocket::async_test]
async fn wrong_credentials_get_one_generic_message_and_are_rate_limited() {
    let app = TestApp::builder().live().config(|c| c.sign_in_per_minute = 4).build().await;
    app.sign_up("ren@example.com", "ren", "蓮", "Ren", "/").await;
    app.sign_out().await;
    let (_, html) = app.open_account_page("/").await;
    let mut messages = Vec::new();
    for (email, password) in [("ren@example.com", "wrong password"), ("nobody@example.com", "correct horse battery")] {
        let (status, _, body) =
            app.submit("/account/auth/sign_in", &html, &[("email", email), ("password", password)]).await;
        assert_eq!(status, 401);
        messages.push(Doc::parse(&body).text("[data-testid=account-error]"));
    }
    assert_eq!(messages[0], messages[1], "no hint whether the email exists");
    assert_eq!(messages[0], "メールアドレスまたはパスワードが正しくありません。");
    // The sign-up above counted as one attempt; two more fit, then 429.
    let (status, _, _) =
        app.submit("/account/auth/sign_in", &html, &[("email", "x@example.com"), ("password", "x")]).await;
    assert_eq!(status, 401);
    let res = app
        .client
        .post("/account/auth/sign_in")
        .header(ContentType::Form)
        .body(format!(
            "email=x%40example.com&password=x&redirect_url={}&state={}&code_challenge={}&csrf_token={}",
            urlencode(&Doc::parse(&html).attr("input[name=redirect_url]", "value")),
            Doc::parse(&html).attr("input[name=state]", "value"),
            Doc::parse(&html).attr("input[name=code_challenge]", "value"),
            Doc::parse(&html).attr("input[name=csrf_token]", "value")
        ))
        .dispatch()
        .await;
    assert_eq!(res.status().code, 429);
    let retry: u64 = res.headers().get_one("Retry-After").expect("Retry-After").parse().unwrap();
    assert!((1..=60).contains(&retry));
}

#[rocket::async_test]
async fn control_characters_never_reach_the_accounts() {
    let app = TestApp::builder().live().build().await;
    let (_, html) = app.open_account_page("/").await;
    let (status, _, body) = app
        .submit("/account/auth/sign_in", &html, &[("email", "a\u{0}@example.com"), ("password", "whatever pw")])
        .await;
    assert_eq!(status, 401);
    assert_eq!(
        Doc::parse(&body).text("[data-testid=account-error]"),
        "メールアドレスまたはパスワードが正しくありません。"
    );
    let fields = [
        ("email", "nul\u{0}@example.com"),
        ("password", "long enough pw"),
        ("vmarket_id", "nul_user"),
        ("name_ja", "ぬる\u{0}"),
        ("name_en", "Nul\u{1b}"),
    ];
    let (status, _, body) = app.submit("/account/auth/sign_up", &html, &fields).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&body);
    for field in ["email", "name_ja", "name_en"] {
        assert_eq!(doc.count(&format!("[data-testid=error-{field}]")), 1, "{field}");
    }

    // The profile refuses them too.
    let clean = app.with_user("clean_user").await;
    let fields = [("name_en", "Clean\u{0}"), ("external_links", r#"["https://a.example/\u0000"]"#)];
    let (status, body) = clean.multipart(Method::Put, "/api/v1/user/me?lang=en", &fields, None).await;
    assert_eq!(status, 422);
    let attributes: Vec<&str> =
        body["details"].as_array().unwrap().iter().map(|d| d["attribute"].as_str().unwrap()).collect();
    assert_eq!(attributes, ["name_en", "external_links"]);
    assert_eq!(body["details"][0]["message"], "Contains control characters that cannot be used.");
}

#[rocket::async_test]
async fn sign_up_explains_each_problem_and_keeps_the_input() {
    let app = TestApp::builder().live().build().await;
    let (_, html) = app.open_account_page("/en/worlds").await;
    let fields = [
        ("email", "not-an-email"),
        ("password", "short"),
        ("vmarket_id", "Bad Handle"),
        ("name_ja", ""),
        ("name_en", "Mio"),
    ];
    let (status, _, body) = app.submit("/account/auth/sign_up", &html, &fields).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&body);
    assert_eq!(doc.attr("html", "lang"), "en", "the page follows the language of the page the visitor came from");
    assert_eq!(doc.text("[data-testid=error-email]"), "Enter a valid email address.");
    assert_eq!(doc.text("[data-testid=error-password]"), "Use 8 to 128 characters for the password.");
    assert_eq!(doc.text("[data-testid=error-vmarket_id]"), "Use 3 to 32 lowercase letters, digits or _ for the ID.");
    assert_eq!(doc.text("[data-testid=error-name_ja]"), "Enter a Japanese display name of 1 to 64 characters.");
    assert_eq!(doc.count("[data-testid=error-name_en]"), 0);
    assert_eq!(doc.attr("[data-testid=sign-up-form] input[name=name_en]", "value"), "Mio");
    assert_eq!(doc.attr("[data-testid=sign-up-form] input[name=vmarket_id]", "value"), "Bad Handle");
    assert_eq!(doc.attrs("[data-testid=sign-up-form] input[name=password]", "value"), Vec::<String>::new());

    app.with_user("mio").await;
    let (_, html) = app.open_account_page("/").await;
    let taken = [
        ("email", "MIO@example.com"),
        ("password", "long enough pw"),
        ("vmarket_id", "mio2"),
        ("name_ja", "澪"),
        ("name_en", "Mio"),
    ];
    let (status, _, body) = app.submit("/account/auth/sign_up", &html, &taken).await;
    assert_eq!(status, 409);
    assert_eq!(
        Doc::parse(&body).text("[data-testid=error-email]"),
        "このメールアドレスはすでに登録されています。ログインしてください。"
    );
}

#[rocket::async_test]
async fn redirects_never_leave_the_site() {
    let app = TestApp::builder().live().build().await;
    for hostile in [
        "https://evil.example/",
        "//evil.example/",
        "https://127.0.0.1.evil.example/",
        "javascript:alert(1)",
        "/auth/callback",
    ] {
        let q = urlencode(hostile);
        let (status, body) = app
            .page(&format!("/account/auth/vmarket_account?redirect_url={q}&state=s&code_challenge={CHALLENGE}"))
            .await;
        assert_eq!(status, 400, "{hostile}");
        assert_eq!(Doc::parse(&body).count("form"), 0, "no sign-in form for {hostile}");
        let res = app.get(&format!("/account/auth/logout?redirect_url={q}")).await;
        assert_eq!(res.headers().get_one("Location"), Some(format!("{}/", app.origin).as_str()), "logout {hostile}");
    }
    // Whatever `next` says, the visitor lands on a page of this site.
    for hostile in
        ["//evil.example", "https%3A%2F%2Fevil.example", "%2Fapi%2Fv1%2Fuser%2Fme", "%2Fen%2F%2Fevil.example"]
    {
        let (_, html) = app.open_account_page_raw(&format!("/auth/login?next={hostile}")).await;
        let fields = fresh_sign_up(&format!("{hostile}@example.com"));
        let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, location, _) = app.submit("/account/auth/sign_up", &html, &fields).await;
        assert_eq!(status, 303);
        let (landed, status, _) = app.follow(location.unwrap()).await;
        assert_eq!((landed.as_str(), status), ("/", 200), "{hostile}");
        app.sign_out().await;
    }
    // A forged sign-in post without the form's token is refused.
    let (_, html) = app.open_account_page("/").await;
    let doc = Doc::parse(&html);
    let res = app
        .client
        .post("/account/auth/sign_in")
        .header(ContentType::Form)
        .body(format!(
            "email=a%40example.com&password=x&redirect_url={}&state={}&code_challenge={}",
            urlencode(&doc.attr("input[name=redirect_url]", "value")),
            doc.attr("input[name=state]", "value"),
            doc.attr("input[name=code_challenge]", "value"),
        ))
        .dispatch()
        .await;
    assert_eq!(res.status().code, 403);
    // A made-up code in a browser that started no sign-in signs nothing in.
    let res = app.get("/auth/callback?code=deadbeef&state=x").await;
    assert_eq!(res.headers().get_one("Location"), Some("/auth/failed?reason=state&lang=ja"));
}

/// A well-formed PKCE challenge for hand-made sign-in URLs.
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Sign-up fields for a new account whose handle is derived from `email`.
fn fresh_sign_up(email: &str) -> Vec<(&'static str, String)> {
    let handle: String =
        email.chars().filter(|c| c.is_ascii_alphanumeric()).take(20).collect::<String>().to_lowercase();
    vec![
        ("email", format!("{handle}@example.com")),
        ("password", "correct horse battery".into()),
        ("vmarket_id", format!("u_{handle}")),
        ("name_ja", "テスト".into()),
        ("name_en", "Test".into()),
    ]
}

#[rocket::async_test]
async fn cookie_requests_need_the_csrf_token_and_users_see_only_themselves() {
    let app = TestApp::builder().live().build().await;
    let sora = app.with_named_user("sora", "空", "Sora").await;
    let me = "/api/v1/user/me";
    // The browser's cookie without the CSRF header, or with one that does not match its cookie.
    let (ct, body) = multipart(&[("name_ja", "乗っ取り")], None);
    let token = Cookie::new("vmarket_token", sora.token.clone());
    let res = app.client.put(me).cookie(token.clone()).header(ct.clone()).body(body.clone()).dispatch().await;
    let (status, err) = json_of(res).await;
    assert_eq!((status, err["code"].as_str()), (403, Some("csrf_failed")));
    let res = app
        .client
        .put(me)
        .cookie(token)
        .cookie(Cookie::new("vmarket_csrf", "1".repeat(64)))
        .header(ct)
        .header(Header::new("X-CSRF-Token", "0".repeat(64)))
        .body(body)
        .dispatch()
        .await;
    assert_eq!(res.status().code, 403);
    assert_eq!(sora.via(Via::Cookie).get_json(me).await.1["name_ja"], "空");

    // Another user: each token sees its own user only.
    let umi = app.with_user("umi").await;
    assert_eq!(umi.get_json(me).await.1["vmarket_id"], "umi");
    assert_eq!(sora.get_json(me).await.1["vmarket_id"], "sora");
    assert_eq!(sora.via(Via::Cookie).get_json(me).await.1["vmarket_id"], "sora", "the browser session stays sora's");

    // Bearer calls need no CSRF token; bad input gets field errors and changes nothing.
    let fields = [
        ("name_ja", "あ".repeat(65)),
        ("name_en", String::new()),
        ("external_links", r#"["ftp://x.example","https://ok.example"]"#.to_string()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, err) = sora.multipart(Method::Put, "/api/v1/user/me?lang=en", &fields, None).await;
    assert_eq!(status, 422);
    let attrs: Vec<_> =
        err["details"].as_array().unwrap().iter().map(|d| d["attribute"].as_str().unwrap().to_string()).collect();
    assert_eq!(attrs, ["name_ja", "name_en", "external_links"]);
    assert_eq!(err["details"][0]["message"], "Use at most 64 characters.");
    assert_eq!(sora.get_json(me).await.1["name_ja"], "空");

    // Not an image, and too large.
    let (status, _) = sora.multipart(Method::Put, me, &[], Some(("icon", "icon.png", b"this is not a picture"))).await;
    assert_eq!(status, 422);
    let big = vec![0u8; 6 * 1024 * 1024];
    let (status, _) = sora.multipart(Method::Put, me, &[], Some(("icon", "icon.png", &big))).await;
    assert_eq!(status, 413);
}

#[rocket::async_test]
async fn signed_out_api_calls_are_401() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/user/me?lang=en").await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "unauthorized");
    assert_eq!(body["message"], "Please sign in.");
    let (ct, form) = multipart(&[("name_ja", "x")], None);
    let res = app.client.put("/api/v1/user/me").header(ct).body(form).dispatch().await;
    assert_eq!(res.status().code, 401);
}
