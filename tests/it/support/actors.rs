//! Acting as a given user or staff role without the browser flow: the account is created at the
//! built-in account service and a real token is signed with the app's own key (exactly what the
//! account service would hand out), then sent as a bearer token or as the browser's cookie with
//! its CSRF token. Nothing in the product is bypassed; the app must be [`live`] so that it can
//! fetch its own JWKS over HTTP, as it does in production.
//!
//! Actors send their requests through a client of their own that keeps no cookies: each request
//! carries exactly the actor's credentials, and nothing an actor's answers set reaches the app's
//! main browser (`app.client`) or another actor.
//!
//! ```ignore
//! let mio = app.with_user("mio").await;                      // requests go as bearer
//! let (status, me) = mio.get_json("/api/v1/user/me").await;
//! let (status, html) = mio.page("/mypage").await;             // pages as a browser (cookie)
//! let admin = app.as_staff(Role::Admin).await.via(Via::Cookie); // the console's way
//! ```
//!
//! [`live`]: super::TestAppBuilder::live

use rocket::http::{ContentType, Cookie, Header, Method};
use rocket::local::asynchronous::{Client, LocalRequest, LocalResponse};
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde_json::Value;
use vmarket::db::entities::{account, user};
use vmarket::model::user::{Identity, Role};

use super::TestApp;
use super::auth::multipart_with;
use super::html::Doc;

/// The CSRF token the actor's browser holds (as if a page had set its cookie earlier).
const TEST_CSRF: &str = "c5f0a0c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffe1";

/// A file part of a multipart body: (field name, file name, PNG bytes).
pub type FilePart<'f> = (&'f str, &'f str, &'f [u8]);

/// How a request proves who sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `Authorization: Bearer` (API clients).
    Bearer,
    /// The browser's HttpOnly cookie, with the CSRF token in `X-CSRF-Token` (page scripts).
    Cookie,
}

/// Someone a test acts as, on one app.
#[derive(Clone)]
pub struct Actor<'a> {
    app: &'a TestApp,
    client: &'a Client,
    account: account::Model,
    /// The product user.
    pub user: user::Model,
    /// Their current token (signed when the actor was made or last [renewed](Actor::renew)).
    pub token: String,
    via: Via,
}

impl TestApp {
    /// A new user with handle `handle` (email `{handle}@example.com`, the test password, names
    /// derived from the handle), signed in; their API calls go as bearer.
    pub async fn with_user(&self, handle: &str) -> Actor<'_> {
        self.with_named_user(handle, &format!("{handle}さん"), &format!("{handle} (en)")).await
    }

    /// A new user with handle `handle` and these display names, signed in.
    pub async fn with_named_user(&self, handle: &str, name_ja: &str, name_en: &str) -> Actor<'_> {
        assert!(self.origin.starts_with("http://127.0.0.1"), "acting as a user needs TestApp::builder().live()");
        let now = self.clock.now();
        // The row `NewAccount::create` writes, with the test password's hash made once per
        // test process: hashing it for every actor (Argon2 at the product's cost) was an eighth
        // of the suites' CPU time. Sign-up itself is tested through its API and pages.
        let account = account::ActiveModel {
            sub: Set(uuid::Uuid::new_v4().to_string()),
            email: Set(format!("{handle}@example.com")),
            password_hash: Set(test_password_hash().to_string()),
            vmarket_id: Set(handle.into()),
            name_ja: Set(name_ja.into()),
            name_en: Set(name_en.into()),
            token_generation: Set(0),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(&self.db)
        .await
        .expect("the test account is created");
        let identity = Identity {
            sub: account.sub.clone(),
            vmarket_id: account.vmarket_id.clone(),
            name_ja: account.name_ja.clone(),
            name_en: account.name_en.clone(),
            email: Some(account.email.clone()),
        };
        let user = user::Model::provision(&self.db, &identity, now).await.expect("the user is provisioned");
        let client = self
            .actors
            .get_or_init(|| async { Client::untracked(self.another_node()).await.expect("valid rocket instance") })
            .await;
        let mut actor = Actor { app: self, client, account, user, token: String::new(), via: Via::Bearer };
        actor.renew().await;
        actor
    }

    /// A new staff member with `role` (handle `staff_<role>`, so one per role and app).
    pub async fn as_staff(&self, role: Role) -> Actor<'_> {
        let name = serde_json::to_value(role).expect("roles serialize");
        let mut actor = self.with_user(&format!("staff_{}", name.as_str().expect("a role name"))).await;
        actor.user = actor.user.set_role(&self.db, role, self.clock.now()).await.expect("role granted");
        actor
    }
}

impl<'a> Actor<'a> {
    /// The same person sending their API calls `via` (pages always go as a browser).
    pub fn via(&self, via: Via) -> Self {
        Self { via, ..self.clone() }
    }

    /// Signs a fresh token at the app's "now", as the account service would after a silent
    /// sign-in (tokens live a day: tests that move the clock further need one).
    pub async fn renew(&mut self) {
        let app = self.app;
        let account = account::Entity::find_by_id(self.account.id).one(&app.db).await.unwrap().expect("account");
        self.token = vmarket::account::tokens::issue(&app.db, &account, &app.config.sso_base(), app.clock.now())
            .await
            .expect("token signed");
        self.account = account;
    }

    /// A request carrying this actor's credentials as `via` says (a cookie request carries the
    /// CSRF token as page scripts do); add a body or headers and dispatch it.
    pub fn request(&self, method: Method, path: &str) -> LocalRequest<'a> {
        let req = self.client.req(method, path.to_string());
        match self.via {
            Via::Bearer => req.header(Header::new("Authorization", format!("Bearer {}", self.token))),
            Via::Cookie => self.browser(req).header(Header::new("X-CSRF-Token", TEST_CSRF)),
        }
    }

    /// `req` from this actor's browser: the token cookie and the CSRF cookie, nothing else.
    pub fn browser(&self, req: LocalRequest<'a>) -> LocalRequest<'a> {
        req.cookie(Cookie::new("vmarket_token", self.token.clone())).cookie(Cookie::new("vmarket_csrf", TEST_CSRF))
    }

    /// Sends `method` to `path` with an optional JSON body; status and JSON body.
    async fn json(&self, method: Method, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut req = self.request(method, path);
        if let Some(body) = body {
            req = req.header(ContentType::JSON).body(body.to_string());
        }
        json_of(req.dispatch().await).await
    }

    /// GETs `path`; status and JSON body (`Null` when not JSON).
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        self.json(Method::Get, path, None).await
    }

    /// POSTs `body` as JSON to `path`; status and JSON body.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        self.json(Method::Post, path, Some(body)).await
    }

    /// PUTs `body` as JSON to `path`; status and JSON body.
    pub async fn put_json(&self, path: &str, body: &Value) -> (u16, Value) {
        self.json(Method::Put, path, Some(body)).await
    }

    /// DELETEs `path`; status and JSON body (`Null` for 204).
    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.json(Method::Delete, path, None).await
    }

    /// Sends `fields` and an optional file to `path` as `multipart/form-data` (as the API's
    /// upload calls take them); status and JSON body.
    pub async fn multipart(
        &self,
        method: Method,
        path: &str,
        fields: &[(&str, &str)],
        file: Option<FilePart<'_>>,
    ) -> (u16, Value) {
        let (ct, body) = multipart_with(fields, file);
        json_of(self.request(method, path).header(ct).body(body).dispatch().await).await
    }

    /// GETs a page as this actor's browser (cookie); status and HTML.
    pub async fn page(&self, path: &str) -> (u16, String) {
        let res = self.browser(self.client.get(path.to_string())).dispatch().await;
        (res.status().code, res.into_string().await.unwrap_or_default())
    }

    /// GETs `path` as this actor's browser (cookie); status, headers and the body's bytes (for
    /// downloads).
    pub async fn download(&self, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let res = self.browser(self.client.get(path.to_string())).dispatch().await;
        let headers =
            res.headers().iter().map(|h| (h.name().as_str().to_ascii_lowercase(), h.value().to_owned())).collect();
        (res.status().code, headers, res.into_bytes().await.unwrap_or_default())
    }

    /// The form matching `selector` on the page at `path`, as this actor sees it.
    pub async fn form(&self, path: &str, selector: &str) -> Form {
        let (status, html) = self.page(path).await;
        assert_eq!(status, 200, "the form's page {path}");
        Form::parse(&html, selector, path)
    }

    /// Submits `form` as this actor's browser does: its hidden fields (the page's CSRF token
    /// among them) with `fields` (a field named like a hidden one replaces it) and the file, in
    /// the form's encoding, with the cookies and no script headers. Status, Location and body.
    pub async fn submit(
        &self,
        form: &Form,
        fields: &[(&str, &str)],
        file: Option<FilePart<'_>>,
    ) -> (u16, Option<String>, String) {
        let mut all: Vec<(&str, &str)> = form
            .hidden
            .iter()
            .filter(|(name, _)| !fields.iter().any(|(given, _)| given == name))
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        all.extend_from_slice(fields);
        let req = self.browser(self.client.post(form.action.clone()));
        let req = if form.multipart {
            let (ct, body) = multipart_with(&all, file);
            req.header(ct).body(body)
        } else {
            assert!(file.is_none(), "a file needs a multipart form");
            req.header(ContentType::Form)
                .body(url::form_urlencoded::Serializer::new(String::new()).extend_pairs(all).finish())
        };
        let res = req.dispatch().await;
        let status = res.status().code;
        let location = res.headers().get_one("Location").map(str::to_string);
        (status, location, res.into_string().await.unwrap_or_default())
    }
}

/// A form as a page hands it to the browser: where it posts, its hidden fields and encoding.
#[derive(Debug, Clone)]
pub struct Form {
    /// Where it posts (the page itself when the form has no `action`).
    pub action: String,
    /// Its hidden fields, the CSRF token among them.
    pub hidden: Vec<(String, String)>,
    /// Whether it posts `multipart/form-data` (else URL-encoded).
    pub multipart: bool,
}

impl Form {
    /// The form matching `selector` in `html`, the page at `path`.
    pub fn parse(html: &str, selector: &str, path: &str) -> Self {
        let doc = Doc::parse(html);
        assert_eq!(doc.count(selector), 1, "one form {selector} on {path}");
        let action = doc.attrs(selector, "action").into_iter().next().filter(|a| !a.is_empty());
        Self {
            action: action.unwrap_or_else(|| path.to_string()),
            hidden: doc.fields(&format!("{selector} input[type=hidden]")),
            multipart: doc.attrs(selector, "enctype").iter().any(|e| e == "multipart/form-data"),
        }
    }
}

/// Status and JSON body of a response (`Null` when the body is not JSON).
pub async fn json_of(res: LocalResponse<'_>) -> (u16, Value) {
    let status = res.status().code;
    let text = res.into_string().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The first shape of these helpers (`app.user`, `app.request_as(&actor, …)`), which the circles
/// tests were written against; each call goes through the [`Actor`] methods above.
impl TestApp {
    /// See [`TestApp::with_user`].
    pub async fn user(&self, handle: &str) -> Actor<'_> {
        self.with_user(handle).await
    }

    /// Sends a request as `actor` via `via`; `body` as JSON when given.
    pub async fn request_as<'a>(
        &self,
        actor: &Actor<'a>,
        via: Via,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> LocalResponse<'a> {
        let mut req = actor.via(via).request(method, path);
        if let Some(body) = body {
            req = req.header(ContentType::JSON).body(body.to_string());
        }
        req.dispatch().await
    }

    /// GETs a page as `actor`'s browser; status and HTML.
    pub async fn page_as(&self, actor: &Actor<'_>, path: &str) -> (u16, String) {
        actor.page(path).await
    }
}

/// The password of every test actor.
pub const TEST_PASSWORD: &str = "correct horse battery";

/// [`TEST_PASSWORD`]'s Argon2 hash, made once per test process.
fn test_password_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| vmarket::auth::password::hash(TEST_PASSWORD).expect("the test password hashes"))
}
