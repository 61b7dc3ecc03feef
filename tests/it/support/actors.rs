//! Acting as a given user or staff role without the browser flow: the account is created at the
//! built-in account service and a real token is signed with the app's own key (exactly what the
//! account service would hand out), then sent as a bearer token or as the browser's cookie with
//! its CSRF token. Nothing in the product is bypassed; the app must be [`live`] so that it can
//! fetch its own JWKS over HTTP, as it does in production.
//!
//! [`live`]: super::TestAppBuilder::live

use rocket::http::{ContentType, Cookie, Header, Method};
use rocket::local::asynchronous::LocalResponse;
use sea_orm::EntityTrait;
use serde_json::Value;
use vmarket::account::store::NewAccount;
use vmarket::db::entities::{account, user};
use vmarket::model::user::{Identity, Role};

use super::TestApp;

/// The CSRF token tests send with cookie-authenticated writes.
const TEST_CSRF: &str = "c5f0a0c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffe1";

/// Someone the test acts as.
#[derive(Debug, Clone)]
pub struct Actor {
    /// The product user.
    pub user: user::Model,
    /// A fresh token for them.
    pub token: String,
}

/// How a request proves who sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `Authorization: Bearer` (API clients).
    Bearer,
    /// The browser's HttpOnly cookie, with the CSRF token on writes.
    Cookie,
}

impl TestApp {
    /// A new user with handle `handle` (names derived from it), signed in.
    pub async fn user(&self, handle: &str) -> Actor {
        assert!(self.origin.starts_with("http://127.0.0.1"), "acting as a user needs TestApp::builder().live()");
        let now = self.clock.now();
        let account = NewAccount {
            email: format!("{handle}@example.com"),
            password: "correct horse battery".into(),
            vmarket_id: handle.into(),
            name_ja: format!("{handle}さん"),
            name_en: format!("{handle} (en)"),
        }
        .create(&self.db, now)
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
        let token = self.token_for(&account).await;
        Actor { user, token }
    }

    /// A new staff member with `role`.
    pub async fn staff(&self, role: Role) -> Actor {
        let handle = format!("staff_{}", serde_json::to_value(role).unwrap().as_str().unwrap());
        let mut actor = self.user(&handle).await;
        actor.user = actor.user.set_role(&self.db, role, self.clock.now()).await.expect("role granted");
        actor
    }

    /// A token for `account` signed now by the account service's current key.
    pub async fn token_for(&self, account: &account::Model) -> String {
        let account = account::Entity::find_by_id(account.id).one(&self.db).await.unwrap().expect("account");
        vmarket::account::tokens::issue(&self.db, &account, &self.config.sso_base(), self.clock.now())
            .await
            .expect("token signed")
    }

    /// Sends a request as `actor` via `via`; `body` as JSON when given.
    pub async fn request_as(
        &self,
        actor: &Actor,
        via: Via,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> LocalResponse<'_> {
        let mut req = self.client.req(method, path.to_string());
        req = match via {
            Via::Bearer => req.header(Header::new("Authorization", format!("Bearer {}", actor.token))),
            Via::Cookie => req
                .cookie(Cookie::new("vmarket_token", actor.token.clone()))
                .cookie(Cookie::new("vmarket_csrf", TEST_CSRF))
                .header(Header::new("X-CSRF-Token", TEST_CSRF)),
        };
        if let Some(body) = body {
            req = req.header(ContentType::JSON).body(body.to_string());
        }
        req.dispatch().await
    }

    /// GETs `path` as `actor` (bearer); status and JSON body (`Null` when not JSON).
    pub async fn get_json_as(&self, actor: &Actor, path: &str) -> (u16, Value) {
        json_of(self.request_as(actor, Via::Bearer, Method::Get, path, None).await).await
    }

    /// GETs a page as `actor` (cookie, like a browser); status and HTML.
    pub async fn page_as(&self, actor: &Actor, path: &str) -> (u16, String) {
        let res = self.request_as(actor, Via::Cookie, Method::Get, path, None).await;
        (res.status().code, res.into_string().await.unwrap_or_default())
    }
}

/// Status and JSON body of a response (`Null` when the body is not JSON).
pub async fn json_of(res: LocalResponse<'_>) -> (u16, Value) {
    let status = res.status().code;
    let text = res.into_string().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}
