//! Lottery runs on the database (DOMAIN.md "The lottery"): commit, preview (nothing changes),
//! publish (statuses change once, even when two publishes race), verify from the published
//! seed and inputs (and refuse a tampered list), and the second round on freed slots.

use chrono::Duration;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, Set};
use vmarket::db::entities::lottery_run::LotteryRunState;
use vmarket::db::entities::{circle, event_entry, event_entry_application};
use vmarket::lottery::{Seed, sha256_hex};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::{LotteryRound, LotteryStatus};
use vmarket::model::lottery::{self, Publication};
use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::settle;

use crate::support::TestApp;

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

/// Application id → (status, won round, fee at draw) of every application of `entries`.
async fn statuses(app: &TestApp, entries: &[i32]) -> Vec<(i32, LotteryStatus, Option<LotteryRound>, Option<i32>)> {
    let mut rows = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.is_in(entries.iter().copied()))
        .all(&app.db)
        .await
        .unwrap();
    rows.sort_by_key(|a| a.id);
    rows.into_iter().map(|a| (a.id, a.lottery_status, a.won_round, a.fee_at_draw)).collect()
}

/// `n` circles of one owner, each entering `plans` as its wishes; returns the entry ids.
async fn entries(app: &TestApp, event_id: i32, n: usize, plans: &[i32]) -> (Vec<i32>, Vec<i32>) {
    let owner = app.user("lottery_owner").await;
    let now = app.clock.now();
    let (mut ids, mut circles) = (Vec::new(), Vec::new());
    for i in 0..n {
        let circle = app.create_circle(&owner, &format!("抽選サークル{i}")).await["id"].as_i64().unwrap() as i32;
        let entry = event_entry::Model::apply(&app.db, event_id, circle, owner.user.id, wishes(plans), now)
            .await
            .expect("applied");
        ids.push(entry.id);
        circles.push(circle);
    }
    (ids, circles)
}

#[rocket::async_test]
async fn a_published_draw_applies_once_and_verifies_from_its_seed_and_inputs() {
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("DrawFair").await;
    // Four circles want the square booth (2 slots, 8,000 JPY); a fifth, suspended, wants it too.
    let (entry_ids, circles) = entries(&app, ev.id, 5, &ev.plans[..1]).await;
    let mut suspended = circle::Entity::find_by_id(circles[4]).one(&app.db).await.unwrap().unwrap().into_active_model();
    suspended.is_suspended = Set(true);
    suspended.update(&app.db).await.unwrap();
    let now = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);

    assert_eq!(
        lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap_err().code(),
        "lottery_not_committed"
    );
    let run = lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    assert_eq!(run.state, LotteryRunState::Committed);
    assert_eq!(run.seed, None, "the seed stays secret until published");
    let again = lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    assert_eq!(again.seed_hash, run.seed_hash, "committing again keeps the committed seed");
    assert_eq!(
        lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap_err().code(),
        "lottery_not_previewed"
    );

    let before = statuses(&app, &entry_ids).await;
    let preview = lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap();
    assert_eq!(preview.outcomes.len(), 4, "the suspended circle's wish is left out");
    assert_eq!(preview.winners().count(), 2);
    assert_eq!(statuses(&app, &entry_ids).await, before, "a preview changes no status");
    let previewed = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    assert_eq!((previewed.state, previewed.seed.as_deref()), (LotteryRunState::Preview, None));

    // Two publishes at once: one applies, the other finds it done.
    let (a, b) = tokio::join!(
        lottery::publish(&app.db, ev.id, LotteryRound::First, now),
        lottery::publish(&app.db, ev.id, LotteryRound::First, now)
    );
    let results = [a.unwrap(), b.unwrap()];
    let applied: Vec<_> = results.iter().filter(|r| matches!(r, Publication::Applied { .. })).collect();
    assert_eq!(applied.len(), 1, "{results:?}");
    assert!(results.contains(&Publication::AlreadyPublished));
    let Publication::Applied { draw, incorrect, .. } = applied[0] else { unreachable!() };
    assert_eq!(draw, &preview, "publish applies what staff previewed");

    let after = statuses(&app, &entry_ids).await;
    let winners: Vec<i64> = draw.winners().map(|o| o.application_id).collect();
    for (id, status, round, fee) in &after {
        if winners.contains(&i64::from(*id)) {
            assert_eq!((*status, *round, *fee), (LotteryStatus::FirstWin, Some(LotteryRound::First), Some(8000)));
        } else if incorrect.contains(id) {
            assert_eq!((*status, *round), (LotteryStatus::Incorrect, None));
        } else {
            assert_eq!((*status, *round), (LotteryStatus::FirstLost, None));
        }
    }
    assert_eq!(incorrect.len(), 1);
    assert_eq!(after.iter().filter(|s| s.1 == LotteryStatus::FirstLost).count(), 2);

    // Published: the seed is revealed and matches the hash committed before the draw.
    let published = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    assert_eq!(published.state, LotteryRunState::Published);
    let seed = Seed::from_hex(published.seed.as_deref().expect("revealed")).unwrap();
    assert_eq!(seed.hash(), run.seed_hash);
    assert_eq!(sha256_hex(published.inputs.as_deref().unwrap().as_bytes()), published.inputs_digest.clone().unwrap());

    // Publishing again changes nothing.
    assert_eq!(
        lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap(),
        Publication::AlreadyPublished
    );
    assert_eq!(statuses(&app, &entry_ids).await, after);
    assert_eq!(
        lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap_err().code(),
        "lottery_published"
    );

    // Verify: the same winners from the published seed and inputs, every status agreeing.
    let checked = lottery::verify_published(&app.db, ev.id, LotteryRound::First).await.unwrap();
    assert_eq!(checked.draw.winners().map(|o| o.application_id).collect::<Vec<_>>(), winners);
    assert!(checked.mismatches.is_empty());

    // A tampered input list (one more slot on the plan) no longer verifies.
    let honest = published.inputs.clone().unwrap();
    let line = format!("plan {} 2\n", ev.plans[0]);
    assert!(honest.contains(&line), "{honest}");
    let mut tampered = published.clone().into_active_model();
    tampered.inputs = Set(Some(honest.replace(&line, &format!("plan {} 3\n", ev.plans[0]))));
    tampered.update(&app.db).await.unwrap();
    let refused = lottery::verify_published(&app.db, ev.id, LotteryRound::First).await.unwrap_err();
    assert!(refused.to_string().contains("inputs digest"), "{refused}");
    let mut restored = published.clone().into_active_model();
    restored.inputs = Set(Some(honest));
    restored.update(&app.db).await.unwrap();

    // A status changed behind the draw's back is reported.
    let loser = after.iter().find(|s| s.1 == LotteryStatus::FirstLost).unwrap().0;
    let mut forged =
        event_entry_application::Entity::find_by_id(loser).one(&app.db).await.unwrap().unwrap().into_active_model();
    forged.lottery_status = Set(LotteryStatus::FirstWin);
    forged.won_round = Set(Some(LotteryRound::First));
    forged.update(&app.db).await.unwrap();
    let checked = lottery::verify_published(&app.db, ev.id, LotteryRound::First).await.unwrap();
    assert_eq!(checked.mismatches, [i64::from(loser)]);
}

/// The entry of application `id` and its circle's owner.
async fn owner_of(app: &TestApp, id: i32) -> (i32, i32) {
    let entry = event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap().entry_id;
    let circle = event_entry::Entity::find_by_id(entry).one(&app.db).await.unwrap().unwrap().circle_id;
    (entry, circle::Entity::find_by_id(circle).one(&app.db).await.unwrap().unwrap().owner_user_id.unwrap())
}

#[rocket::async_test]
async fn the_second_draw_offers_the_freed_slots_to_first_losers() {
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("SecondFair").await;
    let (entry_ids, _) = entries(&app, ev.id, 4, &ev.plans[..1]).await;
    let first_draw = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    assert_eq!(
        lottery::commit(&app.db, ev.id, LotteryRound::Second, None, first_draw).await.unwrap_err().code(),
        "lottery_first_round_unpublished"
    );
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, first_draw).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, first_draw).await.unwrap();
    lottery::publish(&app.db, ev.id, LotteryRound::First, first_draw).await.unwrap();
    let first = statuses(&app, &entry_ids).await;
    let won: Vec<i32> = first.iter().filter(|s| s.1 == LotteryStatus::FirstWin).map(|s| s.0).collect();
    let lost: Vec<i32> = first.iter().filter(|s| s.1 == LotteryStatus::FirstLost).map(|s| s.0).collect();
    assert_eq!((won.len(), lost.len()), (2, 2));

    // In the first payment window one winner pays and the other declines, through their real
    // paths (a settled payment, the owner's decline): one slot is free for the two first losers.
    let pay_at = ev.at(PhaseType::FirstPaymentStart) + Duration::hours(1);
    let (entry, owner) = owner_of(&app, won[0]).await;
    let payable = Payable::load(&app.db, won[0], owner, pay_at).await.unwrap();
    let attempt = open_order(&app.db, &payable, owner, PaymentType::Stripe, pay_at).await.unwrap();
    let mailer = vmarket::mail::Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, attempt.id, "pi_second_draw", pay_at).await.unwrap();
    assert_ne!(entry, owner_of(&app, won[1]).await.0);
    let (entry, owner) = owner_of(&app, won[1]).await;
    event_entry::Model::decline(&app.db, entry, won[1], owner, pay_at).await.unwrap();
    let second_draw = ev.at(PhaseType::SecondLotteryStart) + Duration::hours(1);
    lottery::commit(&app.db, ev.id, LotteryRound::Second, None, second_draw).await.unwrap();
    let preview = lottery::preview(&app.db, ev.id, LotteryRound::Second, second_draw).await.unwrap();
    let mut considered: Vec<i64> = preview.outcomes.iter().map(|o| o.application_id).collect();
    considered.sort();
    assert_eq!(considered, lost.iter().map(|&id| i64::from(id)).collect::<Vec<_>>(), "only the first losers");
    let run = lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().unwrap();
    assert!(run.inputs.unwrap().contains(&format!("plan {} 1\n", ev.plans[0])), "one freed slot");
    lottery::publish(&app.db, ev.id, LotteryRound::Second, second_draw).await.unwrap();

    let second = statuses(&app, &entry_ids).await;
    let status_of = |id: i32| *second.iter().find(|s| s.0 == id).unwrap();
    assert_eq!(status_of(won[0]).1, LotteryStatus::Paid);
    assert_eq!(status_of(won[1]).1, LotteryStatus::Decline);
    let mut outcomes: Vec<(LotteryStatus, Option<LotteryRound>)> =
        lost.iter().map(|&id| (status_of(id).1, status_of(id).2)).collect();
    outcomes.sort_by_key(|o| o.0.as_str());
    assert_eq!(
        outcomes,
        [(LotteryStatus::SecondLost, None), (LotteryStatus::SecondWin, Some(LotteryRound::Second))],
        "one of the two first losers gets the freed slot"
    );
    let checked = lottery::verify_published(&app.db, ev.id, LotteryRound::Second).await.unwrap();
    assert!(checked.mismatches.is_empty());
}

/// Runs `vmarket lottery …args` against `app`'s database, as staff do on the site's machine.
fn cli(app: &TestApp, data: &std::path::Path, args: &[&str]) -> (bool, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_vmarket"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("ROCKET_")) {
        cmd.env_remove(key);
    }
    let output = cmd
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("lottery")
        .args(args)
        .env("ROCKET_DATABASE_URL", &app.config.database_url)
        .env("ROCKET_DATA_DIR", data)
        .output()
        .expect("the binary runs");
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[rocket::async_test]
async fn the_command_line_draws_a_round_only_from_its_window_on_by_the_sites_clock() {
    // The binary reads the system clock: the event's phases are placed around the real now.
    let real_now = chrono::Utc::now();
    let app = TestApp::builder().empty().live().at(real_now).build().await;
    let ev = app.entry_event("CliFair").await;
    entries(&app, ev.id, 3, &ev.plans[..1]).await;
    let data = tempfile::tempdir().unwrap();
    let round = |action: &'static str, round: &'static str| [action, "--event", "CliFair", "--round", round];

    // Committing may come before the window; drawing may not.
    let (ok, out) = cli(&app, data.path(), &round("commit", "first"));
    assert!(ok, "{out}");
    let opens = ev.at(PhaseType::FirstLotteryStart);
    for action in ["preview", "publish"] {
        let (ok, out) = cli(&app, data.path(), &round(action, "first"));
        assert!(!ok, "{action} before the window: {out}");
        let expected = format!(
            "the first lottery window of CliFair opens at {} JST ({})",
            vmarket::i18n::tera::format_jst(opens, true),
            opens.format("%Y-%m-%dT%H:%M:%SZ")
        );
        assert!(out.contains(&expected) && out.contains("the site's clock says"), "{out}");
    }
    assert_eq!(
        lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap().state,
        LotteryRunState::Committed
    );

    // Staff travel into the window (the console stores the offset): the command follows the site.
    let offset = opens - chrono::Utc::now() + Duration::hours(1);
    vmarket::model::time_travel::store(&app.db, offset, 0, chrono::Utc::now()).await.unwrap();
    let (ok, out) = cli(&app, data.path(), &round("preview", "first"));
    assert!(ok && out.contains("2 winners of 3 applications"), "{out}");
    let (ok, out) = cli(&app, data.path(), &round("publish", "first"));
    assert!(ok && out.contains("published CliFair First round"), "{out}");

    // The second round's window is still ahead on the travelled clock; an event without a second
    // lottery has none at all.
    let (ok, out) = cli(&app, data.path(), &round("preview", "second"));
    assert!(!ok && out.contains("the second lottery window of CliFair opens at"), "{out}");
    assert!(out.contains("time travel included"), "{out}");
    let single = app.entry_event("OneDrawFair").await;
    vmarket::db::entities::event_phase::Entity::delete_many()
        .filter(vmarket::db::entities::event_phase::Column::EventId.eq(single.id))
        .filter(vmarket::db::entities::event_phase::Column::PhaseType.eq(PhaseType::SecondLotteryStart))
        .exec(&app.db)
        .await
        .unwrap();
    let (ok, out) = cli(&app, data.path(), &["preview", "--event", "OneDrawFair", "--round", "second"]);
    assert!(!ok && out.contains("OneDrawFair has no second lottery"), "{out}");
}

/// Issue 12, audit item 2: a preview that read the run before a publication committed must not
/// write its state back over the publication. The publication holds its transaction open (its
/// claim of the run written, not committed) while a preview on another connection reads the run
/// (still `preview` to it), draws, and reaches its write; then the publication commits. The
/// preview must find the run published (409 `lottery_published`) and leave it so — before the
/// fix it wrote `preview` and new digests over it by primary key, so the results were gone and
/// publishing again failed.
#[rocket::async_test]
async fn a_preview_racing_a_publication_never_reverts_it() {
    use sea_orm::TransactionTrait;
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("RaceFair").await;
    entries(&app, ev.id, 3, &ev.plans[..1]).await;
    let now = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap();
    let previewed = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();

    let publication = app.db.begin().await.unwrap();
    let applied = lottery::publish(&publication, ev.id, LotteryRound::First, now).await.unwrap();
    assert!(matches!(applied, Publication::Applied { .. }));
    let db = app.db.clone();
    let event_id = ev.id;
    let preview = tokio::spawn(async move { lottery::preview(&db, event_id, LotteryRound::First, now).await });
    // Control: the preview is still waiting for the publication's lock after it had ample time
    // to read and draw (three applications), so it read the run before the publication
    // committed: the interleaving this test is about did happen.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert!(!preview.is_finished(), "the preview waits for the publication's lock");
    publication.commit().await.unwrap();
    let outcome = preview.await.unwrap();
    assert_eq!(outcome.map(|_| ()).unwrap_err().code(), "lottery_published");

    let run = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    assert_eq!(run.state, LotteryRunState::Published, "the publication stands");
    assert_eq!((&run.inputs, &run.result_digest), (&previewed.inputs, &previewed.result_digest));
    assert!(run.seed.is_some());
    assert!(lottery::verify_published(&app.db, ev.id, LotteryRound::First).await.unwrap().mismatches.is_empty());
    let (status, _) = app.get_json("/api/v1/RaceFair/lottery_results/first").await;
    assert_eq!(status, 200, "the published file is served");
    assert_eq!(
        lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap(),
        Publication::AlreadyPublished
    );
}

/// Issue 12, audit item 4: two commits of one round racing — another commit (the CLI, the clock
/// job, a second console tab) has inserted the run and not committed yet when the console's
/// commit runs. The console's commit waits for it and answers 409 `lottery_already_committed`;
/// the run keeps the other's seed. On PostgreSQL the unique key fired inside the console's
/// transaction and the code then queried in the aborted transaction: a 500.
#[rocket::async_test]
async fn racing_console_commits_answer_one_run_and_a_conflict() {
    use sea_orm::TransactionTrait;
    use vmarket::model::user::Role;
    let app = TestApp::builder().live().build().await;
    let admin = app.as_staff(Role::Admin).await;
    let ev = app.entry_event("CommitRace").await;
    let now = app.clock.now();
    let body = serde_json::json!({"event_id": ev.id, "round": "first"});

    let other = app.db.begin().await.unwrap();
    let theirs = lottery::commit(&other, ev.id, LotteryRound::First, None, now).await.unwrap();
    let committed_at = std::cell::Cell::new(None);
    let console = async {
        let res = app
            .request_as(
                &admin,
                crate::support::actors::Via::Bearer,
                rocket::http::Method::Post,
                "/admin/api/lottery_runs?lang=en",
                Some(&body),
            )
            .await;
        let status = res.status().code;
        let answered = std::time::Instant::now();
        let body: serde_json::Value = serde_json::from_str(&res.into_string().await.unwrap()).unwrap();
        (status, body, answered)
    };
    let commit_other = async {
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
        committed_at.set(Some(std::time::Instant::now()));
        other.commit().await.unwrap();
    };
    let ((status, answer, answered), ()) = tokio::join!(console, commit_other);
    // Control: the console answered only after the other commit was released, so it really ran
    // into the other's uncommitted run.
    assert!(answered > committed_at.get().unwrap(), "the console's commit waited for the other");
    assert_eq!((status, answer["code"].as_str()), (409, Some("lottery_already_committed")), "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("already committed"), "{answer}");
    let run = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    assert_eq!(run.seed_hash, theirs.seed_hash, "the first commitment stands");

    // Two console commits of another event at once, a few times: one run, one 201, one 409.
    for i in 0..3 {
        let ev = app.entry_event(&format!("CommitRace{i}")).await;
        let body = serde_json::json!({"event_id": ev.id, "round": "first"});
        let send = || {
            app.request_as(
                &admin,
                crate::support::actors::Via::Bearer,
                rocket::http::Method::Post,
                "/admin/api/lottery_runs",
                Some(&body),
            )
        };
        let (a, b) = tokio::join!(send(), send());
        let mut statuses = [a.status().code, b.status().code];
        statuses.sort();
        assert_eq!(statuses, [201, 409], "round {i}");
        let runs = vmarket::db::entities::lottery_run::Entity::find()
            .filter(vmarket::db::entities::lottery_run::Column::EventId.eq(ev.id))
            .all(&app.db)
            .await
            .unwrap();
        assert_eq!(runs.len(), 1);
    }
}

/// Issue 12, audit item 9: `vmarket lottery verify --help` names the address the event page
/// links the published file from (`/api/v1/{event}/lottery_results/{round}`, the route that
/// serves it: `lottery_jobs::the_event_page_shows_the_commitment_then_a_draw_anyone_can_verify`).
#[test]
fn the_verify_help_names_the_published_files_address() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_vmarket"))
        .args(["lottery", "verify", "--help"])
        .output()
        .expect("the binary runs");
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("/api/v1/{event}/lottery_results/{round}"), "{help}");
    assert!(!help.contains("lottery_runs"), "{help}");
}
