//! `circles` in the console: staff list and show circles with owner and member count, suspend
//! them with a reason (required) and lift them, one PUT per circle. The suspension goes
//! through the circle model, so its rules hold at once for the owner; the owner is mailed in
//! their language (the reason with a suspension) and sees the reason on the circle's pages; every
//! change is audited; QA testers only read.

use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::json;
use vmarket::db::entities::{audit_log, mail};
use vmarket::model::user::Role;

use super::{call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

/// The mails queued to `user`'s address about their circles' suspension, oldest first.
async fn mails_to(app: &TestApp, user: &Actor<'_>) -> Vec<mail::Model> {
    let to = user.user.email.clone().expect("an address");
    mail::Entity::find()
        .filter(mail::Column::Recipient.eq(to.as_str()))
        .filter(mail::Column::Kind.eq("circle_suspended"))
        .order_by_asc(mail::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
}

#[rocket::async_test]
async fn staff_suspend_and_lift_circles_one_by_one_and_in_bulk() {
    let app = TestApp::builder().live().build().await;
    let support = app.as_staff(Role::UcStaff).await;
    let owner = app.with_user("console_circle_owner").await;
    let friend = app.with_user("console_circle_friend").await;
    let a = app.create_circle(&owner, "ルミナ試験工房").await["id"].as_i64().unwrap();
    let b = app.create_circle(&owner, "ルミナ別館").await["id"].as_i64().unwrap();
    app.join(&owner, a, &friend).await;

    // The list: searchable, with the owner's handle and the member count.
    let path =
        list_path("/admin/api/circles", Some(r#"["name_ja","ASC"]"#), Some("[0,9]"), Some(r#"{"q":"ルミナ試験"}"#));
    let listed = call(&app, &support, Method::Get, &path, None).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.ids(), vec![a]);
    let record = &listed.body[0];
    assert_eq!(record["owner_vmarket_id"], "console_circle_owner");
    assert_eq!(record["member_count"], 2, "the owner and the friend");
    assert_eq!(record["is_suspended"], false);

    // Suspending takes a reason.
    for body in [json!({"is_suspended": true}), json!({"is_suspended": true, "suspension_reason": "   "})] {
        let refused = call(&app, &support, Method::Put, &format!("/admin/api/circles/{a}"), Some(&body)).await;
        assert_eq!((refused.status, refused.attributes()), (422, vec!["suspension_reason".to_string()]), "{body}");
    }
    // Suspended with one: the owner's changes are refused at once (the model's rule), their data
    // kept; the owner is mailed why, in their language, and sees it on the circle's pages.
    let reason = "ガイドライン違反の疑いがあるため確認中です。";
    for id in [a, b] {
        let put = call(
            &app,
            &support,
            Method::Put,
            &format!("/admin/api/circles/{id}"),
            Some(&json!({"is_suspended": true, "suspension_reason": reason})),
        )
        .await;
        assert_eq!((put.status, &put.body["is_suspended"]), (200, &json!(true)), "{:?}", put.body);
        assert_eq!(put.body["suspension_reason"], reason);
    }
    let mails = mails_to(&app, &owner).await;
    assert_eq!(mails.len(), 2, "one per circle");
    assert!(mails[0].subject.contains("ルミナ試験工房") && mails[0].subject.contains("停止"), "{}", mails[0].subject);
    assert!(mails[0].text_body.contains(reason), "{}", mails[0].text_body);
    let (status, page) = app.page_as(&owner, &format!("/mypage/circle/{a}/members")).await;
    assert_eq!(status, 200);
    assert!(page.contains(reason), "the owner sees why");
    let suspended = call(
        &app,
        &support,
        Method::Get,
        &list_path("/admin/api/circles", None, None, Some(r#"{"is_suspended":true}"#)),
        None,
    )
    .await;
    assert!(suspended.ids().contains(&a) && suspended.ids().contains(&b), "{:?}", suspended.body);
    let (status, body) = app.invite(&owner, a, &app.with_user("console_circle_late").await).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("circle_suspended")));
    let shown = call(&app, &support, Method::Get, &format!("/admin/api/circles/{a}"), None).await;
    assert_eq!(
        (shown.body["name_ja"].as_str(), shown.body["member_count"].as_u64()),
        (Some("ルミナ試験工房"), Some(2))
    );

    // Suspending again changes nothing; lifting lets the owner act again.
    let again = call(
        &app,
        &support,
        Method::Put,
        &format!("/admin/api/circles/{a}"),
        Some(&json!({"is_suspended": true, "suspension_reason": reason})),
    )
    .await;
    assert_eq!(again.body["updated_at"], shown.body["updated_at"], "no change, no new timestamp");
    assert_eq!(mails_to(&app, &owner).await.len(), 2, "and no mail");
    let lifted =
        call(&app, &support, Method::Put, &format!("/admin/api/circles/{a}"), Some(&json!({"is_suspended": false})))
            .await;
    assert_eq!(
        (lifted.status, &lifted.body["is_suspended"], &lifted.body["suspension_reason"]),
        (200, &json!(false), &json!(null))
    );
    let mails = mails_to(&app, &owner).await;
    assert!(mails.len() == 3 && mails[2].subject.contains("解除"), "the owner hears it is lifted: {:?}", mails.last());
    let (status, body) = app.invite(&owner, a, &app.with_user("console_circle_later").await).await;
    assert_eq!(status, 201, "{body}");

    // Every change left its audit row, before → after.
    let rows = audit_log::Entity::find()
        .filter(audit_log::Column::Resource.eq("circles"))
        .filter(audit_log::Column::RecordId.eq(a.to_string()))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 3, "suspend, suspend again, lift (not the refusals)");
    assert!(rows.iter().all(|r| r.actor_id == support.user.id && r.action == "edit"));

    // Only the suspension changes; a wrong value is pinned to its field; no creating or deleting.
    let bad = call(
        &app,
        &support,
        Method::Put,
        &format!("/admin/api/circles/{a}?lang=en"),
        Some(&json!({"is_suspended": "soon"})),
    )
    .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["is_suspended".to_string()]));
    let renamed =
        call(&app, &support, Method::Put, &format!("/admin/api/circles/{a}"), Some(&json!({"name_ja": "乗っ取り"})))
            .await;
    assert_eq!(
        (renamed.status, renamed.body["name_ja"].as_str()),
        (200, Some("ルミナ試験工房")),
        "names are the owner's"
    );
    assert_eq!(call(&app, &support, Method::Post, "/admin/api/circles", Some(&json!({}))).await.status, 405);
    assert_eq!(call(&app, &support, Method::Delete, &format!("/admin/api/circles/{b}"), None).await.status, 405);

    // QA testers read, and cannot suspend.
    let qa = app.as_staff(Role::QaTester).await;
    assert_eq!(call(&app, &qa, Method::Get, &format!("/admin/api/circles/{b}"), None).await.status, 200);
    let refused =
        call(&app, &qa, Method::Put, &format!("/admin/api/circles/{b}"), Some(&json!({"is_suspended": false}))).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (403, Some("forbidden")));
    let still = call(&app, &support, Method::Get, &format!("/admin/api/circles/{b}"), None).await;
    assert_eq!(still.body["is_suspended"], true);
}
