//! Entries in the console (issue 14): entry plans (CRUD, a plan with applications is kept),
//! entries and applications (read, filters, a corrective status change with a mandatory reason,
//! audited), and lottery runs (commit → preview with its result summary → publish, once) — plus
//! the list contract (sort, range, filter, `Content-Range`) of each new resource.

use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use vmarket::db::entities::{audit_log, event_entry, event_entry_application, lottery_result_mail, mail};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::phase::PhaseType;
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

/// The audit rows of `resource`'s record `id`, oldest first.
async fn audit_of(app: &TestApp, resource: &str, id: i64) -> Vec<audit_log::Model> {
    audit_log::Entity::find()
        .filter(audit_log::Column::Resource.eq(resource))
        .filter(audit_log::Column::RecordId.eq(id.to_string()))
        .order_by_asc(audit_log::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
}

/// A circle named `name` of `owner` entering `event_id` with `plans` as its wishes (first wish
/// first); returns the entry id.
async fn enter(app: &TestApp, owner: &Actor<'_>, name: &str, event_id: i32, plans: &[i32]) -> i32 {
    let circle = app.create_circle(owner, name).await["id"].as_i64().unwrap() as i32;
    let wishes = plans
        .iter()
        .enumerate()
        .map(|(i, plan)| Wish { choice: i as i32 + 1, plan_id: *plan, options: AmpOptions::default() })
        .collect();
    let change = EntryChange { is_multiple_win: false, wishes, agreed_terms: None };
    event_entry::Model::apply(&app.db, event_id, circle, owner.user.id, change, app.clock.now()).await.unwrap().id
}

async fn get(app: &TestApp, who: &Actor<'_>, path: &str) -> Answer {
    call(app, who, Method::Get, path, None).await
}

#[rocket::async_test]
async fn staff_create_change_and_delete_entry_plans_but_not_one_with_applications() {
    let app = TestApp::builder().live().build().await;
    let director = app.as_staff(Role::Director).await;
    let ev = app.entry_event("PlanFair").await;
    let other = app.entry_event("OtherFair").await;
    let world_of = |shown: Answer| shown.body["world_id"].as_i64().unwrap();
    let world = world_of(get(&app, &director, &format!("/admin/api/entry_plans/{}", ev.plans[0])).await);
    let foreign_world = world_of(get(&app, &director, &format!("/admin/api/entry_plans/{}", other.plans[0])).await);

    // Wrong inputs are reported beside their fields, in the staff member's language.
    let bad = json!({"event_id": ev.id, "world_id": foreign_world, "exhibition_category": "booth",
                     "name_ja": "", "maximum": -1, "fee": 100, "preview_world_launch_url": "javascript:x"});
    let refused = call(&app, &director, Method::Post, "/admin/api/entry_plans?lang=en", Some(&bad)).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["exhibition_category".to_string()]));
    let bad = json!({"event_id": ev.id, "world_id": world, "exhibition_category": "space",
                     "name_ja": "", "maximum": -1, "fee": 100, "preview_world_launch_url": "javascript:x"});
    let refused = call(&app, &director, Method::Post, "/admin/api/entry_plans?lang=en", Some(&bad)).await;
    assert_eq!(refused.status, 422, "{:?}", refused.body);
    assert_eq!(refused.attributes(), ["maximum", "name_en", "name_ja", "preview_world_launch_url"]);
    let plan = json!({"event_id": ev.id, "world_id": foreign_world, "exhibition_category": "avatar",
                      "name_ja": "灯籠アバター枠", "name_en": "Lantern avatar slot", "maximum": 3, "fee": 1500});
    let refused = call(&app, &director, Method::Post, "/admin/api/entry_plans?lang=en", Some(&plan)).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["world_id".to_string()]), "a world of another event");
    assert_eq!(refused.body["details"][0]["message"], "Choose one of this event's worlds.");

    // Create, list by event and category, change, delete: each audited.
    let mut plan = plan;
    plan["world_id"] = json!(world);
    let created = call(&app, &director, Method::Post, "/admin/api/entry_plans", Some(&plan)).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_i64().unwrap();
    assert_eq!(
        (created.body["application_count"].as_u64(), created.body["rate_label"].as_str()),
        (Some(0), Some("normal"))
    );
    let filter = format!(r#"{{"event_id":{},"exhibition_category":"avatar"}}"#, ev.id);
    let listed =
        get(&app, &director, &list_path("/admin/api/entry_plans", Some(r#"["fee","DESC"]"#), None, Some(&filter)))
            .await;
    assert_eq!(listed.ids(), vec![ev.plans[3] as i64, id], "3,000 JPY before 1,500 JPY");
    let changed =
        call(&app, &director, Method::Put, &format!("/admin/api/entry_plans/{id}"), Some(&json!({"fee": 2000}))).await;
    assert_eq!((changed.status, changed.body["fee"].as_i64()), (200, Some(2000)), "{:?}", changed.body);
    let deleted = call(&app, &director, Method::Delete, &format!("/admin/api/entry_plans/{id}"), None).await;
    assert_eq!(deleted.status, 200);
    let actions: Vec<String> = audit_of(&app, "entry_plans", id).await.into_iter().map(|r| r.action).collect();
    assert_eq!(actions, ["create", "edit", "delete"]);

    // A plan circles applied for stays, and stays in its event.
    let owner = app.with_user("plan_fair_owner").await;
    enter(&app, &owner, "灯籠サークル", ev.id, &ev.plans[..1]).await;
    let kept =
        call(&app, &director, Method::Delete, &format!("/admin/api/entry_plans/{}?lang=en", ev.plans[0]), None).await;
    assert_eq!((kept.status, kept.body["code"].as_str()), (409, Some("plan_has_applications")));
    assert!(kept.body["message"].as_str().unwrap().contains("cannot be deleted"), "{:?}", kept.body);
    let moved = call(
        &app,
        &director,
        Method::Put,
        &format!("/admin/api/entry_plans/{}", ev.plans[0]),
        Some(&json!({"event_id": other.id, "world_id": foreign_world})),
    )
    .await;
    assert_eq!((moved.status, moved.body["code"].as_str()), (409, Some("plan_has_applications")));
    let shown = get(&app, &director, &format!("/admin/api/entry_plans/{}", ev.plans[0])).await;
    assert_eq!(
        (shown.body["event_id"].as_i64(), shown.body["application_count"].as_u64()),
        (Some(ev.id as i64), Some(1))
    );

    // uc_staff read plans (event set-up) but do not change them.
    let support = app.as_staff(Role::UcStaff).await;
    assert_eq!(get(&app, &support, &format!("/admin/api/entry_plans/{}", ev.plans[0])).await.status, 200);
    let refused =
        call(&app, &support, Method::Put, &format!("/admin/api/entry_plans/{}", ev.plans[0]), Some(&json!({"fee": 1})))
            .await;
    assert_eq!(refused.status, 403);
}

#[rocket::async_test]
async fn staff_read_entries_and_correct_an_application_with_a_reason() {
    let app = TestApp::builder().live().build().await;
    let support = app.as_staff(Role::UcStaff).await;
    let ev = app.entry_event("EntryFair").await;
    let other = app.entry_event("QuietFair").await;
    let owner = app.with_user("entry_fair_owner").await;
    let lantern = enter(&app, &owner, "ランタン工房", ev.id, &[ev.plans[0], ev.plans[1]]).await;
    let star = enter(&app, &owner, "星読み会", ev.id, &ev.plans[1..2]).await;
    let elsewhere = enter(&app, &owner, "ランタン別館", other.id, &other.plans[..1]).await;

    // Filters: event, circle name, stored status of an application; the entry shows its wishes.
    let by_event = get(
        &app,
        &support,
        &list_path("/admin/api/entries", None, None, Some(&format!(r#"{{"event_id":{}}}"#, ev.id))),
    )
    .await;
    assert_eq!(by_event.ids(), vec![lantern as i64, star as i64]);
    let by_name = get(&app, &support, &list_path("/admin/api/entries", None, None, Some(r#"{"q":"ランタン"}"#))).await;
    assert_eq!(by_name.ids(), vec![lantern as i64, elsewhere as i64]);
    let shown = get(&app, &support, &format!("/admin/api/entries/{lantern}")).await;
    assert_eq!(shown.status, 200, "{:?}", shown.body);
    assert_eq!(
        (shown.body["circle_name_ja"].as_str(), shown.body["lottery_type"].as_str()),
        (Some("ランタン工房"), Some("applied"))
    );
    let wishes: Vec<i64> =
        shown.body["applications"].as_array().unwrap().iter().map(|a| a["plan_id"].as_i64().unwrap()).collect();
    assert_eq!(wishes, [ev.plans[0] as i64, ev.plans[1] as i64], "first wish first");
    let first = shown.body["applications"][0]["id"].as_i64().unwrap();
    assert_eq!(shown.body["applications"][0]["corrections"], json!(["first_win", "first_lost", "win", "incorrect"]));

    // A correction needs a reason and a transition that makes sense.
    let path = format!("/admin/api/applications/{first}?lang=en");
    let no_reason = call(&app, &support, Method::Put, &path, Some(&json!({"lottery_status": "first_win"}))).await;
    assert_eq!((no_reason.status, no_reason.attributes()), (422, vec!["reason".to_string()]));
    let skipping = json!({"lottery_status": "second_win", "reason": "typo"});
    let refused = call(&app, &support, Method::Put, &path, Some(&skipping)).await;
    assert_eq!((refused.status, refused.attributes()), (422, vec!["lottery_status".to_string()]));
    let paying = json!({"lottery_status": "paid", "reason": "paid at the counter"});
    assert_eq!(call(&app, &support, Method::Put, &path, Some(&paying)).await.status, 422, "only a payment pays");

    // Allowed: it changes, records the round and fee, and the audit row keeps the reason.
    let reason = "The owner broke the exhibition rules (ticket #4711).";
    let fixed =
        call(&app, &support, Method::Put, &path, Some(&json!({"lottery_status": "incorrect", "reason": reason}))).await;
    assert_eq!((fixed.status, fixed.body["lottery_status"].as_str()), (200, Some("incorrect")), "{:?}", fixed.body);
    let won = json!({"lottery_status": "first_lost", "reason": "Readmitted after review."});
    assert_eq!(call(&app, &support, Method::Put, &path, Some(&won)).await.status, 200);
    let won = json!({"lottery_status": "second_win", "reason": "A freed slot, drawn by hand."});
    let fixed = call(&app, &support, Method::Put, &path, Some(&won)).await;
    assert_eq!((fixed.body["won_round"].as_str(), fixed.body["fee_at_draw"].as_i64()), (Some("second"), Some(8000)));
    let rows = audit_of(&app, "applications", first).await;
    assert_eq!(rows.len(), 3);
    let before: Value = serde_json::from_str(rows[0].before.as_deref().unwrap()).unwrap();
    let after: Value = serde_json::from_str(rows[0].after.as_deref().unwrap()).unwrap();
    assert_eq!(
        (before["lottery_status"].as_str(), after["lottery_status"].as_str()),
        (Some("applied"), Some("incorrect"))
    );
    assert_eq!((after["reason"].as_str(), rows[0].actor_id), (Some(reason), support.user.id));

    // Lists by status and by event go through the entry.
    let filter = format!(r#"{{"event_id":{},"lottery_status":"second_win"}}"#, ev.id);
    let listed = get(&app, &support, &list_path("/admin/api/applications", None, None, Some(&filter))).await;
    assert_eq!(listed.ids(), vec![first]);
    let entries =
        get(&app, &support, &list_path("/admin/api/entries", None, None, Some(r#"{"lottery_status":"second_win"}"#)))
            .await;
    assert_eq!(entries.ids(), vec![lantern as i64]);
    let shown = get(&app, &support, &format!("/admin/api/entries/{lantern}")).await;
    assert_eq!(shown.body["lottery_type"], "second_win_payment");
    let stored = event_entry_application::Entity::find_by_id(first as i32).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.lottery_status, LotteryStatus::SecondWin);

    // QA testers read and cannot correct; entries are read-only for everyone.
    let qa = app.as_staff(Role::QaTester).await;
    assert_eq!(get(&app, &qa, &format!("/admin/api/applications/{first}")).await.status, 200);
    let refused = call(&app, &qa, Method::Put, &path, Some(&json!({"lottery_status": "lost", "reason": "x"}))).await;
    assert_eq!(refused.status, 403);
    assert_eq!(call(&app, &support, Method::Delete, &format!("/admin/api/entries/{star}"), None).await.status, 405);
}

#[rocket::async_test]
async fn a_lottery_run_is_committed_previewed_and_published_once_from_the_console() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let mut admin = app.as_staff(Role::Admin).await;
    let ev = app.entry_event("DrawConsole").await;
    let owner = app.with_user("draw_console_owner").await;
    let mut entries = Vec::new();
    for i in 0..4 {
        entries.push(enter(&app, &owner, &format!("抽選工房{i}"), ev.id, &ev.plans[..1]).await);
    }

    let commit = json!({"event_id": ev.id, "round": "first"});
    let committed = call(&app, &admin, Method::Post, "/admin/api/lottery_runs", Some(&commit)).await;
    assert_eq!(committed.status, 201, "{:?}", committed.body);
    let id = committed.body["id"].as_i64().unwrap();
    let run = &committed.body;
    assert_eq!(
        (run["state"].as_str(), run["created_by_vmarket_id"].as_str()),
        (Some("committed"), Some("staff_admin"))
    );
    assert_eq!(run["seed_hash"].as_str().map(str::len), Some(64));
    assert!(run["seed"].is_null() && run["summary"].is_null() && run.get("secret_seed").is_none(), "{run}");
    let again = call(&app, &admin, Method::Post, "/admin/api/lottery_runs?lang=en", Some(&commit)).await;
    assert_eq!((again.status, again.body["code"].as_str()), (409, Some("lottery_already_committed")));
    let second = json!({"event_id": ev.id, "round": "second"});
    let early = call(&app, &admin, Method::Post, "/admin/api/lottery_runs", Some(&second)).await;
    assert_eq!(early.body["code"], "lottery_first_round_unpublished");

    let path = format!("/admin/api/lottery_runs/{id}");
    let publish = json!({"state": "published"});
    // Into the draw's window (the site's clock, as time travel moves it).
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + chrono::Duration::hours(1));
    admin.renew().await;
    let unpreviewed = call(&app, &admin, Method::Put, &path, Some(&publish)).await;
    assert_eq!(unpreviewed.body["code"], "lottery_not_previewed");

    // Preview: the summary says winners per plan; nothing changes for the circles.
    let previewed = call(&app, &admin, Method::Put, &path, Some(&json!({"state": "preview"}))).await;
    assert_eq!((previewed.status, previewed.body["state"].as_str()), (200, Some("preview")), "{:?}", previewed.body);
    let summary = &previewed.body["summary"];
    assert_eq!(
        (summary["entries"].as_u64(), summary["applications"].as_u64(), summary["winners"].as_u64()),
        (Some(4), Some(4), Some(2))
    );
    let square = summary["plans"].as_array().unwrap().iter().find(|p| p["plan_id"] == ev.plans[0]).unwrap();
    assert_eq!(
        (
            square["name_en"].as_str(),
            square["capacity"].as_u64(),
            square["wishes"].as_u64(),
            square["winners"].as_u64()
        ),
        (Some("Square booth"), Some(2), Some(4), Some(2))
    );
    assert!(previewed.body["seed"].is_null(), "the seed stays secret until published");
    let applied = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::Applied))
        .filter(event_entry_application::Column::EntryId.is_in(entries.clone()))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(applied.len(), 4);
    let qa = app.as_staff(Role::QaTester).await;
    let read = get(&app, &qa, &path).await;
    assert_eq!(read.body["summary"], *summary, "QA testers read the same result");
    assert_eq!(call(&app, &qa, Method::Put, &path, Some(&publish)).await.status, 403);

    // Publish: statuses change, the seed is revealed; publishing again changes nothing.
    let published = call(&app, &admin, Method::Put, &path, Some(&publish)).await;
    assert_eq!((published.status, published.body["state"].as_str()), (200, Some("published")), "{:?}", published.body);
    assert_eq!(published.body["seed"].as_str().map(str::len), Some(64));
    assert_eq!(published.body["summary"], *summary, "the published result is the previewed one");
    let won = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::LotteryStatus.eq(LotteryStatus::FirstWin))
        .filter(event_entry_application::Column::EntryId.is_in(entries.clone()))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(won.len(), 2);
    // The publication left one result mail owed per entry; the workers render and store them
    // from the job the console enqueued once its write committed.
    let results = || async {
        let mails = mail::Entity::find().all(&app.db).await.unwrap().into_iter();
        mails.filter(|m| m.kind.starts_with("lottery_") && m.status == mail::MailStatus::Sent).count()
    };
    let owed = lottery_result_mail::Entity::find()
        .filter(lottery_result_mail::Column::RunId.eq(id as i32))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(owed.len(), entries.len(), "one owed result mail per entry, stored with the publication");
    assert!(owed.iter().all(|o| o.done_at.is_none()));
    assert_eq!(mail::Entity::find().all(&app.db).await.unwrap().len(), 0, "no mail is rendered inside the publication");
    let workers = app.start_workers().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while results().await < entries.len() {
        assert!(std::time::Instant::now() < deadline, "the result mails sent within 30 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let twice = call(&app, &admin, Method::Put, &format!("{path}?lang=en"), Some(&publish)).await;
    assert_eq!((twice.status, twice.body["code"].as_str()), (409, Some("lottery_already_published")));
    assert!(twice.body["message"].as_str().unwrap().contains("changes nothing"), "{:?}", twice.body);
    let actions: Vec<String> = audit_of(&app, "lottery_runs", id).await.into_iter().map(|r| r.action).collect();
    assert_eq!(actions, ["create", "edit", "edit"], "commit, preview, publish; the second publish left nothing");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    workers.stop().await;
    assert_eq!(results().await, entries.len(), "one result mail per entry; publishing again mails nobody");
    assert_eq!(mail::Entity::find().all(&app.db).await.unwrap().len(), entries.len(), "and no other");
    let owed = lottery_result_mail::Entity::find()
        .filter(lottery_result_mail::Column::RunId.eq(id as i32))
        .all(&app.db)
        .await
        .unwrap();
    assert!(owed.iter().all(|o| o.done_at.is_some()), "every result is mailed");

    // The list per event and round; uc_staff see no draws at all.
    let filter = format!(r#"{{"event_id":{},"round":"first"}}"#, ev.id);
    let listed = get(&app, &qa, &list_path("/admin/api/lottery_runs", None, None, Some(&filter))).await;
    assert_eq!(listed.ids(), vec![id]);
    let support = app.as_staff(Role::UcStaff).await;
    assert_eq!(get(&app, &support, "/admin/api/lottery_runs").await.status, 403);
}

#[rocket::async_test]
async fn the_new_resources_keep_the_list_contract() {
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let ev = app.entry_event("ContractFair").await;
    let owner = app.with_user("contract_fair_owner").await;
    for i in 0..3 {
        enter(&app, &owner, &format!("契約サークル{i}"), ev.id, &ev.plans[i..i + 1]).await;
    }
    let run = call(
        &app,
        &admin,
        Method::Post,
        "/admin/api/lottery_runs",
        Some(&json!({"event_id": ev.id, "round": "first"})),
    )
    .await;
    assert_eq!(run.status, 201);
    let event = format!(r#"{{"event_id":{}}}"#, ev.id);
    for (resource, sort, total) in [
        ("entry_plans", r#"["fee","DESC"]"#, 4),
        ("entries", r#"["created_at","DESC"]"#, 3),
        ("applications", r#"["plan_id","DESC"]"#, 3),
        ("lottery_runs", r#"["round","ASC"]"#, 1),
    ] {
        let all =
            get(&app, &admin, &list_path(&format!("/admin/api/{resource}"), Some(sort), None, Some(&event))).await;
        assert_eq!(all.status, 200, "{resource}: {:?}", all.body);
        assert_eq!(
            all.content_range.as_deref(),
            Some(format!("{resource} 0-{}/{total}", total - 1).as_str()),
            "{resource}"
        );
        assert_eq!(all.expose.as_deref(), Some("Content-Range"));
        let window =
            get(&app, &admin, &list_path(&format!("/admin/api/{resource}"), Some(sort), Some("[1,1]"), Some(&event)))
                .await;
        let expected = if total > 1 { format!("{resource} 1-1/{total}") } else { format!("{resource} */{total}") };
        assert_eq!(window.content_range.as_deref(), Some(expected.as_str()), "{resource}");
        assert_eq!(window.ids(), all.ids().into_iter().skip(1).take(1).collect::<Vec<_>>(), "{resource}");
        let unknown = get(
            &app,
            &admin,
            &list_path(&format!("/admin/api/{resource}"), None, None, Some(r#"{"secret_seed":"x"}"#)),
        )
        .await;
        assert_eq!((unknown.status, unknown.attributes()), (422, vec!["filter".to_string()]), "{resource}");
        let bad_sort = get(
            &app,
            &admin,
            &list_path(&format!("/admin/api/{resource}"), Some(r#"["secret_seed","ASC"]"#), None, None),
        )
        .await;
        assert_eq!((bad_sort.status, bad_sort.attributes()), (422, vec!["sort".to_string()]), "{resource}");
    }
    // Sorted as asked: plans by fee, highest first.
    let plans =
        get(&app, &admin, &list_path("/admin/api/entry_plans", Some(r#"["fee","DESC"]"#), None, Some(&event))).await;
    let fees: Vec<i64> = plans.body.as_array().unwrap().iter().map(|p| p["fee"].as_i64().unwrap()).collect();
    assert_eq!(fees, [8000, 5000, 3000, 0]);
    // A filter value of the wrong kind is named.
    let wrong =
        get(&app, &admin, &list_path("/admin/api/applications", None, None, Some(r#"{"event_id":"soon"}"#))).await;
    assert_eq!((wrong.status, wrong.attributes()), (422, vec!["filter.event_id".to_string()]));
}

/// Issue 12, audit item 1: the console draws a round only inside its lottery window, by the
/// site's clock, and never a round the event's phases do not have — the model's rule, so the
/// console, the jobs and the CLI all keep it. The refusal is in the staff member's language.
#[rocket::async_test]
async fn the_console_draws_a_round_only_inside_its_window_and_only_a_round_the_event_has() {
    let app = TestApp::builder().live().build().await;
    let mut admin = app.as_staff(Role::Admin).await;
    let ev = app.entry_event("WindowConsole").await;
    let owner = app.with_user("window_console_owner").await;
    let mut entries = Vec::new();
    for i in 0..3 {
        entries.push(enter(&app, &owner, &format!("窓口工房{i}"), ev.id, &ev.plans[..1]).await);
    }
    // An event without a second lottery (made now, while entries are open).
    let single = app.entry_event("OneWindowConsole").await;
    vmarket::db::entities::event_phase::Entity::delete_many()
        .filter(vmarket::db::entities::event_phase::Column::EventId.eq(single.id))
        .filter(vmarket::db::entities::event_phase::Column::PhaseType.is_in([
            PhaseType::SecondLotteryStart,
            PhaseType::SecondLotteryEnd,
            PhaseType::SecondPaymentStart,
            PhaseType::SecondPaymentEnd,
        ]))
        .exec(&app.db)
        .await
        .unwrap();
    enter(&app, &owner, "一回工房", single.id, &single.plans[..1]).await;

    // Entries are still open: committing is fine (the hash is public before the draw), drawing
    // is not.
    let commit = json!({"event_id": ev.id, "round": "first"});
    let committed = call(&app, &admin, Method::Post, "/admin/api/lottery_runs", Some(&commit)).await;
    assert_eq!(committed.status, 201, "{:?}", committed.body);
    let path = format!("/admin/api/lottery_runs/{}", committed.body["id"].as_i64().unwrap());
    for state in ["preview", "published"] {
        let early = call(&app, &admin, Method::Put, &path, Some(&json!({"state": state}))).await;
        assert_eq!((early.status, early.body["code"].as_str()), (409, Some("lottery_window_not_open")), "{state}");
        assert_eq!(
            early.body["message"],
            "この抽選はまだ実行できません（抽選期間の開始前か、応募・お支払いの受付期間中です）。イベントのフェーズで抽選期間が始まってから、プレビュー・公開してください。"
        );
    }
    let en = call(&app, &admin, Method::Put, &format!("{path}?lang=en"), Some(&json!({"state": "preview"}))).await;
    assert!(en.body["message"].as_str().unwrap().starts_with("This draw cannot run yet"), "{:?}", en.body);
    let applied = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.is_in(entries.clone()))
        .all(&app.db)
        .await
        .unwrap();
    assert!(applied.iter().all(|a| a.lottery_status == LotteryStatus::Applied), "nothing drawn");
    let shown = get(&app, &admin, &path).await;
    assert_eq!((shown.body["state"].as_str(), shown.body["previewed_at"].is_null()), (Some("committed"), true));

    // The last second before the window: still refused. At its first second: drawn.
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) - chrono::Duration::seconds(1));
    admin.renew().await;
    let early = call(&app, &admin, Method::Put, &path, Some(&json!({"state": "preview"}))).await;
    assert_eq!(early.body["code"], "lottery_window_not_open");
    app.clock.set(ev.at(PhaseType::FirstLotteryStart));
    admin.renew().await;
    for state in ["preview", "published"] {
        let drawn = call(&app, &admin, Method::Put, &path, Some(&json!({"state": state}))).await;
        assert_eq!((drawn.status, drawn.body["state"].as_str()), (200, Some(state)), "{:?}", drawn.body);
    }

    // The second round: its window opens at second_lottery_start, not before.
    let second = json!({"event_id": ev.id, "round": "second"});
    let committed = call(&app, &admin, Method::Post, "/admin/api/lottery_runs", Some(&second)).await;
    assert_eq!(committed.status, 201, "{:?}", committed.body);
    let second_path = format!("/admin/api/lottery_runs/{}", committed.body["id"].as_i64().unwrap());
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd));
    admin.renew().await;
    let early = call(&app, &admin, Method::Put, &second_path, Some(&json!({"state": "preview"}))).await;
    assert_eq!((early.status, early.body["code"].as_str()), (409, Some("lottery_window_not_open")));
    app.clock.set(ev.at(PhaseType::SecondLotteryStart));
    admin.renew().await;
    let drawn = call(&app, &admin, Method::Put, &second_path, Some(&json!({"state": "preview"}))).await;
    assert_eq!((drawn.status, drawn.body["state"].as_str()), (200, Some("preview")), "{:?}", drawn.body);

    // An event without a second lottery has no second round to commit or draw.
    app.clock.set(single.at(PhaseType::FirstLotteryStart));
    admin.renew().await;
    let first = json!({"event_id": single.id, "round": "first"});
    let run = call(&app, &admin, Method::Post, "/admin/api/lottery_runs", Some(&first)).await;
    let run_path = format!("/admin/api/lottery_runs/{}", run.body["id"].as_i64().unwrap());
    for state in ["preview", "published"] {
        assert_eq!(call(&app, &admin, Method::Put, &run_path, Some(&json!({"state": state}))).await.status, 200);
    }
    app.clock.set(single.at(PhaseType::FirstPaymentEnd) + chrono::Duration::days(30));
    admin.renew().await;
    let second = json!({"event_id": single.id, "round": "second"});
    let refused = call(&app, &admin, Method::Post, "/admin/api/lottery_runs?lang=en", Some(&second)).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (409, Some("lottery_round_not_scheduled")));
    assert!(
        refused.body["message"].as_str().unwrap().contains("no lottery window for this round"),
        "{:?}",
        refused.body
    );
    let runs = get(
        &app,
        &admin,
        &list_path("/admin/api/lottery_runs", None, None, Some(&format!(r#"{{"event_id":{}}}"#, single.id))),
    )
    .await;
    assert_eq!(runs.ids().len(), 1, "no second run was created");
}

/// Issue 12 item 1 ("lottery runs … who and when"): a run records who committed, who last
/// previewed and who published it, with each time — a staff member's handle from the console,
/// nobody for the command line and the lottery clock — and the console shows them.
#[rocket::async_test]
async fn a_lottery_run_records_who_took_each_step_and_when() {
    use vmarket::model::entry_status::LotteryRound;
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("WhoConsole").await;
    let owner = app.with_user("who_console_owner").await;
    for i in 0..3 {
        enter(&app, &owner, &format!("誰の工房{i}"), ev.id, &ev.plans[..1]).await;
    }
    // Committed by the command line (or the lottery clock): nobody.
    let committed_at = ev.at(PhaseType::EntryEnd);
    let run = vmarket::model::lottery::commit(&app.db, ev.id, LotteryRound::First, None, committed_at).await.unwrap();
    let path = format!("/admin/api/lottery_runs/{}", run.id);

    let previewed_at = ev.at(PhaseType::FirstLotteryStart) + chrono::Duration::minutes(5);
    app.clock.set(previewed_at);
    let admin = app.as_staff(Role::Admin).await;
    let director = app.as_staff(Role::Director).await;
    let previewed = call(&app, &admin, Method::Put, &path, Some(&json!({"state": "preview"}))).await;
    assert_eq!(previewed.body["previewed_by_vmarket_id"], "staff_admin", "{:?}", previewed.body);
    // Previewed again by someone else: the last preview counts.
    let previewed = call(&app, &director, Method::Put, &path, Some(&json!({"state": "preview"}))).await;
    assert_eq!(previewed.status, 200, "{:?}", previewed.body);
    let published_at = previewed_at + chrono::Duration::hours(2);
    app.clock.set(published_at);
    let mut admin = admin;
    admin.renew().await;
    let published = call(&app, &admin, Method::Put, &path, Some(&json!({"state": "published"}))).await;
    assert_eq!(published.status, 200, "{:?}", published.body);

    let shown = get(&app, &admin, &path).await.body;
    let at = |t: chrono::DateTime<chrono::Utc>| json!(t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    assert_eq!(
        (&shown["created_by_vmarket_id"], &shown["created_at"]),
        (&Value::Null, &at(committed_at)),
        "committed by no one: {shown}"
    );
    assert_eq!(
        (&shown["previewed_by_vmarket_id"], &shown["previewed_at"]),
        (&json!("staff_director"), &at(previewed_at)),
        "{shown}"
    );
    assert_eq!(
        (&shown["published_by_vmarket_id"], &shown["published_at"]),
        (&json!("staff_admin"), &at(published_at)),
        "{shown}"
    );
    assert_eq!(shown["published_by_user_id"], admin.user.id, "{shown}");
}
