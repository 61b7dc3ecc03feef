//! Event entries: the schema's guarantees (one entry per event and circle, one wish per choice
//! and plan, held by the database itself), the rules of DOMAIN.md "Entries and applications"
//! at their edges, who may see and change an entry, and statuses that follow the clock.

use chrono::Duration;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use vmarket::db::entities::{event_entry, event_entry_application};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryStatus;

use crate::support::TestApp;

fn wishes(plans: &[i32]) -> EntryChange {
    EntryChange {
        is_multiple_win: false,
        wishes: plans
            .iter()
            .enumerate()
            .map(|(i, plan)| Wish { choice: i as i32 + 1, plan_id: *plan, options: AmpOptions::default() })
            .collect(),
    }
}

#[rocket::async_test]
async fn the_database_itself_refuses_a_second_entry_or_a_repeated_choice() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("schema_owner").await;
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
    let later = ev.at(vmarket::model::phase::PhaseType::EntryEnd) + Duration::seconds(0);
    let other = app.create_circle(&owner, "二つ目の工房").await["id"].as_i64().unwrap() as i32;
    let closed = event_entry::Model::apply(&app.db, ev.id, other, owner.user.id, wishes(&ev.plans[..1]), later).await;
    assert_eq!(closed.unwrap_err().code(), "entry_closed");
}
