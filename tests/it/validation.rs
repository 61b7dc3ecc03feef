//! One way to validate input: a write sent through the API and the same write posted by its page
//! form (without JavaScript) are checked by the same typed input, so the same bad value gets the
//! same field error, word for word, in Japanese and in English. Limits count characters, not
//! bytes: the values here are made of `あ` (three bytes each in UTF-8).

use rocket::http::{ContentType, Cookie, Header};
use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::actors::{Actor, json_of};
use crate::support::auth::multipart_with;
use crate::support::html::Doc;

/// The text of each field error the page shows, by field.
fn page_errors(html: &str) -> Vec<(String, String)> {
    let doc = Doc::parse(html);
    doc.attrs(".field__error", "data-field").into_iter().zip(doc.texts(".field__error")).collect()
}

/// The field errors of a 422 body, by field.
fn api_errors(body: &Value) -> Vec<(String, String)> {
    body["details"]
        .as_array()
        .unwrap_or_else(|| panic!("no details in {body}"))
        .iter()
        .map(|d| (d["attribute"].as_str().unwrap().to_string(), d["message"].as_str().unwrap().to_string()))
        .collect()
}

fn one(field: &str, message: &str) -> Vec<(String, String)> {
    vec![(field.to_string(), message.to_string())]
}

/// Posts the contact form at `path` (with a fresh token) with `name`.
async fn contact_form(app: &TestApp, path: &str, name: &str) -> (u16, String) {
    let (status, html) = app.page(path).await;
    assert_eq!(status, 200, "{path}");
    let token = Doc::parse(&html).attr("input[name=token]", "value");
    let fields = [
        ("token", token.as_str()),
        ("inquiry_category_id", "1"),
        ("email", "mika@example.com"),
        ("name", name),
        ("message", "出展枠の追加募集はありますか？"),
        ("agreement", "true"),
    ];
    let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
    let res = app.client.post(path.to_string()).header(ContentType::Form).body(body).dispatch().await;
    (res.status().code, res.into_string().await.unwrap_or_default())
}

#[rocket::async_test]
async fn an_inquiry_name_one_character_over_its_limit_is_refused_alike_by_the_api_and_the_contact_form() {
    let app = TestApp::builder().config(|c| c.inquiry_rate_per_minute = 1000).build().await;
    let fits = "あ".repeat(100);
    let over = "あ".repeat(101);
    let inquiry = |name: &str| {
        json!({"email": "mika@example.com", "name": name, "message": "出展枠の追加募集はありますか？",
               "inquiry_category_id": 1, "agreement": true})
    };
    for (lang, form, message) in [
        ("ja", "/contact/form", "100文字以内で入力してください。"),
        ("en", "/en/contact/form", "Must be at most 100 characters."),
    ] {
        let (status, _, body) = app.post_json(&format!("/api/v1/inquiry?lang={lang}"), &inquiry(&over)).await;
        assert_eq!((status, api_errors(&body)), (422, one("name", message)), "API, {lang}");
        let (status, html) = contact_form(&app, form, &over).await;
        assert_eq!((status, page_errors(&html)), (422, one("name", message)), "{form}");

        let (status, _, body) = app.post_json(&format!("/api/v1/inquiry?lang={lang}"), &inquiry(&fits)).await;
        assert_eq!(status, 201, "100 characters (300 bytes) fit: {body}");
        let (status, _) = contact_form(&app, form, &fits).await;
        assert_eq!(status, 303, "{form}: 100 characters fit");
    }
}

const API: &str = "/api/v1/user/2026Winter/hub_notifications";
const PAGE: &str = "/mypage/event/2026Winter/my_notification/new";

/// A user event with `title`, otherwise fine.
fn user_event(title: &str) -> Vec<(&str, &str)> {
    vec![
        ("title", title),
        ("content", "ともしびの駅でランタンを灯します。"),
        ("locale", "jp"),
        ("start_at", "2026-12-20T20:00"),
    ]
}

/// Posts a user event through the API as `actor` (bearer, multipart).
async fn post_api(app: &TestApp, actor: &Actor<'_>, lang: &str, title: &str) -> (u16, Value) {
    let (ct, body) = multipart_with(&user_event(title), None);
    let res = app
        .client
        .post(format!("{API}?lang={lang}"))
        .header(Header::new("Authorization", format!("Bearer {}", actor.token)))
        .header(ct)
        .body(body)
        .dispatch()
        .await;
    json_of(res).await
}

/// Posts the mypage form at `path` as `actor` (cookie and the form's CSRF field, like a browser).
async fn post_page(app: &TestApp, actor: &Actor<'_>, path: &str, title: &str) -> (u16, String) {
    let (status, html) = app.page_as(actor, path).await;
    assert_eq!(status, 200, "{path}");
    let csrf = Doc::parse(&html).attr("[data-testid=event-form] input[name=csrf_token]", "value");
    let mut fields = vec![("csrf_token", csrf.as_str())];
    fields.extend(user_event(title));
    let (ct, body) = multipart_with(&fields, None);
    let res = app
        .client
        .post(path.to_string())
        .cookie(Cookie::new("vmarket_token", actor.token.clone()))
        .cookie(Cookie::new("vmarket_csrf", csrf.clone()))
        .header(ct)
        .body(body)
        .dispatch()
        .await;
    (res.status().code, res.into_string().await.unwrap_or_default())
}

#[rocket::async_test]
async fn a_user_event_title_one_character_over_its_limit_is_refused_alike_by_the_api_and_the_mypage_form() {
    let app = TestApp::builder().live().build().await;
    let hina = app.user("hina_t").await;
    let fits = "あ".repeat(256);
    let over = "あ".repeat(257);
    for (lang, page, message) in [
        ("ja", PAGE.to_string(), "256文字以内で入力してください。"),
        ("en", format!("/en{PAGE}"), "Use at most 256 characters."),
    ] {
        let (status, body) = post_api(&app, &hina, lang, &over).await;
        assert_eq!((status, api_errors(&body)), (422, one("title", message)), "API, {lang}");
        let (status, html) = post_page(&app, &hina, &page, &over).await;
        assert_eq!((status, page_errors(&html)), (422, one("title", message)), "{page}");
        assert_eq!(Doc::parse(&html).attr("input[name=title]", "value"), over, "the input is kept");

        let (status, body) = post_api(&app, &hina, lang, &fits).await;
        assert_eq!((status, body["title"].as_str()), (201, Some(fits.as_str())), "256 characters (768 bytes) fit");
        let (status, _) = post_page(&app, &hina, &page, &fits).await;
        assert_eq!(status, 303, "{page}: 256 characters fit");
    }
    let (_, own) = hina.get_json(API).await;
    assert_eq!(own["pagination"]["count"], 4, "only the posts that fit were stored");
}
