//! Event entries: the schema's guarantees (one entry per event and circle, one wish per choice
//! and plan, held by the database itself), the rules of DOMAIN.md "Entries and applications"
//! at their edges, who may see and change an entry, and statuses that follow the clock.

use chrono::Duration;
use rocket::http::Method;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde_json::{Value, json};
use vmarket::db::entities::{event_entry, event_entry_application};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::phase::PhaseType;

use crate::support::TestApp;
use crate::support::circles::Cast;
use crate::support::entries::EntryEvent;

fn wishes(plans: &[i32]) -> EntryChange {
    EntryChange {
        is_multiple_win: false,
        wishes: plans
            .iter()
            .enumerate()
            .map(|(i, plan)| Wish { choice: i as i32 + 1, plan_id: *plan, options: AmpOptions::default() })
            .collect(),
        agreed_terms: None,
    }
}

#[rocket::async_test]
async fn the_database_itself_refuses_a_second_entry_or_a_repeated_choice() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("schema_owner").await;
    let circle = app.create_circle(&owner, "灯り工房").await["id"].as_i64().unwrap() as i32;
    let ev = app.entry_event("SchemaFair").await;
    let now = app.clock.now();

    let entry = event_entry::Model::apply(&app.db, ev.id, circle, owner.user.id, wishes(&ev.plans[..2]), now)
        .await
        .expect("applied");
    let apps = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry.id))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(apps.iter().map(|a| (a.choice, a.plan_id)).collect::<Vec<_>>(), [(1, ev.plans[0]), (2, ev.plans[1])]);
    assert!(apps.iter().all(|a| a.lottery_status == LotteryStatus::Applied));

    // Straight into the table, bypassing the model's check: the unique key refuses it.
    let twin = event_entry::ActiveModel {
        event_id: Set(ev.id),
        circle_id: Set(circle),
        is_multiple_win: Set(true),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    assert!(twin.insert(&app.db).await.is_err(), "one entry per event and circle");
    let same_choice = event_entry_application::ActiveModel {
        entry_id: Set(entry.id),
        plan_id: Set(ev.plans[2]),
        choice: Set(1),
        lottery_status: Set(LotteryStatus::Applied),
        use_amp: Set(false),
        amp_id: Set(None),
        free_submission: Set(false),
        won_round: Set(None),
        fee_at_draw: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    assert!(same_choice.clone().insert(&app.db).await.is_err(), "one wish per choice");
    let mut same_plan = same_choice;
    same_plan.choice = Set(3);
    same_plan.plan_id = Set(ev.plans[0]);
    assert!(same_plan.clone().insert(&app.db).await.is_err(), "one wish per plan");
    // Control: a third wish for another plan goes in, so the refusals above were the keys.
    same_plan.plan_id = Set(ev.plans[2]);
    same_plan.insert(&app.db).await.expect("a distinct third wish");
    assert_eq!(
        event_entry::Entity::find().filter(event_entry::Column::CircleId.eq(circle)).count(&app.db).await.unwrap(),
        1
    );

    // The model answers the second entry with its own code.
    let again = event_entry::Model::apply(&app.db, ev.id, circle, owner.user.id, wishes(&ev.plans[..1]), now).await;
    assert_eq!(again.unwrap_err().code(), "entry_exists");
    // And nothing is accepted once the window has closed.
    let later = ev.at(PhaseType::EntryEnd);
    let other = app.create_circle(&owner, "二つ目の工房").await["id"].as_i64().unwrap() as i32;
    let closed = event_entry::Model::apply(&app.db, ev.id, other, owner.user.id, wishes(&ev.plans[..1]), later).await;
    assert_eq!(closed.unwrap_err().code(), "entry_closed");
}

/// The body of an entry of `circle` to `ev` with `plans` as wishes 1..n.
fn entry_body(ev: &EntryEvent, circle: i64, plans: &[i32]) -> Value {
    let applications: Vec<Value> =
        plans.iter().enumerate().map(|(i, plan)| json!({"choice": i + 1, "plan_id": plan})).collect();
    json!({"event_id": ev.id, "circle_id": circle, "is_multiple_win": false, "applications": applications})
}

const ENTRIES: &str = "/api/v1/user/event_entries";

#[rocket::async_test]
async fn an_owner_applies_with_ranked_wishes_edits_and_withdraws_inside_the_window() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("entry_owner").await;
    let circle = app.create_circle(&owner, "ともしび工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("LanternFair").await;

    // The plans of a category, with fee, world and rate label.
    let (status, body) = owner.get_json("/api/v1/user/LanternFair/event_plans?exhibition_category=space&lang=en").await;
    assert_eq!(status, 200, "{body}");
    let plans = body["event_plans"].as_array().unwrap();
    let listed: Vec<_> = plans
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["fee"].as_i64().unwrap(), p["world"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, [("Square booth", 8000, "Lantern Square"), ("Corridor booth", 5000, "Star Corridor")]);
    assert_eq!(plans[0]["rate_label"], "normal");
    assert_eq!(plans[0]["preview_world"]["launch_url"], "https://vrchat.com/home/launch?worldId=wrld_test_0");
    let (status, body) = owner.get_json("/api/v1/user/LanternFair/event_plans?exhibition_category=stage").await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("exhibition_category")));

    // Apply: second wish listed first in the body, stored by rank.
    let mut body = entry_body(&ev, circle, &[ev.plans[1], ev.plans[0]]);
    body["applications"][0]["choice"] = json!(2);
    body["applications"][1]["choice"] = json!(1);
    body["applications"][1]["options"] = json!({"use_amp": true, "amp_id": "amp-0042", "free_submission": true});
    let (status, created) = owner.post_json(ENTRIES, &body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["lottery_type"], "applied");
    assert_eq!(created["standing"], "owner");
    assert_eq!(created["can_edit"], true);
    let wishes: Vec<_> = created["applications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["choice"].as_i64().unwrap(), a["plan"]["id"].as_i64().unwrap(), a["lottery_status"].clone()))
        .collect();
    assert_eq!(wishes, [(1, ev.plans[0] as i64, json!("applied")), (2, ev.plans[1] as i64, json!("applied"))]);
    assert_eq!(
        created["applications"][0]["options"],
        json!({"use_amp": true, "amp_id": "amp-0042", "free_submission": true})
    );
    let id = created["id"].as_i64().unwrap();

    // Listed, also by permalink; not under another event's.
    let (_, list) = owner.get_json(&format!("{ENTRIES}?permalink=LanternFair")).await;
    assert_eq!(list["data"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect::<Vec<_>>(), [id]);
    assert_eq!(list["pagination"]["count"], 1);
    let (_, other) = owner.get_json(&format!("{ENTRIES}?permalink=2025Summer")).await;
    assert_eq!(other["data"], json!([]));
    let (status, body) = owner.get_json(&format!("{ENTRIES}?permalink=NoSuchFair")).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));

    // Edit to three wishes, until the last second of the window.
    app.clock.set(ev.at(PhaseType::EntryEnd) - Duration::seconds(1));
    owner.renew().await;
    let (status, edited) = owner.put_json(&format!("{ENTRIES}/{id}"), &entry_body(&ev, circle, &ev.plans[1..4])).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["applications"].as_array().unwrap().len(), 3);
    assert_eq!(edited["applications"][0]["plan"]["id"], ev.plans[1]);

    // The window closes: no edit, no withdrawal, in the user's language.
    app.clock.set(ev.at(PhaseType::EntryEnd));
    owner.renew().await;
    let (status, body) = owner.put_json(&format!("{ENTRIES}/{id}"), &entry_body(&ev, circle, &ev.plans[..1])).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("entry_closed")));
    assert_eq!(body["message"], "現在このイベントへの応募は受け付けていません（応募期間外です）。");
    let (status, body) = owner.delete(&format!("{ENTRIES}/{id}?lang=en")).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("entry_closed")));
    assert!(body["message"].as_str().unwrap().starts_with("Entries for this event are not being accepted now"));
    let (_, shown) = owner.get_json(&format!("{ENTRIES}?permalink=LanternFair")).await;
    assert_eq!(shown["data"][0]["can_edit"], false);
    assert_eq!(shown["data"][0]["applications"].as_array().unwrap().len(), 3, "the edit before the close stayed");

    // Back inside the window, the owner withdraws.
    app.clock.set(ev.at(PhaseType::EntryStart));
    owner.renew().await;
    let (status, _) = owner.delete(&format!("{ENTRIES}/{id}")).await;
    assert_eq!(status, 204);
    let (_, list) = owner.get_json(ENTRIES).await;
    assert_eq!(list["data"], json!([]));
    // Before the window opens, nothing is accepted.
    app.clock.set(ev.at(PhaseType::EntryStart) - Duration::seconds(1));
    owner.renew().await;
    let (status, body) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &ev.plans[..1])).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("entry_closed")));
}

#[rocket::async_test]
async fn only_the_owner_of_a_circle_in_good_standing_applies() {
    let app = TestApp::builder().live().build().await;
    let cast = Cast::new(&app, "ent").await;
    let ev = app.entry_event("AccessFair").await;
    let body = entry_body(&ev, cast.circle, &ev.plans[..1]);

    let (status, _) = app.call_anonymously(Method::Get, ENTRIES).await;
    assert_eq!(status, 401);
    let (status, _) = app.call_anonymously(Method::Get, "/api/v1/user/AccessFair/event_plans").await;
    assert_eq!(status, 401);
    let (status, body_) = cast.member.post_json(ENTRIES, &body).await;
    assert_eq!((status, body_["code"].as_str()), (403, Some("forbidden")));
    let (status, body_) = cast.stranger.post_json(ENTRIES, &body).await;
    assert_eq!((status, body_["code"].as_str()), (404, Some("not_found")));
    let suspended = entry_body(&ev, cast.suspended, &ev.plans[..1]);
    let (status, body_) = cast.suspended_owner.post_json(ENTRIES, &suspended).await;
    assert_eq!((status, body_["code"].as_str()), (409, Some("circle_suspended")));
    let (status, created) = cast.owner.post_json(ENTRIES, &body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let path = format!("{ENTRIES}/{id}");

    // Members read it (read only), strangers do not know it.
    let (_, seen) = cast.member.get_json(ENTRIES).await;
    assert_eq!((seen["data"][0]["id"].as_i64(), seen["data"][0]["standing"].as_str()), (Some(id), Some("member")));
    assert_eq!(seen["data"][0]["can_edit"], false);
    let (_, seen) = cast.stranger.get_json(ENTRIES).await;
    assert_eq!(seen["data"], json!([]));
    for (who, expected) in [(&cast.member, 403), (&cast.stranger, 404)] {
        assert_eq!(who.put_json(&path, &body).await.0, expected);
        assert_eq!(who.delete(&path).await.0, expected);
        let amp = json!({"applications": [{"id": created["applications"][0]["id"], "options": {"use_amp": true}}]});
        assert_eq!(who.put_json(&format!("{path}/update_amp_ids"), &amp).await.0, expected);
    }
    assert_eq!(app.call_anonymously(Method::Delete, &path).await.0, 401);

    // Suspended later: the entry stays, marked, and cannot change.
    app.suspend_circle(cast.circle).await;
    let (status, body_) = cast.owner.put_json(&path, &body).await;
    assert_eq!((status, body_["code"].as_str()), (409, Some("circle_suspended")));
    let (status, _) = cast.owner.delete(&path).await;
    assert_eq!(status, 409);
    let (_, seen) = cast.owner.get_json(ENTRIES).await;
    assert_eq!(seen["data"][0]["lottery_type"], "incorrect");
    assert_eq!(seen["data"][0]["can_edit"], false);
}

#[rocket::async_test]
async fn wishes_are_one_to_three_distinct_plans_of_the_event_ranked_without_gaps() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("wish_owner").await;
    let circle = app.create_circle(&owner, "星の工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("WishFair").await;
    let other = app.entry_event("OtherFair").await;

    let problem = |body: &Value| {
        (
            body["code"].as_str().map(String::from),
            body["details"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["attribute"].as_str().unwrap().to_string())
                .collect::<Vec<_>>(),
        )
    };
    let (status, body) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &[])).await;
    assert_eq!((status, problem(&body)), (422, (Some("validation_failed".into()), vec!["applications".into()])));
    assert_eq!(body["details"][0]["message"], "プランを1〜3件選んでください。");
    let four = [ev.plans[0], ev.plans[1], ev.plans[2], ev.plans[3]];
    assert_eq!(owner.post_json(ENTRIES, &entry_body(&ev, circle, &four)).await.0, 422);
    let mut gap = entry_body(&ev, circle, &ev.plans[..2]);
    gap["applications"][1]["choice"] = json!(3);
    let (status, body) = owner.post_json(&format!("{ENTRIES}?lang=en"), &gap).await;
    assert_eq!(status, 422);
    assert_eq!(body["details"][0]["message"], "Rank your wishes 1, 2, 3 in order, without gaps or repeats.");
    let (status, body) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &[ev.plans[0], ev.plans[0]])).await;
    assert_eq!(
        (status, body["details"][0]["message"].as_str()),
        (422, Some("希望ごとに異なるプランを選んでください。"))
    );
    let (status, body) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &[ev.plans[0], other.plans[0]])).await;
    assert_eq!((status, problem(&body).1), (422, vec!["applications[1].plan_id".to_string()]));
    let mut amp = entry_body(&ev, circle, &ev.plans[..1]);
    amp["applications"][0]["options"] = json!({"use_amp": true, "amp_id": "amp 01"});
    let (status, body) = owner.post_json(ENTRIES, &amp).await;
    assert_eq!((status, problem(&body).1), (422, vec!["applications[0].options.amp_id".to_string()]));
    let (status, body) = owner.post_json(ENTRIES, &json!({"event_id": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let mut unknown = entry_body(&ev, circle, &ev.plans[..1]);
    unknown["event_id"] = json!(999_999);
    let (status, body) = owner.post_json(ENTRIES, &unknown).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_permalink")));

    // None of the refused ones left anything; the valid one goes in.
    assert_eq!(owner.get_json(ENTRIES).await.1["data"], json!([]));
    assert_eq!(owner.post_json(ENTRIES, &entry_body(&ev, circle, &ev.plans[..3])).await.0, 201);
}

#[rocket::async_test]
async fn a_double_submit_makes_one_entry() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("double_owner").await;
    let circle = app.create_circle(&owner, "二重送信工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("RaceFair").await;
    let body = entry_body(&ev, circle, &ev.plans[..2]);
    let calls = (0..4).map(|_| owner.post_json(ENTRIES, &body));
    let answers = rocket::futures::future::join_all(calls).await;
    let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409, 409, 409], "{answers:?}");
    assert!(answers.iter().filter(|(s, _)| *s == 409).all(|(_, b)| b["code"] == "entry_exists"));
    let rows = event_entry::Entity::find().filter(event_entry::Column::EventId.eq(ev.id)).count(&app.db).await.unwrap();
    assert_eq!(rows, 1);
    let wishes = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::PlanId.is_in(ev.plans.clone()))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(wishes, 2, "one entry's two wishes, no orphans");
}

#[rocket::async_test]
async fn amp_options_change_until_submission_ends() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("amp_owner").await;
    let circle = app.create_circle(&owner, "AMP工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("AmpFair").await;
    let (_, created) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &ev.plans[..2])).await;
    let id = created["id"].as_i64().unwrap();
    let second = created["applications"][1]["id"].clone();
    let path = format!("{ENTRIES}/{id}/update_amp_ids");
    let update =
        |amp_id: &str| json!({"applications": [{"id": second, "options": {"use_amp": true, "amp_id": amp_id}}]});

    app.clock.set(ev.at(PhaseType::SubmissionEnd) - Duration::seconds(1));
    owner.renew().await;
    let (status, body) = owner.put_json(&path, &update("amp-late_1")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["applications"][1]["options"]["amp_id"], "amp-late_1");
    assert_eq!(body["applications"][0]["options"]["use_amp"], false, "the other wish is untouched");
    let (status, body) = owner.put_json(&path, &update("amp late")).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("applications[0].options.amp_id")));
    let foreign = json!({"applications": [{"id": 999_999, "options": {"use_amp": true}}]});
    let (status, body) = owner.put_json(&path, &foreign).await;
    assert_eq!((status, body["details"][0]["attribute"].as_str()), (422, Some("applications[0].id")));

    app.clock.set(ev.at(PhaseType::SubmissionEnd));
    owner.renew().await;
    let (status, body) = owner.put_json(&path, &update("amp-2")).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("amp_closed")));
    let (_, list) = owner.get_json(ENTRIES).await;
    assert_eq!(list["data"][0]["applications"][1]["options"]["amp_id"], "amp-late_1");
    assert_eq!(list["data"][0]["can_update_amp"], false);
}

#[rocket::async_test]
async fn an_unpaid_win_shows_as_unpaid_once_the_payment_window_closes_without_any_worker() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("unpaid_owner").await;
    let circle = app.create_circle(&owner, "未払い工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("PayFair").await;
    let (_, created) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &ev.plans[..2])).await;
    let first = created["applications"][0]["id"].as_i64().unwrap() as i32;
    let second = created["applications"][1]["id"].as_i64().unwrap() as i32;
    let shown = |list: &Value| {
        let e = &list["data"][0];
        let statuses: Vec<String> = e["applications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["lottery_status"].as_str().unwrap().into())
            .collect();
        (e["lottery_type"].as_str().unwrap().to_string(), statuses)
    };

    app.clock.set(ev.at(PhaseType::FirstLotteryStart));
    owner.renew().await;
    assert_eq!(
        shown(&owner.get_json(ENTRIES).await.1),
        ("first_lottery".into(), vec!["applied".into(), "applied".into()])
    );
    app.clock.set(ev.at(PhaseType::FirstLotteryEnd));
    owner.renew().await;
    assert_eq!(shown(&owner.get_json(ENTRIES).await.1).0, "adjusting", "drawn but not published");

    // The published first draw (as the lottery writes it): the first wish won.
    for (id, status) in [(first, LotteryStatus::FirstWin), (second, LotteryStatus::FirstLost)] {
        let row = event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap();
        let mut row: event_entry_application::ActiveModel = row.into();
        row.lottery_status = Set(status);
        row.update(&app.db).await.unwrap();
    }
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd) - Duration::seconds(1));
    owner.renew().await;
    let expected = ("first_win_payment".to_string(), vec!["first_win".to_string(), "first_lost".to_string()]);
    assert_eq!(shown(&owner.get_json(ENTRIES).await.1), expected);
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd));
    owner.renew().await;
    let (_, list) = owner.get_json(ENTRIES).await;
    assert_eq!(shown(&list).1, ["first_win_unpaid", "first_lost"]);
    assert_eq!(shown(&list).0, "first_lost", "the first wish lapsed, the second waits for the second draw");
    app.clock.set(ev.at(PhaseType::SecondLotteryStart));
    owner.renew().await;
    assert_eq!(shown(&owner.get_json(ENTRIES).await.1).0, "second_lottery");
    // Nothing was written: the stored status is still the draw's.
    let stored = event_entry_application::Entity::find_by_id(first).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.lottery_status, LotteryStatus::FirstWin);
}

/// Issue 12, audit item 3: once a draw decided an entry (any wish left `applied`), its owner can
/// no longer edit it (which would erase the draw's wins by re-inserting the wishes) or withdraw
/// it (which would delete rows its result mail and payments refer to: a 500 before) — even if the
/// entry window is open again (staff moved the clock or the phases back). A clear 409, in the
/// owner's language, and nothing changes.
#[rocket::async_test]
async fn a_drawn_entry_can_no_longer_be_edited_or_withdrawn() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("drawn_owner").await;
    let circle = app.create_circle(&owner, "抽選済み工房").await["id"].as_i64().unwrap();
    let other = app.create_circle(&owner, "未抽選工房").await["id"].as_i64().unwrap();
    let ev = app.entry_event("DrawnFair").await;
    let (status, created) = owner.post_json(ENTRIES, &entry_body(&ev, circle, &ev.plans[..2])).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();

    let draw_at = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    use vmarket::model::entry_status::LotteryRound;
    use vmarket::model::lottery;
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, draw_at).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    lottery::publish(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    let stored = async || {
        let mut rows = event_entry_application::Entity::find()
            .filter(event_entry_application::Column::EntryId.eq(id as i32))
            .all(&app.db)
            .await
            .unwrap();
        rows.sort_by_key(|a| a.id);
        rows.into_iter().map(|a| (a.id, a.plan_id, a.lottery_status, a.won_round)).collect::<Vec<_>>()
    };
    let drawn = stored().await;
    assert_eq!(drawn[0].2, LotteryStatus::FirstWin, "the first wish won (2 slots, 1 wish)");

    // The entry window is open again by the clock (staff travelled back).
    app.clock.set(ev.at(PhaseType::EntryStart) + Duration::hours(1));
    owner.renew().await;
    let (status, body) = owner.put_json(&format!("{ENTRIES}/{id}"), &entry_body(&ev, circle, &ev.plans[2..3])).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("entry_drawn")), "{body}");
    assert_eq!(body["message"], "この応募はすでに抽選されたため、変更や取り下げはできません。");
    let (status, body) = owner.delete(&format!("{ENTRIES}/{id}?lang=en")).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("entry_drawn")), "{body}");
    assert!(body["message"].as_str().unwrap().starts_with("This entry has already been drawn"), "{body}");
    assert_eq!(stored().await, drawn, "the draw's outcome stays");
    let (_, list) = owner.get_json(&format!("{ENTRIES}?permalink=DrawnFair")).await;
    assert_eq!(list["data"][0]["can_edit"], false, "{list}");

    // Control: an entry the draw did not decide (made after it) is still the owner's to change.
    let (status, fresh) = owner.post_json(ENTRIES, &entry_body(&ev, other, &ev.plans[..1])).await;
    assert_eq!((status, fresh["can_edit"].as_bool()), (201, Some(true)), "{fresh}");
    let fresh = fresh["id"].as_i64().unwrap();
    let (status, _) = owner.put_json(&format!("{ENTRIES}/{fresh}"), &entry_body(&ev, other, &ev.plans[1..2])).await;
    assert_eq!(status, 200);
    let (status, _) = owner.delete(&format!("{ENTRIES}/{fresh}")).await;
    assert_eq!(status, 204);
}
