//! The lottery at volume (issue 12 item 7, run by `bench/lottery`): 100,000 applications over
//! 500 plans (`VMARKET_BENCH_APPLICATIONS=N` for another size: one plan per 200 applications,
//! at least 5, to check the script on a small size). Prints one `BENCH step=… ms=…` line per
//! step; the script compares them with the target (≤ 2 s).

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vmarket::lottery::{ApplicationInput, EntryInput, Inputs, PlanInput, Published, Seed, draw, verify};

/// `applications` wishes over `plans` plans of 20 slots: entries of three wishes (the last one
/// shorter), plans picked with a skew so that the popular ones are oversubscribed many times and
/// the rest are not, as in a real event. Fixed generator seed: every run draws the same inputs.
pub fn volume_inputs(applications: usize, plans: usize) -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let plan_inputs = (1..=plans as i64).map(|id| PlanInput { id, capacity: 20 }).collect();
    let mut entries = Vec::new();
    let mut next_application = 0i64;
    let mut entry_id = 0i64;
    while (next_application as usize) < applications {
        entry_id += 1;
        let wishes = 3.min(applications - next_application as usize);
        let mut picked: Vec<i64> = Vec::with_capacity(wishes);
        while picked.len() < wishes {
            // Squaring a uniform number favours low plan ids (plan 1 is the most wished).
            let u: f64 = rng.random();
            let plan = 1 + ((u * u) * plans as f64) as i64;
            if !picked.contains(&plan) {
                picked.push(plan);
            }
        }
        let applications = picked
            .into_iter()
            .enumerate()
            .map(|(rank, plan_id)| {
                next_application += 1;
                ApplicationInput { id: next_application, choice: rank as u8 + 1, plan_id }
            })
            .collect();
        entries.push(EntryInput { id: entry_id, multiple_win: entry_id % 10 == 0, applications });
    }
    Inputs::new(plan_inputs, entries).expect("valid inputs")
}

/// The size measured: (applications, plans).
fn size() -> (usize, usize) {
    let applications = std::env::var("VMARKET_BENCH_APPLICATIONS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(100_000);
    (applications, (applications / 200).max(5))
}

fn report(step: &str, started: Instant) -> f64 {
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let (applications, plans) = size();
    println!("BENCH step={step} applications={applications} plans={plans} ms={ms:.1}");
    ms
}

#[test]
#[ignore = "volume measurement; run by bench/lottery"]
fn lottery_draw_at_100k_applications() {
    let (applications, plans) = size();
    let started = Instant::now();
    let inputs = volume_inputs(applications, plans);
    report("build_inputs", started);
    assert_eq!(inputs.application_count(), applications);

    let seed = Seed::generate();
    let started = Instant::now();
    let result = draw(&seed, &inputs);
    report("draw", started);
    let winners = result.winners().count();
    println!("BENCH info winners={winners} entries={}", inputs.entries().len());
    assert!(winners <= plans * 20);

    // What `vmarket lottery verify` does with the published text: parse, digest, draw, compare.
    let text = inputs.canonical();
    let seed_hex = seed.to_hex();
    let started = Instant::now();
    let verified = verify(&Published {
        seed: &seed_hex,
        seed_hash: &result.seed_hash,
        inputs: &text,
        inputs_digest: &result.inputs_digest,
        result_digest: &result.digest,
    })
    .expect("the draw verifies");
    report("verify", started);
    println!("BENCH info inputs_bytes={}", text.len());
    assert_eq!(verified, result);
}

/// The same volume on the database (SQLite, or PostgreSQL with `VMARKET_TEST_DATABASE_URL`):
/// 500 plans, 33,334 entries of as many circles (each with its owner, a user with a mail
/// address), 100,000 applications inserted in bulk (not measured), then commit, preview (load
/// the inputs, draw, store them and the summary), publish (claim, load again, draw, write every
/// status, the owed result mails and the published file in one transaction), the result mails
/// (the `SendLotteryResults` job: render and store one mail per entry in batches, enqueue their
/// delivery), the published file as the API serves it, and verify (recompute, compare with
/// every stored status), each measured.
#[rocket::async_test]
#[ignore = "volume measurement; run by bench/lottery"]
async fn lottery_publish_at_100k_applications_on_the_database() {
    use chrono::Duration;
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set};
    use vmarket::db::entities::user::{Role, UserAttribute};
    use vmarket::db::entities::{circle, event_entry, event_entry_application, event_entry_plan, user};
    use vmarket::model::entry_status::{LotteryRound, LotteryStatus};
    use vmarket::model::lottery as runs;
    use vmarket::model::phase::PhaseType;

    let app = crate::support::TestApp::new().await;
    let ev = app.entry_event("BenchFair").await;
    let now = app.clock.now();
    let db = &app.db;
    let template = event_entry_plan::Entity::find_by_id(ev.plans[0]).one(db).await.unwrap().unwrap();
    let (applications, plan_count) = size();
    let extra: Vec<event_entry_plan::ActiveModel> = (ev.plans.len()..plan_count)
        .map(|i| event_entry_plan::ActiveModel {
            event_id: Set(ev.id),
            world_id: Set(template.world_id),
            exhibition_category: Set(template.exhibition_category),
            name_ja: Set(format!("ブース{i}")),
            name_en: Set(format!("Booth {i}")),
            maximum: Set(20),
            fee: Set(5000),
            preview_world_launch_url: Set(None),
            display_order: Set(i as i32),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        })
        .collect();
    event_entry_plan::Entity::insert_many(extra).exec(db).await.unwrap();
    let plan_ids: Vec<i32> = event_entry_plan::Entity::find()
        .filter(event_entry_plan::Column::EventId.eq(ev.id))
        .order_by_asc(event_entry_plan::Column::Id)
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(plan_ids.len(), plan_count);

    let inputs = volume_inputs(applications, plan_count);
    let started = Instant::now();
    // One owner per circle, half of them English-speaking: every entry gets its result mail.
    let first_owner = user::Entity::find().count(db).await.unwrap() as usize;
    for chunk in inputs.entries().chunks(1000) {
        let owners: Vec<user::ActiveModel> = chunk
            .iter()
            .map(|e| user::ActiveModel {
                sub: Set(format!("bench-{}", e.id)),
                vmarket_id: Set(format!("bench_{}", e.id)),
                name_ja: Set(format!("ベンチ{}", e.id)),
                name_en: Set(format!("Bench {}", e.id)),
                icon_version: Set(0),
                icon_key: Set(None),
                memo: Set(None),
                score: Set(0),
                role: Set(Role::None),
                attribute: Set(UserAttribute::None),
                min_token_generation: Set(0),
                email: Set(Some(format!("bench{}@example.com", e.id))),
                lang: Set(if e.id % 2 == 0 { "en" } else { "ja" }.into()),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            })
            .collect();
        user::Entity::insert_many(owners).exec(db).await.unwrap();
    }
    let owner_ids: Vec<i32> = user::Entity::find()
        .order_by_asc(user::Column::Id)
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.id)
        .skip(first_owner)
        .collect();
    assert_eq!(owner_ids.len(), inputs.entries().len());
    for (chunk, owners) in inputs.entries().chunks(1000).zip(owner_ids.chunks(1000)) {
        let circles: Vec<circle::ActiveModel> = chunk
            .iter()
            .zip(owners)
            .map(|(e, &owner)| circle::ActiveModel {
                name_ja: Set(format!("ベンチ{}", e.id)),
                name_en: Set(format!("Bench {}", e.id)),
                description_ja: Set(String::new()),
                description_en: Set(String::new()),
                thumbnail: Set(None),
                thumbnail_key: Set(None),
                website_link: Set(None),
                is_suspended: Set(false),
                owner_user_id: Set(Some(owner)),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            })
            .collect();
        circle::Entity::insert_many(circles).exec(db).await.unwrap();
    }
    let circle_ids: Vec<i32> = circle::Entity::find()
        .order_by_asc(circle::Column::Id)
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    let circle_ids = &circle_ids[circle_ids.len() - inputs.entries().len()..];
    for (chunk, circles) in inputs.entries().chunks(1000).zip(circle_ids.chunks(1000)) {
        let entries: Vec<event_entry::ActiveModel> = chunk
            .iter()
            .zip(circles)
            .map(|(e, &circle_id)| event_entry::ActiveModel {
                event_id: Set(ev.id),
                circle_id: Set(circle_id),
                is_multiple_win: Set(e.multiple_win),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            })
            .collect();
        event_entry::Entity::insert_many(entries).exec(db).await.unwrap();
    }
    let entry_ids: Vec<i32> = event_entry::Entity::find()
        .filter(event_entry::Column::EventId.eq(ev.id))
        .order_by_asc(event_entry::Column::Id)
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect();
    let rows: Vec<event_entry_application::ActiveModel> = inputs
        .entries()
        .iter()
        .zip(&entry_ids)
        .flat_map(|(e, &entry_id)| {
            let plan_ids = &plan_ids;
            e.applications.iter().map(move |a| event_entry_application::ActiveModel {
                entry_id: Set(entry_id),
                plan_id: Set(plan_ids[a.plan_id as usize - 1]),
                choice: Set(i32::from(a.choice)),
                lottery_status: Set(LotteryStatus::Applied),
                use_amp: Set(false),
                amp_id: Set(None),
                free_submission: Set(false),
                won_round: Set(None),
                fee_at_draw: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            })
        })
        .collect();
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<_> = rows.by_ref().take(2000).collect();
        event_entry_application::Entity::insert_many(chunk).exec(db).await.unwrap();
    }
    println!(
        "BENCH info backend={:?} insert_ms={:.0}",
        db.get_database_backend(),
        started.elapsed().as_secs_f64() * 1000.0
    );

    let at = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    let started = Instant::now();
    runs::commit(db, ev.id, LotteryRound::First, None, at).await.unwrap();
    report("db_commit", started);
    let started = Instant::now();
    let preview = runs::preview(db, ev.id, LotteryRound::First, at).await.unwrap();
    report("db_preview", started);
    assert_eq!(preview.outcomes.len(), applications);
    let started = Instant::now();
    let published = runs::publish(db, ev.id, LotteryRound::First, at).await.unwrap();
    report("db_publish", started);
    let runs::Publication::Applied { run_id, result_mails, .. } = published else { panic!("published") };
    assert_eq!(result_mails, inputs.entries().len());

    // The result mails, as the workers send them after the publication: one rendered (subject,
    // text, HTML) and stored mail per entry, in batches, and their delivery enqueued.
    let ctx = vmarket::queue::JobContext::new(db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    let started = Instant::now();
    let sent = vmarket::jobs::SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx).await.unwrap();
    report("db_result_mails", started);
    assert_eq!(sent.mails, inputs.entries().len());
    println!("BENCH info result_mails={}", sent.mails);

    let run = runs::run_of(db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    let started = Instant::now();
    let file = vmarket::model::lottery_results::published_file(db, &run, "BenchFair").await.unwrap().unwrap();
    report("db_result_file", started);
    println!("BENCH info result_file_bytes={}", file.len());

    let started = Instant::now();
    let checked = runs::verify_published(db, ev.id, LotteryRound::First).await.unwrap();
    report("db_verify", started);
    assert!(checked.mismatches.is_empty());
    assert_eq!(checked.draw.winners().count(), preview.winners().count());
}
