//! Mail: queued mails rendered in the recipient's language reach the outbox directory and a real
//! SMTP server (aiosmtpd) as complete text + HTML messages; through an SMTP outage they stay
//! pending with backoff and are delivered exactly once; after the last attempt they are
//! `failed` and kept; credentials never reach the stored error; the operator's test command.

use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use mail_parser::{MessageParser, MimeHeaders};
use sea_orm::{EntityTrait, TransactionTrait};
use serde_json::{Value, json};
use vmarket::config::Config;
use vmarket::db::entities::mail;
use vmarket::db::entities::mail::MailStatus;
use vmarket::i18n::Lang;
use vmarket::jobs::{SendMail, send_mail};
use vmarket::mail::{MailKind, Mailer, Outgoing};
use vmarket::queue::{JobContext, Queue};

use crate::support::TestApp;
use crate::support::smtp_sink::{self, SmtpSink};

/// An app with fast retries (1 s, 2 s, 4 s …) and workers that poll every 50 ms.
async fn mail_app(hook: impl FnOnce(&mut Config) + 'static) -> TestApp {
    TestApp::builder()
        .empty()
        .config(|c| {
            c.job_retry_base_secs = 1;
            c.job_poll_interval_ms = 50;
        })
        .config(hook)
        .build()
        .await
}

/// The mailer the web process manages, as a handler would get it.
fn mailer(app: &TestApp) -> &Mailer {
    app.client.rocket().state::<Mailer>().expect("the app manages a Mailer")
}

fn test_mail(to: &str, lang: Lang, context: Value) -> Outgoing {
    Outgoing { to: to.into(), lang, kind: MailKind::Test, context }
}

/// Queues a mail and pushes its job, as a handler does; returns its id.
async fn send(app: &TestApp, outgoing: &Outgoing) -> i32 {
    let queued = mailer(app).queue(&app.db, outgoing, app.clock.now()).await.expect("queued");
    SendMail::push(&Queue::for_db(&app.db).unwrap(), queued).await;
    queued.id
}

/// Queues a mail without pushing its job; returns its id.
async fn store(app: &TestApp, outgoing: &Outgoing) -> i32 {
    mailer(app).queue(&app.db, outgoing, app.clock.now()).await.expect("queued").id
}

async fn row(app: &TestApp, id: i32) -> mail::Model {
    mail::Entity::find_by_id(id).one(&app.db).await.unwrap().expect("the mail is kept")
}

/// Polls the mail until `done` holds, for at most `secs` seconds.
async fn wait_for(app: &TestApp, id: i32, secs: u64, done: impl Fn(&mail::Model) -> bool) -> mail::Model {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let row = row(app, id).await;
        if done(&row) {
            return row;
        }
        assert!(std::time::Instant::now() < deadline, "timed out; the mail is {row:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn outbox(app: &TestApp) -> PathBuf {
    PathBuf::from(&app.config.data_dir).join("outbox")
}

/// The outbox files, sorted by name.
fn outbox_files(app: &TestApp) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(outbox(app)) {
        Ok(dir) => dir.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

fn plus_secs(at: DateTime<Utc>, secs: i64) -> Option<DateTime<Utc>> {
    Some(at + chrono::Duration::seconds(secs))
}

/// What a reader of the message sees.
struct Seen {
    subject: String,
    from: String,
    to: String,
    message_id: String,
    language: String,
    text: String,
    html: String,
    multipart_alternative: bool,
}

fn read(raw: &[u8]) -> Seen {
    let m = MessageParser::default().parse(raw).expect("a parseable RFC 5322 message");
    let addr = |a: Option<&mail_parser::Address>| {
        a.and_then(|a| a.first()).and_then(|a| a.address()).unwrap_or_default().to_string()
    };
    Seen {
        subject: m.subject().unwrap_or_default().to_string(),
        from: addr(m.from()),
        to: addr(m.to()),
        message_id: m.message_id().unwrap_or_default().to_string(),
        language: m.header_raw("Content-Language").unwrap_or_default().trim().to_string(),
        text: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
        html: m.body_html(0).unwrap_or_default().replace("\r\n", "\n"),
        multipart_alternative: m
            .content_type()
            .is_some_and(|c| c.c_type == "multipart" && c.subtype() == Some("alternative")),
    }
}

#[rocket::async_test]
async fn queued_mails_reach_the_outbox_in_the_recipients_language() {
    let app = mail_app(|_| {}).await;
    let workers = app.start_workers().await;
    let ja = send(&app, &test_mail("mika@example.com", Lang::Ja, json!({ "note": "受付番号 42 <b>" }))).await;
    let en = send(&app, &test_mail("kai@example.com", Lang::En, Value::Null)).await;
    let ja_row = wait_for(&app, ja, 20, |m| m.status != MailStatus::Pending).await;
    let en_row = wait_for(&app, en, 20, |m| m.status != MailStatus::Pending).await;
    workers.stop().await;

    for r in [&ja_row, &en_row] {
        assert_eq!(r.status, MailStatus::Sent, "{r:?}");
        assert_eq!((r.attempts, r.sent_at, r.next_attempt_at), (1, Some(app.clock.now()), None));
        assert_eq!(r.last_error, None);
        assert_eq!(r.kind, "test");
    }
    // <queued at, UTC>-<id>.eml, one per mail.
    let names: Vec<String> =
        outbox_files(&app).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, [format!("20261121T030000Z-{ja}.eml"), format!("20261121T030000Z-{en}.eml")]);

    let seen = read(&std::fs::read(&outbox_files(&app)[0]).unwrap());
    assert_eq!(seen.subject, "【バーチャルマーケット】テストメール");
    assert_eq!((seen.from.as_str(), seen.to.as_str()), ("no-reply@localhost", "mika@example.com"));
    assert_eq!(seen.language, "ja");
    assert_eq!(format!("<{}>", seen.message_id), ja_row.message_id);
    assert!(seen.multipart_alternative);
    assert!(
        seen.text.starts_with("このメールは、バーチャルマーケットのメール送信設定を確かめるためのテストメールです。\n")
    );
    assert!(seen.text.contains("送信依頼日時：2026/11/21 12:00（日本時間）\nメモ：受付番号 42 <b>\n"), "{}", seen.text);
    assert!(seen.text.contains("https://vmarket.test"), "the site's address is in the signature: {}", seen.text);
    assert!(seen.html.contains("<html lang=\"ja\">"));
    assert!(seen.html.contains("<title>【バーチャルマーケット】テストメール</title>"));
    assert!(seen.html.contains(">テストメール</h1>"), "{}", seen.html);
    assert!(seen.html.contains("メモ：受付番号 42 &lt;b&gt;"), "values are escaped in HTML: {}", seen.html);
    assert!(!seen.html.contains("<b>"));

    let seen = read(&std::fs::read(&outbox_files(&app)[1]).unwrap());
    assert_eq!(seen.subject, "[Virtual Market] Test mail");
    assert_eq!(seen.to, "kai@example.com");
    assert_eq!(seen.language, "en");
    assert!(
        seen.text
            .contains("If you are reading it, mail delivery works.\n\nRequested at: 2026/11/21 12:00 (Japan time)\n")
    );
    assert!(!seen.text.contains("Note:"), "no note given: {}", seen.text);
    assert!(seen.html.contains("<html lang=\"en\">") && seen.html.contains(">Test mail</h1>"));
    // The stored mail is what went out.
    assert_eq!(en_row.subject, "[Virtual Market] Test mail");
    assert_eq!(seen.text, en_row.text_body);
}

#[rocket::async_test]
async fn a_mail_commits_or_rolls_back_with_the_callers_transaction_and_survives_a_lost_push() {
    let app = mail_app(|_| {}).await;
    // Rolled back: as if never queued.
    let txn = app.db.begin().await.unwrap();
    let gone = mailer(&app).queue(&txn, &test_mail("a@example.com", Lang::Ja, Value::Null), app.clock.now()).await;
    txn.rollback().await.unwrap();
    assert!(mail::Entity::find_by_id(gone.unwrap().id).one(&app.db).await.unwrap().is_none());

    // Committed, but the process "died" before pushing the job: the workers' start-up finds it.
    let txn = app.db.begin().await.unwrap();
    let kept = mailer(&app).queue(&txn, &test_mail("b@example.com", Lang::En, Value::Null), app.clock.now()).await;
    txn.commit().await.unwrap();
    let id = kept.unwrap().id;
    assert_eq!(row(&app, id).await.status, MailStatus::Pending);
    assert!(outbox_files(&app).is_empty());
    // Resuming twice queues its first attempt once (on PostgreSQL too, where apalis refuses a
    // duplicate key instead of skipping it).
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    vmarket::workers::resume(&ctx).await.unwrap();
    vmarket::workers::resume(&ctx).await.unwrap();
    let workers = app.start_workers().await;
    let sent = wait_for(&app, id, 20, |m| m.status == MailStatus::Sent).await;
    workers.stop().await;
    assert_eq!(sent.attempts, 1);
    assert_eq!(outbox_files(&app).len(), 1, "only the committed mail went out");
    assert_eq!(read(&std::fs::read(&outbox_files(&app)[0]).unwrap()).to, "b@example.com");

    // A bad address is refused before anything is stored, in the caller's language.
    let err = mailer(&app)
        .queue(&app.db, &test_mail("not-an-address", Lang::En, Value::Null), app.clock.now())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "validation_failed");
    assert_eq!(mail::Entity::find().all(&app.db).await.unwrap().len(), 1);
}

#[rocket::async_test]
async fn smtp_delivers_to_a_real_server_with_the_right_headers_and_body() {
    let Some(python) = smtp_sink::python() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), Some("vmarket:s3cret-pass"));
    let url = format!("smtp://vmarket:s3cret-pass@127.0.0.1:{}", sink.port);
    let app = mail_app(move |c| {
        c.smtp_url = url.as_str().into();
        c.mail_from = "Vket Mail <mail@vket.test>".into();
    })
    .await;
    let workers = app.start_workers().await;
    let id = send(&app, &test_mail("mika@example.com", Lang::Ja, json!({ "note": "SMTP" }))).await;
    let sent = wait_for(&app, id, 20, |m| m.status != MailStatus::Pending).await;
    workers.stop().await;
    assert_eq!(sent.status, MailStatus::Sent, "{sent:?}");
    assert_eq!(sent.attempts, 1);
    assert!(outbox_files(&app).is_empty(), "with SMTP nothing goes to the outbox");

    let received = sink.received();
    assert_eq!(received.len(), 1);
    let envelope = &received[0].envelope;
    assert_eq!(envelope["mail_from"], "mail@vket.test");
    assert_eq!(envelope["rcpt_tos"], json!(["mika@example.com"]));
    assert_eq!(envelope["login"], "vmarket", "the client logged in with the URL's user");
    let seen = read(&received[0].raw);
    assert_eq!(seen.subject, "【バーチャルマーケット】テストメール");
    assert_eq!((seen.from.as_str(), seen.to.as_str()), ("mail@vket.test", "mika@example.com"));
    assert_eq!(format!("<{}>", seen.message_id), sent.message_id);
    assert!(sent.message_id.ends_with("@vket.test>"), "{}", sent.message_id);
    assert_eq!(seen.language, "ja");
    assert!(seen.multipart_alternative);
    assert_eq!(seen.text, sent.text_body);
    assert!(seen.text.contains("メモ：SMTP\n"));
    assert!(seen.html.contains("<h1") && seen.html.contains("テストメール</h1>"));
    let raw = String::from_utf8(received[0].raw.clone()).unwrap();
    assert!(raw.contains("Subject: =?utf-8?b?"), "the Japanese subject is encoded for transport");
    assert!(raw.contains("Auto-Submitted: auto-generated"));
}

#[rocket::async_test]
async fn during_an_smtp_outage_mail_stays_pending_and_is_delivered_once_when_it_is_back() {
    let Some(python) = smtp_sink::python() else { return };
    let port = smtp_sink::free_port();
    let app = mail_app(move |c| {
        c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into();
        c.mail_max_attempts = 6;
    })
    .await;
    let now = app.clock.now();
    let workers = app.start_workers().await;
    let id = send(&app, &test_mail("kai@example.com", Lang::En, Value::Null)).await;

    // Down: each attempt is counted, and the next one is due 1 s, 2 s, 4 s … later (the clock
    // stands still, so "later" is measured from the same instant).
    let first = wait_for(&app, id, 20, |m| m.attempts >= 1 && m.last_error.is_some()).await;
    let error = first.last_error.clone().unwrap();
    assert!(error.starts_with("smtp: ") && error.contains("refused"), "{error}");
    let second = wait_for(&app, id, 20, |m| m.attempts >= 2 && m.last_error.is_some()).await;
    for seen in [&first, &second] {
        assert_eq!(seen.status, MailStatus::Pending);
        let backoff = 1i64 << (seen.attempts - 1);
        assert_eq!(seen.next_attempt_at, plus_secs(now, backoff), "after attempt {}", seen.attempts);
    }

    // Back up: the scheduled retry delivers it, once.
    let sink = SmtpSink::start(&python, port, None);
    let sent = wait_for(&app, id, 30, |m| m.status != MailStatus::Pending).await;
    assert_eq!(sent.status, MailStatus::Sent, "{sent:?}");
    assert!(sent.attempts >= 3, "{sent:?}");
    assert_eq!(sent.next_attempt_at, None);
    // Nothing is sent again: not by waiting, not by a restart's resume, not by a stale task.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    workers.stop().await;
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    vmarket::workers::resume(&ctx).await.unwrap();
    let again = send_mail::deliver(&ctx, SendMail { mail_id: id, attempt: sent.attempts + 1 }).await.unwrap();
    assert!(again.contains("already Sent"), "{again}");
    let stale = send_mail::deliver(&ctx, SendMail { mail_id: id, attempt: 1 }).await.unwrap();
    assert!(stale.contains("already Sent"), "{stale}");
    let received = sink.received();
    assert_eq!(received.len(), 1, "delivered exactly once");
    assert_eq!(format!("<{}>", read(&received[0].raw).message_id), sent.message_id);
    assert_eq!(row(&app, id).await.attempts, sent.attempts);
}

#[rocket::async_test]
async fn after_the_last_attempt_a_mail_is_failed_and_kept() {
    // A port nobody listens on: connection refused, every time.
    let port = smtp_sink::free_port();
    let app = mail_app(move |c| {
        c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into();
        c.mail_max_attempts = 2;
    })
    .await;
    let workers = app.start_workers().await;
    let id = send(&app, &test_mail("kai@example.com", Lang::En, Value::Null)).await;
    let failed = wait_for(&app, id, 20, |m| m.status != MailStatus::Pending).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    workers.stop().await;
    assert_eq!(failed.status, MailStatus::Failed);
    assert_eq!(failed.attempts, 2);
    assert_eq!((failed.next_attempt_at, failed.sent_at), (None, None));
    assert!(failed.last_error.as_deref().unwrap_or_default().contains("refused"), "{:?}", failed.last_error);
    assert_eq!(failed.subject, "[Virtual Market] Test mail", "the mail itself is kept for staff");
    assert_eq!(row(&app, id).await.attempts, 2, "no attempt after the last");
}

#[rocket::async_test]
async fn a_recipient_the_server_refuses_fails_at_once() {
    let Some(python) = smtp_sink::python() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let port = sink.port;
    let app = mail_app(move |c| c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into()).await;
    let workers = app.start_workers().await;
    let id = send(&app, &test_mail("bounce@example.com", Lang::Ja, Value::Null)).await;
    let failed = wait_for(&app, id, 20, |m| m.status != MailStatus::Pending).await;
    workers.stop().await;
    assert_eq!((failed.status, failed.attempts), (MailStatus::Failed, 1), "a 550 is not retried");
    assert!(failed.last_error.as_deref().unwrap_or_default().contains("(550)"), "{:?}", failed.last_error);
    assert!(sink.received().is_empty());
}

#[rocket::async_test]
async fn smtp_credentials_and_required_starttls_never_leak_or_fall_back() {
    let Some(python) = smtp_sink::python() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), Some("vmarket:right-pass"));
    let port = sink.port;

    // A wrong password: refused (535), retried like an outage, and the password is nowhere.
    let app =
        mail_app(move |c| c.smtp_url = format!("smtp://vmarket:wr0ng%40pass@127.0.0.1:{port}").as_str().into()).await;
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    let id = store(&app, &test_mail("a@example.com", Lang::En, Value::Null)).await;
    let summary = send_mail::deliver(&ctx, SendMail { mail_id: id, attempt: 1 }).await.unwrap();
    let pending = row(&app, id).await;
    assert_eq!((pending.status, pending.attempts), (MailStatus::Pending, 1));
    let error = pending.last_error.unwrap();
    assert!(error.contains("(535)"), "{error}");
    for text in [&error, &summary, &format!("{:?}", ctx.delivery), &format!("{:?}", app.config)] {
        assert!(!text.contains("wr0ng"), "the password leaked: {text}");
    }
    assert!(format!("{:?}", ctx.delivery).contains("smtp://vmarket:***@127.0.0.1"));

    // STARTTLS required, but this server offers none: nothing is sent in the clear.
    let app = mail_app(move |c| c.smtp_url = format!("smtp://127.0.0.1:{port}?tls=required").as_str().into()).await;
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).unwrap();
    let id = store(&app, &test_mail("a@example.com", Lang::En, Value::Null)).await;
    send_mail::deliver(&ctx, SendMail { mail_id: id, attempt: 1 }).await.unwrap();
    let pending = row(&app, id).await;
    assert_eq!((pending.status, pending.attempts), (MailStatus::Pending, 1));
    assert!(pending.last_error.is_some());
    assert!(sink.received().is_empty(), "no mail got through");
}

#[rocket::async_test]
async fn the_test_command_sends_a_test_mail_in_the_chosen_language() {
    let app = mail_app(|_| {}).await;
    let action = |to: &str, lang: &str, queue_only: bool| vmarket::cli::MailAction::Test {
        to: to.into(),
        lang: lang.into(),
        note: Some("ops check".into()),
        queue_only,
    };
    vmarket::cli::mail(&app.db, &app.config, action("ops@example.com", "en", false), &app.clock).await.unwrap();
    let files = outbox_files(&app);
    assert_eq!(files.len(), 1, "made its first attempt at once");
    let seen = read(&std::fs::read(&files[0]).unwrap());
    assert_eq!((seen.subject.as_str(), seen.to.as_str()), ("[Virtual Market] Test mail", "ops@example.com"));
    assert!(seen.text.contains("Note: ops check"));
    let rows = mail::Entity::find().all(&app.db).await.unwrap();
    assert_eq!((rows[0].kind.as_str(), rows[0].status), ("test", MailStatus::Sent));

    // --queue-only leaves it to the workers.
    vmarket::cli::mail(&app.db, &app.config, action("ops@example.com", "ja", true), &app.clock).await.unwrap();
    let rows = mail::Entity::find().all(&app.db).await.unwrap();
    assert_eq!((rows.len(), rows[1].status, rows[1].lang.as_str()), (2, MailStatus::Pending, "ja"));
    let workers = app.start_workers().await;
    wait_for(&app, rows[1].id, 20, |m| m.status == MailStatus::Sent).await;
    workers.stop().await;
    assert_eq!(read(&std::fs::read(&outbox_files(&app)[1]).unwrap()).subject, "【バーチャルマーケット】テストメール");

    let err = vmarket::cli::mail(&app.db, &app.config, action("nobody", "en", false), &app.clock).await.unwrap_err();
    assert_eq!(err, "\"nobody\" is not a mail address");
    let err = vmarket::cli::mail(&app.db, &app.config, action("a@example.com", "fr", false), &app.clock).await;
    assert!(err.unwrap_err().contains("ja or en"));
}

#[rocket::async_test]
async fn smtp_outside_development_without_a_sender_does_not_start() {
    let figment = rocket::figment::Figment::from(rocket::Config::debug_default())
        .merge(("environment", "production"))
        .merge(("smtp_url", "smtps://mailer:hunter22@mail.example.com"));
    let err = Config::from_figment(&figment).unwrap_err().to_string();
    assert!(err.contains("mail_from is required"), "{err}");
    assert!(!err.contains("hunter22"), "{err}");
    let ok = Config::from_figment(&figment.clone().merge(("mail_from", "Vket <mail@vket.example>"))).unwrap();
    assert_eq!(ok.mail_max_attempts, 12);
    assert!(!format!("{ok:?}").contains("hunter22"));
    let bad = figment.merge(("smtp_url", "smtp://mailer:hunter22@mail.example.com"));
    let err = Config::from_figment(&bad.merge(("mail_from", "mail@vket.example"))).unwrap_err().to_string();
    assert!(err.contains("without encryption") && !err.contains("hunter22"), "{err}");
}
