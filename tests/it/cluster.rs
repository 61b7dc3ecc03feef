//! Through the cluster (issue 32 item 5; README "Running at scale"): Varnish in front of two
//! `vmarket serve` nodes, a worker, PostgreSQL and moto's S3 server, as `scripts/cluster up`
//! starts them. Ignored in the ordinary suites; `make test-cluster` brings the cluster up, runs
//! them one at a time (`--run-ignored only`) and takes it down. They read the cluster's `env`
//! file (`VMARKET_CLUSTER_ENV`, default `target/cluster/env`) and act as the demo accounts with
//! tokens signed by the cluster's own key, as the account service would after a sign-in.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use vmarket::db::entities::{account, user};

use crate::support::auth::multipart_with;

/// The running cluster.
struct Cluster {
    env: HashMap<String, String>,
    db: DatabaseConnection,
    http: reqwest::Client,
}

impl Cluster {
    async fn open() -> Self {
        let file = std::env::var("VMARKET_CLUSTER_ENV")
            .map(PathBuf::from)
            .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/cluster/env"));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: {e} — start the cluster first: scripts/cluster up", file.display()));
        let env: HashMap<String, String> = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.trim_matches('"').to_string()))
            .collect();
        let db = vmarket::db::connect(&env["DATABASE_URL"]).await.expect("the cluster's database");
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        Self { env, db, http }
    }

    /// Varnish's URL of `path`.
    fn front(&self, path: &str) -> String {
        format!("{}{path}", self.env["URL"])
    }

    /// Node `n`'s own URL of `path`.
    fn node(&self, n: u8, path: &str) -> String {
        format!("{}{path}", self.env[&format!("NODE{n}_URL")])
    }

    /// A token of the demo account `email`, signed with the cluster's key, and its user.
    async fn token(&self, email: &str) -> (String, user::Model) {
        let account = account::Entity::find()
            .filter(account::Column::Email.eq(email))
            .one(&self.db)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("demo account {email}"));
        let issuer = format!("{}/account", self.env["URL"]);
        let token = vmarket::account::tokens::issue(&self.db, &account, &issuer, chrono::Utc::now()).await.unwrap();
        let user = user::Entity::find().filter(user::Column::Sub.eq(&account.sub)).one(&self.db).await.unwrap();
        (token, user.unwrap_or_else(|| panic!("the user of {email}")))
    }

    /// GETs `url` with optional extra headers; status, `X-Cache` and body.
    async fn get(&self, url: &str, headers: &[(&str, String)]) -> (u16, String, String) {
        let mut req = self.http.get(url);
        for (name, value) in headers {
            req = req.header(*name, value);
        }
        let res = req.send().await.unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let status = res.status().as_u16();
        let cache = res.headers().get("x-cache").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        (status, cache, res.text().await.unwrap_or_default())
    }

    /// GETs `url` through Varnish until it is answered from the cache.
    async fn cached(&self, url: &str) -> String {
        for _ in 0..20 {
            let (status, cache, body) = self.get(url, &[]).await;
            assert_eq!(status, 200, "{url}");
            if cache == "HIT" {
                return body;
            }
        }
        panic!("{url} never came from the cache");
    }
}

fn bearer(token: &str) -> (&'static str, String) {
    ("Authorization", format!("Bearer {token}"))
}

fn cookie(token: &str) -> (&'static str, String) {
    ("Cookie", format!("vmarket_token={token}; i18n_redirected=ja; _ga=GA1.1.1"))
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn a_write_through_one_node_shows_through_varnish_within_a_second() {
    let c = Cluster::open().await;
    let list = c.front("/api/v1/2026Winter/hub_notifications?category=user_event&locale=jp&limit=100");
    let before = c.cached(&list).await;
    let title = format!("クラスタ越しの灯り {}", std::process::id());
    assert!(!before.contains(&title));

    let (token, _) = c.token("exhibitor@demo.vmarket.test").await;
    let (_, _, worlds) = c.get(&c.node(1, "/api/v1/2026Winter/worlds?limit=1"), &[]).await;
    let world: Value = serde_json::from_str(&worlds).unwrap();
    let world = world["data"][0]["id"].as_i64().unwrap().to_string();
    let fields = [
        ("title", title.as_str()),
        ("content", "ノード1から書いて、Varnish から読む。"),
        ("start_at", "2026-12-13T20:00:00+09:00"),
        ("end_at", "2026-12-13T22:00:00+09:00"),
        ("locale", "jp"),
        ("category", "user_event"),
        ("world_id", world.as_str()),
    ];
    let (ct, body) = multipart_with(&fields, None);
    let res = c
        .http
        .post(c.node(1, "/api/v1/user/2026Winter/hub_notifications"))
        .header("Authorization", format!("Bearer {token}"))
        .header("Content-Type", ct.to_string())
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 201, "{}", res.text().await.unwrap_or_default());
    let written = Instant::now();
    loop {
        let (_, _, body) = c.get(&list, &[]).await;
        if body.contains(&title) {
            break;
        }
        assert!(written.elapsed() < Duration::from_secs(1), "the write shows through Varnish within a second");
        rocket::tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn a_signed_in_page_never_reaches_another_user_or_an_anonymous_visitor() {
    let c = Cluster::open().await;
    let (kaede, kaede_account) = c.token("exhibitor@demo.vmarket.test").await;
    let (noa, noa_account) = c.token("friend@demo.vmarket.test").await;
    for path in ["/", "/worlds", "/en/worlds", "/catalog"] {
        let url = c.front(path);
        c.cached(&url).await;
        let (status, cache, mine) = c.get(&url, &[cookie(&kaede)]).await;
        assert_eq!((status, cache.as_str()), (200, "MISS"), "{path}: signed in, always from a node");
        assert!(mine.contains(&kaede_account.name_ja) || mine.contains(&kaede_account.name_en), "{path}");
        for _ in 0..3 {
            let (_, _, anonymous) = c.get(&url, &[]).await;
            assert!(!anonymous.contains(&kaede_account.name_ja), "{path}: never to the public");
            let (_, _, theirs) = c.get(&url, &[cookie(&noa)]).await;
            assert!(theirs.contains(&noa_account.name_ja) || theirs.contains(&noa_account.name_en), "{path}");
            assert!(!theirs.contains(&kaede_account.name_ja), "{path}: never to another user");
        }
    }
    let (status, _, me) = c.get(&c.front("/api/v1/user/me"), &[bearer(&kaede)]).await;
    assert_eq!(status, 200);
    assert!(me.contains(&kaede_account.vmarket_id), "{me}");
    let (status, _, _) = c.get(&c.front("/api/v1/user/me"), &[]).await;
    assert_eq!(status, 401, "an anonymous call is never answered with someone's copy");
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn moving_the_clock_shows_at_once_through_varnish() {
    let c = Cluster::open().await;
    let (admin, _) = c.token("admin@demo.vmarket.test").await;
    let top = c.front("/worlds");
    let before = c.cached(&top).await;
    assert!(!before.contains("time-travel-banner"));
    let res = c
        .http
        .put(c.node(2, "/api/v1/admin/time_travel"))
        .header("Authorization", format!("Bearer {admin}"))
        .json(&json!({"timestamp": "2026-12-12T12:00:00+09:00"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{}", res.text().await.unwrap_or_default());
    let moved = Instant::now();
    let shown = loop {
        let (_, _, body) = c.get(&top, &[]).await;
        if body.contains("time-travel-banner") {
            break moved.elapsed();
        }
        // Each node reads the offset once a second; the purge follows within the poll.
        assert!(moved.elapsed() < Duration::from_secs(3), "the travelled clock shows through Varnish");
        rocket::tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let res = c
        .http
        .delete(c.node(1, "/api/v1/admin/time_travel"))
        .header("Authorization", format!("Bearer {admin}"))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let back = Instant::now();
    loop {
        let (_, _, body) = c.get(&top, &[]).await;
        if !body.contains("time-travel-banner") {
            break;
        }
        assert!(back.elapsed() < Duration::from_secs(3), "the real clock is back through Varnish");
        rocket::tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!("the travelled clock showed through Varnish after {shown:?}");
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn an_upload_s_parts_sent_through_both_nodes_complete() {
    let c = Cluster::open().await;
    let (token, _) = c.token("exhibitor@demo.vmarket.test").await;
    // Over 5 MiB: two parts, straight to the object store through presigned URLs.
    const MIB5: usize = 5 * 1024 * 1024;
    let bytes = vmarket::assets::analyse::samples::wav((MIB5 / 2) as u32 + 200_000, 44_100);
    let body = json!({"asset_setting_label": "scene_asset", "name": "クラスタの雨", "description": "",
                      "file_name": "rain.wav", "byte_size": bytes.len()});
    let res = c.http.post(c.node(1, "/uploader/assets")).bearer_auth(&token).json(&body).send().await.unwrap();
    let status = res.status().as_u16();
    let opened: Value = res.json().await.unwrap();
    assert_eq!(status, 201, "{opened}");
    let (asset_id, version_id) = (opened["asset"]["id"].as_i64().unwrap(), opened["version"]["id"].as_i64().unwrap());
    let put = |url: String, part: Vec<u8>| {
        let http = c.http.clone();
        async move {
            let res = http.put(&url).body(part).send().await.unwrap();
            assert_eq!(res.status().as_u16(), 200, "{url}");
            res.headers().get("etag").and_then(|v| v.to_str().ok()).unwrap().to_string()
        }
    };
    let first_url = opened["upload"]["parts"][0]["url"].as_str().unwrap().to_string();
    assert!(first_url.starts_with(&c.env["S3_URL"]), "the part goes to the object store: {first_url}");
    let first = put(first_url, bytes[..MIB5].to_vec()).await;
    // The page resumes through the other node: it learns what arrived from the store.
    let upload = format!("/uploader/uploads/{}", opened["upload"]["id"].as_str().unwrap());
    let (status, _, resumed) = c.get(&c.node(2, &upload), &[bearer(&token)]).await;
    assert_eq!(status, 200, "{resumed}");
    let resumed: Value = serde_json::from_str(&resumed).unwrap();
    assert_eq!(resumed["parts_received"].as_array().map(Vec::len), Some(1), "{resumed}");
    let second = put(resumed["parts"][1]["url"].as_str().unwrap().to_string(), bytes[MIB5..].to_vec()).await;
    // The first node completes it.
    let complete = opened["upload"]["complete_url"].as_str().unwrap();
    let complete = &complete[complete.find("/uploader/").unwrap()..];
    let parts = json!({"parts": [{"part_number": 1, "etag": first}, {"part_number": 2, "etag": second}]});
    let res = c.http.post(c.node(1, complete)).bearer_auth(&token).json(&parts).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200, "{}", res.text().await.unwrap_or_default());
    // The worker analyses it; either node (through Varnish) tells the result.
    let start = Instant::now();
    loop {
        let (status, _, asset) = c.get(&c.front(&format!("/uploader/assets/{asset_id}")), &[bearer(&token)]).await;
        assert_eq!(status, 200, "{asset}");
        let asset: Value = serde_json::from_str(&asset).unwrap();
        let version = asset["asset_versions"].as_array().unwrap().iter().find(|v| v["id"] == version_id).cloned();
        let state = version.as_ref().and_then(|v| v["upload_status"].as_str()).unwrap_or_default().to_string();
        if state == "uploaded" {
            break;
        }
        assert!(!matches!(state.as_str(), "failed" | "expired"), "{asset}");
        assert!(start.elapsed() < Duration::from_secs(60), "the worker settles the upload: {asset}");
        rocket::tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn killing_a_node_under_load_loses_no_request() {
    let c = Cluster::open().await;
    let (token, _) = c.token("exhibitor@demo.vmarket.test").await;
    let paths = ["/", "/worlds", "/catalog", "/api/v1/events", "/api/v1/2026Summer/worlds?limit=50"];
    let stop = Instant::now() + Duration::from_secs(8);
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let http = c.http.clone();
        let front = c.env["URL"].clone();
        let token = token.clone();
        tasks.push(rocket::tokio::spawn(async move {
            let mut answered = Vec::new();
            let mut i = worker;
            while Instant::now() < stop {
                // Every other request carries a credential: Varnish passes it to a node.
                let path = paths[i % paths.len()];
                let mut req = http.get(format!("{front}{path}"));
                if i % 2 == 0 {
                    req = req.header("Cookie", format!("vmarket_token={token}"));
                }
                let status = match req.send().await {
                    Ok(res) => res.status().as_u16(),
                    Err(e) => panic!("{path}: {e}"),
                };
                answered.push((path, status));
                i += 1;
            }
            answered
        }));
    }
    rocket::tokio::time::sleep(Duration::from_secs(2)).await;
    let killed = std::process::Command::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster"))
        .args(["kill", "2"])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut answered = Vec::new();
    for task in tasks {
        answered.extend(task.await.unwrap());
    }
    let failed: Vec<_> = answered.iter().filter(|(_, s)| *s >= 500).collect();
    assert!(answered.len() > 100, "{} requests", answered.len());
    assert!(failed.is_empty(), "{} of {} failed: {:?}", failed.len(), answered.len(), &failed[..failed.len().min(10)]);
    let started = std::process::Command::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster"))
        .args(["start", "2"])
        .status()
        .unwrap();
    assert!(started.success(), "node 2 starts again");
    eprintln!("{} requests, none lost, node 2 killed mid-way", answered.len());
}

#[rocket::async_test]
#[ignore = "needs the cluster: make test-cluster"]
async fn a_visitor_signs_in_through_varnish() {
    // The browser's flow, cookies and all: sign-in page, the account service's form, the
    // callback with its state cookie (a VCL that dropped "unneeded" cookies broke this step).
    let c = Cluster::open().await;
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut jar: HashMap<String, String> = HashMap::new();
    let header =
        |jar: &HashMap<String, String>| jar.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let keep = |jar: &mut HashMap<String, String>, res: &reqwest::Response| {
        for value in res.headers().get_all("set-cookie") {
            let pair = value.to_str().unwrap().split(';').next().unwrap();
            if let Some((name, value)) = pair.split_once('=') {
                jar.insert(name.trim().to_string(), value.to_string());
            }
        }
    };
    let mut url = c.front("/auth/login?next=%2Fmypage");
    let mut form_page = String::new();
    for _ in 0..5 {
        let res = http.get(&url).header("Cookie", header(&jar)).send().await.unwrap();
        keep(&mut jar, &res);
        match res.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string) {
            Some(next) => url = if next.starts_with('/') { c.front(&next) } else { next },
            None => {
                form_page = res.text().await.unwrap();
                break;
            }
        }
    }
    let form = &form_page[form_page.find("action=\"/account/auth/sign_in\"").expect("the sign-in form")..];
    let form = &form[..form.find("</form>").unwrap()];
    let mut fields: Vec<(String, String)> = form
        .split("<input type=\"hidden\" ")
        .skip(1)
        .filter_map(|i| {
            let name = i.split("name=\"").nth(1)?.split('"').next()?;
            let value = i.split("value=\"").nth(1)?.split('"').next()?;
            Some((name.to_string(), value.replace("&amp;", "&")))
        })
        .collect();
    fields.push(("email".into(), "exhibitor@demo.vmarket.test".into()));
    fields.push(("password".into(), "vmarket-demo-2026".into()));
    let res = http
        .post(c.front("/account/auth/sign_in"))
        .header("Cookie", header(&jar))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(fields.iter().map(|(k, v)| format!("{k}={}", urlencoding(v))).collect::<Vec<_>>().join("&"))
        .send()
        .await
        .unwrap();
    keep(&mut jar, &res);
    let mut next =
        res.headers().get("location").and_then(|l| l.to_str().ok()).expect("signed in: on to the callback").to_string();
    for _ in 0..5 {
        let url = if next.starts_with('/') { c.front(&next) } else { next.clone() };
        let res = http.get(&url).header("Cookie", header(&jar)).send().await.unwrap();
        keep(&mut jar, &res);
        assert!(res.status().as_u16() < 400, "{url}: {}", res.status());
        match res.headers().get("location").and_then(|l| l.to_str().ok()) {
            Some(l) => next = l.to_string(),
            None => break,
        }
    }
    assert!(jar.contains_key("vmarket_token"), "signed in through Varnish: {:?}", jar.keys().collect::<Vec<_>>());
}

/// `text` as `application/x-www-form-urlencoded`.
fn urlencoding(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
