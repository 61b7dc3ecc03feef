//! The lottery as background jobs (issue 12): preview and publish through the job queue, the
//! result mails of a publication (a real SMTP server, each owner's language), statuses that
//! follow time (the clock job's sweep and the automatic second round, over time-travelled
//! phases: every arrow of DOMAIN.md's status diagram that time makes, and the arrows that must
//! not exist), and the public event page with its downloadable, verifiable draw.

use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, PaginatorTrait, QueryFilter, Set};
use serde_json::Value;
use vmarket::db::entities::lottery_run::LotteryRunState;
use vmarket::db::entities::{
    circle, event_entry, event_entry_application, event_phase, lottery_result_file, lottery_result_mail, mail,
};
use vmarket::i18n::tera::format_jst;
use vmarket::jobs::{LotteryClock, PreviewLottery, PublishLottery, SendLotteryResults};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::{LotteryRound, LotteryStatus};
use vmarket::model::lottery::{self, Publication};
use vmarket::model::lottery_mails;
use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::{Settlement, settle};
use vmarket::queue::JobContext;
use vmarket::types::Lang;

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::entries::EntryEvent;
use crate::support::smtp_sink::{self, SmtpSink};

/// A circle named `name` of `owner` entering `plan` as its one wish; (circle id, application id).
async fn enter(app: &TestApp, ev: &EntryEvent, owner: &Actor<'_>, name: &str, plan: i32) -> (i32, i32) {
    let circle = app.create_circle(owner, name).await["id"].as_i64().unwrap() as i32;
    let change = EntryChange {
        is_multiple_win: false,
        wishes: vec![Wish { choice: 1, plan_id: plan, options: AmpOptions::default() }],
        agreed_terms: None,
    };
    let entry = event_entry::Model::apply(&app.db, ev.id, circle, owner.user.id, change, app.clock.now())
        .await
        .expect("applied");
    let application = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry.id))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    (circle, application.id)
}

/// The stored status of application `id`.
async fn stored(app: &TestApp, id: i32) -> LotteryStatus {
    event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap().lottery_status
}

/// The payer `payer` pays application `id` now, through the model's real path: an attempt
/// opened as the payment page opens it, then settled as a capture, a webhook or a reconcile
/// settles it (`model::payment::settle`).
async fn pay(app: &TestApp, id: i32, payer: i32) {
    let now = app.clock.now();
    let payable = Payable::load(&app.db, id, payer, now).await.expect("payable now");
    let attempt = open_order(&app.db, &payable, payer, PaymentType::Stripe, now).await.unwrap();
    let mailer = vmarket::mail::Mailer::new(&app.config).unwrap();
    let settled = settle(&app.db, &mailer, attempt.id, &format!("pi_status_{id}"), now).await.unwrap();
    assert!(matches!(settled.outcome, Settlement::Settled(_)), "{settled:?}");
}

/// The owner `owner` declines the won application `id` through the user API, as the entry
/// history's confirmation page does.
async fn decline(app: &TestApp, owner: &mut Actor<'_>, id: i32) {
    let entry = event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap().entry_id;
    owner.renew().await;
    let path = format!("/api/v1/user/event_entries/{entry}/applications/{id}/decline");
    let (status, body) = owner.put_json(&path, &Value::Null).await;
    assert_eq!(status, 200, "{body}");
}

/// Waits up to 30 s for `check` to hold.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + StdDuration::from_secs(30);
    while !check().await {
        assert!(Instant::now() < deadline, "{what} within 30 s");
        tokio::time::sleep(StdDuration::from_millis(100)).await;
    }
}

fn context(app: &TestApp) -> JobContext {
    JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).expect("job context")
}

#[rocket::async_test]
async fn publishing_through_the_queue_mails_every_owner_the_result_in_their_language() {
    let Some(python) = smtp_sink::python() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let port = sink.port;
    let app = TestApp::builder()
        .empty()
        .live()
        .config(move |c| {
            c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into();
            c.job_poll_interval_ms = 50;
        })
        .build()
        .await;
    let ev = app.entry_event("MailFair").await;
    let ja = app.user("lottery_mail_ja").await;
    let en = app.user("lottery_mail_en").await;
    en.user.set_lang(&app.db, Lang::En).await.unwrap();
    // Three circles want the square booth (2 slots, 8,000 JPY): two win, one loses.
    let mut applications = Vec::new();
    for (owner, name) in [(&ja, "あかり工房"), (&en, "Lantern Works"), (&en, "Star <Club>")] {
        applications.push((owner, name, enter(&app, &ev, owner, name, ev.plans[0]).await.1));
    }
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    let ctx = context(&app);
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, app.clock.now()).await.unwrap();

    // Preview and publish as the console and the CLI trigger them: jobs on the queue.
    let workers = app.start_workers().await;
    let job = PreviewLottery { event_id: ev.id, round: LotteryRound::First };
    job.enqueue(&ctx.queue, app.clock.now()).await.unwrap();
    job.enqueue(&ctx.queue, app.clock.now()).await.unwrap();
    eventually("the preview job", || async {
        lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap().state == LotteryRunState::Preview
    })
    .await;
    let publish = PublishLottery { event_id: ev.id, round: LotteryRound::First };
    publish.enqueue(&ctx.queue, app.clock.now()).await.unwrap();
    eventually("three result mails", || async { sink.received().len() >= 3 }).await;
    // Publishing again (inline, as the CLI does) changes nothing and mails nobody.
    assert_eq!(publish.run_now(&ctx).await.unwrap(), Publication::AlreadyPublished);
    workers.stop().await;
    assert_eq!(mail::Entity::find().count(&app.db).await.unwrap(), 3, "one mail per entry, once");
    assert_eq!(sink.received().len(), 3);

    let mails: Vec<(String, String, String, String, String)> = sink
        .received()
        .iter()
        .map(|r| {
            let m = mail_parser::MessageParser::default().parse(&r.raw).expect("a message");
            let to = r.envelope["rcpt_tos"][0].as_str().unwrap().to_string();
            let lang = m.header_raw("Content-Language").unwrap_or_default().trim().to_string();
            let text = m.body_text(0).unwrap_or_default().replace("\r\n", "\n");
            let html = m.body_html(0).unwrap_or_default().to_string();
            (to, lang, m.subject().unwrap_or_default().to_string(), text, html)
        })
        .collect();
    let mut won = 0;
    for (owner, name, application) in applications {
        let lang = if owner.user.id == ja.user.id { Lang::Ja } else { Lang::En };
        let mail = mails
            .iter()
            .find(|m| m.3.contains(&format!("「{name}」")) || m.3.contains(&format!("\"{name}\"")))
            .unwrap_or_else(|| panic!("a mail about {name}: {mails:?}"));
        assert_eq!(&mail.0, owner.user.email.as_ref().unwrap(), "to the circle's owner");
        assert_eq!(mail.1, lang.code(), "in the owner's language");
        let link = format!("{}{}/mypage/entry_history/MailFair/apply", app.origin, lang.prefix());
        assert!(mail.3.contains(&format!("{link}\n")), "{}", mail.3);
        assert!(mail.4.contains(&format!("<a href=\"{link}\"")), "{}", mail.4);
        match stored(&app, application).await {
            LotteryStatus::FirstWin => {
                won += 1;
                let deadline = format_jst(ev.at(PhaseType::FirstPaymentEnd), true);
                let (subject, plan, fee) = match lang {
                    Lang::Ja => {
                        ("当選しました", "当選したプラン：広場ブース（ワールド：灯りの広場）", "出展料：8,000円")
                    }
                    Lang::En => ("you won a slot", "Plan won: Square booth (world: Lantern Square)", "8,000 JPY"),
                };
                assert!(mail.2.contains(subject), "{}", mail.2);
                for part in [plan, fee, deadline.as_str()] {
                    assert!(mail.3.contains(part), "{part} in {}", mail.3);
                }
            }
            LotteryStatus::FirstLost => {
                let second = format_jst(ev.at(PhaseType::SecondLotteryStart), true);
                let next = match lang {
                    Lang::Ja => "第2次抽選で改めて抽選します",
                    Lang::En => "drawn again in a second draw",
                };
                assert!(!mail.2.contains("当選しました") && !mail.2.contains("you won"), "{}", mail.2);
                assert!(mail.3.contains(next) && mail.3.contains(&second), "{}", mail.3);
            }
            other => panic!("{name}: {other:?}"),
        }
        if name.contains('<') {
            assert!(mail.4.contains("Star &lt;Club&gt;"), "names are escaped in HTML");
        }
    }
    assert_eq!(won, 2);
}

#[rocket::async_test]
async fn statuses_follow_the_clock_and_the_second_round_starts_by_itself() {
    // No demo data: the sweep's counts are this event's alone.
    let app = TestApp::builder().empty().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let ev = app.entry_event("ClockFair").await;
    let mut owner = app.user("clock_owner").await;
    let mut square = Vec::new();
    for i in 0..4 {
        square.push(enter(&app, &ev, &owner, &format!("時計工房{i}"), ev.plans[0]).await.1);
    }
    let free = enter(&app, &ev, &owner, "無料工房", ev.plans[2]).await.1;
    let declining = enter(&app, &ev, &owner, "辞退工房", ev.plans[1]).await.1;
    let (suspended_circle, suspended) = enter(&app, &ev, &owner, "停止工房", ev.plans[1]).await;
    let mut c = circle::Entity::find_by_id(suspended_circle).one(&app.db).await.unwrap().unwrap().into_active_model();
    c.is_suspended = Set(true);
    c.update(&app.db).await.unwrap();
    let ctx = context(&app);
    let tick = || async { LotteryClock::tick(&context(&app)).await.unwrap() };

    // Before any draw, time alone moves nothing: `applied` has no arrow of its own.
    app.clock.set(ev.at(PhaseType::FirstLotteryEnd) + Duration::hours(1));
    assert_eq!(tick().await.swept.applications, 0);
    assert_eq!(stored(&app, square[0]).await, LotteryStatus::Applied);

    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, app.clock.now()).await.unwrap();
    PreviewLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    PublishLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    let mut winners = Vec::new();
    let mut losers = Vec::new();
    for &id in &square {
        match stored(&app, id).await {
            LotteryStatus::FirstWin => winners.push(id),
            LotteryStatus::FirstLost => losers.push(id),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((winners.len(), losers.len()), (2, 2));
    assert_eq!(stored(&app, free).await, LotteryStatus::Win, "a free plan's win has nothing to pay");
    assert_eq!(stored(&app, declining).await, LotteryStatus::FirstWin);
    assert_eq!(stored(&app, suspended).await, LotteryStatus::Incorrect);
    // In the first payment window one winner pays, one declines (their real paths), one does
    // nothing.
    let (paid, unpaid) = (winners[0], winners[1]);
    app.clock.set(ev.at(PhaseType::FirstPaymentStart) + Duration::hours(1));
    pay(&app, paid, owner.user.id).await;
    decline(&app, &mut owner, declining).await;
    assert_eq!(
        (stored(&app, paid).await, stored(&app, declining).await),
        (LotteryStatus::Paid, LotteryStatus::Decline)
    );

    // The last second of the payment window: nothing lapses, no second round yet.
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd) - Duration::seconds(1));
    let t = tick().await;
    assert_eq!((t.swept.applications, t.rounds.len()), (0, 0));
    assert_eq!(stored(&app, unpaid).await, LotteryStatus::FirstWin);
    assert!(lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().is_none());

    // The window closes. Readers see the lapse at once, before any job runs.
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd));
    owner.renew().await;
    let (status, list) = owner.get_json("/api/v1/user/event_entries").await;
    assert_eq!(status, 200, "{list}");
    assert!(shows(&list, unpaid, "first_win_unpaid"), "{list}");
    assert_eq!(stored(&app, unpaid).await, LotteryStatus::FirstWin, "not written yet");

    // The clock job (started with the workers) writes it and commits the second round: its
    // seed hash is public from now on.
    let workers = app.start_workers().await;
    eventually("the clock job's second round", || async {
        lottery::run_of(&app.db, ev.id, LotteryRound::Second)
            .await
            .unwrap()
            .is_some_and(|r| r.state == LotteryRunState::Committed)
    })
    .await;
    workers.stop().await;
    assert_eq!(stored(&app, unpaid).await, LotteryStatus::FirstWinUnpaid);
    for (id, status) in [
        (paid, LotteryStatus::Paid),
        (declining, LotteryStatus::Decline),
        (free, LotteryStatus::Win),
        (suspended, LotteryStatus::Incorrect),
        (losers[0], LotteryStatus::FirstLost),
        (losers[1], LotteryStatus::FirstLost),
    ] {
        assert_eq!(stored(&app, id).await, status, "no arrow from {status:?} at the first window's close");
    }
    let committed = lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().unwrap();
    assert_eq!(committed.inputs, None, "nothing is drawn before the second round's window");
    assert!(tick().await.rounds.is_empty(), "a second tick changes nothing");

    // The second lottery window opens: the clock draws it for staff, over the freed slots of
    // the first losers.
    app.clock.set(ev.at(PhaseType::SecondLotteryStart));
    let t = tick().await;
    assert!(
        matches!(t.rounds.as_slice(), [vmarket::model::lottery_clock::ClockStep::Previewed { .. }]),
        "{:?}",
        t.rounds
    );
    let second = lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().unwrap();
    assert_eq!((second.state, &second.seed_hash), (LotteryRunState::Preview, &committed.seed_hash));
    let inputs = second.inputs.clone().unwrap();
    assert!(inputs.contains(&format!("plan {} 1\n", ev.plans[0])), "the unpaid slot is free again: {inputs}");
    assert!(inputs.contains(&format!("plan {} 10\n", ev.plans[1])), "so is the declined one: {inputs}");
    let t = tick().await;
    assert_eq!((t.swept.applications, t.rounds.len()), (0, 0), "a second tick changes nothing");
    assert_eq!(lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().unwrap(), second);

    // Staff publish the second round.
    app.clock.set(ev.at(PhaseType::SecondLotteryStart) + Duration::hours(1));
    let published = PublishLottery { event_id: ev.id, round: LotteryRound::Second }.run_now(&ctx).await.unwrap();
    assert!(matches!(published, Publication::Applied { .. }));
    let (second_winner, second_loser) = match (stored(&app, losers[0]).await, stored(&app, losers[1]).await) {
        (LotteryStatus::SecondWin, LotteryStatus::SecondLost) => (losers[0], losers[1]),
        (LotteryStatus::SecondLost, LotteryStatus::SecondWin) => (losers[1], losers[0]),
        other => panic!("one freed slot for two first losers: {other:?}"),
    };

    app.clock.set(ev.at(PhaseType::SecondPaymentEnd) - Duration::seconds(1));
    assert_eq!(tick().await.swept.applications, 0);
    assert_eq!(stored(&app, second_winner).await, LotteryStatus::SecondWin);
    assert_eq!(stored(&app, second_loser).await, LotteryStatus::SecondLost);

    // The second round closes: an unpaid second win lapses, a second loss is final.
    app.clock.set(ev.at(PhaseType::SecondPaymentEnd));
    assert_eq!(tick().await.swept.applications, 2);
    assert_eq!(stored(&app, second_winner).await, LotteryStatus::SecondWinUnpaid);
    assert_eq!(stored(&app, second_loser).await, LotteryStatus::Lost);

    // Long after: every status is terminal; no arrow leaves any of them.
    let all = [paid, unpaid, declining, free, suspended, second_winner, second_loser];
    let mut before = Vec::new();
    for &id in &all {
        before.push(stored(&app, id).await);
    }
    app.clock.set(ev.at(PhaseType::EventClose) + Duration::days(365));
    assert_eq!(tick().await.swept.applications, 0);
    let mut after = Vec::new();
    for &id in &all {
        after.push(stored(&app, id).await);
    }
    assert_eq!(after, before);
    assert_eq!(
        before,
        [
            LotteryStatus::Paid,
            LotteryStatus::FirstWinUnpaid,
            LotteryStatus::Decline,
            LotteryStatus::Win,
            LotteryStatus::Incorrect,
            LotteryStatus::SecondWinUnpaid,
            LotteryStatus::Lost
        ]
    );
}

/// Whether `list` shows application `id` with `status`.
fn shows(list: &Value, id: i32, status: &str) -> bool {
    list["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|e| e["applications"].as_array().into_iter().flatten())
        .any(|a| a["id"].as_i64() == Some(i64::from(id)) && a["lottery_status"] == status)
}

#[rocket::async_test]
async fn without_a_second_round_a_first_loss_is_final_when_the_first_window_closes() {
    let app = TestApp::builder().empty().live().build().await;
    let ev = app.entry_event("OneRoundFair").await;
    event_phase::Entity::delete_many()
        .filter(event_phase::Column::EventId.eq(ev.id))
        .filter(event_phase::Column::PhaseType.is_in([
            PhaseType::SecondLotteryStart,
            PhaseType::SecondLotteryEnd,
            PhaseType::SecondPaymentStart,
            PhaseType::SecondPaymentEnd,
        ]))
        .exec(&app.db)
        .await
        .unwrap();
    let owner = app.user("one_round_owner").await;
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(enter(&app, &ev, &owner, &format!("一回工房{i}"), ev.plans[0]).await.1);
    }
    let ctx = context(&app);
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, app.clock.now()).await.unwrap();
    PreviewLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    PublishLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd));
    let t = LotteryClock::tick(&ctx).await.unwrap();
    assert_eq!((t.swept.applications, t.rounds.len()), (3, 0));
    let mut statuses = Vec::new();
    for &id in &ids {
        statuses.push(stored(&app, id).await);
    }
    statuses.sort_by_key(|s| s.as_str());
    assert_eq!(statuses, [LotteryStatus::FirstWinUnpaid, LotteryStatus::FirstWinUnpaid, LotteryStatus::Lost]);
    assert!(lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().is_none(), "no second round");
}

#[rocket::async_test]
async fn the_event_page_shows_the_commitment_then_a_draw_anyone_can_verify() {
    let app = TestApp::builder().live().build().await;
    let ev = app.entry_event("FairDraw").await;
    let owner = app.user("fair_owner").await;
    for i in 0..3 {
        enter(&app, &ev, &owner, &format!("公開工房{i}"), ev.plans[0]).await;
    }
    let (status, page) = app.page("/FairDraw").await;
    assert_eq!(status, 200);
    assert!(!page.contains("data-testid=\"lottery-fairness\""), "nothing committed, nothing shown");

    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    let run = lottery::commit(&app.db, ev.id, LotteryRound::First, None, app.clock.now()).await.unwrap();
    let ctx = context(&app);
    PreviewLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    let secret = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap().secret_seed.unwrap();
    for (path, heading) in [("/FairDraw", "抽選の公正性"), ("/en/FairDraw", "Lottery fairness")] {
        let (status, page) = app.page(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(page.contains(heading), "{path}");
        assert!(page.contains(&format!("<code data-testid=\"seed-hash\">{}</code>", run.seed_hash)), "{page}");
        assert!(!page.contains(&secret), "the seed stays secret before publication");
        assert!(!page.contains("lottery-download"));
    }
    let (status, body) = app.get_json("/api/v1/FairDraw/lottery_results/first").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");

    PublishLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    let published = lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap().unwrap();
    let (_, page) = app.page("/en/FairDraw").await;
    assert!(page.contains(&format!("<code data-testid=\"seed\">{secret}</code>")), "{page}");
    let digest = published.inputs_digest.clone().unwrap();
    assert!(page.contains(&format!("<code data-testid=\"inputs-digest\">{digest}</code>")));
    assert!(page.contains("href=\"/api/v1/FairDraw/lottery_results/first\""), "{page}");

    // The download verifies; a tampered one does not.
    let res = app.get("/api/v1/FairDraw/lottery_results/first").await;
    assert_eq!(res.status().code, 200);
    let file = res.into_string().await.unwrap();
    let draw = vmarket::cli::lottery::verify_file(&file).expect("the published file verifies");
    assert_eq!(draw.winners().count(), 2);
    assert_eq!(draw.digest, published.result_digest.clone().unwrap());
    let json: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(json["seed"], secret.as_str());
    // The file was stored at publication and is served as stored: the same bytes on every read,
    // and the bytes of the public run with the draw recomputed from its published seed and inputs.
    let again = app.get("/api/v1/FairDraw/lottery_results/first").await.into_string().await.unwrap();
    assert_eq!(again, file);
    let stored_file = lottery_result_file::Entity::find()
        .filter(lottery_result_file::Column::RunId.eq(published.id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("the file is stored with the publication");
    assert_eq!(stored_file.body, file);
    let recomputed = vmarket::lottery::draw(
        &vmarket::lottery::Seed::from_hex(&secret).unwrap(),
        &vmarket::lottery::Inputs::parse(published.inputs.as_deref().unwrap()).unwrap(),
    );
    assert_eq!(lottery::PublicRun::file(&published, "FairDraw", &recomputed).unwrap(), file);

    let mut flipped = json.clone();
    let won = flipped["outcomes"][0]["won"].as_bool().unwrap();
    flipped["outcomes"][0]["won"] = Value::Bool(!won);
    let refused = vmarket::cli::lottery::verify_file(&flipped.to_string()).unwrap_err();
    assert!(refused.contains("1 listed outcomes differ"), "{refused}");
    let mut more_slots = json.clone();
    let inputs = json["inputs"].as_str().unwrap();
    let line = format!("plan {} 2\n", ev.plans[0]);
    assert!(inputs.contains(&line));
    more_slots["inputs"] = Value::String(inputs.replace(&line, &format!("plan {} 3\n", ev.plans[0])));
    let refused = vmarket::cli::lottery::verify_file(&more_slots.to_string()).unwrap_err();
    assert!(refused.contains("inputs digest"), "{refused}");
    let mut other_seed = json.clone();
    other_seed["seed"] = Value::String("00".repeat(32));
    assert!(vmarket::cli::lottery::verify_file(&other_seed.to_string()).is_err());

    let (status, _) = app.get_json("/api/v1/FairDraw/lottery_results/third").await;
    assert_eq!(status, 404);
    let (status, _) = app.get_json("/api/v1/NoSuchFair/lottery_results/first").await;
    assert_eq!(status, 404);
}

/// Every result mail owed of `run_id` marked owed again (as if the job's marks were lost).
async fn owe_again(app: &TestApp, run_id: i32) {
    lottery_result_mail::Entity::update_many()
        .col_expr(
            lottery_result_mail::Column::DoneAt,
            sea_orm::sea_query::Expr::value(Option::<chrono::DateTime<chrono::Utc>>::None),
        )
        .filter(lottery_result_mail::Column::RunId.eq(run_id))
        .exec(&app.db)
        .await
        .unwrap();
}

#[rocket::async_test]
async fn result_mails_owed_by_a_publication_are_stored_once_whatever_stops_in_between() {
    let app = TestApp::builder().empty().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let ev = app.entry_event("OwedFair").await;
    let owner = app.user("owed_owner").await;
    let no_address = app.user("owed_no_address").await;
    for i in 0..3 {
        enter(&app, &ev, &owner, &format!("未送工房{i}"), ev.plans[0]).await;
    }
    enter(&app, &ev, &no_address, "宛先なし工房", ev.plans[0]).await;
    // An owner without a mail address (after signing in: a signed-in request refreshes it).
    let mut row = vmarket::db::entities::user::Entity::find_by_id(no_address.user.id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap()
        .into_active_model();
    row.email = Set(None);
    row.update(&app.db).await.unwrap();
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    let now = app.clock.now();
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap();

    // The publication commits, and the process stops before it enqueues the mails (the model's
    // publish enqueues nothing): the publication owes one mail per entry, and none is rendered.
    let Publication::Applied { run_id, result_mails, .. } =
        lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap()
    else {
        panic!("published")
    };
    assert_eq!(result_mails, 4);
    assert_eq!(lottery_mails::owed(&app.db, run_id).await.unwrap(), 4);
    assert_eq!(mail::Entity::find().count(&app.db).await.unwrap(), 0);

    // Workers starting later find what is owed and send it.
    let workers = app.start_workers().await;
    eventually("the owed result mails", || async { lottery_mails::owed(&app.db, run_id).await.unwrap() == 0 }).await;
    workers.stop().await;
    let mails = mail::Entity::find().all(&app.db).await.unwrap();
    assert_eq!(mails.len(), 3, "one per entry whose owner has an address");
    assert!(mails.iter().all(|m| m.recipient == *owner.user.email.as_ref().unwrap()));
    let keys: std::collections::HashSet<_> = mails.iter().map(|m| m.dedup_key.clone().unwrap()).collect();
    assert_eq!(keys.len(), 3);

    // The job's marks lost (a crash after its batch committed cannot lose them, but suppose a
    // second run over the same rows): it stores nothing and delivers nothing again.
    owe_again(&app, run_id).await;
    let ctx = context(&app);
    let sent = SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx).await.unwrap();
    assert_eq!((sent.entries, sent.mails, sent.without_address), (4, 0, 1));
    assert_eq!(mail::Entity::find().count(&app.db).await.unwrap(), 3, "never a second mail");

    // Two runs at once over the same owed rows, nothing stored yet: one mail per entry between
    // them (the unique key decides which run stores it).
    mail::Entity::delete_many().exec(&app.db).await.unwrap();
    owe_again(&app, run_id).await;
    let (a, b) = tokio::join!(
        SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx),
        SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx)
    );
    assert_eq!(a.unwrap().mails + b.unwrap().mails, 3);
    assert_eq!(mail::Entity::find().count(&app.db).await.unwrap(), 3);
    assert_eq!(lottery_mails::owed(&app.db, run_id).await.unwrap(), 0);
}

/// Issue 12, audit item 6: the seed hash is public before the first draw without anyone acting:
/// the clock job commits the first round of an event with entries when its entry window closes
/// (not a second earlier), keeps the seed when it ticks again, leaves an event nobody entered
/// alone, and previews the round for staff when its lottery window opens; publishing stays
/// staff's.
#[rocket::async_test]
async fn the_clock_commits_the_first_round_when_entries_close_and_previews_it_when_its_window_opens() {
    let app = TestApp::builder().empty().live().build().await;
    let ev = app.entry_event("HashFair").await;
    let empty = app.entry_event("NobodyFair").await;
    let owner = app.user("hash_owner").await;
    let (_, application) = enter(&app, &ev, &owner, "ハッシュ工房", ev.plans[0]).await;
    let ctx = context(&app);
    let run = async || lottery::run_of(&app.db, ev.id, LotteryRound::First).await.unwrap();

    app.clock.set(ev.at(PhaseType::EntryEnd) - Duration::seconds(1));
    LotteryClock::tick(&ctx).await.unwrap();
    assert!(run().await.is_none(), "entries are still open");
    let (_, page) = app.page("/HashFair").await;
    assert!(!page.contains("data-testid=\"seed-hash\""), "no hash before entries close");

    app.clock.set(ev.at(PhaseType::EntryEnd));
    LotteryClock::tick(&ctx).await.unwrap();
    let committed = run().await.expect("committed when entries close");
    assert_eq!(
        (committed.state, committed.created_by_user_id, committed.seed.as_deref()),
        (LotteryRunState::Committed, None, None)
    );
    for path in ["/HashFair", "/en/HashFair"] {
        let (status, page) = app.page(path).await;
        assert_eq!(status, 200);
        assert!(
            page.contains(&format!("<code data-testid=\"seed-hash\">{}</code>", committed.seed_hash)),
            "{path}: {page}"
        );
    }
    LotteryClock::tick(&ctx).await.unwrap();
    assert_eq!(run().await.unwrap(), committed, "ticking again keeps the seed");
    assert!(lottery::run_of(&app.db, empty.id, LotteryRound::First).await.unwrap().is_none(), "nothing to draw there");

    app.clock.set(ev.at(PhaseType::FirstLotteryStart));
    LotteryClock::tick(&ctx).await.unwrap();
    let previewed = run().await.unwrap();
    assert_eq!(
        (previewed.state, previewed.seed_hash.as_str()),
        (LotteryRunState::Preview, committed.seed_hash.as_str())
    );
    assert_eq!(stored(&app, application).await, LotteryStatus::Applied, "publishing is staff's");
    LotteryClock::tick(&ctx).await.unwrap();
    assert_eq!(run().await.unwrap(), previewed, "a previewed round is left to staff");
}

/// Issue 12, audit item 7: the result mails' bookkeeping does not touch the public data version
/// (no public page reads it): sending a publication's mails leaves the version where the
/// publication put it, and the publication raises it only through what the public reads (the
/// run and its published file), not once per entry owed a mail.
#[rocket::async_test]
async fn result_mail_bookkeeping_leaves_the_public_data_version_alone() {
    let app = TestApp::builder().empty().live().build().await;
    let ev = app.entry_event("VersionFair").await;
    let owner = app.user("version_owner").await;
    for i in 0..6 {
        enter(&app, &ev, &owner, &format!("版工房{i}"), ev.plans[0]).await;
    }
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    let now = app.clock.now();
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap();
    let version = async || vmarket::db::data_version::read(&app.db).await.unwrap();
    let before = version().await;
    let Publication::Applied { run_id, .. } = lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap()
    else {
        panic!("published")
    };
    let published = version().await;
    assert!(published > before, "the publication changes the public event page");
    assert!(published - before <= 2, "raised by the run and its file, not per owed mail: {before} → {published}");
    let sent = SendLotteryResults { run_id, attempt: 1 }.run_now(&context(&app)).await.unwrap();
    assert_eq!(sent.mails, 6);
    assert_eq!(version().await, published, "mailing the results changes no public page");
}

/// Issue 12, audit item 8: the owner of a suspended circle whose entry the draw marked
/// `incorrect` is told so, in their language, once — like every other owner.
#[rocket::async_test]
async fn the_owner_of_a_suspended_circle_is_mailed_that_the_entry_was_left_out() {
    let app = TestApp::builder().empty().live().build().await;
    let ev = app.entry_event("SuspendedFair").await;
    let ja = app.user("suspended_ja").await;
    let en = app.user("suspended_en").await;
    en.user.set_lang(&app.db, Lang::En).await.unwrap();
    let healthy = app.user("healthy_owner").await;
    enter(&app, &ev, &healthy, "元気工房", ev.plans[0]).await;
    let mut left_out = Vec::new();
    for (owner, name) in [(&ja, "停止中工房"), (&en, "Paused Works")] {
        let (circle_id, application) = enter(&app, &ev, owner, name, ev.plans[1]).await;
        let mut c = circle::Entity::find_by_id(circle_id).one(&app.db).await.unwrap().unwrap().into_active_model();
        c.is_suspended = Set(true);
        c.update(&app.db).await.unwrap();
        left_out.push((owner.user.email.clone().unwrap(), name, application));
    }
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    let now = app.clock.now();
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, now).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, now).await.unwrap();
    let Publication::Applied { run_id, result_mails, .. } =
        lottery::publish(&app.db, ev.id, LotteryRound::First, now).await.unwrap()
    else {
        panic!("published")
    };
    assert_eq!(result_mails, 3, "every entry the draw decided, the left-out ones included");
    let ctx = context(&app);
    let sent = SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx).await.unwrap();
    assert_eq!((sent.entries, sent.mails), (3, 3));
    let mails = mail::Entity::find().all(&app.db).await.unwrap();
    for (to, name, application) in left_out {
        assert_eq!(stored(&app, application).await, LotteryStatus::Incorrect);
        let mail = mails.iter().find(|m| m.recipient == to).unwrap_or_else(|| panic!("a mail to {to}"));
        assert_eq!(mail.kind, "lottery_incorrect");
        let (subject, says) = if mail.lang == "en" {
            (
                "lottery result",
                format!(
                    "Your circle \"{name}\" is suspended, so its application was not included in the first draw of Test Fair SuspendedFair."
                ),
            )
        } else {
            (
                "抽選結果",
                format!(
                    "サークル「{name}」は運営により利用停止中のため、テスト展 SuspendedFairの第1次抽選の対象外となりました。"
                ),
            )
        };
        assert!(mail.subject.contains(subject), "{}", mail.subject);
        assert!(mail.text_body.contains(&says), "{}", mail.text_body);
    }
    // Once: a second run stores nothing more.
    owe_again(&app, run_id).await;
    let again = SendLotteryResults { run_id, attempt: 1 }.run_now(&ctx).await.unwrap();
    assert_eq!(again.mails, 0);
    assert_eq!(mail::Entity::find().count(&app.db).await.unwrap(), 3);
}

/// Issue 12, audit item 11: every arrow out of a win, through the paths that really take it, over
/// time-travelled phases — `first_win` → `paid` (a settled payment), → `decline` (the owner's
/// decline), → `first_win_unpaid` (the window closes); the freed slots go to the first losers in
/// the second draw, and `second_win` → `paid`, → `decline`, → `second_win_unpaid` the same way.
/// A payment or a decline outside its window is refused.
#[rocket::async_test]
async fn every_arrow_out_of_a_win_through_the_real_paths() {
    let app = TestApp::builder().empty().live().build().await;
    let ev = app.entry_event("ArrowFair").await;
    let mut owner = app.with_user("arrow_owner").await;
    // Eight circles want the avatar exhibit (5 slots, 3,000 JPY).
    let mut wishes = Vec::new();
    for i in 0..8 {
        wishes.push(enter(&app, &ev, &owner, &format!("矢印工房{i}"), ev.plans[3]).await.1);
    }
    let ctx = context(&app);
    app.clock.set(ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1));
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, app.clock.now()).await.unwrap();
    PreviewLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    PublishLottery { event_id: ev.id, round: LotteryRound::First }.run_now(&ctx).await.unwrap();
    let (mut won, mut lost) = (Vec::new(), Vec::new());
    for &id in &wishes {
        match stored(&app, id).await {
            LotteryStatus::FirstWin => won.push(id),
            LotteryStatus::FirstLost => lost.push(id),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((won.len(), lost.len()), (5, 3));

    // Before the first payment window nothing can be paid or declined.
    let early = Payable::load(&app.db, won[0], owner.user.id, app.clock.now()).await.map(|_| ()).unwrap_err();
    assert_eq!(early.code(), "payment_closed");
    owner.renew().await;
    let entry = event_entry_application::Entity::find_by_id(won[1]).one(&app.db).await.unwrap().unwrap().entry_id;
    let (status, body) = owner
        .put_json(&format!("/api/v1/user/event_entries/{entry}/applications/{}/decline", won[1]), &Value::Null)
        .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("decline_closed")));

    // The first payment window: one pays, one declines, three let it lapse.
    app.clock.set(ev.at(PhaseType::FirstPaymentStart) + Duration::hours(1));
    pay(&app, won[0], owner.user.id).await;
    decline(&app, &mut owner, won[1]).await;
    app.clock.set(ev.at(PhaseType::FirstPaymentEnd));
    LotteryClock::tick(&ctx).await.unwrap();
    let mut first = Vec::new();
    for &id in &won {
        first.push(stored(&app, id).await);
    }
    use LotteryStatus::*;
    assert_eq!(first, [Paid, Decline, FirstWinUnpaid, FirstWinUnpaid, FirstWinUnpaid]);

    // The second draw gives the four freed slots to the three first losers.
    app.clock.set(ev.at(PhaseType::SecondLotteryStart) + Duration::hours(1));
    LotteryClock::tick(&ctx).await.unwrap();
    assert_eq!(
        lottery::run_of(&app.db, ev.id, LotteryRound::Second).await.unwrap().unwrap().state,
        LotteryRunState::Preview,
        "committed when the first payment window closed, previewed as the second window opened"
    );
    PublishLottery { event_id: ev.id, round: LotteryRound::Second }.run_now(&ctx).await.unwrap();
    for &id in &lost {
        assert_eq!(stored(&app, id).await, SecondWin);
    }
    // Not payable before the second payment window.
    let early = Payable::load(&app.db, lost[0], owner.user.id, app.clock.now()).await.map(|_| ()).unwrap_err();
    assert_eq!(early.code(), "payment_closed");

    // The second payment window: one pays, one declines, one lets it lapse.
    app.clock.set(ev.at(PhaseType::SecondPaymentStart) + Duration::hours(1));
    pay(&app, lost[0], owner.user.id).await;
    decline(&app, &mut owner, lost[1]).await;
    owner.renew().await;
    let (_, list) = owner.get_json("/api/v1/user/event_entries?permalink=ArrowFair").await;
    assert!(shows(&list, lost[0], "paid") && shows(&list, lost[1], "decline"), "{list}");
    assert!(shows(&list, lost[2], "second_win"), "{list}");
    app.clock.set(ev.at(PhaseType::SecondPaymentEnd));
    owner.renew().await;
    let (_, list) = owner.get_json("/api/v1/user/event_entries?permalink=ArrowFair").await;
    assert!(shows(&list, lost[2], "second_win_unpaid"), "shown on read, before any job: {list}");
    LotteryClock::tick(&ctx).await.unwrap();
    let mut second = Vec::new();
    for &id in &lost {
        second.push(stored(&app, id).await);
    }
    assert_eq!(second, [Paid, Decline, SecondWinUnpaid]);
    // Paying the lapsed win after its window: refused.
    let late = Payable::load(&app.db, lost[2], owner.user.id, app.clock.now()).await.map(|_| ()).unwrap_err();
    assert_eq!(late.code(), "payment_closed");
    // Each payment is the settled one of its application, for the fee at the draw.
    let payments = vmarket::db::entities::payment_history::Entity::find().all(&app.db).await.unwrap();
    let mut paid: Vec<(i32, i32, bool)> = payments.iter().map(|p| (p.application_id, p.amount, p.is_late)).collect();
    paid.sort();
    let mut expected = vec![(won[0], 3000, false), (lost[0], 3000, false)];
    expected.sort();
    assert_eq!(paid, expected);
}
