//! Circles through the API: creating one with a thumbnail, the field limits at their edges
//! (counted in characters), an invitation's life (approve, withdraw, cancel, expire after 14
//! days by the application clock), the one-pending-invitation and member-cap rules — also when
//! requests race — the exact-ID member search and its rate limit, and the mail each step queues
//! for the other side, in their language.

use chrono::Duration;
use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use vmarket::db::entities::{circle_invitation, mail};
use vmarket::i18n::Lang;
use vmarket::mail::Mailer;
use vmarket::model::circle_invitation::InvitationStatus;

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::auth::png;
use crate::support::circles::{Cast, ids, membership_of};
use crate::support::smtp_sink::{self, SmtpSink};

/// The mails queued so far to `address`: (kind, language, subject, text), oldest first.
async fn mails_to(app: &TestApp, address: &str) -> Vec<(String, String, String, String)> {
    mail::Entity::find()
        .filter(mail::Column::Recipient.eq(address))
        .order_by_asc(mail::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.kind, m.lang, m.subject, m.text_body))
        .collect()
}

fn email(actor: &Actor<'_>) -> String {
    actor.user.email.clone().expect("test users have an email address")
}

async fn get(app: &TestApp, actor: &Actor<'_>, path: &str) -> Value {
    let (status, body) = app.call_as(actor, Method::Get, path, None).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[rocket::async_test]
async fn a_circle_is_created_with_a_thumbnail_in_three_sizes() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("kohaku_t").await;
    let fields = [
        ("name_ja", "  星灯り工房  "),
        ("name_en", "Starlight Works"),
        ("description_ja", "ランタンと星のアクセサリーを作っています。\r\n毎回新作あり。"),
        ("description_en", "We make lanterns and starry accessories."),
        ("website_link", "https://starlight.example/"),
    ];
    let (status, body) =
        app.multipart_as(&owner, Method::Post, "/api/v1/user/circles", &fields, Some(&png(1280, 720))).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["name"], "星灯り工房", "trimmed, in the request's language");
    assert_eq!(body["description_ja"], "ランタンと星のアクセサリーを作っています。\n毎回新作あり。");
    assert_eq!(body["website_link"], "https://starlight.example/");
    assert_eq!(body["standing"], "owner");
    assert_eq!(body["is_suspended"], false);
    assert_eq!(body["member_cap"], 10);
    assert_eq!(body["owner"]["vmarket_id"], "kohaku_t");
    assert!(body["owner"].get("email").is_none(), "circles never show an email address");
    let members = body["members"].as_array().unwrap();
    assert_eq!(members.len(), 1, "the owner is the first member");
    assert_eq!((members[0]["is_owner"].clone(), members[0]["user"]["id"].clone()), (json!(true), json!(owner.user.id)));
    for (size, width) in [("small", 160), ("medium", 320), ("large", 640)] {
        let url = body["thumbnail"][size].as_str().expect(size);
        let res = app.get(url).await;
        assert_eq!(res.status().code, 200, "{url}");
        let img = image::load_from_memory(&res.into_bytes().await.unwrap()).unwrap();
        assert_eq!((img.width(), img.height()), (width, width * 9 / 16), "{size}");
    }
    assert_eq!(body["thumbnail"]["url"], body["thumbnail"]["large"]);

    // English, and the list.
    let list = get(&app, &owner, "/api/v1/user/circles?lang=en").await;
    assert_eq!(list["data"][0]["name"], "Starlight Works");
    assert_eq!(list["pagination"]["count"], 1);
    // A change keeps what it does not name, and the thumbnail.
    let id = body["id"].as_i64().unwrap();
    let (status, changed) = app
        .multipart_as(&owner, Method::Put, &format!("/api/v1/user/circles/{id}"), &[("website_link", "")], None)
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["website_link"], Value::Null, "an empty link clears it");
    assert_eq!(changed["name_en"], "Starlight Works");
    assert_eq!(changed["thumbnail"], body["thumbnail"]);
    // Not an image: the field says so, nothing changes.
    let (status, bad) =
        app.multipart_as(&owner, Method::Put, &format!("/api/v1/user/circles/{id}"), &[], Some(b"not a png")).await;
    assert_eq!((status, bad["details"][0]["attribute"].as_str()), (422, Some("thumbnail")), "{bad}");
}

#[rocket::async_test]
async fn fields_are_checked_at_their_edges_in_characters() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("edges").await;
    let at = |n: usize| "猫".repeat(n);
    let link = |n: usize| format!("https://example.com/{}", "a".repeat(n - 20));
    let (ja, ja_over) = (at(64), at(65));
    let (en, en_over) = ("a".repeat(128), "a".repeat(129));
    let (d, d_over) = (at(2048), at(2049));
    let (w, w_over) = (link(2048), link(2049));
    let ok = [
        ("name_ja", ja.as_str()),
        ("name_en", &en),
        ("description_ja", &d),
        ("description_en", &d),
        ("website_link", &w),
    ];
    let (status, body) = app.multipart_as(&owner, Method::Post, "/api/v1/user/circles", &ok, None).await;
    assert_eq!(status, 201, "every field at its limit (three bytes a character) is accepted: {}", body["details"]);
    assert_eq!(body["name_ja"].as_str().unwrap().chars().count(), 64);

    let over = [
        ("name_ja", ja_over.as_str()),
        ("name_en", &en_over),
        ("description_ja", &d_over),
        ("description_en", &d_over),
        ("website_link", &w_over),
    ];
    let (status, body) = app.multipart_as(&owner, Method::Post, "/api/v1/user/circles?lang=en", &over, None).await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "validation_failed");
    let details: Vec<(&str, &str)> = body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["attribute"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        details,
        [
            ("name_ja", "Use at most 64 characters."),
            ("name_en", "Use at most 128 characters."),
            ("description_ja", "Use at most 2048 characters."),
            ("description_en", "Use at most 2048 characters."),
            ("website_link", "Use at most 2048 characters."),
        ]
    );
    let (status, body) = app
        .multipart_as(&owner, Method::Post, "/api/v1/user/circles", &[("website_link", "ftp://x.example")], None)
        .await;
    assert_eq!(status, 422);
    let attributes: Vec<&str> =
        body["details"].as_array().unwrap().iter().map(|d| d["attribute"].as_str().unwrap()).collect();
    assert_eq!(attributes, ["name_ja", "website_link"], "a name is needed and the link must be http(s)");
    assert_eq!(body["details"][0]["message"], "日本語名か英語名の少なくとも一方を入力してください。");
    let list = get(&app, &owner, "/api/v1/user/circles").await;
    assert_eq!(list["pagination"]["count"], 1, "nothing was stored for the refused forms");
}

#[rocket::async_test]
async fn an_invitation_is_answered_once_and_each_step_mails_the_other_side() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("lantern_owner").await;
    let friend = app.user("lantern_friend").await;
    friend.user.set_lang(&app.db, Lang::En).await.unwrap();
    let circle = app.create_circle(&owner, "ランタン組").await["id"].as_i64().unwrap();

    // Invited: the friend is mailed in English, with a link to their invitations.
    let (status, invitation) = app.invite(&owner, circle, &friend).await;
    assert_eq!(status, 201, "{invitation}");
    assert_eq!(invitation["status"], "pending");
    assert_eq!(invitation["user"]["id"], friend.user.id);
    assert_eq!(invitation["invited_by"]["id"], owner.user.id);
    let sent = chrono::DateTime::parse_from_rfc3339(invitation["created_at"].as_str().unwrap()).unwrap();
    let expires = chrono::DateTime::parse_from_rfc3339(invitation["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(expires - sent, Duration::days(14));
    let mails = mails_to(&app, &email(&friend)).await;
    assert_eq!(mails.len(), 1);
    let (kind, lang, subject, text) = &mails[0];
    assert_eq!((kind.as_str(), lang.as_str()), ("circle_invited", "en"));
    assert_eq!(subject, "[Virtual Market] You are invited to join \"ランタン組\"");
    assert!(text.starts_with("Hello lantern_friend (en),\n\nlantern_owner (en) has invited you"), "{text}");
    assert!(text.contains(&format!("{}/en/mypage/circles/invitations\n", app.origin)), "{text}");
    assert!(text.contains("This invitation expires on 2026/12/05 12:00 (Japan time)."), "{text}");

    // The friend sees it and joins; the owner is mailed in Japanese.
    let listed = get(&app, &friend, "/api/v1/user/invitation_circles?lang=en").await;
    assert_eq!(ids(&listed), [invitation["id"].as_i64().unwrap()]);
    assert_eq!(listed["data"][0]["circle"]["name"], "ランタン組");
    let id = invitation["id"].as_i64().unwrap();
    let (status, body) =
        app.call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{id}/approval"), None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("approved")), "{body}");
    assert!(body["responded_at"].is_string());
    let (status, body) =
        app.call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{id}/approval"), None).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("invitation_not_pending")), "answered once");
    assert!(ids(&get(&app, &friend, "/api/v1/user/invitation_circles").await).is_empty());
    let joined = get(&app, &friend, "/api/v1/user/member/circles").await;
    assert_eq!(ids(&joined), [circle]);
    assert_eq!(joined["data"][0]["standing"], "member");
    let owner_mails = mails_to(&app, &email(&owner)).await;
    let (kind, lang, subject, text) = owner_mails.last().unwrap();
    assert_eq!((kind.as_str(), lang.as_str()), ("circle_approved", "ja"));
    assert_eq!(subject, "【バーチャルマーケット】lantern_friendさんさんがサークル「ランタン組」に参加しました");
    assert!(text.contains(&format!("{}/mypage/circle/{circle}/members\n", app.origin)), "{text}");
    let (status, body) = app.invite(&owner, circle, &friend).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("already_member")));

    // Removed by the owner: mailed. Invited again and declining: the owner is mailed.
    let membership = membership_of(&app, &owner, circle, &friend).await;
    let (status, _) =
        app.call_as(&owner, Method::Delete, &format!("/api/v1/user/circles/{circle}/member/{membership}"), None).await;
    assert_eq!(status, 204);
    assert!(ids(&get(&app, &friend, "/api/v1/user/member/circles").await).is_empty());
    let (_, again) = app.invite(&owner, circle, &friend).await;
    let again = again["id"].as_i64().unwrap();
    let (status, body) =
        app.call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{again}/withdraw"), None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("withdrawn")));
    // Invited a third time and cancelled by the owner: the friend is mailed.
    let (_, third) = app.invite(&owner, circle, &friend).await;
    let third = third["id"].as_i64().unwrap();
    let (status, body) =
        app.call_as(&owner, Method::Put, &format!("/api/v1/user/invitation_members/{third}/cancel"), None).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("cancelled")));
    let (status, body) =
        app.call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{third}/approval"), None).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("invitation_not_pending")));
    // A fourth time, joining, then leaving: the owner is mailed.
    app.join(&owner, circle, &friend).await;
    let (status, _) =
        app.call_as(&friend, Method::Delete, &format!("/api/v1/user/member/circles/{circle}/leave"), None).await;
    assert_eq!(status, 204);

    let kinds = |mails: Vec<(String, String, String, String)>| mails.into_iter().map(|m| m.0).collect::<Vec<_>>();
    assert_eq!(
        kinds(mails_to(&app, &email(&friend)).await),
        ["circle_invited", "circle_removed", "circle_invited", "circle_invited", "circle_cancelled", "circle_invited"]
    );
    assert_eq!(
        kinds(mails_to(&app, &email(&owner)).await),
        ["circle_approved", "circle_withdrawn", "circle_approved", "circle_left"]
    );
    let friend_mails = mails_to(&app, &email(&friend)).await;
    assert_eq!(friend_mails[1].2, "[Virtual Market] You are no longer a member of \"ランタン組\"");
    assert_eq!(friend_mails[4].2, "[Virtual Market] Your invitation to \"ランタン組\" was cancelled");
    let owner_mails = mails_to(&app, &email(&owner)).await;
    assert_eq!(
        owner_mails[1].2,
        "【バーチャルマーケット】lantern_friendさんさんがサークル「ランタン組」への招待を辞退しました"
    );
    assert_eq!(
        owner_mails[3].2,
        "【バーチャルマーケット】lantern_friendさんさんがサークル「ランタン組」から退出しました"
    );
}

#[rocket::async_test]
async fn invitations_expire_after_14_days_by_the_application_clock() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.user("clock_owner").await;
    let mut friend = app.user("clock_friend").await;
    let circle = app.create_circle(&owner, "時計塔").await["id"].as_i64().unwrap();
    let (_, invitation) = app.invite(&owner, circle, &friend).await;
    let id = invitation["id"].as_i64().unwrap();
    let start = app.clock.now();

    app.clock.set(start + Duration::days(14) - Duration::seconds(1));
    app.refresh(&mut owner).await;
    app.refresh(&mut friend).await;
    assert_eq!(
        ids(&get(&app, &friend, "/api/v1/user/invitation_circles").await),
        [id],
        "still pending a second before"
    );

    app.clock.set(start + Duration::days(14));
    app.refresh(&mut owner).await;
    app.refresh(&mut friend).await;
    assert!(
        ids(&get(&app, &friend, "/api/v1/user/invitation_circles").await).is_empty(),
        "gone from the invitee's list"
    );
    assert!(ids(&get(&app, &owner, &format!("/api/v1/user/invitation_members/{circle}")).await).is_empty());
    for verb in ["approval", "withdraw"] {
        let (status, body) =
            app.call_as(&friend, Method::Put, &format!("/api/v1/user/invitation_circles/{id}/{verb}"), None).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("invitation_expired")), "{verb}");
    }
    let (status, body) =
        app.call_as(&owner, Method::Put, &format!("/api/v1/user/invitation_members/{id}/cancel"), None).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("invitation_expired")));
    assert!(ids(&get(&app, &friend, "/api/v1/user/member/circles").await).is_empty(), "nobody joined");

    // The owner may invite again; the old one is kept as expired history.
    let (status, body) = app.invite(&owner, circle, &friend).await;
    assert_eq!(status, 201, "{body}");
    let rows = circle_invitation::Entity::find()
        .filter(circle_invitation::Column::UserId.eq(friend.user.id))
        .order_by_asc(circle_invitation::Column::Id)
        .all(&app.db)
        .await
        .unwrap();
    let statuses: Vec<_> = rows.iter().map(|r| (r.status, r.responded_at)).collect();
    assert_eq!(
        statuses,
        [(InvitationStatus::Expired, Some(start + Duration::days(14))), (InvitationStatus::Pending, None)]
    );
}

#[rocket::async_test]
async fn one_pending_invitation_per_user_and_the_member_cap() {
    let app = TestApp::builder().live().config(|c| c.circle_member_cap = 3).build().await;
    let owner = app.user("cap_owner").await;
    let (a, b, c) = (app.user("cap_a").await, app.user("cap_b").await, app.user("cap_c").await);
    let circle = app.create_circle(&owner, "三人まで").await["id"].as_i64().unwrap();

    let (status, first) = app.invite(&owner, circle, &a).await;
    assert_eq!(status, 201);
    let (status, body) = app.invite(&owner, circle, &a).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("already_invited")));
    assert_eq!(
        body["message"],
        "このユーザーにはすでに招待を送っています。返事を待つか、招待を取り消してから送り直してください。"
    );
    let (status, _) = app.invite(&owner, circle, &b).await;
    assert_eq!(status, 201, "owner + two pending = 3");
    let (status, body) = app.invite(&owner, circle, &c).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("circle_full")), "pending invitations hold their seats");
    let (status, _) = app
        .call_as(&owner, Method::Put, &format!("/api/v1/user/invitation_members/{}/cancel", first["id"]), None)
        .await;
    assert_eq!(status, 200);
    let (status, _) = app.invite(&owner, circle, &c).await;
    assert_eq!(status, 201, "a cancelled invitation frees its seat");
    let (status, body) = app.invite(&owner, circle, &a).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("circle_full")));

    // Unknown users, bad bodies.
    let path = format!("/api/v1/user/invitation_members/{circle}");
    let (status, body) = app.call_as(&owner, Method::Post, &path, Some(&json!({ "user_id": 999_999 }))).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("user_not_found")));
    let (status, body) = app.call_as(&owner, Method::Post, &path, Some(&json!({}))).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("user_id")));
    let (status, body) = app.call_as(&owner, Method::Post, &path, Some(&json!({ "user_id": -3 }))).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("user_id")));
    let (status, _) = app.call_as(&owner, Method::Post, &path, Some(&json!({ "user_id": "x" }))).await;
    assert_eq!(status, 400);
}

#[rocket::async_test]
async fn racing_requests_keep_one_pending_invitation_and_the_cap() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("race_owner").await;
    let friend = app.user("race_friend").await;
    let circle = app.create_circle(&owner, "競争").await["id"].as_i64().unwrap();

    // Eight invitations of the same user at once: one is made.
    let calls = (0..8).map(|_| app.invite(&owner, circle, &friend));
    let answers = rocket::futures::future::join_all(calls).await;
    let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    statuses.sort();
    assert_eq!(statuses, [201, 409, 409, 409, 409, 409, 409, 409], "{answers:?}");
    assert!(answers.iter().filter(|(s, _)| *s == 409).all(|(_, b)| b["code"] == "already_invited"));

    // Two approvals racing for the last seat (a cap lowered after inviting): one joins.
    let other = app.user("race_other").await;
    app.invite(&owner, circle, &other).await;
    let pending = get(&app, &owner, &format!("/api/v1/user/invitation_members/{circle}")).await;
    let mut invitations: Vec<(i32, i64)> = pending["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["user"]["id"].as_i64().unwrap() as i32, i["id"].as_i64().unwrap()))
        .collect();
    invitations.sort();
    let mailer = app.client.rocket().state::<Mailer>().unwrap();
    let now = app.clock.now();
    let approve = |user: &Actor| {
        let id = invitations.iter().find(|(u, _)| *u == user.user.id).unwrap().1 as i32;
        let user = user.user.clone();
        let (db, mailer) = (app.db.clone(), mailer.clone());
        async move { circle_invitation::Model::approve(&db, &mailer, id, &user, 2, now).await.map(|_| ()) }
    };
    let (first, second) = tokio::join!(approve(&friend), approve(&other));
    let outcomes = [first.map_err(|e| e.code()), second.map_err(|e| e.code())];
    assert!(outcomes.contains(&Ok(())), "{outcomes:?}");
    assert!(outcomes.contains(&Err("circle_full")), "{outcomes:?}");
    let circle_view = get(&app, &owner, &format!("/api/v1/user/circles/{circle}")).await;
    assert_eq!(circle_view["members"].as_array().unwrap().len(), 2, "owner + one");
}

/// `search_user` for circle `circle` as `who`.
async fn search_as(app: &TestApp, circle: i64, who: &Actor<'_>, term: &str) -> (u16, serde_json::Value) {
    let path = format!("/api/v1/user/invitation_members/{circle}/search_user?vmarket_id={term}");
    app.call_as(who, Method::Get, &path, None).await
}

#[rocket::async_test]
async fn the_member_search_names_one_user_by_exact_id_and_is_rate_limited() {
    let app = TestApp::builder().live().config(|c| c.circle_user_search_per_minute = 6).build().await;
    let c = Cast::new(&app, "s").await;
    let search = |who, term| search_as(&app, c.circle, who, term);
    let (status, body) = search(&c.owner, "Stranger_S").await;
    assert_eq!(status, 200, "any case: {body}");
    assert_eq!(
        (body["user"]["vmarket_id"].as_str(), body["standing"].as_str()),
        (Some("stranger_s"), Some("invitable"))
    );
    assert!(body["user"].get("email").is_none());
    let (_, body) = search(&c.owner, "%40member_s").await;
    assert_eq!(body["standing"], "member", "a leading @ is ignored");
    let (_, body) = search(&c.owner, "invitee_s").await;
    assert_eq!(body["standing"], "invited");
    let (status, body) = search(&c.owner, "strang").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("user_not_found")), "no partial matches, no lists");
    let (status, body) = search(&c.owner, "").await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("vmarket_id")));
    let (status, _) = search(&c.owner, "%25").await;
    assert_eq!(status, 404, "LIKE wildcards are just characters");

    // The sixth search this minute is the last; another owner is counted apart.
    let res = app
        .request_as(
            &c.owner,
            crate::support::actors::Via::Bearer,
            Method::Get,
            &format!("/api/v1/user/invitation_members/{}/search_user?vmarket_id=stranger_s", c.circle),
            None,
        )
        .await;
    assert_eq!(res.status().code, 429);
    assert!(res.headers().get_one("Retry-After").is_some_and(|s| s.parse::<u64>().unwrap() >= 1));
    let other = app.create_circle(&c.stranger, "別の輪").await["id"].as_i64().unwrap();
    let (status, _) = app
        .call_as(
            &c.stranger,
            Method::Get,
            &format!("/api/v1/user/invitation_members/{other}/search_user?vmarket_id=owner_s"),
            None,
        )
        .await;
    assert_eq!(status, 200, "limits are per user");
}

#[rocket::async_test]
async fn circle_mails_reach_a_real_smtp_server_in_the_recipients_language_with_links() {
    let Some(python) = smtp_sink::python() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let port = sink.port;
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into();
            c.job_poll_interval_ms = 50;
        })
        .build()
        .await;
    let workers = app.start_workers().await;
    let owner = app.user("smtp_owner").await;
    owner.user.set_lang(&app.db, Lang::En).await.unwrap();
    let friend = app.user("smtp_friend").await;
    let circle = app.create_circle(&owner, "Lantern <Club> & Co").await["id"].as_i64().unwrap();
    app.join(&owner, circle, &friend).await;

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while sink.received().len() < 2 {
        assert!(std::time::Instant::now() < deadline, "two mails within 30 s, got {}", sink.received().len());
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    workers.stop().await;
    let parsed: Vec<_> = sink
        .received()
        .iter()
        .map(|r| {
            let m = mail_parser::MessageParser::default().parse(&r.raw).expect("a message");
            let to = r.envelope["rcpt_tos"][0].as_str().unwrap().to_string();
            let lang = m.header_raw("Content-Language").unwrap_or_default().trim().to_string();
            let text = m.body_text(0).unwrap_or_default().replace("\r\n", "\n");
            let html = m.body_html(0).unwrap_or_default().to_string();
            (to, lang, m.subject().unwrap_or_default().to_string(), text, html)
        })
        .collect();
    let invited = parsed.iter().find(|p| p.0 == email(&friend)).expect("the invitee's mail");
    assert_eq!(invited.1, "ja");
    assert_eq!(invited.2, "【バーチャルマーケット】サークル「Lantern <Club> & Co」への招待が届きました");
    assert!(
        invited.3.contains("smtp_ownerさんさんから、サークル「Lantern <Club> & Co」のメンバーへの招待が届きました。"),
        "{}",
        invited.3
    );
    let link = format!("{}/mypage/circles/invitations", app.origin);
    assert!(invited.3.contains(&format!("{link}\n")), "{}", invited.3);
    assert!(invited.4.contains(&format!("<a href=\"{link}\"")), "{}", invited.4);
    assert!(invited.4.contains("Lantern &lt;Club&gt; &amp; Co"), "names are escaped in HTML");
    let approved = parsed.iter().find(|p| p.0 == email(&owner)).expect("the owner's mail");
    assert_eq!(approved.1, "en");
    assert_eq!(approved.2, "[Virtual Market] smtp_friend (en) joined \"Lantern <Club> & Co\"");
    let link = format!("{}/en/mypage/circle/{circle}/members", app.origin);
    assert!(approved.3.contains(&format!("{link}\n")), "{}", approved.3);
    assert!(approved.4.contains(&format!("<a href=\"{link}\"")));
}
