//! Inquiries: the categories API, validation in Japanese and English, the rate limit, the
//! contact pages and form (without JavaScript), and forwarding to a real local fake of Slack and
//! Jira by the background workers, through an outage and back.

use std::time::Duration;

use sea_orm::{ActiveModelTrait, EntityTrait, IntoActiveModel, Set};
use serde_json::{Value, json};
use vmarket::db::entities::{inquiry, inquiry_category};
use vmarket::model::inquiry::ForwardStatus;

use crate::support::TestApp;
use crate::support::fake_remote::FakeRemote;
use crate::support::html::Doc;

/// An app whose rate limit does not get in the way of many requests.
async fn roomy_app() -> TestApp {
    TestApp::builder().config(|c| c.inquiry_rate_per_minute = 1000).build().await
}

fn valid() -> Value {
    json!({
        "email": "mika@example.com",
        "name": "Mika",
        "message": "出展枠の追加募集はありますか？",
        "inquiry_category_id": 1,
        "agreement": true,
    })
}

fn with(changes: Value) -> Value {
    let mut body = valid();
    for (k, v) in changes.as_object().unwrap() {
        if v.is_null() {
            body.as_object_mut().unwrap().remove(k);
        } else {
            body[k] = v.clone();
        }
    }
    body
}

/// `attribute → message` of a 422 body.
fn details(body: &Value) -> Vec<(String, String)> {
    body["details"]
        .as_array()
        .unwrap_or_else(|| panic!("no details in {body}"))
        .iter()
        .map(|d| (d["attribute"].as_str().unwrap().to_string(), d["message"].as_str().unwrap().to_string()))
        .collect()
}

#[rocket::async_test]
async fn categories_are_public_and_localized() {
    let app = TestApp::new().await;
    let (status, body) = app.get_json("/api/v1/inquiry_categories").await;
    assert_eq!(status, 200);
    let names: Vec<_> = body["inquiry_categories"].as_array().unwrap().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(
        names,
        ["出展について", "お支払いについて", "入稿・ツールについて", "取材・メディア", "不具合の報告", "その他"]
    );
    let first = &body["inquiry_categories"][0];
    assert_eq!(first["name_en"], "Exhibiting");
    assert!(first.get("slack_webhook_url").is_none(), "forwarding targets are never exposed: {first}");

    let press = inquiry_category::Entity::find_by_id(4).one(&app.db).await.unwrap().unwrap();
    let mut hidden = press.into_active_model();
    hidden.is_public = Set(false);
    hidden.update(&app.db).await.unwrap();
    let (_, body) = app.get_json("/api/v1/inquiry_categories?lang=en").await;
    let names: Vec<_> = body["inquiry_categories"].as_array().unwrap().iter().map(|c| c["name"].clone()).collect();
    assert_eq!(names, ["Exhibiting", "Payments", "Submission tools", "Bug reports", "Other"]);
}

#[rocket::async_test]
async fn valid_inquiry_is_stored_and_answered_at_once() {
    let app = TestApp::new().await;
    let (status, _, body) = app.post_json("/api/v1/inquiry", &valid()).await;
    assert_eq!(status, 201, "{body}");
    // The demo categories have no Slack/Jira target: stored for staff only.
    assert_eq!(body["status"], "received");
    let id = body["id"].as_i64().unwrap() as i32;
    let row = inquiry::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap();
    assert_eq!(row.email, "mika@example.com");
    assert_eq!(row.message, "出展枠の追加募集はありますか？");
    assert_eq!((row.slack_status, row.jira_status), (ForwardStatus::None, ForwardStatus::None));
    assert_eq!(row.lang, "ja");
    assert_eq!(row.created_at, app.clock.now());
}

#[rocket::async_test]
async fn each_required_field_is_reported_in_japanese_and_english() {
    let app = roomy_app().await;
    let (status, _, body) = app.post_json("/api/v1/inquiry", &json!({})).await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "validation_failed");
    assert_eq!(body["message"], "入力内容に誤りがあります。");
    assert_eq!(
        details(&body),
        [
            ("inquiry_category_id".to_string(), "入力してください。".to_string()),
            ("email".into(), "入力してください。".into()),
            ("message".into(), "入力してください。".into()),
            ("agreement".into(), "入力してください。".into()),
        ]
    );
    let (_, _, body) = app.post_json("/api/v1/inquiry?lang=en", &json!({})).await;
    assert_eq!(body["message"], "Some values are not valid.");
    assert!(details(&body).iter().all(|(_, m)| m == "This field is required."), "{body}");

    for field in ["email", "message", "inquiry_category_id", "agreement"] {
        let (status, _, body) = app.post_json("/api/v1/inquiry?lang=en", &with(json!({ field: null }))).await;
        assert_eq!(status, 422);
        assert_eq!(details(&body), [(field.to_string(), "This field is required.".to_string())], "missing {field}");
    }
    // Blank text counts as missing.
    let (_, _, body) = app.post_json("/api/v1/inquiry", &with(json!({"message": "   \n "}))).await;
    assert_eq!(details(&body), [("message".to_string(), "入力してください。".to_string())]);
}

#[rocket::async_test]
async fn bad_values_are_reported_by_field() {
    let app = roomy_app().await;
    let cases = [
        (
            json!({"email": "not-an-email"}),
            "email",
            "メールアドレスの形式が正しくありません。",
            "Enter a valid email address.",
        ),
        (
            json!({"message": "あ".repeat(4001)}),
            "message",
            "1〜4000文字で入力してください。",
            "Must be 1 to 4000 characters.",
        ),
        (
            json!({"message": "こんにちは\u{0}\u{1b}[2J"}),
            "message",
            "使えない制御文字が含まれています。",
            "Contains control characters that cannot be used.",
        ),
        (
            json!({"agreement": false}),
            "agreement",
            "プライバシーポリシーへの同意が必要です。",
            "You need to agree to the privacy policy.",
        ),
        (
            json!({"inquiry_category_id": 999}),
            "inquiry_category_id",
            "お問い合わせ種別を選び直してください。",
            "Choose one of the listed topics.",
        ),
        (
            json!({"name": "n".repeat(101)}),
            "name",
            "100文字以内で入力してください。",
            "Must be at most 100 characters.",
        ),
    ];
    for (change, field, ja, en) in cases {
        let (status, _, body) = app.post_json("/api/v1/inquiry", &with(change.clone())).await;
        assert_eq!(status, 422, "{change}");
        assert_eq!(details(&body), [(field.to_string(), ja.to_string())]);
        let (_, _, body) = app.post_json("/api/v1/inquiry?lang=en", &with(change)).await;
        assert_eq!(details(&body), [(field.to_string(), en.to_string())]);
    }
    // Exactly 4000 characters is fine.
    let (status, _, _) = app.post_json("/api/v1/inquiry", &with(json!({"message": "あ".repeat(4000)}))).await;
    assert_eq!(status, 201);

    // A private category is as good as unknown.
    let row = inquiry_category::Entity::find_by_id(2).one(&app.db).await.unwrap().unwrap();
    let mut private = row.into_active_model();
    private.is_public = Set(false);
    private.update(&app.db).await.unwrap();
    let (status, _, body) = app.post_json("/api/v1/inquiry?lang=en", &with(json!({"inquiry_category_id": 2}))).await;
    assert_eq!(status, 422);
    assert_eq!(details(&body), [("inquiry_category_id".to_string(), "Choose one of the listed topics.".to_string())]);

    // A body that is not the right JSON is a 400, not a 500.
    let (status, _, body) = app.post_json("/api/v1/inquiry", &json!({"inquiry_category_id": "one"})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    assert_eq!(inquiry::Entity::find().all(&app.db).await.unwrap().len(), 1, "only the valid one was stored");
}

#[rocket::async_test]
async fn too_many_inquiries_from_one_client_are_refused() {
    let app = TestApp::builder().config(|c| c.inquiry_rate_per_minute = 3).build().await;
    for _ in 0..3 {
        let (status, _, _) = app.post_json("/api/v1/inquiry", &valid()).await;
        assert_eq!(status, 201);
    }
    let (status, retry_after, body) = app.post_json("/api/v1/inquiry?lang=en", &valid()).await;
    assert_eq!(status, 429);
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(body["message"], "Too many requests. Please wait a moment and try again.");
    let wait: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    assert_eq!(inquiry::Entity::find().all(&app.db).await.unwrap().len(), 3);
}

#[rocket::async_test]
async fn contact_page_lists_categories_in_both_languages() {
    let app = TestApp::new().await;
    let (status, html) = app.page("/contact").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "お問い合わせ");
    assert_eq!(doc.texts("[data-testid=contact-category]").len(), 6);
    assert_eq!(doc.text("[data-testid=contact-category]"), "出展について");
    assert_eq!(doc.attr("[data-testid=contact-category] a", "href"), "/contact/form?category=1");
    assert!(doc.texts("dt").iter().any(|t| t == "返信はいつ頃もらえますか？"));

    let (status, html) = app.page("/en/contact").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "Contact us");
    assert_eq!(doc.texts("[data-testid=contact-category]")[5], "Other");
    assert_eq!(doc.attr("[data-testid=contact-category] a", "href"), "/en/contact/form?category=1");
}

/// The token of the form at `path`.
async fn form_token(app: &TestApp, path: &str) -> String {
    let (status, html) = app.page(path).await;
    assert_eq!(status, 200);
    Doc::parse(&html).attr("input[name=token]", "value")
}

fn encode(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

async fn post_form(app: &TestApp, path: &str, pairs: &[(&str, &str)]) -> (u16, Option<String>, String) {
    let res =
        app.client.post(path.to_string()).header(rocket::http::ContentType::Form).body(encode(pairs)).dispatch().await;
    let location = res.headers().get_one("Location").map(str::to_string);
    (res.status().code, location, res.into_string().await.unwrap_or_default())
}

#[rocket::async_test]
async fn form_renders_in_both_languages() {
    let app = TestApp::new().await;
    let (_, html) = app.page("/contact/form?category=3").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "お問い合わせフォーム");
    assert_eq!(doc.attr("form.contact-form", "action"), "/contact/form");
    assert_eq!(doc.attr("form.contact-form", "method"), "post");
    assert_eq!(doc.text("label[for=email]"), "メールアドレス 必須");
    assert_eq!(doc.text("select option[selected]"), "入稿・ツールについて");
    assert_eq!(doc.count("select option"), 7);
    assert_eq!(doc.count("[data-field]"), 0, "no errors on a fresh form");

    let (_, html) = app.page("/en/contact/form").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "Contact form");
    assert_eq!(doc.attr("form.contact-form", "action"), "/en/contact/form");
    assert_eq!(doc.text("label[for=message]"), "Message Required");
    assert_eq!(doc.text("button[type=submit]"), "Send");
}

#[rocket::async_test]
async fn form_keeps_input_and_shows_errors_by_field() {
    let app = TestApp::new().await;
    for (path, email_error, agreement_error) in [
        ("/contact/form", "メールアドレスの形式が正しくありません。", "プライバシーポリシーへの同意が必要です。"),
        ("/en/contact/form", "Enter a valid email address.", "You need to agree to the privacy policy."),
    ] {
        let token = form_token(&app, path).await;
        let message = "入稿ツールが起動しません。<script>alert(1)</script>\n2行目";
        let (status, _, html) = post_form(
            &app,
            path,
            &[
                ("token", &token),
                ("inquiry_category_id", "3"),
                ("email", "mika@"),
                ("name", "Mika"),
                ("message", message),
            ],
        )
        .await;
        assert_eq!(status, 422, "{path}");
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-field=email]"), email_error);
        assert_eq!(doc.text("[data-field=agreement]"), agreement_error);
        assert_eq!(doc.count("[data-field]"), 2);
        assert_eq!(doc.attr("input[name=email]", "value"), "mika@");
        assert_eq!(doc.attr("input[name=name]", "value"), "Mika");
        assert_eq!(doc.attr("select option[selected]", "value"), "3");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "input is escaped, not executed");
        let kept: String = scraper::Html::parse_document(&html)
            .select(&scraper::Selector::parse("textarea[name=message]").unwrap())
            .next()
            .unwrap()
            .text()
            .collect();
        assert_eq!(kept, message);
        assert_eq!(doc.attr("input[name=email]", "aria-invalid"), "true");
    }
    assert!(inquiry::Entity::find().all(&app.db).await.unwrap().is_empty());
}

#[rocket::async_test]
async fn form_success_redirects_to_a_confirmation() {
    let app = TestApp::new().await;
    let token = form_token(&app, "/en/contact/form").await;
    let (status, location, _) = post_form(
        &app,
        "/en/contact/form",
        &[
            ("token", &token),
            ("inquiry_category_id", "2"),
            ("email", "  kai@example.com "),
            ("message", "How do I get a receipt for my booth payment?"),
            ("agreement", "true"),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let location = location.expect("Location");
    let row = inquiry::Entity::find().one(&app.db).await.unwrap().expect("stored");
    assert!(location.starts_with(&format!("/en/contact/form/sent/{}?s=", row.id)), "{location}");
    assert_eq!((row.email.as_str(), row.lang.as_str(), row.category_id), ("kai@example.com", "en", 2));

    let (status, html) = app.page(&location).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "We have received your inquiry");
    assert_eq!(doc.text("[data-testid=inquiry-number]"), format!("Inquiry number: {}", row.id));
    assert_eq!(doc.text("[data-field=category]"), "Payments");
    assert_eq!(doc.text("[data-field=message]"), "How do I get a receipt for my booth payment?");
    // The same view in Japanese.
    let ja = location.trim_start_matches("/en");
    let (_, html) = app.get_with_locale(ja, "ja").await.into_string().await.map(|h| (0, h)).unwrap();
    assert_eq!(Doc::parse(&html).text("[data-testid=inquiry-number]"), format!("お問い合わせ番号：{}", row.id));

    // Without the right signature the confirmation is not shown.
    let (status, _) = app.page(&format!("/en/contact/form/sent/{}?s=00000000000000000000000000000000", row.id)).await;
    assert_eq!(status, 404);
    let (status, _) = app.page(&format!("/en/contact/form/sent/{}", row.id)).await;
    assert_eq!(status, 404);
}

#[rocket::async_test]
async fn form_without_a_valid_token_is_refused() {
    let app = TestApp::new().await;
    let fields =
        [("inquiry_category_id", "1"), ("email", "a@example.com"), ("message", "hello"), ("agreement", "true")];
    let (status, _, html) = post_form(&app, "/contact/form", &fields).await;
    assert_eq!(status, 400);
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=form-notice]").starts_with("フォームの有効期限が切れました"));
    assert_eq!(doc.attr("input[name=email]", "value"), "a@example.com", "input kept");

    let mut forged = vec![("token", "1700000000.deadbeef")];
    forged.extend(fields);
    let (status, _, _) = post_form(&app, "/contact/form", &forged).await;
    assert_eq!(status, 400);

    // A token older than two hours has expired.
    let token = form_token(&app, "/contact/form").await;
    app.clock.set(app.clock.now() + chrono::Duration::hours(3));
    let mut late = vec![("token", token.as_str())];
    late.extend(fields);
    let (status, _, _) = post_form(&app, "/contact/form", &late).await;
    assert_eq!(status, 400);
    assert!(inquiry::Entity::find().all(&app.db).await.unwrap().is_empty());
}

/// Points category 1 at the fake Slack and Jira.
async fn route_category_to(app: &TestApp, remote_slack: String, parent: Option<&str>) {
    let row = inquiry_category::Entity::find_by_id(1).one(&app.db).await.unwrap().unwrap();
    let mut c = row.into_active_model();
    c.slack_webhook_url = Set(Some(remote_slack));
    c.jira_project_code = Set(Some("VKT".into()));
    c.jira_issue_type_id = Set(Some("10002".into()));
    c.jira_parent_issue = Set(parent.map(str::to_string));
    c.update(&app.db).await.unwrap();
}

/// Polls the inquiry until `done` holds, for at most `secs` seconds.
async fn wait_for(app: &TestApp, id: i32, secs: u64, done: impl Fn(&inquiry::Model) -> bool) -> inquiry::Model {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let row = inquiry::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap();
        if done(&row) {
            return row;
        }
        assert!(std::time::Instant::now() < deadline, "timed out; inquiry is {row:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn forwarding_app(remote: &FakeRemote, max_attempts: u32) -> TestApp {
    let base = remote.base.clone();
    TestApp::builder()
        .config(move |c| {
            c.jira_base_url = base;
            c.jira_user = "bot@vmarket.test".into();
            c.jira_api_token = "jira-token".into();
            c.job_retry_base_secs = 1;
            c.job_poll_interval_ms = 50;
            c.inquiry_max_attempts = max_attempts;
        })
        .build()
        .await
}

#[rocket::async_test]
async fn inquiries_reach_slack_and_jira_once_and_survive_an_outage() {
    let remote = FakeRemote::start().await;
    let app = forwarding_app(&remote, 8).await;
    route_category_to(&app, remote.slack_url(), Some("VKT-1000")).await;
    let workers = app.start_workers().await;

    // Remote up: forwarded once to each target.
    let (status, _, body) = app.post_json("/api/v1/inquiry", &valid()).await;
    assert_eq!(status, 201);
    assert_eq!(body["status"], "pending", "answered before forwarding");
    let id = body["id"].as_i64().unwrap() as i32;
    let row = wait_for(&app, id, 20, |r| r.attempts >= 1 && !r.is_pending()).await;
    assert_eq!((row.slack_status, row.jira_status), (ForwardStatus::Sent, ForwardStatus::Sent));
    assert_eq!(row.jira_issue_key.as_deref(), Some("VKT-1"));
    assert_eq!(row.attempts, 1);
    assert_eq!(row.forwarded_at, Some(app.clock.now()));
    let slack = remote.delivered("/services/");
    assert_eq!(slack.len(), 1);
    let text = slack[0].json["text"].as_str().unwrap();
    assert!(text.contains("出展枠の追加募集はありますか？"), "{text}");
    assert!(text.contains(&format!("#{id}")) && text.contains("mika@example.com"), "{text}");
    let jira = remote.delivered("/rest/api/2/issue");
    assert_eq!(jira.len(), 1);
    let fields = &jira[0].json["fields"];
    assert_eq!(fields["project"], json!({"key": "VKT"}));
    assert_eq!(fields["issuetype"], json!({"id": "10002"}));
    assert_eq!(fields["parent"], json!({"key": "VKT-1000"}));
    assert!(fields["summary"].as_str().unwrap().starts_with(&format!("[Inquiry #{id}] Exhibiting: ")));
    assert!(fields["description"].as_str().unwrap().contains("出展枠の追加募集はありますか？"));
    // base64("bot@vmarket.test:jira-token")
    assert_eq!(jira[0].header("authorization"), Some("Basic Ym90QHZtYXJrZXQudGVzdDpqaXJhLXRva2Vu"));
    assert_eq!(jira[0].header("content-type"), Some("application/json"));
    assert_eq!((jira[0].method.as_str(), slack[0].method.as_str()), ("POST", "POST"));

    // Remote down: stays pending, attempts counted, nothing lost.
    remote.set_down(true);
    let (_, _, body) = app.post_json("/api/v1/inquiry", &with(json!({"message": "二件目のお問い合わせです"}))).await;
    let second = body["id"].as_i64().unwrap() as i32;
    let row = wait_for(&app, second, 20, |r| r.attempts >= 1).await;
    assert_eq!((row.slack_status, row.jira_status), (ForwardStatus::Pending, ForwardStatus::Pending));
    assert!(row.last_error.as_deref().unwrap_or_default().contains("503"), "{:?}", row.last_error);
    assert!(row.next_attempt_at.is_some());

    // Remote back: the scheduled retry delivers it, once.
    remote.set_down(false);
    let row = wait_for(&app, second, 30, |r| r.attempts >= 2 && !r.is_pending()).await;
    assert_eq!((row.slack_status, row.jira_status), (ForwardStatus::Sent, ForwardStatus::Sent));
    assert!(row.attempts >= 2);
    assert_eq!(row.jira_issue_key.as_deref(), Some("VKT-2"));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let slack = remote.delivered("/services/");
    assert_eq!(slack.len(), 2, "one delivery per inquiry");
    assert!(slack[1].json["text"].as_str().unwrap().contains("二件目のお問い合わせです"));
    assert_eq!(remote.delivered("/rest/api/2/issue").len(), 2);
    assert!(remote.requests().iter().filter(|r| !r.answered_ok).count() >= 2, "the outage was really hit");
    workers.stop().await;
}

#[rocket::async_test]
async fn forwarding_gives_up_after_the_retry_budget_and_keeps_the_inquiry() {
    // A port nobody listens on: connection refused.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let remote = FakeRemote::start().await;
    let app = forwarding_app(&remote, 2).await;
    // A webhook URL is a secret: it must not show up in what is stored for staff.
    route_category_to(&app, format!("http://{closed}/services/T0SECRET/B0SECRET/xoxSECRETtoken"), None).await;
    let workers = app.start_workers().await;
    let (_, _, body) = app.post_json("/api/v1/inquiry", &valid()).await;
    let id = body["id"].as_i64().unwrap() as i32;
    let row = wait_for(&app, id, 20, |r| r.attempts >= 2 && !r.is_pending()).await;
    assert_eq!(row.slack_status, ForwardStatus::Failed, "Slack unreachable twice");
    assert_eq!(row.jira_status, ForwardStatus::Sent, "Jira went through on the first attempt");
    assert_eq!(row.attempts, 2);
    assert!(row.last_error.as_deref().unwrap_or_default().starts_with("slack:"), "{:?}", row.last_error);
    assert!(!row.last_error.as_deref().unwrap_or_default().contains("SECRET"), "{:?}", row.last_error);
    assert_eq!(row.next_attempt_at, None);
    assert_eq!(remote.delivered("/rest/api/2/issue").len(), 1, "Jira is not asked again on the retry");
    assert!(remote.delivered("/rest/api/2/issue")[0].json["fields"].get("parent").is_none());
    workers.stop().await;
}

#[rocket::async_test]
async fn openapi_documents_the_inquiry_calls() {
    let app = TestApp::new().await;
    let (_, doc) = app.get_json("/api-docs/openapi.json").await;
    assert!(doc["paths"]["/api/v1/inquiry_categories"]["get"].is_object());
    let post = &doc["paths"]["/api/v1/inquiry"]["post"];
    assert!(post["responses"]["201"].is_object() && post["responses"]["422"].is_object());
    assert!(post["responses"]["429"].is_object());
}
