//! Booth submissions and inspection (issue 28 items 5–7): inside the term the circle's owner
//! submits one of their booth packages that passed the automatic check; staff mark the newest
//! submission `needs_fix` with reasons in the console, the owner is mailed, resubmits, and the
//! checklist turns green as the clock moves. Refusals: before and after the term (409 with the
//! date), a failed report (422), another user's file (404), another kind (422), a member (403),
//! a stranger (404), an older submission (409 `not_newest`), a reader role (403).

use chrono::Duration;
use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::json;
use vmarket::assets::analyse::samples::{ZipSample, zip};
use vmarket::db::entities::mail;
use vmarket::model::phase::PhaseType;
use vmarket::model::user::Role;

use super::slots::drawn;
use crate::admin::{call, list_path};
use crate::support::TestApp;
use crate::support::html::Doc;
use crate::uploader::{avatar, one_shot, version_of};

const EVENT: &str = "2031Sub";

fn booth() -> Vec<u8> {
    zip(&[ZipSample::file("Assets/Booth/booth.prefab", b"prefab"), ZipSample::file("Assets/Booth/README.txt", b"hi")])
}

/// A booth package whose check fails (a blocked `.blend` file inside).
fn broken_booth() -> Vec<u8> {
    zip(&[ZipSample::file("Assets/Booth/model.blend", b"blend")])
}

/// The states of the hub's steps for the one slot, in order.
fn steps(html: &str) -> Vec<String> {
    Doc::parse(html).attrs("[data-testid=slot-card] li[data-state]", "data-state")
}

#[rocket::async_test]
async fn a_booth_is_submitted_inspected_fixed_and_passed_as_the_clock_moves() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let mut owner = app.user("sub_owner").await;
    let mut member = app.user("sub_member").await;
    let mut stranger = app.user("sub_stranger").await;
    let (mut uc, mut qa) = (app.as_staff(Role::UcStaff).await, app.as_staff(Role::QaTester).await);
    let (ev, circles) = drawn(&app, &[&owner], EVENT, 2).await;
    app.join(&owner, circles[0] as i64, &member).await;
    let (_, slots) = owner.get_json(&format!("/api/v1/user/{EVENT}/event_slots")).await;
    let slot = slots["event_slots"][0]["id"].as_i64().unwrap();
    let path = format!("/api/v1/user/{EVENT}/event_slots/{slot}/submissions");

    // The owner's files: a booth that passes, one that fails, an avatar; a stranger's booth.
    let (asset, good) = one_shot(&owner, "booth_package", "booth.zip", &booth()).await;
    assert_eq!(version_of(&asset, good)["upload_status"], "uploaded", "{asset}");
    let (asset, bad) = one_shot(&owner, "booth_package", "broken.zip", &broken_booth()).await;
    assert_eq!(version_of(&asset, bad)["upload_status"], "failed", "{asset}");
    let (_, avatar_version) = one_shot(&owner, "avatar", "me.vrm", &avatar(1000)).await;
    let (_, theirs) = one_shot(&stranger, "booth_package", "theirs.zip", &booth()).await;
    let send = |v: i64| json!({ "asset_version_id": v });

    // Before the term: refused with its opening in Japan time. The hub says when it opens.
    let (status, body) = owner.post_json(&path, &send(good)).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("submission_not_open")), "{body}");
    let opens = vmarket::i18n::tera::format_jst(ev.at(PhaseType::SubmissionStart), true);
    assert!(body["message"].as_str().unwrap().contains(&opens), "{body}");
    let hub = format!("/mypage/entry_history/{EVENT}/hub");
    assert_eq!(steps(&owner.page(&hub).await.1), ["done", "open", "locked", "locked", "waiting"]);

    // Inside the term: who may send what.
    app.clock.set(ev.at(PhaseType::SubmissionStart) + Duration::hours(1));
    for actor in [&mut owner, &mut member, &mut stranger, &mut uc, &mut qa] {
        actor.renew().await;
    }
    assert_eq!(member.post_json(&path, &send(good)).await.0, 403, "members read only");
    assert_eq!(stranger.post_json(&path, &send(theirs)).await.0, 404, "not the stranger's slot");
    assert_eq!(stranger.get_json(&path).await.0, 404);
    assert_eq!(app.get_json(&path).await.0, 401);
    assert_eq!(owner.post_json(&path, &send(theirs)).await.0, 404, "someone else's file");
    let (status, body) = owner.post_json(&path, &send(bad)).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("report_failed")), "{body}");
    let (status, body) = owner.post_json(&path, &send(avatar_version)).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("asset_version_id")), "{body}");
    let (status, body) = owner.post_json(&path, &json!({})).await;
    assert_eq!(status, 422, "{body}");
    let (status, first) = owner.post_json(&path, &send(good)).await;
    assert_eq!(status, 201, "{first}");
    assert_eq!((first["version"].as_i64(), first["inspection"]["status"].as_str()), (Some(1), Some("pending")));
    assert_eq!(first["report"]["status"], "passed");
    let (status, read) = member.get_json(&path).await;
    assert_eq!((status, read["submissions"].as_array().unwrap().len()), (200, 1), "{read}");
    assert_eq!(read["term"]["is_submit"], true);

    // Staff's lists: the slot is awaiting inspection, not "nothing submitted".
    let listed = |state: &str| {
        let filter = json!({"event_id": ev.id, "submission": state}).to_string();
        list_path("/admin/api/event_slots", None, None, Some(&filter))
    };
    assert_eq!(call(&app, &uc, Method::Get, &listed("pending"), None).await.body.as_array().unwrap().len(), 1);
    assert_eq!(call(&app, &uc, Method::Get, &listed("none"), None).await.body.as_array().unwrap().len(), 0);

    // Needs fix: a reason per finding; a reader role may not decide.
    let sub = format!("/admin/api/slot_submissions/{}", first["id"]);
    let no_reason = json!({"inspection_status": "needs_fix", "findings": []});
    let answer = call(&app, &uc, Method::Put, &sub, Some(&no_reason)).await;
    assert_eq!(
        (answer.status, answer.body["details"][0]["attribute"].as_str()),
        (422, Some("findings")),
        "{:?}",
        answer.body
    );
    let fix = json!({"inspection_status": "needs_fix",
                     "findings": [{"rule_id": "booth_space", "reason": "看板が枠から50cmはみ出しています。", "blocking": true}]});
    assert_eq!(call(&app, &qa, Method::Put, &sub, Some(&fix)).await.status, 403);
    let answer = call(&app, &uc, Method::Put, &sub, Some(&fix)).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_eq!(
        (answer.body["inspection_status"].as_str(), answer.body["is_booth_error"].as_bool()),
        (Some("needs_fix"), Some(true))
    );

    // The owner is mailed in their language and sees the reason; the checklist asks for a fix.
    let owner_mail = owner.user.email.clone().unwrap();
    let mails = mail::Entity::find()
        .filter(mail::Column::Recipient.eq(owner_mail.as_str()))
        .filter(mail::Column::Kind.eq("submission_inspected"))
        .order_by_asc(mail::Column::Id)
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].subject.contains("修正"), "{}", mails[0].subject);
    assert!(mails[0].text_body.contains("看板が枠から50cmはみ出しています。"), "{}", mails[0].text_body);
    let (_, html) = owner.page(&format!("/mypage/entry_history/{EVENT}/submissions/{slot}")).await;
    assert_eq!(Doc::parse(&html).texts("[data-testid=finding]").len(), 1);
    assert!(html.contains("看板が枠から50cmはみ出しています。"));
    assert_eq!(steps(&owner.page(&hub).await.1), ["done", "open", "done", "needs_fix", "waiting"]);

    // Resubmitted through the page's form: version 2 is the one inspected; the first is closed.
    let form =
        owner.form(&format!("/mypage/entry_history/{EVENT}/submissions/{slot}"), "[data-testid=submit-form]").await;
    let (status, location, _) = owner.submit(&form, &[("asset_version_id", &good.to_string())], None).await;
    assert_eq!(status, 303);
    assert!(location.unwrap().ends_with("?done=submitted"));
    let (_, read) = owner.get_json(&path).await;
    let newest = &read["submissions"][0];
    assert_eq!((newest["version"].as_i64(), newest["inspection"]["status"].as_str()), (Some(2), Some("pending")));
    let passed = json!({"inspection_status": "passed", "findings": []});
    let answer = call(&app, &uc, Method::Put, &sub, Some(&passed)).await;
    assert_eq!((answer.status, answer.body["code"].as_str()), (409, Some("not_newest")), "{:?}", answer.body);
    let answer =
        call(&app, &uc, Method::Put, &format!("/admin/api/slot_submissions/{}", newest["id"]), Some(&passed)).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_eq!(call(&app, &uc, Method::Get, &listed("passed"), None).await.body.as_array().unwrap().len(), 1);

    // After the term: refused with the deadline; once the event opens, every step is done.
    app.clock.set(ev.at(PhaseType::SubmissionEnd) + Duration::hours(1));
    for actor in [&mut owner, &mut member, &mut stranger, &mut uc, &mut qa] {
        actor.renew().await;
    }
    let (status, body) = owner.post_json(&path, &send(good)).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("submission_closed")), "{body}");
    app.clock.set(ev.at(PhaseType::EventOpen) + Duration::hours(1));
    for actor in [&mut owner, &mut member, &mut stranger, &mut uc, &mut qa] {
        actor.renew().await;
    }
    assert_eq!(steps(&owner.page(&hub).await.1), ["done", "missed", "done", "done", "done"], "no item was listed");
    let (status, html) = member.page(&hub).await;
    assert_eq!(status, 200, "members read the hub");
    assert_eq!(Doc::parse(&html).count("[data-testid=member-badge]"), 1);
    for page in ["hub", "catalog", "submissions"] {
        assert_eq!(stranger.page(&format!("/mypage/entry_history/{EVENT}/{page}")).await.0, 404, "{page}");
    }
    assert_eq!(stranger.page(&format!("/mypage/entry_history/{EVENT}/submissions/{slot}")).await.0, 404);
}

/// Every staff role's access to the console's submissions: admin, director and UC staff decide,
/// QA testers read.
#[rocket::async_test]
async fn every_staff_role_reads_submissions_and_only_writers_decide() {
    let app = TestApp::builder().live().build().await;
    for (role, writes) in [(Role::Admin, true), (Role::Director, true), (Role::UcStaff, true), (Role::QaTester, false)]
    {
        let staff = app.as_staff(role).await;
        let answer = call(&app, &staff, Method::Get, "/admin/api/slot_submissions", None).await;
        assert_eq!(answer.status, 200, "{role:?} reads");
        let answer = call(
            &app,
            &staff,
            Method::Put,
            "/admin/api/slot_submissions/999999",
            Some(&json!({"inspection_status": "passed"})),
        )
        .await;
        assert_eq!(answer.status, if writes { 404 } else { 403 }, "{role:?}: {:?}", answer.body);
    }
    let user = app.user("not_staff").await;
    assert_eq!(call(&app, &user, Method::Get, "/admin/api/slot_submissions", None).await.status, 403);
}
