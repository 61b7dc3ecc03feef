//! Who may do what after the win (issue 28 "done when"): every API call and page of a circle's
//! event — slots, catalogue items, submissions, the preview, the tools' circles, the hub — tried
//! by the circle's owner, a member, a stranger, each staff role (staff outside the circle are
//! strangers here: the console is their way in) and a signed-out visitor. Owners write, members
//! read, everyone else finds nothing (404), signed out: 401 from the API and the sign-in page
//! from pages.

use rocket::http::Method;
use serde_json::{Value, json};
use vmarket::model::user::Role;

use super::slots::drawn;
use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::html::Doc;

/// How an actor stands to the circle.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    Owner,
    Member,
    Outsider,
}

/// What a read answers: the circle's own data, or a list without it, or a status.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Seen {
    Mine,
    NotMine,
    Status(u16),
}

#[rocket::async_test]
async fn owners_write_members_read_and_everyone_else_finds_nothing() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("acc_owner").await;
    let member = app.user("acc_member").await;
    let stranger = app.user("acc_stranger").await;
    let mut staff = Vec::new();
    for role in [Role::Admin, Role::Director, Role::UcStaff, Role::QaTester] {
        staff.push(app.as_staff(role).await);
    }
    let (_, circles) = drawn(&app, &[&owner], "2031Acc", 2).await;
    app.join(&owner, circles[0] as i64, &member).await;
    let (_, body) = owner.get_json("/api/v1/user/2031Acc/event_slots").await;
    let slot = body["event_slots"][0]["id"].as_i64().expect("the slot");
    let category =
        app.get_json("/api/v1/catalog_item_groups").await.1[0]["categories"][0]["id"].as_i64().unwrap().to_string();
    let fields = [("name_ja", "鍵付きの箱"), ("category_id", category.as_str())];
    let items = "/api/v1/user/2031Acc/event_catalog_items";
    let (status, item) = owner.multipart(Method::Post, items, &fields, None).await;
    assert_eq!(status, 201, "{item}");
    let item = item["id"].as_i64().unwrap();
    super::submitted(&app, slot as i32, owner.user.id).await;
    let mark = slot.to_string();

    let mut actors: Vec<(&str, Who, &Actor<'_>)> =
        vec![("owner", Who::Owner, &owner), ("member", Who::Member, &member), ("stranger", Who::Outsider, &stranger)];
    for (s, name) in staff.iter().zip(["admin", "director", "uc_staff", "qa_tester"]) {
        actors.push((name, Who::Outsider, s));
    }

    // Reads: the circle sees its own; what an outsider sees is a list of "my circles" without
    // it (`listed`) or nothing at all (`scoped`).
    let (scoped, listed) = (Seen::Status(404), Seen::NotMine);
    let reads: Vec<(String, Seen)> = vec![
        ("/api/v1/user/2031Acc/event_slots".into(), listed),
        (format!("/api/v1/user/2031Acc/event_slots/{slot}"), scoped),
        (format!("/api/v1/user/2031Acc/event_slots/{slot}/submissions"), scoped),
        (items.into(), scoped),
        (format!("{items}/{item}"), scoped),
        ("/api/v1/user/2031Acc/exhibitors/preview".into(), scoped),
        (format!("/api/v1/user/2031Acc/exhibitors/preview?slot_id={slot}"), scoped),
        ("/api/v1/vmarket_tools/circles?event=2031Acc".into(), listed),
    ];
    for (path, expect) in &reads {
        for (name, who, actor) in &actors {
            let (status, body) = actor.get_json(path).await;
            let seen = match status {
                200 if body.to_string().contains(&format!("\"slot_id\":{mark}"))
                    || body.to_string().contains(&format!("\"id\":{mark}")) =>
                {
                    Seen::Mine
                }
                200 => Seen::NotMine,
                other => Seen::Status(other),
            };
            let expected = if *who == Who::Outsider { *expect } else { Seen::Mine };
            assert_eq!(seen, expected, "GET {path} as {name}: {body}");
        }
        assert_eq!(app.get_json(path).await.0, 401, "GET {path} signed out");
    }

    // Pages: the circle reads every page, only the owner gets the forms; others 404; signed
    // out: sent to sign in.
    let pages = [
        ("/mypage/entry_history/2031Acc/hub".to_string(), 200),
        ("/mypage/entry_history/2031Acc/catalog".into(), 200),
        ("/mypage/entry_history/2031Acc/catalog/new".into(), 403),
        (format!("/mypage/entry_history/2031Acc/catalog/new?slot={slot}"), 403),
        (format!("/mypage/entry_history/2031Acc/catalog/{item}/edit"), 403),
        ("/mypage/entry_history/2031Acc/submissions".into(), 200),
        (format!("/mypage/entry_history/2031Acc/submissions/{slot}"), 200),
        (format!("/mypage/entry_history/2031Acc/preview/{slot}"), 200),
    ];
    for (path, for_member) in &pages {
        for (name, who, actor) in &actors {
            let expected = match who {
                Who::Owner => 200,
                Who::Member => *for_member,
                Who::Outsider => 404,
            };
            assert_eq!(actor.page(path).await.0, expected, "page {path} as {name}");
        }
        let response = app.get(path).await;
        let location = response.headers().get_one("Location").unwrap_or_default().to_string();
        assert!(
            response.status().code == 303 && location.starts_with("/auth/login?next="),
            "page {path} signed out: {} {location}",
            response.status().code
        );
    }

    // The hub's catalogue step: the owner edits the items, a member views them.
    let hub = "/mypage/entry_history/2031Acc/hub";
    for (actor, label) in [(&owner, "カタログアイテムを編集する"), (&member, "カタログアイテムを見る")]
    {
        let labels = Doc::parse(&actor.page(hub).await.1).texts("[data-testid=action-catalog]");
        assert!(!labels.is_empty() && labels.iter().all(|l| l == label), "{labels:?}");
    }
    let labels = Doc::parse(&member.page(&format!("/en{hub}")).await.1).texts("[data-testid=action-catalog]");
    assert!(!labels.is_empty() && labels.iter().all(|l| l == "See catalogue items"), "{labels:?}");

    // Writes: the owner's alone. A member is refused (403), anyone else finds nothing (404).
    let item_path = format!("{items}/{item}");
    let submissions = format!("/api/v1/user/2031Acc/event_slots/{slot}/submissions");
    for (name, who, actor) in &actors {
        let expected = |owner: u16| match who {
            Who::Owner => owner,
            Who::Member => 403,
            Who::Outsider => 404,
        };
        let (status, body) = actor.multipart(Method::Put, &item_path, &[("name_en", "Box")], None).await;
        assert_eq!(status, expected(200), "PUT item as {name}: {body}");
        let (status, body) = actor.post_json(&submissions, &json!({"asset_version_id": 999_999})).await;
        assert_eq!(status, expected(409), "POST submission as {name} (before its window): {body}");
        if *who != Who::Owner {
            let (status, body) = actor.multipart(Method::Post, items, &fields, None).await;
            assert_eq!(status, expected(201), "POST item as {name}: {body}");
            let (status, body) = actor.delete(&item_path).await;
            assert_eq!(status, expected(204), "DELETE item as {name}: {body}");
        }
    }
    for (method, path) in
        [(Method::Post, items), (Method::Put, item_path.as_str()), (Method::Delete, item_path.as_str())]
    {
        assert_eq!(app.call_anonymously(method, path).await.0, 401, "{method} {path} signed out");
    }
    assert_eq!(app.call_anonymously(Method::Post, &submissions).await.0, 401);
    let (_, list) = owner.get_json(items).await;
    let names: Vec<&Value> = list["event_catalog_items"].as_array().unwrap().iter().map(|i| &i["name_en"]).collect();
    assert_eq!(names, [&json!("Box")], "only the owner's change landed");
}
