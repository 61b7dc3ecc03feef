//! `GET /api/ogp`: link previews fetched from real loopback HTTP servers (allowed through
//! `link_preview_allowed_hosts`), the SSRF refusals proven by a canary that must see no
//! connection, redirects, limits, the cache and the rate limit.

use std::time::{Duration, Instant};

use rocket::http::Status;
use sea_orm::EntityTrait;
use serde_json::{Value, json};
use vmarket::config::Config;
use vmarket::db::entities::link_preview;

use crate::support::http::{Canary, FakeServer, Reply, html, redirect, response};
use crate::support::{TestApp, default_now};

/// The `/api/ogp` path for `url`.
fn ogp(url: &str) -> String {
    format!("/api/ogp?url={}", url::form_urlencoded::byte_serialize(url.as_bytes()).collect::<String>())
}

/// The pages every test server knows.
fn site(path: &str) -> Reply {
    match path {
        "/page" => html(
            r#"<!doctype html><html><head><title>Fallback title</title>
            <meta property="og:title" content="Winter market &amp; friends">
            <meta property="og:image" content="/img/cover.png"></head><body>hi</body></html>"#,
        ),
        "/plain" => html("<html><head><title>\n  Just a   title </title><meta name=\"twitter:image\" content=\"https://cdn.example.net/t.jpg\"></head></html>"),
        "/deep/page.html" => html(r#"<meta property="og:title" content="Deep"><meta property="og:image" content="img/b.png">"#),
        "/moved" => redirect("/deep/page.html"),
        "/data.json" => response("200 OK", &[("Content-Type", "application/json")], br#"{"title":"not html"}"#),
        "/missing" => response("404 Not Found", &[("Content-Type", "text/html")], b"<title>Not Found</title>"),
        "/flaky" => response("503 Service Unavailable", &[("Content-Type", "text/html")], b"<title>Busy</title>"),
        "/sjis" => {
            let (body, _, _) = encoding_rs::SHIFT_JIS.encode("<title>バーチャルマーケット2026 Winter</title>");
            response("200 OK", &[("Content-Type", "text/html; charset=Shift_JIS")], &body)
        }
        "/huge" => Reply::Stream {
            head: b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><head><title>Big page</title></head><body>"
                .to_vec(),
            filler: vec![b'x'; 64 * 1024],
            total: 64 * 1024 * 1024,
        },
        "/slow" => Reply::Stall,
        "/slow-body" => Reply::StallAfter(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<title>".to_vec()),
        p if p.starts_with("/chain/") => match p["/chain/".len()..].parse::<u32>() {
            Ok(0) => html("<title>End of chain</title>"),
            Ok(n) => redirect(&format!("/chain/{}", n - 1)),
            Err(_) => response("400 Bad Request", &[], b""),
        },
        _ => response("404 Not Found", &[], b""),
    }
}

/// An app that may fetch only from `server` (and nothing else on loopback).
async fn app_for(server: &FakeServer, change: impl FnOnce(&mut Config) + 'static) -> TestApp {
    let allowed = server.host_port();
    TestApp::builder()
        .config(move |c| {
            c.link_preview_allowed_hosts = vec![allowed];
            c.link_preview_timeout_ms = 1_500;
            c.link_preview_per_minute = 1_000;
            change(c);
        })
        .build()
        .await
}

#[rocket::async_test]
async fn reads_open_graph_title_and_absolute_image() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let (status, body) = app.get_json(&ogp(&server.url("/page"))).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"title": "Winter market & friends", "image": server.url("/img/cover.png"), "status": 200}));

    let (_, body) = app.get_json(&ogp(&server.url("/plain"))).await;
    assert_eq!(body, json!({"title": "Just a title", "image": "https://cdn.example.net/t.jpg", "status": 200}));

    let (_, body) = app.get_json(&ogp(&server.url("/sjis"))).await;
    assert_eq!(body["title"], "バーチャルマーケット2026 Winter");
}

#[rocket::async_test]
async fn resolves_the_image_against_the_final_url_after_redirects() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let (status, body) = app.get_json(&ogp(&server.url("/moved#fragment"))).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"title": "Deep", "image": server.url("/deep/img/b.png"), "status": 200}));
    assert_eq!(server.paths(), ["/moved", "/deep/page.html"]);
}

#[rocket::async_test]
async fn non_html_and_error_pages_give_the_status_without_a_preview() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let (status, body) = app.get_json(&ogp(&server.url("/data.json"))).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"title": null, "image": null, "status": 200}));
    let (status, body) = app.get_json(&ogp(&server.url("/missing"))).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"title": null, "image": null, "status": 404}));
}

#[rocket::async_test]
async fn an_oversized_body_is_cut_off_after_one_mebibyte() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let started = Instant::now();
    let (status, body) = app.get_json(&ogp(&server.url("/huge"))).await;
    assert_eq!(status, 200);
    assert_eq!(body["title"], "Big page", "the head within the first MiB is read");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let streamed = server.streamed();
    assert!(streamed < 16 * 1024 * 1024, "the server could push only {streamed} of 64 MiB before the app hung up");
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
}

#[rocket::async_test]
async fn a_slow_server_times_out_with_504() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |c| c.link_preview_timeout_ms = 700).await;
    for path in ["/slow", "/slow-body"] {
        let started = Instant::now();
        let (status, body) = app.get_json(&format!("{}&lang=en", ogp(&server.url(path)))).await;
        let took = started.elapsed();
        assert_eq!(status, 504, "{path}: {body}");
        assert_eq!(body["code"], "upstream_timeout");
        assert_eq!(body["message"], "The page took too long to respond.");
        assert!(took >= Duration::from_millis(650) && took < Duration::from_secs(3), "{path} gave up after {took:?}");
    }
}

#[rocket::async_test]
async fn follows_five_redirects_and_refuses_the_sixth() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let (status, body) = app.get_json(&ogp(&server.url("/chain/5"))).await;
    assert_eq!(status, 200);
    assert_eq!(body["title"], "End of chain");
    assert_eq!(server.paths().len(), 6, "five redirects and the page");

    let (status, body) = app.get_json(&ogp(&server.url("/chain/6"))).await;
    assert_eq!(status, 502);
    assert_eq!(body["code"], "too_many_redirects");
    assert_eq!(body["message"], "リダイレクトが多すぎるため、ページを取得できませんでした。");
    assert_eq!(server.hits("/chain/0"), 1, "the seventh request is never made");
    assert_eq!(server.paths().len(), 12);
}

#[rocket::async_test]
async fn a_redirect_to_a_private_address_is_refused_before_connecting() {
    let canary = Canary::start().await;
    canary.self_test().await;
    let port = canary.port;
    let server = FakeServer::start(move |path| match path {
        "/to-canary" => redirect(&format!("http://127.0.0.1:{port}/")),
        "/to-decimal" => redirect(&format!("http://2130706433:{port}/")),
        "/to-v6" => redirect(&format!("http://[::ffff:127.0.0.1]:{port}/")),
        "/to-localhost" => redirect(&format!("http://localhost:{port}/")),
        "/to-metadata" => redirect("http://169.254.169.254/latest/meta-data/"),
        "/to-file" => redirect("file:///etc/passwd"),
        "/to-hostname" => {
            redirect(&format!("http://{}:{port}/", local_hostname().unwrap_or_else(|| "localhost".into())))
        }
        p => site(p),
    })
    .await;
    let app = app_for(&server, |_| {}).await;
    for path in ["/to-canary", "/to-decimal", "/to-v6", "/to-localhost", "/to-hostname", "/to-metadata", "/to-file"] {
        let (status, body) = app.get_json(&ogp(&server.url(path))).await;
        assert_eq!((status, body["code"].as_str()), (422, Some("url_not_allowed")), "{path}: {body}");
    }
    // The allowed server itself, reached under another name, is not allowed either.
    let same_server_by_name = format!("http://localhost:{}/page", server.addr.port());
    let (status, body) = app.get_json(&ogp(&same_server_by_name)).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("url_not_allowed")));
    assert_eq!(server.hits("/page"), 0);
    assert_eq!(canary.hits(), 0, "no refused redirect reached a socket");
}

#[rocket::async_test]
async fn an_unreachable_server_is_a_502() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let app = TestApp::builder().config(move |c| c.link_preview_allowed_hosts = vec![closed.to_string()]).build().await;
    let (status, body) = app.get_json(&ogp(&format!("http://{closed}/"))).await;
    assert_eq!(status, 502);
    assert_eq!(body["code"], "upstream_unreachable");
}

#[rocket::async_test]
async fn results_are_cached_for_an_hour_across_requests() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |_| {}).await;
    let url = server.url("/page");
    let (_, first) = app.get_json(&ogp(&url)).await;
    app.get_json(&ogp(&server.url("/plain"))).await;
    let (_, second) = app.get_json(&ogp(&url)).await;
    assert_eq!(first, second);
    assert_eq!(first["title"], "Winter market & friends");
    assert_eq!(server.hits("/page"), 1, "the second answer came from the cache");

    app.clock.set(default_now() + chrono::Duration::minutes(59));
    app.get_json(&ogp(&url)).await;
    assert_eq!(server.hits("/page"), 1);
    app.clock.set(default_now() + chrono::Duration::minutes(61));
    let (_, third) = app.get_json(&ogp(&url)).await;
    assert_eq!(third, first);
    assert_eq!(server.hits("/page"), 2, "expired after the TTL");
    let rows = link_preview::Entity::find().all(&app.db).await.unwrap();
    let urls: Vec<_> = rows.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(urls, [url.as_str()], "the expired /plain row was pruned, /page was refreshed");

    // Server errors on the remote side are not cached.
    for _ in 0..2 {
        let (_, body) = app.get_json(&ogp(&server.url("/flaky"))).await;
        assert_eq!(body, json!({"title": null, "image": null, "status": 503}));
    }
    assert_eq!(server.hits("/flaky"), 2);
}

#[rocket::async_test]
async fn each_client_ip_is_rate_limited_with_retry_after() {
    let server = FakeServer::start(site).await;
    let app = app_for(&server, |c| c.link_preview_per_minute = 3).await;
    let url = ogp(&server.url("/page"));
    let alice = "198.51.100.7:40000".parse().unwrap();
    for _ in 0..3 {
        let res = app.client.get(url.clone()).remote(alice).dispatch().await;
        assert_eq!(res.status(), Status::Ok);
    }
    let res = app.client.get(format!("{url}&lang=en")).remote(alice).dispatch().await;
    assert_eq!(res.status(), Status::TooManyRequests);
    let retry_after: u64 = res.headers().get_one("Retry-After").expect("Retry-After").parse().expect("seconds");
    assert!((1..=20).contains(&retry_after), "one request per 20 s comes back, got {retry_after}");
    let body: Value = serde_json::from_str(&res.into_string().await.unwrap()).unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(body["message"], "Too many requests. Please wait a moment and try again.");

    let bob = "203.0.113.9:40000".parse().unwrap();
    let res = app.client.get(url).remote(bob).dispatch().await;
    assert_eq!(res.status(), Status::Ok, "another client is not affected");
}

#[rocket::async_test]
async fn bad_input_is_a_validation_error() {
    let app = TestApp::new().await;
    for path in ["/api/ogp", "/api/ogp?url=", "/api/ogp?url=%2Fworlds", "/api/ogp?url=http%3A%2F%2F"] {
        let (status, body) =
            app.get_json(&format!("{path}{}lang=en", if path.contains('?') { "&" } else { "?" })).await;
        assert_eq!(status, 422, "{path}");
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["details"][0]["attribute"], "url");
        assert_eq!(body["details"][0]["message"], "Must be an absolute http or https URL of at most 2048 characters.");
    }
    let long = format!("https://example.com/{}", "a".repeat(2100));
    let (status, _) = app.get_json(&ogp(&long)).await;
    assert_eq!(status, 422);
}

#[rocket::async_test]
async fn openapi_documents_the_link_preview() {
    let app = TestApp::new().await;
    let (_, doc) = app.get_json("/api-docs/openapi.json").await;
    assert!(doc["paths"]["/api/ogp"]["get"].is_object());
    let props = &doc["components"]["schemas"]["LinkPreview"]["properties"];
    assert!(props["title"].is_object() && props["image"].is_object() && props["status"].is_object());
}

/// Hostile URLs aimed at the canary's port (or at well-known internal services), and the code
/// each must be refused with.
fn hostile_urls(p: u16) -> Vec<(String, &'static str)> {
    let refused = [
        format!("http://127.0.0.1:{p}/"),
        format!("http://127.0.0.2:{p}/"),
        format!("http://localhost:{p}/"),
        format!("http://LOCALHOST.:{p}/"),
        format!("http://foo.localhost:{p}/"),
        format!("http://[::1]:{p}/"),
        format!("http://[::]:{p}/"),
        format!("http://0.0.0.0:{p}/"),
        format!("http://0:{p}/"),
        format!("http://2130706433:{p}/"),
        format!("http://0x7f000001:{p}/"),
        format!("http://0177.0.0.1:{p}/"),
        format!("http://127.1:{p}/"),
        format!("http://0x7f.0.0.1:{p}/"),
        format!("http://127.0.0.1.:{p}/"),
        format!("http://%31%32%37.0.0.1:{p}/"),
        format!("http://①②⑦.0.0.1:{p}/"),
        format!("http://[::ffff:127.0.0.1]:{p}/"),
        format!("http://[0:0:0:0:0:ffff:7f00:1]:{p}/"),
        format!("http://[::127.0.0.1]:{p}/"),
        format!("http://[64:ff9b::127.0.0.1]:{p}/"),
        format!("http://[64:ff9b::10.0.0.1]:{p}/"),
        format!("http://[2002:7f00:1::]:{p}/"),
        format!("http://[2002:c0a8:101::1]:{p}/"),
        format!("http://10.0.0.1:{p}/"),
        format!("http://172.16.0.1:{p}/"),
        format!("http://192.168.1.1:{p}/"),
        format!("http://100.64.0.1:{p}/"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        "http://0xa9fea9fe/latest/meta-data/".to_string(),
        "http://[fd00:ec2::254]/latest/meta-data/".to_string(),
        "http://[::ffff:169.254.169.254]/".to_string(),
        "http://metadata.google.internal/computeMetadata/v1/".to_string(),
        format!("http://[fe80::1]:{p}/"),
        format!("http://[fc00::1]:{p}/"),
        format!("http://224.0.0.1:{p}/"),
        format!("http://255.255.255.255:{p}/"),
        format!("http://192.0.2.1:{p}/"),
        format!("http://198.18.0.1:{p}/"),
        format!("http://[2001:db8::1]:{p}/"),
        format!("https://127.0.0.1:{p}/"),
        format!("HTTP://127.0.0.1:{p}/"),
        format!("http:///127.0.0.1:{p}/"),
        format!("http:\\\\127.0.0.1:{p}\\"),
        format!("http://127.0.0.1:{p}#@example.com/"),
        format!("http://example.com@127.0.0.1:{p}/"),
        format!("http://user:pass@example.com:{p}/"),
        format!("ftp://127.0.0.1:{p}/"),
        format!("gopher://127.0.0.1:{p}/_GET"),
        "file:///etc/passwd".to_string(),
        "javascript:alert(1)".to_string(),
        "data:text/html,<title>x</title>".to_string(),
    ];
    let invalid =
        [format!("//127.0.0.1:{p}/"), format!("127.0.0.1:{p}"), "http://".to_string(), format!("http://[::1:{p}/")];
    refused
        .into_iter()
        .map(|u| (u, "url_not_allowed"))
        .chain(invalid.into_iter().map(|u| (u, "validation_failed")))
        .collect()
}

/// This machine's host name, if it resolves only to addresses that are not public.
fn local_hostname() -> Option<String> {
    use std::net::ToSocketAddrs;
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?.trim().to_lowercase();
    let addrs: Vec<_> = (name.as_str(), 0).to_socket_addrs().ok()?.collect();
    let local = !addrs.is_empty() && addrs.iter().all(|a| !vmarket::linkpreview::ip::is_public(a.ip()));
    local.then_some(name)
}

#[rocket::async_test]
async fn hostile_urls_are_refused_before_any_connection() {
    let canary = Canary::start().await;
    canary.self_test().await;
    let app = TestApp::builder().config(|c| c.link_preview_per_minute = 1_000).build().await;
    let mut cases = hostile_urls(canary.port);
    assert!(cases.len() >= 30);
    // A name that only resolution can judge: this machine's host name, when it resolves to a
    // local (loopback or private) address, the way a rebinding domain would.
    if let Some(name) = local_hostname() {
        cases.push((format!("http://{name}:{}/", canary.port), "url_not_allowed"));
    }
    for (url, code) in &cases {
        let (status, body) = app.get_json(&format!("{}&lang=en", ogp(url))).await;
        assert_eq!((status, body["code"].as_str()), (422, Some(*code)), "{url} → {body}");
        assert!(!body["message"].as_str().unwrap_or_default().is_empty(), "{url} has a message");
    }
    let (_, body) = app.get_json(&ogp(&format!("http://127.0.0.1:{}/", canary.port))).await;
    assert_eq!(
        body["message"],
        "このURLのプレビューは表示できません。公開されている http / https のページを指定してください。"
    );
    assert_eq!(canary.hits(), 0, "no hostile URL reached a socket");
}
