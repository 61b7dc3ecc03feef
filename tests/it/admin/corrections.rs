//! Staff corrections keep the rules of the draw (issue 25, item 3; each refusal below was a 200
//! on e1df045): a `win` without payment only on a free plan (409 `correction_needs_fee`), never
//! more slot holders than the plan's `maximum` (409 `plan_full`) — also when two staff correct at
//! once — and never a second win for an entry without multiple-win (409 `entry_already_won`). A
//! refused correction changes nothing and leaves no audit row.

use rocket::futures::future::join_all;
use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::json;
use vmarket::db::entities::{audit_log, event_entry, event_entry_application};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::user::Role;

use super::{Answer, call};
use crate::support::TestApp;
use crate::support::actors::Actor;

/// A new circle of `owner` enters `event_id` wishing for `plans` (first wish first), without
/// multiple-win; its applications' ids in wish order.
async fn enter(app: &TestApp, owner: &Actor<'_>, event_id: i32, plans: &[i32]) -> Vec<i32> {
    let circle = app.create_circle(owner, &format!("{}の工房", owner.user.vmarket_id)).await["id"].as_i64().unwrap();
    let wishes = plans
        .iter()
        .enumerate()
        .map(|(i, plan)| Wish { choice: i as i32 + 1, plan_id: *plan, options: AmpOptions::default() })
        .collect();
    let change = EntryChange { is_multiple_win: false, wishes, agreed_terms: None };
    let entry = event_entry::Model::apply(&app.db, event_id, circle as i32, owner.user.id, change, app.clock.now())
        .await
        .expect("applied");
    let mut ids: Vec<(i32, i32)> = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry.id))
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|a| (a.choice, a.id))
        .collect();
    ids.sort_unstable();
    ids.into_iter().map(|(_, id)| id).collect()
}

async fn correct(app: &TestApp, staff: &Actor<'_>, application: i32, to: &str, lang: &str) -> Answer {
    let body = json!({"lottery_status": to, "reason": "Corrected after review (ticket #12)."});
    call(app, staff, Method::Put, &format!("/admin/api/applications/{application}?lang={lang}"), Some(&body)).await
}

async fn status_of(app: &TestApp, application: i32) -> (LotteryStatus, Option<i32>) {
    let a = event_entry_application::Entity::find_by_id(application).one(&app.db).await.unwrap().unwrap();
    (a.lottery_status, a.fee_at_draw)
}

async fn audit_rows(app: &TestApp) -> u64 {
    audit_log::Entity::find().filter(audit_log::Column::Resource.eq("applications")).count(&app.db).await.unwrap()
}

#[rocket::async_test]
async fn corrections_keep_the_fee_the_slots_and_one_win_per_entry() {
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("CorrectFair").await;
    let (square, corridor, item, avatar) = (ev.plans[0], ev.plans[1], ev.plans[2], ev.plans[3]);
    let mut circles = Vec::new();
    for handle in ["fix_a", "fix_b", "fix_c", "fix_d", "fix_e"] {
        circles.push(app.with_user(handle).await);
    }
    let a = enter(&app, &circles[0], ev.id, &[square]).await[0];
    let b = enter(&app, &circles[1], ev.id, &[square]).await[0];
    let c = enter(&app, &circles[2], ev.id, &[square]).await[0];
    let d = enter(&app, &circles[3], ev.id, &[corridor, avatar]).await;
    let e = enter(&app, &circles[4], ev.id, &[item]).await[0];
    let (uc_staff, director, admin) =
        (app.as_staff(Role::UcStaff).await, app.as_staff(Role::Director).await, app.as_staff(Role::Admin).await);

    // A win without payment on the 8,000-yen square booth: refused for every role that corrects.
    for (staff, lang, message) in [
        (&uc_staff, "en", "This plan has a fee, so this application cannot become a win without payment."),
        (&director, "ja", "このプランは有料のため、支払いのない当選にはできません。"),
        (&admin, "en", "This plan has a fee"),
    ] {
        let refused = correct(&app, staff, a, "win", lang).await;
        assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("correction_needs_fee")));
        assert!(refused.body["message"].as_str().unwrap().starts_with(message), "{:?}", refused.body);
    }
    assert_eq!(status_of(&app, a).await, (LotteryStatus::Applied, None));
    // On the free item plan it is what `win` means.
    let free = correct(&app, &uc_staff, e, "win", "en").await;
    assert_eq!((free.status, free.body["fee_at_draw"].as_i64()), (200, Some(0)), "{:?}", free.body);

    // Two slots on the square booth: a third holder is refused.
    for holder in [a, b] {
        let won = correct(&app, &director, holder, "first_win", "en").await;
        assert_eq!((won.status, won.body["fee_at_draw"].as_i64()), (200, Some(8000)), "{:?}", won.body);
    }
    let full = correct(&app, &admin, c, "first_win", "en").await;
    assert_eq!((full.status, full.body["code"].as_str()), (409, Some("plan_full")), "{:?}", full.body);
    assert_eq!(status_of(&app, c).await, (LotteryStatus::Applied, None));

    // An entry without multiple-win keeps one win.
    assert_eq!(correct(&app, &uc_staff, d[0], "first_win", "en").await.status, 200);
    let second = correct(&app, &uc_staff, d[1], "first_win", "ja").await;
    assert_eq!((second.status, second.body["code"].as_str()), (409, Some("entry_already_won")), "{:?}", second.body);
    assert_eq!(status_of(&app, d[1]).await, (LotteryStatus::Applied, None));
    // Moving the win: undo the first wish's, then the second may win.
    assert_eq!(correct(&app, &uc_staff, d[0], "applied", "en").await.status, 200);
    assert_eq!(correct(&app, &uc_staff, d[1], "first_win", "en").await.status, 200);

    // Refused corrections left no audit row: one per correction made (e, a, b, d0, d0 back, d1).
    assert_eq!(audit_rows(&app).await, 6);
}

#[rocket::async_test]
async fn two_corrections_at_once_never_take_more_slots_than_the_plan_has() {
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("CorrectRace").await;
    let square = ev.plans[0];
    let mut owners = Vec::new();
    for i in 0..6 {
        owners.push(app.with_user(&format!("race_fix_{i}")).await);
    }
    let mut applications = Vec::new();
    for owner in &owners {
        applications.push(enter(&app, owner, ev.id, &[square]).await[0]);
    }
    let staff = app.as_staff(Role::Director).await;
    // Six corrections of six applications to a win of the 2-slot plan, all at once.
    let answers = join_all(applications.iter().map(|id| correct(&app, &staff, *id, "first_win", "en"))).await;
    let won = answers.iter().filter(|a| a.status == 200).count();
    let full = answers.iter().filter(|a| a.status == 409 && a.body["code"] == "plan_full").count();
    assert_eq!((won, full), (2, 4), "{:?}", answers.iter().map(|a| (a.status, a.body.clone())).collect::<Vec<_>>());
    let holders = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::PlanId.eq(square))
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::FirstWin))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(holders, 2);
}
