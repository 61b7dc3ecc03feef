//! The receipt mail (issue 13 "Receipts"): queued inside the settle transaction, so every path
//! that settles a payment — the capture, Stripe's webhook, the reconcile job — sends exactly one,
//! however often it runs, and nothing that settles nothing sends one. Delivered through the real
//! SMTP sink (`scripts/smtp-sink.py`) by the workers, in the payer's language, with the event,
//! plan, amount, provider, transaction, the time paid in Japan time and a link to the printable
//! receipt.

use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use rocket::futures::future::join_all;
use rocket::http::{ContentType, Header};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};
use vmarket::db::entities::{mail, payment_history};
use vmarket::i18n::tera::format_jst;
use vmarket::mail::Mailer;
use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::{Settlement, settle};
use vmarket::payments::stripe::sign;
use vmarket::types::Lang;

use crate::support::TestApp;
use crate::support::localstripe::{Gate, GateMode, LocalStripe};
use crate::support::smtp_sink::{self, Received, SmtpSink};

const WEBHOOK_SECRET: &str = "whsec_receipts";

/// A live app whose mail goes to `sink` and whose Stripe is `stripe_base` (localstripe, or a
/// gate in front of it).
async fn app(sink: &SmtpSink, stripe: &LocalStripe, stripe_base: &str) -> TestApp {
    let port = sink.port;
    let mut stripe_config = vmarket::config::Config::default();
    stripe.configure(&mut stripe_config);
    let base = stripe_base.to_string();
    TestApp::builder()
        .live()
        .config(move |c| {
            c.smtp_url = format!("smtp://127.0.0.1:{port}").as_str().into();
            c.job_poll_interval_ms = 50;
            c.job_retry_base_secs = 1;
            c.stripe_secret_key = stripe_config.stripe_secret_key;
            c.stripe_publishable_key = stripe_config.stripe_publishable_key;
            c.stripe_js_url = stripe_config.stripe_js_url;
            c.stripe_api_base = base;
            c.stripe_webhook_secrets = vec![WEBHOOK_SECRET.into()];
            c.payment_timeout_ms = 1_000;
        })
        .build()
        .await
}

async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + StdDuration::from_secs(30);
    while !check().await {
        assert!(Instant::now() < deadline, "{what} within 30 s");
        rocket::tokio::time::sleep(StdDuration::from_millis(100)).await;
    }
}

/// A delivered mail: recipient, `Content-Language`, subject, text and HTML parts.
struct Delivered {
    to: String,
    lang: String,
    subject: String,
    text: String,
    html: String,
}

fn delivered(r: &Received) -> Delivered {
    let m = mail_parser::MessageParser::default().parse(&r.raw).expect("a message");
    Delivered {
        to: r.envelope["rcpt_tos"][0].as_str().unwrap().to_string(),
        lang: m.header_raw("Content-Language").unwrap_or_default().trim().to_string(),
        subject: m.subject().unwrap_or_default().to_string(),
        text: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
        html: m.body_html(0).unwrap_or_default().to_string(),
    }
}

/// The receipts the sink received (the lottery's result mail of the test's win goes out too).
fn receipts(sink: &SmtpSink) -> Vec<Delivered> {
    sink.received()
        .iter()
        .map(delivered)
        .filter(|m| {
            m.subject.contains("お支払いを受け付けました") || m.subject.contains("received your exhibition fee")
        })
        .collect()
}

async fn receipts_stored(app: &TestApp) -> u64 {
    mail::Entity::find().filter(mail::Column::Kind.eq("payment_receipt")).count(&app.db).await.unwrap()
}

async fn the_payment(app: &TestApp, application_id: i32) -> payment_history::Model {
    payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(application_id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("a settled payment")
}

/// Checks the receipt of `paid` in `lang` as delivered to `to`.
fn check_receipt(app: &TestApp, mail: &Delivered, to: &str, lang: Lang, paid: &payment_history::Model, fair: &str) {
    assert_eq!(mail.to, to, "to the payer");
    assert_eq!(mail.lang, lang.code(), "in the payer's language");
    let link = format!("{}{}/mypage/payment_history/{}", app.origin, lang.prefix(), paid.transaction_uuid);
    let paid_at = format_jst(paid.paid_at, true);
    let expected: Vec<String> = match lang {
        Lang::Ja => vec![
            format!("テスト展 {fair}"),
            "広場ブース（灯りの広場）".into(),
            "金額：8,000円".into(),
            "お支払い方法：クレジットカード（Stripe）".into(),
            format!("お支払い日時：{paid_at}（日本時間）"),
            format!("取引番号：{}", paid.transaction_uuid),
        ],
        Lang::En => vec![
            format!("Test Fair {fair}"),
            "Square booth (Lantern Square)".into(),
            "Amount: 8,000 JPY".into(),
            "Payment method: Credit card (Stripe)".into(),
            format!("Paid at: {paid_at} (Japan time)"),
            format!("Transaction: {}", paid.transaction_uuid),
        ],
    };
    for part in &expected {
        assert!(mail.text.contains(part.as_str()), "{part} in the text part:\n{}", mail.text);
    }
    let subject = match lang {
        Lang::Ja => format!("【バーチャルマーケット】テスト展 {fair} 出展料のお支払いを受け付けました"),
        Lang::En => format!("[Virtual Market] Test Fair {fair}: we have received your exhibition fee"),
    };
    assert_eq!(mail.subject, subject);
    assert!(mail.text.contains(&format!("{link}\n")), "the receipt's link in the text:\n{}", mail.text);
    assert!(mail.html.contains(&format!("<a href=\"{link}\"")), "the receipt's link in the HTML:\n{}", mail.html);
    assert!(mail.html.contains(&paid.transaction_uuid) && mail.html.contains("8,000"), "{}", mail.html);
}

/// The capture path: twenty captures of one attempt at once (a double click, a second tab) settle
/// once and mail the Japanese payer one receipt; capturing again later mails nothing more.
#[rocket::async_test]
async fn a_capture_mails_one_receipt_in_the_payer_s_language_however_often_it_is_sent() {
    let Some(python) = smtp_sink::python() else { return };
    let Some(stripe) = LocalStripe::start() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let app = app(&sink, &stripe, &stripe.base).await;
    let mut owner = app.with_user("receipt_capture").await;
    let won = app.won_application(&owner, "ReceiptCapture").await;
    owner.renew().await;
    let workers = app.start_workers().await;

    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let uuid = opened["transaction_uuid"].as_str().unwrap().to_string();
    let capture = json!({"transaction_uuid": uuid, "payment_method": stripe.card("4242424242424242").await});
    let answers = join_all((0..20).map(|_| owner.post_json("/api/v1/user/payment/capture", &capture))).await;
    assert!(answers.iter().all(|(status, _)| *status == 200), "{answers:?}");
    eventually("the receipt", || async { !receipts(&sink).is_empty() }).await;
    let (status, _) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!(status, 200, "a later capture answers the payment again");
    rocket::tokio::time::sleep(StdDuration::from_millis(500)).await;
    workers.stop().await;

    assert_eq!(receipts_stored(&app).await, 1, "one receipt queued");
    let received = receipts(&sink);
    assert_eq!(received.len(), 1, "one receipt delivered");
    let paid = the_payment(&app, won.application_id).await;
    assert_eq!(paid.transaction_uuid, uuid);
    check_receipt(&app, &received[0], "receipt_capture@example.com", Lang::Ja, &paid, "ReceiptCapture");
}

/// Sends a Stripe event to the webhook, signed with the configured secret.
async fn webhook(app: &TestApp, body: &str) -> (u16, Value) {
    let signature = sign(body.as_bytes(), WEBHOOK_SECRET, app.clock.real_now().timestamp());
    let res = app
        .client
        .post("/api/v1/payment/stripe/webhook")
        .header(ContentType::JSON)
        .header(Header::new("Stripe-Signature", signature))
        .body(body)
        .dispatch()
        .await;
    let status = res.status().code;
    (status, res.into_json::<Value>().await.unwrap_or(Value::Null))
}

/// The webhook path: the browser confirmed the card with Stripe and the capture never reached
/// us; Stripe's `payment_intent.succeeded` settles the payment and mails the English payer one
/// receipt. The same event again, and a second event about the same payment, mail nothing.
#[rocket::async_test]
async fn the_webhook_mails_one_receipt_in_english_and_replays_mail_nothing() {
    let Some(python) = smtp_sink::python() else { return };
    let Some(stripe) = LocalStripe::start() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let app = app(&sink, &stripe, &stripe.base).await;
    let mut owner = app.with_user("receipt_hook").await;
    owner.user.set_lang(&app.db, Lang::En).await.unwrap();
    let won = app.won_application(&owner, "ReceiptHook").await;
    owner.renew().await;
    let workers = app.start_workers().await;

    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let pi = opened["order_id"].as_str().unwrap().to_string();
    let event = |id: &str| {
        json!({"id": id, "object": "event", "type": "payment_intent.succeeded",
               "data": {"object": {"id": pi, "object": "payment_intent", "status": "succeeded", "amount": 8000, "currency": "jpy"}}})
        .to_string()
    };
    let (status, answer) = webhook(&app, &event("evt_receipt_1")).await;
    assert_eq!((status, answer["outcome"].as_str()), (200, Some("processed")), "{answer}");
    let (_, answer) = webhook(&app, &event("evt_receipt_1")).await;
    assert_eq!(answer["outcome"], "duplicate");
    let (_, answer) = webhook(&app, &event("evt_receipt_2")).await;
    assert_eq!(
        answer["outcome"], "processed",
        "a second event about the same payment is applied (and changes nothing)"
    );
    eventually("the receipt", || async { !receipts(&sink).is_empty() }).await;
    rocket::tokio::time::sleep(StdDuration::from_millis(500)).await;
    workers.stop().await;

    assert_eq!(receipts_stored(&app).await, 1);
    let received = receipts(&sink);
    assert_eq!(received.len(), 1);
    let paid = the_payment(&app, won.application_id).await;
    check_receipt(&app, &received[0], "receipt_hook@example.com", Lang::En, &paid, "ReceiptHook");
}

/// The reconcile path: Stripe took the card but its answer never came back (a timeout): the
/// capture answers 502 and settles nothing, so nothing is mailed; the reconcile job then settles
/// the payment and the payer gets one receipt.
#[rocket::async_test]
async fn the_reconcile_job_mails_one_receipt_when_it_settles() {
    let Some(python) = smtp_sink::python() else { return };
    let Some(stripe) = LocalStripe::start() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let gate = Gate::start(stripe.base.trim_start_matches("http://")).await;
    let app = app(&sink, &stripe, &gate.base).await;
    let mut owner = app.with_user("receipt_later").await;
    let won = app.won_application(&owner, "ReceiptLater").await;
    owner.renew().await;

    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let (pi, uuid) = (opened["order_id"].as_str().unwrap(), opened["transaction_uuid"].as_str().unwrap());
    // The card is charged at Stripe (as Stripe.js would), then Stripe falls silent.
    let card = stripe.card("4242424242424242").await;
    let http = reqwest::Client::new();
    let key = crate::support::localstripe::SECRET_KEY;
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(key)
        .form(&[("payment_method", card.as_str())])
        .send()
        .await
        .unwrap();
    http.post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base)).bearer_auth(key).send().await.unwrap();
    gate.set(GateMode::Hang);
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")), "{body}");
    assert_eq!(receipts_stored(&app).await, 0, "nothing settled, nothing mailed");

    gate.set(GateMode::Up);
    let workers = app.start_workers().await;
    eventually("the reconcile's receipt", || async { !receipts(&sink).is_empty() }).await;
    rocket::tokio::time::sleep(StdDuration::from_millis(500)).await;
    workers.stop().await;
    assert_eq!(receipts_stored(&app).await, 1);
    let received = receipts(&sink);
    assert_eq!(received.len(), 1);
    let paid = the_payment(&app, won.application_id).await;
    check_receipt(&app, &received[0], "receipt_later@example.com", Lang::Ja, &paid, "ReceiptLater");
}

/// A payment the provider confirms after the window closed is stored (`is_late`) and its payer
/// is told so in the receipt: staff accept or refund it. Money taken twice for one application
/// (the second order, flagged for a refund) mails nothing.
#[rocket::async_test]
async fn a_late_payment_s_receipt_says_so_and_a_duplicate_mails_nothing() {
    let Some(python) = smtp_sink::python() else { return };
    let Some(stripe) = LocalStripe::start() else { return };
    let sink = SmtpSink::start(&python, smtp_sink::free_port(), None);
    let app = app(&sink, &stripe, &stripe.base).await;
    let owner = app.with_user("receipt_late").await;
    let won = app.won_application(&owner, "ReceiptLate").await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    let late = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let twice = open_order(&app.db, &payable, owner.user.id, PaymentType::Paypal, now).await.unwrap();
    let mailer = Mailer::new(&app.config).unwrap();
    let after = won.event.at(PhaseType::FirstPaymentEnd) + Duration::hours(2);
    let settled = settle(&app.db, &mailer, late.id, "pi_late", after).await.unwrap();
    assert!(matches!(settled.outcome, Settlement::Settled(ref p) if p.is_late), "{settled:?}");
    let dup = settle(&app.db, &mailer, twice.id, "PAYPAL-LATE", after).await.unwrap();
    assert!(matches!(dup.outcome, Settlement::Duplicate(_)) && dup.receipt.is_none(), "{dup:?}");
    app.clock.set(after);
    let workers = app.start_workers().await;
    eventually("the late receipt", || async { !receipts(&sink).is_empty() }).await;
    rocket::tokio::time::sleep(StdDuration::from_millis(500)).await;
    workers.stop().await;
    let received = receipts(&sink);
    assert_eq!(received.len(), 1, "the duplicate mailed nothing");
    let mail = &received[0];
    assert!(mail.text.contains("お支払い期限を過ぎてから決済サービスで確定しました"), "{}", mail.text);
    assert!(mail.text.contains("受け付けるか返金するかをご連絡します"), "{}", mail.text);
}
