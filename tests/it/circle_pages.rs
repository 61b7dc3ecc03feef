//! Mypage circle pages, as a browser without JavaScript uses them: who may open which page
//! (the page side of the access matrix), the whole story — create a circle, find a friend by
//! vmarket ID, invite them, the friend joins from their invitations — in Japanese and English,
//! and what a suspended circle shows its owner and members.

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::auth::png;
use crate::support::circles::Cast;
use crate::support::html::Doc;

/// Status and, for a redirect, where to.
async fn open(app: &TestApp, who: Option<&Actor<'_>>, path: &str) -> (u16, String) {
    match who {
        Some(actor) => {
            let (status, html) = app.page_as(actor, path).await;
            (status, html)
        }
        None => {
            let res = app.get(path).await;
            (res.status().code, res.headers().get_one("Location").unwrap_or_default().to_string())
        }
    }
}

#[rocket::async_test]
async fn pages_follow_the_access_matrix() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "p").await;
    let (circle, suspended) = (c.circle, c.suspended);
    let people: [(&str, Option<&Actor<'_>>); 5] = [
        ("owner", Some(&c.owner)),
        ("member", Some(&c.member)),
        ("invitee", Some(&c.invitee)),
        ("stranger", Some(&c.stranger)),
        ("anonymous", None),
    ];
    let mut wrong = Vec::new();
    let owner_only = [200, 403, 404, 404, 303];
    let members_too = [200, 200, 404, 404, 303];
    let anyone = [200, 200, 200, 200, 303];
    let pages: Vec<(String, [u16; 5])> = vec![
        ("/mypage/circles".into(), anyone),
        ("/mypage/circles/joined".into(), anyone),
        ("/mypage/circles/invitations".into(), anyone),
        ("/mypage/circle/new".into(), anyone),
        (format!("/mypage/circle/{circle}/edit"), owner_only),
        (format!("/mypage/circle/{circle}/members"), owner_only),
        (format!("/mypage/circle/{circle}/preview"), owner_only),
        (format!("/mypage/circle/{circle}/member/members"), members_too),
        (format!("/mypage/circle/{circle}/member/preview"), members_too),
    ];
    for (path, expected) in &pages {
        for prefix in ["", "/en"] {
            let path = format!("{prefix}{path}");
            for ((who, actor), status) in people.iter().zip(expected) {
                let (got, body) = open(&app, *actor, &path).await;
                let redirect_ok = got != 303 || body.starts_with("/auth/login?next=");
                if got != *status || !redirect_ok {
                    wrong.push(format!("{path} as {who}: {got} (expected {status}) {}", &body[..body.len().min(80)]));
                }
            }
        }
    }
    // The owner of a suspended circle still opens its pages.
    for page in ["edit", "members", "preview", "member/members", "member/preview"] {
        let path = format!("/mypage/circle/{suspended}/{page}");
        let (got, _) = open(&app, Some(&c.suspended_owner), &path).await;
        if got != 200 {
            wrong.push(format!("{path} as suspended owner: {got}"));
        }
    }
    assert!(wrong.is_empty(), "page access mismatches:\n  {}", wrong.join("\n  "));

    // What each one sees in the lists.
    let listed = |html: &str, testid: &str| {
        Doc::parse(html).attrs(&format!("[data-testid={testid}]"), &format!("data-{testid}-id"))
    };
    let (_, html) = app.page_as(&c.owner, "/mypage/circles").await;
    assert_eq!(listed(&html, "circle"), [circle.to_string()]);
    let (_, html) = app.page_as(&c.member, "/mypage/circles").await;
    assert!(listed(&html, "circle").is_empty());
    assert_eq!(
        Doc::parse(&html).text("[data-testid=circles-empty]"),
        "オーナーになっているサークルはまだありません。「サークルを作成する」から作れます。"
    );
    let (_, html) = app.page_as(&c.member, "/mypage/circles/joined").await;
    assert_eq!(listed(&html, "circle"), [circle.to_string()]);
    let (_, html) = app.page_as(&c.invitee, "/mypage/circles/invitations").await;
    let doc = Doc::parse(&html);
    assert_eq!(
        doc.attrs("[data-testid=invitation]", "data-invitation-id"),
        [c.suspended_invitation.to_string(), c.invitation.to_string()]
    );
    assert_eq!(doc.count("[data-testid=approve]"), 1, "no buttons for the suspended circle's invitation");
    assert_eq!(doc.text("[data-testid=suspended]"), "このサークルは運営により利用停止中のため、招待に返事できません。");
    assert_eq!(doc.text("[data-testid=tab-invitations] .badge"), "2");
}

#[rocket::async_test]
async fn a_suspended_circle_shows_why_and_offers_no_change() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "u").await;
    let s = c.suspended;
    let title = "このサークルは運営により利用停止中です。";

    let (_, html) = app.page_as(&c.suspended_owner, &format!("/mypage/circle/{s}/edit")).await;
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=suspended]").starts_with(title));
    assert_eq!(doc.count("[data-testid=submit]"), 0, "no save button");
    assert_eq!(doc.count("[data-testid=circle-form] fieldset[disabled]"), 1);
    let (_, html) = app.page_as(&c.suspended_owner, &format!("/mypage/circle/{s}/members")).await;
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=suspended]").starts_with(title));
    assert_eq!(doc.count("[data-testid=remove]") + doc.count("[data-testid=cancel]"), 0);
    assert_eq!(doc.count("[data-testid=invite-panel]"), 0);
    assert_eq!(doc.count("[data-testid=member]"), 2, "the members are still shown");
    let (_, html) = app.page_as(&c.suspended_member, &format!("/en/mypage/circle/{s}/member/members")).await;
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=suspended]").starts_with("This circle has been suspended by the organisers."));
    assert_eq!(doc.count("[data-testid=leave]"), 0);
    let (_, html) = app.page_as(&c.suspended_owner, "/mypage/circles").await;
    assert_eq!(Doc::parse(&html).text("[data-testid=suspended-badge]"), "利用停止中");

    // A form posted anyway is refused with the reason, and nothing changes.
    let csrf = app.page_csrf(&c.suspended_owner).await;
    let (status, location, _) = app
        .post_page_as(
            &c.suspended_owner,
            &format!("/mypage/circle/{s}/edit"),
            Some(&csrf),
            &[("name_ja", "変更")],
            None,
        )
        .await;
    assert_eq!(
        (status, location.as_deref()),
        (303, Some(format!("/mypage/circle/{s}/members?error=circle_suspended").as_str()))
    );
    let (_, html) = app.page_as(&c.suspended_owner, location.as_deref().unwrap()).await;
    assert_eq!(
        Doc::parse(&html).text("[data-testid=refused]"),
        "このサークルは運営により利用停止中のため、変更できません。"
    );
    assert_eq!(Doc::parse(&html).text("[data-testid=circle-name]"), "停止中サークル u");
    let csrf = app.page_csrf(&c.suspended_member).await;
    let (status, location, _) = app
        .post_page_as(&c.suspended_member, &format!("/en/mypage/circle/{s}/member/leave"), Some(&csrf), &[], None)
        .await;
    assert_eq!(
        (status, location.as_deref()),
        (303, Some(format!("/en/mypage/circle/{s}/member/members?error=circle_suspended").as_str()))
    );
}

#[rocket::async_test]
async fn page_forms_refuse_strangers_members_and_forged_posts() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "f").await;
    let circle = c.circle;
    let invite = format!("/mypage/circle/{circle}/members/invite");
    let user_id = c.stranger.user.id.to_string();
    let fields = [("user_id", user_id.as_str())];
    for (who, actor, expected) in
        [("member", &c.member, 403), ("stranger", &c.stranger, 404), ("invitee", &c.invitee, 404)]
    {
        let csrf = app.page_csrf(actor).await;
        let (status, _, _) = app.post_page_as(actor, &invite, Some(&csrf), &fields, None).await;
        assert_eq!(status, expected, "{who}");
    }
    let (status, _, _) = app.post_page_as(&c.owner, &invite, Some("forged"), &fields, None).await;
    assert_eq!(status, 403, "a wrong CSRF field");
    let (status, _, _) = app.post_page_as(&c.owner, &invite, None, &fields, None).await;
    assert_eq!(status, 403, "no CSRF field");
    let res =
        app.client.post(invite.clone()).header(rocket::http::ContentType::Form).body("user_id=1").dispatch().await;
    assert_eq!(res.status().code, 401, "signed out: the error page (as every mypage form)");

    // Someone else's invitation, someone else's membership: 404.
    let csrf = app.page_csrf(&c.stranger).await;
    let (status, _, _) = app
        .post_page_as(
            &c.stranger,
            &format!("/mypage/circles/invitations/{}/approve", c.invitation),
            Some(&csrf),
            &[],
            None,
        )
        .await;
    assert_eq!((status, joined_count(&app, &c.stranger).await), (303, 0), "refused back to the list, nothing joined");
    let csrf = app.page_csrf(&c.member).await;
    let (status, _, _) = app
        .post_page_as(
            &c.member,
            &format!("/mypage/circle/{circle}/invitations/{}/cancel", c.invitation),
            Some(&csrf),
            &[],
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (_, html) = app.page_as(&c.invitee, "/mypage/circles/invitations").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=invitation]"), 2, "the invitation is untouched");
}

/// How many circles `actor` has joined.
async fn joined_count(app: &TestApp, actor: &Actor<'_>) -> usize {
    let (_, html) = app.page_as(actor, "/mypage/circles/joined").await;
    Doc::parse(&html).count("[data-testid=circle]")
}

#[rocket::async_test]
async fn create_invite_and_join_without_javascript() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("akari_owner").await;
    let friend = app.user("noa_friend").await;
    let csrf = app.page_csrf(&owner).await;

    // The menu and the dashboard lead to the circles.
    let (_, html) = app.page_as(&owner, "/mypage").await;
    let doc = Doc::parse(&html);
    assert!(doc.texts(".mypage-nav a").contains(&"サークル".to_string()));
    assert_eq!(doc.text("[data-testid=dashboard-circles] h2"), "サークル");
    let (_, html) = app.page_as(&owner, "/mypage/circle/new").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("main h1"), "サークルを作成する");
    assert_eq!(doc.attr(".mypage-nav a[aria-current=page]", "href"), "/mypage/circles", "the menu marks the section");

    // A form with mistakes comes back with them beside the fields, the input kept.
    let long = "あ".repeat(65);
    let bad = [("name_ja", long.as_str()), ("name_en", "Lantern Club"), ("website_link", "lantern.example")];
    let (status, _, html) = app.post_page_as(&owner, "/mypage/circle/new", Some(&csrf), &bad, None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=form-notice]"), "入力内容を確認してください。");
    assert_eq!(doc.attrs(".field__error", "data-field"), ["name_ja", "website_link"]);
    assert_eq!(doc.text("[data-field=name_ja]"), "64文字以内で入力してください。");
    assert_eq!(doc.attr("input[name=name_en]", "value"), "Lantern Club");

    let good = [
        ("name_ja", "ともしび倶楽部"),
        ("name_en", "Lantern Club"),
        ("description_ja", "駅のホームでランタンを灯すサークルです。\r\n毎週土曜に集まります。"),
        ("description_en", "We light lanterns on the station platform."),
        ("website_link", "https://lantern.example/"),
    ];
    let (status, location, _) =
        app.post_page_as(&owner, "/mypage/circle/new", Some(&csrf), &good, Some(&png(800, 800))).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/circles?done=created")));
    let (_, html) = app.page_as(&owner, "/mypage/circles?done=created").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "サークルを作成しました。");
    assert_eq!(doc.texts("[data-testid=circle-card-name]"), ["ともしび倶楽部"]);
    assert_eq!(doc.text("[data-testid=circle] .circle-card__meta"), "メンバー 1人");
    assert!(doc.attr("[data-testid=circle] img", "src").starts_with("/media/circles/thumbnails/"));
    let members_href = doc.attr("[data-testid=members]", "href");
    let circle_id: i64 = members_href.split('/').nth(3).unwrap().parse().unwrap();

    // The preview shows what visitors see.
    let (_, html) = app.page_as(&owner, &doc.attr("[data-testid=preview]", "href")).await;
    let preview = Doc::parse(&html);
    assert_eq!(preview.text("[data-testid=preview-name]"), "ともしび倶楽部");
    assert_eq!(
        preview.text("[data-testid=preview-description]"),
        "駅のホームでランタンを灯すサークルです。 毎週土曜に集まります。"
    );
    assert_eq!(preview.attr("[data-testid=preview-website]", "href"), "https://lantern.example/");

    // Find the friend by exact ID and invite them.
    let (_, html) = app.page_as(&owner, &format!("{members_href}?vmarket_id=noa")).await;
    assert_eq!(
        Doc::parse(&html).text("[data-testid=search-error]"),
        "このIDのユーザーは見つかりませんでした。",
        "no partial matches"
    );
    let (_, html) = app.page_as(&owner, &format!("{members_href}?vmarket_id=%40Noa_Friend")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=search-result] [data-testid=person-name]"), "noa_friendさん");
    assert_eq!(doc.attr("[data-testid=invite-form] input[name=user_id]", "value"), friend.user.id.to_string());
    let (status, location, _) = app
        .post_page_as(
            &owner,
            &format!("/mypage/circle/{circle_id}/members/invite"),
            Some(&csrf),
            &[("user_id", &friend.user.id.to_string())],
            None,
        )
        .await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{members_href}?done=invited").as_str())));
    let (_, html) = app.page_as(&owner, location.as_deref().unwrap()).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "招待を送りました。相手がマイページで承認すると、メンバーになります。");
    assert_eq!(doc.texts("[data-testid=pending-invitation] [data-testid=person-name]"), ["noa_friendさん"]);
    assert_eq!(doc.text("[data-testid=seats]"), "メンバー 1人・招待中 1人（上限 10人）");
    let (status, location, _) = app
        .post_page_as(
            &owner,
            &format!("/mypage/circle/{circle_id}/members/invite"),
            Some(&csrf),
            &[("user_id", &friend.user.id.to_string())],
            None,
        )
        .await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{members_href}?error=already_invited").as_str())));

    // The friend: the dashboard counts it, the invitation page offers to join.
    let friend_csrf = app.page_csrf(&friend).await;
    let (_, html) = app.page_as(&friend, "/mypage").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=invitation-count]"), "招待 1件");
    let (_, html) = app.page_as(&friend, &doc.attr("[data-testid=invitations-link]", "href")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=invitation-circle]"), "ともしび倶楽部");
    assert_eq!(doc.text("[data-testid=invited-by]"), "akari_ownerさんさんからの招待");
    assert_eq!(doc.text("[data-testid=expires]"), "有効期限：2026/12/05 12:00");
    let approve = doc.attr("[data-testid=approve-form]", "action");
    let (status, location, _) = app.post_page_as(&friend, &approve, Some(&friend_csrf), &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/circles/joined?done=approved")));
    let (_, html) = app.page_as(&friend, "/mypage/circles/joined?done=approved").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "招待を承認し、サークルのメンバーになりました。");
    assert_eq!(doc.texts("[data-testid=circle-card-name]"), ["ともしび倶楽部"]);
    assert_eq!(doc.count("[data-testid=edit]"), 0, "a member cannot edit");
    let (_, html) = app.page_as(&friend, &doc.attr("[data-testid=members]", "href")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=member] [data-testid=person-name]"), ["akari_ownerさん", "noa_friendさん"]);
    assert_eq!(doc.count("[data-testid=owner-badge]"), 1);
    assert_eq!(doc.count("[data-testid=leave]"), 1);

    // The owner sees the new member and removes them; the friend's list is empty again.
    let (_, html) = app.page_as(&owner, &members_href).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=member] [data-testid=person-name]"), ["akari_ownerさん", "noa_friendさん"]);
    assert_eq!(doc.count("[data-testid=remove]"), 1, "the owner has no remove button");
    let remove = doc.attr("[data-testid=remove-form]", "action");
    let (status, location, _) = app.post_page_as(&owner, &remove, Some(&csrf), &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{members_href}?done=removed").as_str())));
    let (_, html) = app.page_as(&friend, "/mypage/circles/joined").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=circle]"), 0);
}

#[rocket::async_test]
async fn the_story_in_english() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("mira_owner").await;
    let friend = app.user("theo_friend").await;
    let csrf = app.page_csrf(&owner).await;
    let (_, html) = app.page_as(&owner, "/en/mypage/circle/new").await;
    assert_eq!(Doc::parse(&html).text("main h1"), "Create a circle");
    let fields = [("name_en", "Night Owls"), ("description_en", "We build night-time worlds.")];
    let (status, location, _) = app.post_page_as(&owner, "/en/mypage/circle/new", Some(&csrf), &fields, None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/en/mypage/circles?done=created")));
    let (_, html) = app.page_as(&owner, "/en/mypage/circles?done=created").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "Your circle has been created.");
    assert_eq!(doc.texts("[data-testid=circle-card-name]"), ["Night Owls"]);
    let members_href = doc.attr("[data-testid=members]", "href");
    assert!(members_href.starts_with("/en/mypage/circle/"));
    let (_, html) = app.page_as(&owner, &format!("{members_href}?vmarket_id=theo_friend")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=invite]"), "Invite this user");
    let (status, location, _) = app
        .post_page_as(
            &owner,
            &doc.attr("[data-testid=invite-form]", "action"),
            Some(&csrf),
            &[("user_id", &friend.user.id.to_string())],
            None,
        )
        .await;
    assert_eq!((status, location), (303, Some(format!("{members_href}?done=invited"))));

    let friend_csrf = app.page_csrf(&friend).await;
    let (_, html) = app.page_as(&friend, "/en/mypage/circles/invitations").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=invitation-circle]"), "Night Owls");
    assert_eq!(doc.text("[data-testid=invited-by]"), "From mira_owner (en)");
    assert_eq!(doc.text("[data-testid=approve]"), "Join");
    let (status, location, _) = app
        .post_page_as(&friend, &doc.attr("[data-testid=withdraw-form]", "action"), Some(&friend_csrf), &[], None)
        .await;
    assert_eq!((status, location.as_deref()), (303, Some("/en/mypage/circles/invitations?done=withdrawn")));
    let (_, html) = app.page_as(&friend, "/en/mypage/circles/invitations?done=withdrawn").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "You declined the invitation.");
    assert_eq!(doc.text("[data-testid=invitations-empty]"), "You have no invitations.");
}
