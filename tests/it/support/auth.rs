//! Signing up and in through the real flow: product → account service page → form → code →
//! product callback (which exchanges the code over HTTP) → token cookie.

use rocket::http::{ContentType, Header};
use serde_json::Value;

use super::TestApp;
use super::actors::TEST_PASSWORD;
use super::html::Doc;

/// The path and query of an absolute or relative URL on the test site.
pub fn local(location: &str, origin: &str) -> String {
    location.strip_prefix(origin).unwrap_or(location).to_string()
}

/// A multipart body with text fields and an optional PNG icon.
pub fn multipart(fields: &[(&str, &str)], icon: Option<&[u8]>) -> (ContentType, Vec<u8>) {
    multipart_with(fields, icon.map(|png| ("icon", "icon.png", png)))
}

/// A multipart body with text fields (a name may repeat) and an optional file part
/// `(field name, file name, PNG bytes)`.
pub fn multipart_with(fields: &[(&str, &str)], file: Option<(&str, &str, &[u8])>) -> (ContentType, Vec<u8>) {
    let boundary = "vmarketTestBoundary7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    if let Some((name, file_name, bytes)) = file {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: image/png\r\n\r\n")
                .as_bytes(),
        );
        body.extend(bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{boundary}--\r\n").as_bytes());
    (ContentType::new("multipart", "form-data").with_params(("boundary", boundary)), body)
}

/// A small PNG of `w`×`h`.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbImage::from_pixel(w, h, image::Rgb([255, 79, 163]))
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("png");
    out
}

impl TestApp {
    /// Follows `/auth/login?next=…` to the account page; returns (page path, HTML).
    pub async fn open_account_page(&self, next: &str) -> (String, String) {
        self.open_account_page_raw(&format!("/auth/login?next={}", urlencode(next))).await
    }

    /// Follows a sign-in start URL given as is (`/auth/login?…`, query already encoded) to the
    /// account page; returns (page path, HTML).
    pub async fn open_account_page_raw(&self, login: &str) -> (String, String) {
        let res = self.get(login).await;
        let location = res.headers().get_one("Location").expect("login redirects").to_string();
        let path = local(&location, &self.origin);
        let (status, html) = self.page(&path).await;
        assert_eq!(status, 200, "account page at {path}");
        (path, html)
    }

    /// Opens the account page a sign-in started at (`account_page`, absolute or local) and signs
    /// in as `email` with the test password; returns (status, Location, body) of the post.
    pub async fn submit_sign_in(&self, account_page: &str, email: &str) -> (u16, Option<String>, String) {
        let path = local(account_page, &self.origin);
        let (status, html) = self.page(&path).await;
        assert_eq!(status, 200, "account page at {path}");
        self.submit("/account/auth/sign_in", &html, &[("email", email), ("password", TEST_PASSWORD)]).await
    }

    /// Submits an account form and returns (status, Location, body).
    pub async fn submit(&self, action: &str, html: &str, fields: &[(&str, &str)]) -> (u16, Option<String>, String) {
        let doc = Doc::parse(html);
        let form =
            if action.ends_with("sign_in") { "[data-testid=sign-in-form]" } else { "[data-testid=sign-up-form]" };
        // Every hidden field the form carries (redirect URL, state, challenge, language, CSRF).
        let hidden = format!("{form} input[type=hidden]");
        let mut pairs: Vec<(String, String)> =
            doc.attrs(&hidden, "name").into_iter().zip(doc.attrs(&hidden, "value")).collect();
        pairs.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish();
        let res = self.client.post(action.to_string()).header(ContentType::Form).body(body).dispatch().await;
        let status = res.status().code;
        let location = res.headers().get_one("Location").map(str::to_string);
        (status, location, res.into_string().await.unwrap_or_default())
    }

    /// Follows a redirect chain on the site until a non-redirect answer; returns its path.
    pub async fn follow(&self, mut location: String) -> (String, u16, String) {
        for _ in 0..10 {
            let path = local(&location, &self.origin);
            let res = self.get(&path).await;
            let status = res.status().code;
            match res.headers().get_one("Location") {
                Some(next) if (300..400).contains(&status) => location = next.to_string(),
                _ => return (path, status, res.into_string().await.unwrap_or_default()),
            }
        }
        panic!("redirect loop from {location}");
    }

    /// Signs a new account up through the browser flow, landing on `next`.
    pub async fn sign_up(&self, email: &str, handle: &str, name_ja: &str, name_en: &str, next: &str) -> String {
        let (_, html) = self.open_account_page(next).await;
        let fields = [
            ("email", email),
            ("password", TEST_PASSWORD),
            ("vmarket_id", handle),
            ("name_ja", name_ja),
            ("name_en", name_en),
        ];
        let (status, location, body) = self.submit("/account/auth/sign_up", &html, &fields).await;
        assert_eq!(status, 303, "sign-up succeeds: {body}");
        let (path, status, _) = self.follow(location.expect("redirect")).await;
        assert_eq!(status, 200, "lands on {path}");
        path
    }

    /// Signs out of the product and the account service as the header's sign-out button does
    /// (a POST carrying the CSRF token), following the redirects.
    pub async fn sign_out(&self) {
        let csrf = self.csrf().await;
        let body = format!("csrf_token={csrf}&next=%2F");
        let res = self.client.post("/auth/logout").header(ContentType::Form).body(body).dispatch().await;
        assert_eq!(res.status().code, 303, "sign-out redirects");
        let location = res.headers().get_one("Location").expect("logout redirects").to_string();
        self.follow(location).await;
    }

    /// A fresh token from the account service for the browser's SSO session.
    pub async fn sso_token(&self) -> String {
        let (status, body) = self.get_json("/account/vso/token").await;
        assert_eq!(status, 200, "{body}");
        body["jwt"].as_str().expect("jwt").to_string()
    }

    /// GETs `path` with a bearer token and no cookies.
    pub async fn get_bearer(&self, path: &str, token: &str) -> (u16, Value) {
        let res = self
            .client
            .get(path.to_string())
            .header(Header::new("Authorization", format!("Bearer {token}")))
            .dispatch()
            .await;
        let status = res.status().code;
        let text = res.into_string().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// The CSRF token a signed-in page carries (following a silent sign-in if the session
    /// token has expired).
    pub async fn csrf(&self) -> String {
        let (path, status, html) = self.follow("/mypage".into()).await;
        assert_eq!(status, 200, "signed in at {path}");
        Doc::parse(&html).attr("meta[name=csrf-token]", "content")
    }
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
