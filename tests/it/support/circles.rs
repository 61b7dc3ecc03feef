//! Circles for tests, made through the API as their users would: a [`Cast`] of people around
//! one circle (its owner, a member, an invitee, a stranger) and a suspended circle with its own
//! owner and member; multipart and JSON calls as an actor; staff suspension (no staff screen
//! for it yet, so straight in the database, as the README says staff do).

use rocket::http::{Header, Method};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use vmarket::db::entities::circle;

use super::TestApp;
use super::actors::{Actor, Via, json_of};
use super::auth::multipart_with;

/// Status and JSON body.
pub type Answer = (u16, Value);

impl TestApp {
    /// Sends a multipart form as `actor` (bearer) with an optional PNG `thumbnail`.
    pub async fn multipart_as(
        &self,
        actor: &Actor<'_>,
        method: Method,
        path: &str,
        fields: &[(&str, &str)],
        thumbnail: Option<&[u8]>,
    ) -> Answer {
        let (ct, body) = multipart_with(fields, thumbnail.map(|png| ("thumbnail", "thumbnail.png", png)));
        let res = self
            .client
            .req(method, path.to_string())
            .header(Header::new("Authorization", format!("Bearer {}", actor.token)))
            .header(ct)
            .body(body)
            .dispatch()
            .await;
        json_of(res).await
    }

    /// Sends `method path` as `actor` (bearer), with a JSON body when given.
    pub async fn call_as(&self, actor: &Actor<'_>, method: Method, path: &str, body: Option<&Value>) -> Answer {
        json_of(self.request_as(actor, Via::Bearer, method, path, body).await).await
    }

    /// Sends `method path` without credentials.
    pub async fn call_anonymously(&self, method: Method, path: &str) -> Answer {
        json_of(self.client.req(method, path.to_string()).dispatch().await).await
    }

    /// `owner` creates a circle named `name` (both languages); its JSON view.
    pub async fn create_circle(&self, owner: &Actor<'_>, name: &str) -> Value {
        let fields = [("name_ja", name), ("name_en", name), ("description_ja", "説明"), ("description_en", "About")];
        let (status, body) = self.multipart_as(owner, Method::Post, "/api/v1/user/circles", &fields, None).await;
        assert_eq!(status, 201, "{body}");
        body
    }

    /// `owner` invites `invitee` into circle `circle_id`; status and body.
    pub async fn invite(&self, owner: &Actor<'_>, circle_id: i64, invitee: &Actor<'_>) -> Answer {
        let path = format!("/api/v1/user/invitation_members/{circle_id}");
        self.call_as(owner, Method::Post, &path, Some(&json!({ "user_id": invitee.user.id }))).await
    }

    /// `owner` invites `invitee`, who accepts; the invitation's id.
    pub async fn join(&self, owner: &Actor<'_>, circle_id: i64, invitee: &Actor<'_>) -> i64 {
        let (status, body) = self.invite(owner, circle_id, invitee).await;
        assert_eq!(status, 201, "{body}");
        let id = body["id"].as_i64().expect("invitation id");
        let (status, body) =
            self.call_as(invitee, Method::Put, &format!("/api/v1/user/invitation_circles/{id}/approval"), None).await;
        assert_eq!(status, 200, "{body}");
        id
    }

    /// A fresh token for `actor` at the clock's now (tokens live 24 hours; tests that move the
    /// clock further sign in again).
    pub async fn refresh(&self, actor: &mut Actor<'_>) {
        actor.renew().await;
    }

    /// Staff suspend circle `circle_id`.
    pub async fn suspend_circle(&self, circle_id: i64) {
        circle::Entity::update_many()
            .col_expr(circle::Column::IsSuspended, sea_orm::sea_query::Expr::value(true))
            .filter(circle::Column::Id.eq(i32::try_from(circle_id).unwrap()))
            .exec(&self.db)
            .await
            .expect("suspended");
    }
}

/// The people around a circle, and a suspended circle.
pub struct Cast<'a> {
    /// Owns `circle`.
    pub owner: Actor<'a>,
    /// A member of `circle` (joined by invitation).
    pub member: Actor<'a>,
    /// Has a pending invitation to `circle` (and one to `suspended`).
    pub invitee: Actor<'a>,
    /// Has nothing to do with either circle.
    pub stranger: Actor<'a>,
    /// Owns `suspended`.
    pub suspended_owner: Actor<'a>,
    /// A member of `suspended`.
    pub suspended_member: Actor<'a>,
    /// The circle's id.
    pub circle: i64,
    /// The invitee's pending invitation to `circle`.
    pub invitation: i64,
    /// The suspended circle's id.
    pub suspended: i64,
    /// The suspended member's membership id.
    pub suspended_membership: i64,
    /// The invitee's pending invitation to `suspended`.
    pub suspended_invitation: i64,
}

impl<'a> Cast<'a> {
    /// A cast with handles suffixed by `tag` (so that several casts share one app).
    pub async fn new(app: &'a TestApp, tag: &str) -> Self {
        let owner = app.user(&format!("owner_{tag}")).await;
        let member = app.user(&format!("member_{tag}")).await;
        let invitee = app.user(&format!("invitee_{tag}")).await;
        let stranger = app.user(&format!("stranger_{tag}")).await;
        let suspended_owner = app.user(&format!("sowner_{tag}")).await;
        let suspended_member = app.user(&format!("smember_{tag}")).await;

        let circle = app.create_circle(&owner, &format!("星灯り工房 {tag}")).await["id"].as_i64().unwrap();
        app.join(&owner, circle, &member).await;
        let (_, body) = app.invite(&owner, circle, &invitee).await;
        let invitation = body["id"].as_i64().expect("invitation");

        let suspended =
            app.create_circle(&suspended_owner, &format!("停止中サークル {tag}")).await["id"].as_i64().unwrap();
        app.join(&suspended_owner, suspended, &suspended_member).await;
        let (_, body) = app.invite(&suspended_owner, suspended, &invitee).await;
        let suspended_invitation = body["id"].as_i64().expect("invitation");
        app.suspend_circle(suspended).await;

        let suspended_membership = membership_of(app, &suspended_owner, suspended, &suspended_member).await;
        Self {
            owner,
            member,
            invitee,
            stranger,
            suspended_owner,
            suspended_member,
            circle,
            invitation,
            suspended,
            suspended_membership,
            suspended_invitation,
        }
    }
}

/// The membership id of `member` in circle `circle_id`, as its owner sees it.
pub async fn membership_of(app: &TestApp, owner: &Actor<'_>, circle_id: i64, member: &Actor<'_>) -> i64 {
    let (status, body) = app.call_as(owner, Method::Get, &format!("/api/v1/user/circles/{circle_id}"), None).await;
    assert_eq!(status, 200, "{body}");
    body["members"]
        .as_array()
        .expect("members")
        .iter()
        .find(|m| m["user"]["id"].as_i64() == Some(i64::from(member.user.id)))
        .and_then(|m| m["id"].as_i64())
        .expect("the member is listed")
}

/// The ids of the circles in a list body.
pub fn ids(body: &Value) -> Vec<i64> {
    body["data"].as_array().map(|a| a.iter().filter_map(|c| c["id"].as_i64()).collect()).unwrap_or_default()
}

/// What a browser gets back from a form post: status, `Location` (site-relative) and body.
pub type Posted = (u16, Option<String>, String);

impl TestApp {
    /// The CSRF token `actor`'s browser pages carry.
    pub async fn page_csrf(&self, actor: &Actor<'_>) -> String {
        let (status, html) = self.page_as(actor, "/mypage").await;
        assert_eq!(status, 200);
        super::html::Doc::parse(&html).attr("meta[name=csrf-token]", "content")
    }

    /// Posts a page form as `actor`'s browser (cookie, CSRF cookie and field): URL-encoded, or
    /// multipart when a thumbnail is sent. `csrf` is the field's value (`None`: left out).
    pub async fn post_page_as(
        &self,
        actor: &Actor<'_>,
        path: &str,
        csrf: Option<&str>,
        fields: &[(&str, &str)],
        thumbnail: Option<&[u8]>,
    ) -> Posted {
        let cookie_csrf = self.page_csrf(actor).await;
        let mut all: Vec<(&str, &str)> = csrf.map(|c| vec![("csrf_token", c)]).unwrap_or_default();
        all.extend_from_slice(fields);
        let req = self
            .client
            .post(path.to_string())
            .cookie(rocket::http::Cookie::new("vmarket_token", actor.token.clone()))
            .cookie(rocket::http::Cookie::new("vmarket_csrf", cookie_csrf));
        let req = match thumbnail {
            Some(png) => {
                let (ct, body) = multipart_with(&all, Some(("thumbnail", "thumbnail.png", png)));
                req.header(ct).body(body)
            }
            None => {
                let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(all).finish();
                req.header(rocket::http::ContentType::Form).body(body)
            }
        };
        let res = req.dispatch().await;
        let status = res.status().code;
        let location = res.headers().get_one("Location").map(str::to_string);
        (status, location, res.into_string().await.unwrap_or_default())
    }
}
