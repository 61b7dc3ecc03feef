//! Who may do what with a circle, call by call (the access matrix of issue 11): every circle
//! endpoint × {owner, member, invitee, stranger, anonymous, owner of a suspended circle}. A
//! stranger never learns that a circle exists (404), a member is told it is not theirs to
//! manage (403), a suspended circle changes for nobody (409 `circle_suspended`). Reads also
//! check what each one sees in lists.

use rocket::http::{Cookie, Header, Method};
use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::circles::{Cast, ids};

/// Collects mismatches, so that one run shows every cell that is wrong.
#[derive(Default)]
struct Matrix(Vec<String>);

impl Matrix {
    async fn check(
        &mut self,
        app: &TestApp,
        who: (&str, Option<&Actor<'_>>),
        method: Method,
        path: &str,
        body: Option<&Value>,
        expected: (u16, &str),
    ) -> Value {
        let (status, answer) = match who.1 {
            Some(actor) => app.call_as(actor, method, path, body).await,
            None => app.call_anonymously(method, path).await,
        };
        let code = answer["code"].as_str().unwrap_or("");
        if status != expected.0 || (!expected.1.is_empty() && code != expected.1) {
            self.0.push(format!(
                "{method} {path} as {}: got {status} {code:?}, expected {} {:?}",
                who.0, expected.0, expected.1
            ));
        }
        answer
    }

    fn see(&mut self, what: &str, ok: bool) {
        if !ok {
            self.0.push(what.to_string());
        }
    }

    fn assert_clean(self) {
        assert!(self.0.is_empty(), "access matrix mismatches:\n  {}", self.0.join("\n  "));
    }
}

#[rocket::async_test]
async fn reads_follow_the_access_matrix() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "r").await;
    let mut m = Matrix::default();
    let (circle, suspended) = (c.circle, c.suspended);
    let people: [(&str, Option<&Actor<'_>>); 5] = [
        ("owner", Some(&c.owner)),
        ("member", Some(&c.member)),
        ("invitee", Some(&c.invitee)),
        ("stranger", Some(&c.stranger)),
        ("anonymous", None),
    ];

    // The owner's circles: only the owner lists it.
    for (who, status) in people.iter().zip([200, 200, 200, 200, 401]) {
        let body = m.check(&app, *who, Method::Get, "/api/v1/user/circles", None, (status, "")).await;
        if status == 200 {
            m.see(&format!("{} lists the circle as theirs", who.0), ids(&body).contains(&circle) == (who.0 == "owner"));
        }
    }
    let body = m
        .check(
            &app,
            ("suspended owner", Some(&c.suspended_owner)),
            Method::Get,
            "/api/v1/user/circles",
            None,
            (200, ""),
        )
        .await;
    m.see("the suspended owner lists their circle", ids(&body) == [suspended]);
    m.see("…marked suspended", body["data"][0]["is_suspended"] == json!(true));

    // One circle, as its owner sees it.
    let path = format!("/api/v1/user/circles/{circle}");
    for (who, expected) in people.iter().zip([
        (200, ""),
        (403, "forbidden"),
        (404, "not_found"),
        (404, "not_found"),
        (401, "unauthorized"),
    ]) {
        m.check(&app, *who, Method::Get, &path, None, expected).await;
    }
    let body = m
        .check(
            &app,
            ("suspended owner", Some(&c.suspended_owner)),
            Method::Get,
            &format!("/api/v1/user/circles/{suspended}"),
            None,
            (200, ""),
        )
        .await;
    m.see("the suspended circle shows its members", body["members"].as_array().map(Vec::len) == Some(2));

    // Joined circles: the member lists it, the owner does not (they own it).
    for (who, status) in people.iter().zip([200, 200, 200, 200, 401]) {
        let body = m.check(&app, *who, Method::Get, "/api/v1/user/member/circles", None, (status, "")).await;
        if status == 200 {
            m.see(
                &format!("{} lists the circle as joined", who.0),
                ids(&body).contains(&circle) == (who.0 == "member"),
            );
        }
    }
    let body = m
        .check(
            &app,
            ("suspended member", Some(&c.suspended_member)),
            Method::Get,
            "/api/v1/user/member/circles",
            None,
            (200, ""),
        )
        .await;
    m.see("the suspended circle's member still lists it", ids(&body) == [suspended]);

    // One circle, as a member sees it (the owner is a member too).
    let path = format!("/api/v1/user/member/circles/{circle}");
    for (who, expected) in
        people.iter().zip([(200, ""), (200, ""), (404, "not_found"), (404, "not_found"), (401, "unauthorized")])
    {
        let body = m.check(&app, *who, Method::Get, &path, None, expected).await;
        if expected.0 == 200 {
            let standing = if who.0 == "owner" { "owner" } else { "member" };
            m.see(&format!("{} stands as {standing}", who.0), body["standing"] == json!(standing));
        }
    }
    m.check(
        &app,
        ("suspended owner", Some(&c.suspended_owner)),
        Method::Get,
        &format!("/api/v1/user/member/circles/{suspended}"),
        None,
        (200, ""),
    )
    .await;

    // Invitations: only the invitee lists theirs.
    for (who, status) in people.iter().zip([200, 200, 200, 200, 401]) {
        let body = m.check(&app, *who, Method::Get, "/api/v1/user/invitation_circles", None, (status, "")).await;
        if status == 200 {
            let listed = ids(&body);
            let expected: Vec<i64> =
                if who.0 == "invitee" { vec![c.suspended_invitation, c.invitation] } else { Vec::new() };
            m.see(&format!("{} lists {expected:?} as invitations, not {listed:?}", who.0), listed == expected);
        }
    }

    // The circle's pending invitations, for its owner.
    let path = format!("/api/v1/user/invitation_members/{circle}");
    for (who, expected) in people.iter().zip([
        (200, ""),
        (403, "forbidden"),
        (404, "not_found"),
        (404, "not_found"),
        (401, "unauthorized"),
    ]) {
        let body = m.check(&app, *who, Method::Get, &path, None, expected).await;
        if expected.0 == 200 {
            m.see("the owner sees the pending invitation", ids(&body) == [c.invitation]);
        }
    }
    m.check(
        &app,
        ("suspended owner", Some(&c.suspended_owner)),
        Method::Get,
        &format!("/api/v1/user/invitation_members/{suspended}"),
        None,
        (200, ""),
    )
    .await;

    // Finding a user to invite.
    let path =
        format!("/api/v1/user/invitation_members/{circle}/search_user?vmarket_id={}", c.stranger.user.vmarket_id);
    for (who, expected) in people.iter().zip([
        (200, ""),
        (403, "forbidden"),
        (404, "not_found"),
        (404, "not_found"),
        (401, "unauthorized"),
    ]) {
        m.check(&app, *who, Method::Get, &path, None, expected).await;
    }
    let path =
        format!("/api/v1/user/invitation_members/{suspended}/search_user?vmarket_id={}", c.stranger.user.vmarket_id);
    m.check(&app, ("suspended owner", Some(&c.suspended_owner)), Method::Get, &path, None, (409, "circle_suspended"))
        .await;
    m.assert_clean();
}

#[rocket::async_test]
async fn writes_follow_the_access_matrix() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "w").await;
    let mut m = Matrix::default();
    let (circle, suspended) = (c.circle, c.suspended);
    let refused: [(&str, Option<&Actor<'_>>, (u16, &str)); 4] = [
        ("member", Some(&c.member), (403, "forbidden")),
        ("invitee", Some(&c.invitee), (404, "not_found")),
        ("stranger", Some(&c.stranger), (404, "not_found")),
        ("anonymous", None, (401, "unauthorized")),
    ];
    let sowner = ("suspended owner", Some(&c.suspended_owner));

    // Changing the circle (multipart; every refusal comes before the owner's change).
    let fields = [("name_ja", "変えた名前")];
    for (who, actor, expected) in &refused {
        let path = format!("/api/v1/user/circles/{circle}");
        let (status, body) = match actor {
            Some(a) => app.multipart_as(a, Method::Put, &path, &fields, None).await,
            None => app.call_anonymously(Method::Put, &path).await,
        };
        m.see(
            &format!("PUT circle as {who}: {status} {}", body["code"]),
            (status, body["code"].as_str().unwrap_or("")) == *expected,
        );
    }
    let (status, body) = app
        .multipart_as(&c.suspended_owner, Method::Put, &format!("/api/v1/user/circles/{suspended}"), &fields, None)
        .await;
    m.see(&format!("PUT suspended circle: {status} {body}"), status == 409 && body["code"] == "circle_suspended");
    m.see("the refusal says why", body["message"] == "このサークルは運営により利用停止中のため、変更できません。");
    let (status, body) =
        app.multipart_as(&c.owner, Method::Put, &format!("/api/v1/user/circles/{circle}"), &fields, None).await;
    m.see(
        &format!("PUT as owner: {status}"),
        status == 200 && body["name_ja"] == "変えた名前" && body["name_en"] == "星灯り工房 w",
    );

    // Inviting (the stranger).
    let invite_stranger = json!({ "user_id": c.stranger.user.id });
    let path = format!("/api/v1/user/invitation_members/{circle}");
    for (who, actor, expected) in &refused {
        m.check(&app, (who, *actor), Method::Post, &path, Some(&invite_stranger), *expected).await;
    }
    m.check(
        &app,
        sowner,
        Method::Post,
        &format!("/api/v1/user/invitation_members/{suspended}"),
        Some(&invite_stranger),
        (409, "circle_suspended"),
    )
    .await;
    let stranger_invitation =
        m.check(&app, ("owner", Some(&c.owner)), Method::Post, &path, Some(&invite_stranger), (201, "")).await["id"]
            .as_i64()
            .unwrap_or(0);

    // Cancelling an invitation (the stranger's): by invitation id.
    let path = format!("/api/v1/user/invitation_members/{stranger_invitation}/cancel");
    for (who, actor, expected) in &refused {
        m.check(&app, (who, *actor), Method::Put, &path, None, *expected).await;
    }
    let path_suspended = format!("/api/v1/user/invitation_members/{}/cancel", c.suspended_invitation);
    m.check(&app, sowner, Method::Put, &path_suspended, None, (409, "circle_suspended")).await;
    let body = m.check(&app, ("owner", Some(&c.owner)), Method::Put, &path, None, (200, "")).await;
    m.see("a cancelled invitation says so", body["status"] == "cancelled");

    // Answering an invitation: only its invitee; anyone else's is 404.
    for verb in ["withdraw", "approval"] {
        let others: [(&str, Option<&Actor<'_>>, (u16, &str)); 4] = [
            ("owner", Some(&c.owner), (404, "not_found")),
            ("member", Some(&c.member), (404, "not_found")),
            ("stranger", Some(&c.stranger), (404, "not_found")),
            ("anonymous", None, (401, "unauthorized")),
        ];
        let path = format!("/api/v1/user/invitation_circles/{}/{verb}", c.invitation);
        for (who, actor, expected) in &others {
            m.check(&app, (who, *actor), Method::Put, &path, None, *expected).await;
        }
        let path_suspended = format!("/api/v1/user/invitation_circles/{}/{verb}", c.suspended_invitation);
        m.check(
            &app,
            ("invitee of a suspended circle", Some(&c.invitee)),
            Method::Put,
            &path_suspended,
            None,
            (409, "circle_suspended"),
        )
        .await;
    }
    let body = m
        .check(
            &app,
            ("invitee", Some(&c.invitee)),
            Method::Put,
            &format!("/api/v1/user/invitation_circles/{}/approval", c.invitation),
            None,
            (200, ""),
        )
        .await;
    m.see("an approved invitation says so", body["status"] == "approved");
    m.check(
        &app,
        ("invitee", Some(&c.invitee)),
        Method::Put,
        &format!("/api/v1/user/invitation_circles/{}/withdraw", c.invitation),
        None,
        (409, "invitation_not_pending"),
    )
    .await;

    // Removing a member (the invitee, who just joined).
    let members = app.call_as(&c.owner, Method::Get, &format!("/api/v1/user/circles/{circle}"), None).await.1;
    let member_ids: Vec<(i64, i64)> = members["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["user"]["id"].as_i64().unwrap(), x["id"].as_i64().unwrap()))
        .collect();
    let of = |user: &Actor| member_ids.iter().find(|(u, _)| *u == i64::from(user.user.id)).map(|(_, id)| *id).unwrap();
    let path = format!("/api/v1/user/circles/{circle}/member/{}", of(&c.invitee));
    for (who, actor, expected) in [
        ("member", Some(&c.member), (403, "forbidden")),
        ("invitee (now a member)", Some(&c.invitee), (403, "forbidden")),
        ("stranger", Some(&c.stranger), (404, "not_found")),
        ("anonymous", None, (401, "unauthorized")),
    ] {
        m.check(&app, (who, actor), Method::Delete, &path, None, expected).await;
    }
    let path_suspended = format!("/api/v1/user/circles/{suspended}/member/{}", c.suspended_membership);
    m.check(&app, sowner, Method::Delete, &path_suspended, None, (409, "circle_suspended")).await;
    m.check(
        &app,
        ("owner", Some(&c.owner)),
        Method::Delete,
        &format!("/api/v1/user/circles/{circle}/member/{}", of(&c.owner)),
        None,
        (409, "owner_cannot_leave"),
    )
    .await;
    m.check(&app, ("owner", Some(&c.owner)), Method::Delete, &path, None, (204, "")).await;
    m.check(&app, ("owner, again", Some(&c.owner)), Method::Delete, &path, None, (404, "not_found")).await;

    // Leaving: a member may; the owner may not; strangers do not see the circle.
    let path = format!("/api/v1/user/member/circles/{circle}/leave");
    for (who, actor, expected) in [
        ("owner", Some(&c.owner), (409, "owner_cannot_leave")),
        ("invitee (removed)", Some(&c.invitee), (404, "not_found")),
        ("stranger", Some(&c.stranger), (404, "not_found")),
        ("anonymous", None, (401, "unauthorized")),
    ] {
        m.check(&app, (who, actor), Method::Delete, &path, None, expected).await;
    }
    let path_suspended = format!("/api/v1/user/member/circles/{suspended}/leave");
    m.check(
        &app,
        ("suspended member", Some(&c.suspended_member)),
        Method::Delete,
        &path_suspended,
        None,
        (409, "circle_suspended"),
    )
    .await;
    m.check(&app, sowner, Method::Delete, &path_suspended, None, (409, "owner_cannot_leave")).await;
    m.check(&app, ("member", Some(&c.member)), Method::Delete, &path, None, (204, "")).await;
    let body = app.call_as(&c.member, Method::Get, "/api/v1/user/member/circles", None).await.1;
    m.see("after leaving, the circle is gone from the member's list", ids(&body).is_empty());
    m.check(
        &app,
        ("member (left)", Some(&c.member)),
        Method::Get,
        &format!("/api/v1/user/member/circles/{circle}"),
        None,
        (404, "not_found"),
    )
    .await;

    // Creating: anyone signed in.
    m.check(&app, ("anonymous", None), Method::Post, "/api/v1/user/circles", None, (401, "unauthorized")).await;
    m.assert_clean();
}

#[rocket::async_test]
async fn cookie_writes_need_the_csrf_header() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "c").await;
    let path = format!("/api/v1/user/member/circles/{}/leave", c.circle);
    let res =
        app.client.delete(path.clone()).cookie(Cookie::new("vmarket_token", c.member.token.clone())).dispatch().await;
    assert_eq!(res.status().code, 403);
    let body: Value = serde_json::from_str(&res.into_string().await.unwrap()).unwrap();
    assert_eq!(body["code"], "csrf_failed");
    let res = app.request_as(&c.member, crate::support::actors::Via::Cookie, Method::Delete, &path, None).await;
    assert_eq!(res.status().code, 204, "with the header the member leaves");
    // A bearer token from someone else is not the member's cookie.
    let res = app
        .client
        .delete(format!("/api/v1/user/member/circles/{}/leave", c.suspended))
        .header(Header::new("Authorization", format!("Bearer {}", c.stranger.token)))
        .dispatch()
        .await;
    assert_eq!(res.status().code, 404);
}
